// The fidelity checks the README's "Fidelity" table reports (issue 40, "done means"): calibrate on
// one public training run of a release and predict the others of that release. The runs are
// NVIDIA's DGX Cloud recipes (scenarios/calibration/README.md); nothing in dcsim was fitted to them
// except what this test fits, so the held-out errors are what a user should expect.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "tests/tools/calibrate/calibrate_support.hpp"
#include "tools/calibrate/measurement.hpp"
#include "tools/calibrate/stack_fit.hpp"

using namespace dcsim::calibrate_testing;
namespace cal = dcsim::tools::calibrate;
namespace mw = dcsim::models::workload;
namespace fs = std::filesystem;

namespace {

std::vector<cal::Measurement> release(const std::string& name) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(DCSIM_SOURCE_DIR) / "scenarios/calibration" / name)) {
    files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<cal::Measurement> out;
  for (const auto& f : files) out.push_back(cal::read_measurement(f.string(), "hgx-h100", registries()));
  return out;
}

const cal::Measurement& named(const std::vector<cal::Measurement>& runs, const std::string& stem) {
  for (const auto& r : runs) {
    if (fs::path(r.file).stem() == stem) return r;
  }
  FAIL("no run " << stem);
  return runs.front();
}

mw::SoftwareStack stack_named(const std::string& name) { return registries().software_stacks.get(name).factory({}); }

double error_of(const cal::Measurement& run, const mw::SoftwareStack& stack) {
  return run.points.front().predict_s(stack) / run.points.front().measured_s - 1.0;
}

}  // namespace

// Measured (this commit): NeMo 24.09 with its preset (calibrated on 8B BF16): 8B FP8 -6.5%, 70B
// BF16 +5.0%, FP8 -4.1%, 405B on 576 GPUs BF16 +8.2%, FP8 +8.0%. The bound is the worst, rounded
// up: a model change that moves any held-out run past it must say why.
TEST_CASE("NeMo 24.09: calibrated on the one-node 8B BF16 run, the other published runs stay within 9%",
          "[tools][calibrate][published]") {
  const auto runs = release("nemo-24.09");
  REQUIRE(runs.size() == 6);
  cal::FitOptions options;
  options.fit = {"gemm_sustained_fraction"};
  const auto fit = cal::fit_stack(mw::nemo_25_02(), {named(runs, "llama3.1-8b-bf16-8gpu")}, options);
  // The registered preset is this calibration, so it cannot drift from the data.
  const mw::SoftwareStack nemo_24_09 = stack_named("nemo-24.09");
  CHECK(nemo_24_09.kernels.gemm_sustained_fraction == Approx(fit.stack.kernels.gemm_sustained_fraction).epsilon(1e-3));
  for (const auto& run : runs) {
    const double e = error_of(run, nemo_24_09);
    INFO(run.file << ": " << 100 * e << "%");
    CHECK(std::abs(e) < 0.09);
  }
}

// Measured: 8B BF16 +5.7%, FP8 -2.7%; 70B BF16 +5.9%, FP8 (TP 4 x PP 8) +11.7%; 405B on 512 GPUs
// BF16 +5.2%, FP8 +7.3%. The default's kernel figures are microbenchmarks (software_stack.cpp).
TEST_CASE("NeMo 25.02: the default stack, fitted to nothing, predicts the published runs within 12%",
          "[tools][calibrate][published]") {
  const auto runs = release("nemo-25.02");
  REQUIRE(runs.size() == 6);
  for (const auto& run : runs) {
    const double e = error_of(run, mw::nemo_25_02());
    INFO(run.file << ": " << 100 * e << "%");
    CHECK(std::abs(e) < 0.12);
  }
}

// Measured: calibrated on 8B BF16 (gemm_sustained_fraction 0.7475), 8B FP8 -6.7%, 70B BF16 0.0%,
// FP8 +6.6%, 405B BF16 -1.1%, FP8 +2.3%.
TEST_CASE("NeMo 25.02: calibrated on the one-node 8B BF16 run, the other published runs stay within 7%",
          "[tools][calibrate][published]") {
  const auto runs = release("nemo-25.02");
  cal::FitOptions options;
  options.fit = {"gemm_sustained_fraction"};
  const auto fit = cal::fit_stack(mw::nemo_25_02(), {named(runs, "llama3.1-8b-bf16-8gpu")}, options);
  for (const auto& run : runs) {
    const double e = error_of(run, fit.stack);
    INFO(run.file << ": " << 100 * e << "%");
    CHECK(std::abs(e) < 0.07);
  }
}
