#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/network/max_min_solver.hpp"
#include "sim/random.hpp"

using dcsim::models::network::MaxMinSolver;

namespace {
constexpr double kTol = 1e-9;
using L = std::vector<MaxMinSolver::LinkId>;
}  // namespace

TEST_CASE("shared bottleneck splits equally", "[models][network][solver]") {
  // Three flows cross one 90-unit link: by symmetry each gets 90 / 3 = 30.
  MaxMinSolver s;
  auto l = s.add_link(90);
  auto a = s.add_flow(L{l});
  auto b = s.add_flow(L{l});
  auto c = s.add_flow(L{l});
  s.solve();
  CHECK(s.rate(a) == Approx(30).epsilon(kTol));
  CHECK(s.rate(b) == Approx(30).epsilon(kTol));
  CHECK(s.rate(c) == Approx(30).epsilon(kTol));
  CHECK(s.changed_flows().size() == 3);
  // One leaves: the other two take 45 each.
  s.remove_flow(c);
  s.solve();
  CHECK(s.rate(a) == Approx(45).epsilon(kTol));
  CHECK(s.rate(b) == Approx(45).epsilon(kTol));
}

TEST_CASE("parking lot", "[models][network][solver]") {
  // Links l0, l1, l2 of capacity 1. The long flow crosses all three; one short flow per link.
  // Each link has two flows, so the first link to saturate (all tie at 1/2) freezes everyone
  // at 1/2: the long flow gets 1/2 and every short flow 1/2 (not 1 - 1/3 as proportional
  // fairness would give).
  MaxMinSolver s;
  auto l0 = s.add_link(1), l1 = s.add_link(1), l2 = s.add_link(1);
  auto lng = s.add_flow(L{l0, l1, l2});
  auto s0 = s.add_flow(L{l0});
  auto s1 = s.add_flow(L{l1});
  auto s2 = s.add_flow(L{l2});
  s.solve();
  CHECK(s.rate(lng) == Approx(0.5).epsilon(kTol));
  CHECK(s.rate(s0) == Approx(0.5).epsilon(kTol));
  CHECK(s.rate(s1) == Approx(0.5).epsilon(kTol));
  CHECK(s.rate(s2) == Approx(0.5).epsilon(kTol));
  // Now a second short flow on l1: l1 carries three flows and saturates first at 1/3, which
  // freezes the long flow at 1/3; l0 and l2 then give their short flows 1 - 1/3 = 2/3.
  auto s1b = s.add_flow(L{l1});
  s.solve();
  CHECK(s.rate(lng) == Approx(1.0 / 3).epsilon(kTol));
  CHECK(s.rate(s1) == Approx(1.0 / 3).epsilon(kTol));
  CHECK(s.rate(s1b) == Approx(1.0 / 3).epsilon(kTol));
  CHECK(s.rate(s0) == Approx(2.0 / 3).epsilon(kTol));
  CHECK(s.rate(s2) == Approx(2.0 / 3).epsilon(kTol));
}

TEST_CASE("multi-path: unequal capacities cascade", "[models][network][solver]") {
  // Link A (capacity 10) carries f1 and f2; link B (capacity 100) carries f2 and f3.
  // A saturates first at 5 each (f1, f2 frozen at 5); B then gives f3 what is left: 100 - 5 = 95.
  MaxMinSolver s;
  auto a = s.add_link(10), b = s.add_link(100);
  auto f1 = s.add_flow(L{a});
  auto f2 = s.add_flow(L{a, b});
  auto f3 = s.add_flow(L{b});
  s.solve();
  CHECK(s.rate(f1) == Approx(5).epsilon(kTol));
  CHECK(s.rate(f2) == Approx(5).epsilon(kTol));
  CHECK(s.rate(f3) == Approx(95).epsilon(kTol));
  // Capacity of A grows to 1000: B becomes the bottleneck of f2 and f3 (50 each), f1 takes
  // the rest of A: 1000 - 50 = 950.
  s.set_capacity(a, 1000);
  s.solve();
  CHECK(s.rate(f1) == Approx(950).epsilon(kTol));
  CHECK(s.rate(f2) == Approx(50).epsilon(kTol));
  CHECK(s.rate(f3) == Approx(50).epsilon(kTol));
}

TEST_CASE("dead link gives zero", "[models][network][solver]") {
  MaxMinSolver s;
  auto a = s.add_link(0), b = s.add_link(10);
  auto f1 = s.add_flow(L{a, b});
  auto f2 = s.add_flow(L{b});
  s.solve();
  CHECK(s.rate(f1) == 0.0);
  CHECK(s.rate(f2) == Approx(10).epsilon(kTol));
}

TEST_CASE("a link that only one flow crosses caps that flow before any shared link does",
          "[models][network][solver]") {
  // a crosses its own 10-unit link and a 100-unit link it shares with b: a's own link binds
  // first (10 < 100 / 2), so a gets 10 and b the 90 a leaves on the shared link. c's own link
  // (60) is wider than its share of the 80-unit link it shares with d, so c and d split it 40/40.
  MaxMinSolver s;
  const auto own_a = s.add_link(10), shared_ab = s.add_link(100);
  const auto own_c = s.add_link(60), shared_cd = s.add_link(80);
  const auto a = s.add_flow(L{own_a, shared_ab});
  const auto b = s.add_flow(L{shared_ab});
  const auto c = s.add_flow(L{shared_cd, own_c});
  const auto d = s.add_flow(L{shared_cd});
  s.solve();
  CHECK(s.rate(a) == Approx(10).epsilon(kTol));
  CHECK(s.rate(b) == Approx(90).epsilon(kTol));
  CHECK(s.rate(c) == Approx(40).epsilon(kTol));
  CHECK(s.rate(d) == Approx(40).epsilon(kTol));
  // The own link shrinks to 30, below c's share: c takes 30 and d the 50 left.
  s.set_capacity(own_c, 30);
  s.solve();
  CHECK(s.rate(c) == Approx(30).epsilon(kTol));
  CHECK(s.rate(d) == Approx(50).epsilon(kTol));
}

TEST_CASE("every solved rate is max-min fair by its definition on random cases",
          "[models][network][solver]") {
  // An oracle independent of the fill: the allocation is feasible (no link above capacity) and
  // every flow has a bottleneck, a saturated link on which no flow takes more than it (B in
  // max_min_solver.hpp). Many links carry one flow, as in a large fabric, so most flows are
  // capped by their own links.
  for (int trial = 0; trial < 40; ++trial) {
    dcsim::sim::RandomStream rng(11, "solver_oracle", std::to_string(trial));
    const int n_links = 20 + static_cast<int>(rng.uniform_int(200));
    MaxMinSolver s;
    std::vector<double> capacity;
    for (int l = 0; l < n_links; ++l) {
      capacity.push_back(static_cast<double>(rng.uniform_int(5)) * 25);  // 0: dead links too
      s.add_link(capacity.back());
    }
    std::vector<MaxMinSolver::FlowId> alive;
    std::vector<L> paths;
    for (int step = 0; step < 120; ++step) {
      if (rng.uniform_int(4) != 0 || alive.empty()) {
        L path;
        const auto len = 1 + rng.uniform_int(6);
        while (path.size() < len) {
          auto l = static_cast<MaxMinSolver::LinkId>(rng.uniform_int(static_cast<std::uint64_t>(n_links)));
          if (std::find(path.begin(), path.end(), l) == path.end()) path.push_back(l);
        }
        alive.push_back(s.add_flow(path));
        paths.push_back(path);
      } else {
        const auto i = rng.uniform_int(alive.size());
        s.remove_flow(alive[i]);
        alive.erase(alive.begin() + static_cast<long>(i));
        paths.erase(paths.begin() + static_cast<long>(i));
      }
      if (rng.uniform_int(2) == 0) continue;
      s.solve();
      std::vector<double> load(capacity.size(), 0.0), top(capacity.size(), 0.0);
      for (std::size_t i = 0; i < alive.size(); ++i) {
        for (auto l : paths[i]) {
          load[l] += s.rate(alive[i]);
          top[l] = std::max(top[l], s.rate(alive[i]));
        }
      }
      for (std::size_t l = 0; l < capacity.size(); ++l) REQUIRE(load[l] <= capacity[l] * (1 + 1e-9) + 1e-9);
      for (std::size_t i = 0; i < alive.size(); ++i) {
        const double r = s.rate(alive[i]);
        const bool bottlenecked = std::any_of(paths[i].begin(), paths[i].end(), [&](auto l) {
          return load[l] >= capacity[l] * (1 - 1e-9) - 1e-9 && r >= top[l] * (1 - 1e-9) - 1e-9;
        });
        REQUIRE(bottlenecked);
      }
    }
  }
}

TEST_CASE("incremental solve equals from-scratch solve on random cases",
          "[models][network][solver]") {
  for (int trial = 0; trial < 30; ++trial) {
    dcsim::sim::RandomStream rng(7, "solver_test", std::to_string(trial));
    const int n_links = 5 + static_cast<int>(rng.uniform_int(60));
    MaxMinSolver inc, ref;
    for (int l = 0; l < n_links; ++l) {
      double c = 1 + static_cast<double>(rng.uniform_int(4)) * 10;  // ties are common: hard case
      inc.add_link(c);
      ref.add_link(c);
    }
    std::vector<MaxMinSolver::FlowId> alive_inc, alive_ref;
    for (int step = 0; step < 200; ++step) {
      const auto op = rng.uniform_int(10);
      if (op < 5 || alive_inc.empty()) {
        // A random simple path of 1..5 distinct links.
        L path;
        const auto len = 1 + rng.uniform_int(5);
        while (path.size() < len) {
          auto l = static_cast<MaxMinSolver::LinkId>(rng.uniform_int(static_cast<std::uint64_t>(n_links)));
          if (std::find(path.begin(), path.end(), l) == path.end()) path.push_back(l);
        }
        alive_inc.push_back(inc.add_flow(path));
        alive_ref.push_back(ref.add_flow(path));
      } else if (op < 9) {
        const auto i = rng.uniform_int(alive_inc.size());
        inc.remove_flow(alive_inc[i]);
        ref.remove_flow(alive_ref[i]);
        alive_inc.erase(alive_inc.begin() + static_cast<long>(i));
        alive_ref.erase(alive_ref.begin() + static_cast<long>(i));
      } else {
        auto l = static_cast<MaxMinSolver::LinkId>(rng.uniform_int(static_cast<std::uint64_t>(n_links)));
        double c = static_cast<double>(rng.uniform_int(5)) * 10;
        inc.set_capacity(l, c);
        ref.set_capacity(l, c);
      }
      // Several changes between solves, as at one simulated instant.
      if (rng.uniform_int(3) == 0) continue;
      inc.solve();
      ref.solve_from_scratch();
      for (std::size_t i = 0; i < alive_inc.size(); ++i) {
        REQUIRE(inc.rate(alive_inc[i]) ==
                Approx(ref.rate(alive_ref[i])).epsilon(1e-7).margin(1e-9));
      }
    }
  }
}

// The percolated regime of the random-pairs bench: host links ("NICs", one up and one down per
// host) carry ~10 flows each, so nearly every link is a saturated bottleneck shared with flows
// bottlenecked elsewhere, and one completion moves rates along long chains. Flows cross their
// source's up link, 0-4 shared core links and their destination's down link, as in a fat-tree.
// Applies the same random churn to every solver it is given.
class PercolatedChurn {
 public:
  PercolatedChurn(std::uint64_t seed, int trial, std::vector<MaxMinSolver*> solvers)
      : rng_(seed, "solver_percolated", std::to_string(trial)), solvers_(std::move(solvers)),
        alive_(solvers_.size()) {
    hosts_ = 16 + static_cast<int>(rng_.uniform_int(17));
    core_ = 8 + static_cast<int>(rng_.uniform_int(9));
    for (int l = 0; l < 2 * hosts_ + core_; ++l) {
      // Host links 100; core links 100 or 200 (oversubscribed or not): ties and near-ties.
      const double c = l < 2 * hosts_ ? 100.0 : 100.0 * static_cast<double>(1 + rng_.uniform_int(2));
      for (MaxMinSolver* s : solvers_) s->add_link(c);
    }
    target_ = 10 * static_cast<std::size_t>(hosts_) / 2 + 5;  // ~10 flows per NIC direction
  }

  // One change; true when a solve is due after it (several changes may share an instant).
  bool step(int step) {
    // Fill up to the target, then churn around it: mostly completions and arrivals, as in a
    // run, with some capacity changes (a link failing, coming back, PFC derating it).
    const auto op = rng_.uniform_int(20);
    if (alive_[0].size() < target_ || op < 8) {
      const L path = random_path();
      for (std::size_t k = 0; k < solvers_.size(); ++k) alive_[k].push_back(solvers_[k]->add_flow(path));
    } else if (op < 19) {
      const auto i = static_cast<long>(rng_.uniform_int(alive_[0].size()));
      for (std::size_t k = 0; k < solvers_.size(); ++k) {
        solvers_[k]->remove_flow(alive_[k][static_cast<std::size_t>(i)]);
        alive_[k].erase(alive_[k].begin() + i);
      }
    } else {
      auto l = static_cast<MaxMinSolver::LinkId>(rng_.uniform_int(static_cast<std::uint64_t>(2 * hosts_ + core_)));
      const double c = static_cast<double>(rng_.uniform_int(3)) * 50.0;
      for (MaxMinSolver* s : solvers_) s->set_capacity(l, c);
    }
    if (alive_[0].size() < target_ && step < 100) return false;  // build up in big batches first
    return rng_.uniform_int(4) != 0;
  }

  // Live flows of solver k, in the same order for every solver.
  const std::vector<MaxMinSolver::FlowId>& alive(std::size_t k) const { return alive_[k]; }

 private:
  L random_path() {
    const auto src = static_cast<MaxMinSolver::LinkId>(rng_.uniform_int(static_cast<std::uint64_t>(hosts_)));
    auto dst = static_cast<MaxMinSolver::LinkId>(rng_.uniform_int(static_cast<std::uint64_t>(hosts_)));
    if (dst == src) dst = (dst + 1) % static_cast<MaxMinSolver::LinkId>(hosts_);
    L path{src, static_cast<MaxMinSolver::LinkId>(hosts_) + dst};
    const auto hops = rng_.uniform_int(5);
    while (path.size() < 2 + hops) {
      auto l = static_cast<MaxMinSolver::LinkId>(2 * hosts_ + static_cast<int>(rng_.uniform_int(static_cast<std::uint64_t>(core_))));
      if (std::find(path.begin(), path.end(), l) == path.end()) path.push_back(l);
    }
    return path;
  }

  dcsim::sim::RandomStream rng_;
  std::vector<MaxMinSolver*> solvers_;
  std::vector<std::vector<MaxMinSolver::FlowId>> alive_;
  int hosts_ = 0;
  int core_ = 0;
  std::size_t target_ = 0;
};

void require_capacity_respected(const MaxMinSolver& s) {
  for (MaxMinSolver::LinkId l = 0; l < s.link_count(); ++l) {
    REQUIRE(s.link_load(l) <= s.capacity(l) * (1 + 1e-9) + 1e-9);
  }
}

TEST_CASE("incremental solve equals from-scratch solve with about ten flows per link",
          "[models][network][solver]") {
  for (int trial = 0; trial < 6; ++trial) {
    MaxMinSolver inc, ref;
    PercolatedChurn churn(11, trial, {&inc, &ref});
    for (int step = 0; step < 600; ++step) {
      if (!churn.step(step)) continue;
      const auto& alive_inc = churn.alive(0);
      const auto& alive_ref = churn.alive(1);
      std::vector<double> before(alive_inc.size());
      for (std::size_t i = 0; i < alive_inc.size(); ++i) before[i] = inc.rate(alive_inc[i]);
      inc.solve();
      ref.solve_from_scratch();
      std::vector<MaxMinSolver::FlowId> changed(inc.changed_flows().begin(), inc.changed_flows().end());
      std::sort(changed.begin(), changed.end());
      for (std::size_t i = 0; i < alive_inc.size(); ++i) {
        const double r = inc.rate(alive_inc[i]);
        REQUIRE(r == Approx(ref.rate(alive_ref[i])).epsilon(1e-7).margin(1e-9));
        // A flow whose rate moved must be reported, or the fabric would keep its old finish time.
        if (std::abs(r - before[i]) > 1e-7 * std::max(r, before[i])) {
          REQUIRE(std::binary_search(changed.begin(), changed.end(), alive_inc[i]));
        }
      }
      require_capacity_respected(inc);
    }
  }
}

TEST_CASE("a coarser precision does less work, keeps links within capacity and every flow within "
          "precision of a bottleneck",
          "[models][network][solver]") {
  const double kEps = GENERATE(1e-3, 1e-2);
  std::size_t filled_exact = 0, filled_coarse = 0;
  double max_deviation = 0.0, sum_deviation = 0.0;
  std::size_t rates = 0;
  for (int trial = 0; trial < 6; ++trial) {
    MaxMinSolver exact, coarse, ref;
    coarse.set_precision(kEps);
    PercolatedChurn churn(23, trial, {&exact, &coarse, &ref});
    for (int step = 0; step < 600; ++step) {
      if (!churn.step(step)) continue;
      exact.solve();
      coarse.solve();
      ref.solve_from_scratch();
      filled_exact += exact.last_solve_filled();
      filled_coarse += coarse.last_solve_filled();
      require_capacity_respected(coarse);
      const auto& flows = churn.alive(1);
      for (std::size_t i = 0; i < flows.size(); ++i) {
        const MaxMinSolver::FlowId f = flows[i];
        const double r = coarse.rate(f);
        // (B) within precision: a link loaded to within eps of capacity on which no flow takes
        // more than r / (1 - eps).
        bool has_bottleneck = false;
        for (MaxMinSolver::LinkId l : coarse.flow_links(f)) {
          double max_rate = 0.0;
          for (MaxMinSolver::FlowId g : coarse.flows_on(l)) max_rate = std::max(max_rate, coarse.rate(g));
          const double c = coarse.capacity(l);
          has_bottleneck = has_bottleneck ||
                           (coarse.link_load(l) >= c * (1 - kEps) - 1e-9 && r >= max_rate * (1 - kEps) - 1e-12);
        }
        REQUIRE(has_bottleneck);
        const double want = ref.rate(churn.alive(2)[i]);
        if (want > 0) {
          const double dev = std::abs(r - want) / want;
          max_deviation = std::max(max_deviation, dev);
          sum_deviation += dev;
          ++rates;
        }
      }
    }
  }
  const double mean_deviation = sum_deviation / static_cast<double>(rates);
  WARN("precision " << kEps << ": filled " << filled_coarse << " vs exact " << filled_exact << ", rate deviation mean "
                    << mean_deviation << " max " << max_deviation);
  CHECK(filled_coarse < filled_exact);   // the knob acts on the cost...
  CHECK(max_deviation > 1e-6);           // ...and on the result,
  CHECK(mean_deviation < kEps);          // within bounds
  CHECK(max_deviation < 10 * kEps);
}

TEST_CASE("at a coarser precision a departure that leaves its link within precision of capacity moves no rate",
          "[models][network][solver]") {
  // 200 flows of 0.5 on a link of 100. Each departure frees 0.5% of it: at precision 1e-2 the
  // first two wait as slack (the link stays loaded to >= 99%), the third re-shares the link.
  MaxMinSolver coarse, exact;
  coarse.set_precision(1e-2);
  std::vector<MaxMinSolver::FlowId> flows;
  for (MaxMinSolver* s : {&coarse, &exact}) {
    const auto link = s->add_link(100.0);
    flows.clear();
    for (int i = 0; i < 200; ++i) flows.push_back(s->add_flow(L{link}));
    s->solve();
    REQUIRE(s->rate(flows[0]) == Approx(0.5));
  }
  for (int gone = 1; gone <= 3; ++gone) {
    coarse.remove_flow(flows[static_cast<std::size_t>(gone)]);
    exact.remove_flow(flows[static_cast<std::size_t>(gone)]);
    coarse.solve();
    exact.solve();
    const double fair = 100.0 / (200 - gone);
    CHECK(exact.rate(flows[0]) == Approx(fair).epsilon(1e-12));
    CHECK(exact.changed_flows().size() == static_cast<std::size_t>(200 - gone));
    if (gone < 3) {
      CHECK(coarse.changed_flows().empty());
      CHECK(coarse.rate(flows[0]) == 0.5);
      CHECK(coarse.link_load(0) >= 100.0 * (1 - 1e-2) - 1e-9);  // unused: at most the precision
    } else {
      CHECK(coarse.changed_flows().size() == 197u);
      CHECK(coarse.rate(flows[0]) == Approx(fair).epsilon(1e-12));  // the slack is handed out
    }
  }
}

TEST_CASE("the solver's 32-bit stamps wrap without changing a rate", "[models][network][solver]") {
  // A long flow-mode run bumps the stamps billions of times. Started 3 short of the wrap, a
  // churn of arrivals and departures must give the same rates as a solver started at 0.
  MaxMinSolver fresh;
  MaxMinSolver wrapping;
  wrapping.set_stamps_for_test(UINT32_MAX - 3);
  std::vector<MaxMinSolver::FlowId> live_fresh;
  std::vector<MaxMinSolver::FlowId> live_wrapping;
  std::vector<MaxMinSolver::LinkId> links;
  for (int i = 0; i < 6; ++i) {
    links.push_back(fresh.add_link(10.0 + i));
    wrapping.add_link(10.0 + i);
  }
  for (int step = 0; step < 40; ++step) {
    const L route{links[static_cast<std::size_t>(step % 6)], links[static_cast<std::size_t>((step * 7 + 1) % 6)]};
    live_fresh.push_back(fresh.add_flow(route));
    live_wrapping.push_back(wrapping.add_flow(route));
    if (step % 3 == 2) {
      fresh.remove_flow(live_fresh.front());
      wrapping.remove_flow(live_wrapping.front());
      live_fresh.erase(live_fresh.begin());
      live_wrapping.erase(live_wrapping.begin());
    }
    fresh.solve();
    wrapping.solve();
    for (std::size_t f = 0; f < live_fresh.size(); ++f) {
      REQUIRE(wrapping.rate(live_wrapping[f]) == Approx(fresh.rate(live_fresh[f])).epsilon(kTol));
    }
  }
}
