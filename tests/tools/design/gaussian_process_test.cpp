#include <catch2/catch.hpp>

#include <cmath>

#include "tools/design/gaussian_process.hpp"

namespace td = dcsim::tools::design;

namespace {

// y = sin(2 pi x) sampled at 9 points of [0, 1].
void sine(std::vector<std::vector<double>>& x, std::vector<double>& y) {
  for (int i = 0; i <= 8; ++i) {
    x.push_back({i / 8.0});
    y.push_back(std::sin(2 * 3.141592653589793 * i / 8.0));
  }
}

}  // namespace

TEST_CASE("the GP nearly interpolates noise-free data and is unsure far from it", "[tools][design][gp]") {
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  sine(x, y);
  td::GaussianProcess gp;
  gp.fit(x, y);
  const auto at_data = gp.predict(x);
  for (std::size_t i = 0; i < x.size(); ++i) {
    CHECK(at_data[i].mean == Approx(y[i]).margin(0.05));  // noise variance at most 0.1 of y's
    CHECK(at_data[i].stddev < 0.2);
  }
  // Between two samples (x = 1/16) the smooth fit stays near the sine (0.383).
  CHECK(gp.predict({{1.0 / 16}})[0].mean == Approx(0.383).margin(0.1));
  // Same data, same fit: no randomness in the hyperparameter search.
  td::GaussianProcess again;
  again.fit(x, y);
  CHECK(again.log_marginal_likelihood() == gp.log_marginal_likelihood());
}

TEST_CASE("the kriging believer keeps the mean and removes the picked point's uncertainty", "[tools][design][gp]") {
  std::vector<std::vector<double>> x = {{0.0}, {1.0}};
  std::vector<double> y = {0.0, 1.0};
  td::GaussianProcess gp;
  gp.fit(x, y);
  td::BelieverBatch batch(gp, {{0.5}, {0.55}, {0.9}});
  const auto before = batch.predictions();
  batch.add(0);
  const auto& after = batch.predictions();
  for (std::size_t i = 0; i < 3; ++i) CHECK(after[i].mean == before[i].mean);
  // At the pick only the noise is left; its neighbour loses more than the far point.
  CHECK(after[0].stddev < 0.1 * before[0].stddev);
  CHECK(after[1].stddev / before[1].stddev < after[2].stddev / before[2].stddev);
}

TEST_CASE("expected improvement matches its closed form", "[tools][design][gp]") {
  // At mu = best with sigma 1: EI = phi(0) = 1 / sqrt(2 pi).
  CHECK(td::expected_improvement({1.0, 1.0}, 1.0) == Approx(0.3989423));
  // Certain predictions: the plain improvement.
  CHECK(td::expected_improvement({0.5, 0.0}, 1.0) == Approx(0.5));
  CHECK(td::expected_improvement({1.5, 0.0}, 1.0) == 0.0);
  // P(f < mu + sigma) = Phi(1).
  CHECK(td::probability_below({0.0, 2.0}, 2.0) == Approx(0.8413447));
}
