#include "tools/bench/fabric_bench.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <deque>
#include <functional>
#include <numeric>
#include <optional>
#include <random>
#include <regex>

#include "models/network/fabric.hpp"
#include "models/network/routing.hpp"
#include "models/network/topology_builders.hpp"
#include "sim/error.hpp"
#include "tools/bench/process_memory.hpp"

namespace dcsim::tools::bench {

namespace {

namespace net = dcsim::models::network;
using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kSeed = 42;  // sgbench's default

// setup_s: the wall time of building the topology and the fabric (routing tables included),
// which the simulation's wall_s leaves out, as sgbench leaves out its platform.
net::Fabric make_fattree(int k, double precision, double& setup_s) {
  const auto t0 = Clock::now();
  net::TopologyConfig c;
  c.k = k;
  c.tiers = 3;
  c.link_bandwidth_bps = 100e9;
  c.link_latency_ns = 500;  // sgbench --lat default 5e-7 s per link
  c.switch_latency_ns = 0;
  net::FabricOptions o;
  o.routing.mode = net::RoutingMode::kDestinationModK;  // SimGrid's fat-tree routing
  o.max_min_precision = precision;
  net::Fabric fabric(net::build_fat_tree(c), o);
  setup_s = std::chrono::duration<double>(Clock::now() - t0).count();
  return fabric;
}

struct CaseResult {
  std::size_t hosts = 0;
  std::int64_t flows = 0;
  double makespan_s = 0.0;
  double wall_s = 0.0;  // the simulation only, as sgbench's wall_run_s (platform built before)
  double setup_s = 0.0;  // building the platform (make_fattree)
  // Why the cost per completion grows with concurrency: over the events that finished a flow,
  // the mean number of flows then active and the mean number whose max-min rate the re-solve
  // changed (MaxMinSolver::changed_flows()). 0 where not measured (the ring case).
  double active_per_completion = 0.0;
  double changed_per_completion = 0.0;
  // The cost driver: flows the incremental re-solve visited (MaxMinSolver::last_solve_size(),
  // its set S at the fixed point), and the share of completions whose re-solve escalated to
  // every flow (S grew past 1/kEscalateDenominator of them).
  double solved_per_completion = 0.0;
  double full_solve_share = 0.0;
  double rounds_per_completion = 0.0;
  double filled_per_completion = 0.0;
  double mean_fct_s = 0.0;  // mean flow completion time (finish - start)
};

// Starts all flows at t = 0 and runs to completion.
CaseResult run_static(net::Fabric& fabric, const std::vector<std::array<std::uint64_t, 3>>& flows) {
  const auto t0 = Clock::now();
  for (const auto& f : flows) {
    fabric.start_flow(sim::Time::zero(), static_cast<net::NodeId>(f[0]), static_cast<net::NodeId>(f[1]),
                      static_cast<double>(f[2]));
  }
  std::vector<net::FinishedFlow> done;
  // DCSIM_BENCH_PROGRESS set: a line on stderr every 1,000 completions (long cases).
  const bool progress = std::getenv("DCSIM_BENCH_PROGRESS") != nullptr;
  std::int64_t finished = 0, last = 0, completion_events = 0;
  double fct_sum_ns = 0.0;
  double active_sum = 0.0, changed_sum = 0.0, solved_sum = 0.0, full_solves = 0.0, rounds_sum = 0.0, filled_sum = 0.0;
  for (sim::Time t = fabric.next_event_time(); !t.is_max(); t = fabric.next_event_time()) {
    done.clear();
    const std::size_t active = fabric.active_flows();
    fabric.advance(t, done);
    finished += static_cast<std::int64_t>(done.size());
    for (const auto& f : done) fct_sum_ns += static_cast<double>((f.finish - f.start).ns());
    if (!done.empty()) {
      last = t.ns();
      ++completion_events;
      active_sum += static_cast<double>(active);
      changed_sum += static_cast<double>(fabric.solver().changed_flows().size());
      solved_sum += static_cast<double>(fabric.solver().last_solve_size());
      rounds_sum += static_cast<double>(fabric.solver().last_solve_rounds());
      filled_sum += static_cast<double>(fabric.solver().last_solve_filled());
      if (fabric.solver().last_solve_size() >= fabric.solver().flow_count()) ++full_solves;
      if (progress && completion_events % 1000 == 0) {
        std::fprintf(stderr, "progress: %lld completions, %zu active, t=%.1f s wall, per completion: %.1f changed, %.1f visited, %.1f filled, %.3f escalated\n",
                     static_cast<long long>(completion_events), active,
                     std::chrono::duration<double>(Clock::now() - t0).count(),
                     changed_sum / static_cast<double>(completion_events),
                     solved_sum / static_cast<double>(completion_events),
                     filled_sum / static_cast<double>(completion_events),
                     full_solves / static_cast<double>(completion_events));
      }
    }
  }
  CaseResult r{fabric.topology().host_count(), finished, static_cast<double>(last) * 1e-9,
               std::chrono::duration<double>(Clock::now() - t0).count()};
  if (finished > 0) r.mean_fct_s = fct_sum_ns * 1e-9 / static_cast<double>(finished);
  if (completion_events > 0) {
    r.active_per_completion = active_sum / static_cast<double>(completion_events);
    r.changed_per_completion = changed_sum / static_cast<double>(completion_events);
    r.solved_per_completion = solved_sum / static_cast<double>(completion_events);
    r.full_solve_share = full_solves / static_cast<double>(completion_events);
    r.rounds_per_completion = rounds_sum / static_cast<double>(completion_events);
    r.filled_per_completion = filled_sum / static_cast<double>(completion_events);
  }
  return r;
}

CaseResult permutation(double precision) {
  double setup_s = 0.0;
  net::Fabric fabric = make_fattree(16, precision, setup_s);
  const std::size_t h = fabric.topology().host_count();
  std::mt19937_64 rng(kSeed);
  std::vector<std::size_t> p(h);
  std::iota(p.begin(), p.end(), 0);
  bool ok;
  do {  // random derangement, as sgbench
    std::shuffle(p.begin(), p.end(), rng);
    ok = true;
    for (std::size_t i = 0; i < h; ++i) ok = ok && p[i] != i;
  } while (!ok);
  std::vector<std::array<std::uint64_t, 3>> flows;
  for (std::size_t i = 0; i < h; ++i) flows.push_back({i, p[i], 1'000'000'000});
  CaseResult r = run_static(fabric, flows);
  r.setup_s = setup_s;
  return r;
}

CaseResult random_pairs(int k, long n, double precision) {
  double setup_s = 0.0;
  net::Fabric fabric = make_fattree(k, precision, setup_s);
  const std::size_t h = fabric.topology().host_count();
  const double size = 1e8;
  std::mt19937_64 rng(kSeed);
  std::uniform_int_distribution<std::size_t> hd(0, h - 1);
  std::uniform_real_distribution<double> sd(size / 100, size);
  std::vector<std::array<std::uint64_t, 3>> flows;
  for (long f = 0; f < n; ++f) {
    std::size_t s = hd(rng), d;
    do d = hd(rng);
    while (d == s);
    flows.push_back({s, d, static_cast<std::uint64_t>(sd(rng))});
  }
  CaseResult r = run_static(fabric, flows);
  r.setup_s = setup_s;
  return r;
}

// Ring all-reduce as sgbench runs it: in step s rank i sends a chunk to rank i+1 and receives
// one from rank i-1, then waits for both. A transfer is a rendezvous: the flow i -> i+1 of
// step s starts when both rank i and rank i+1 have entered step s.
CaseResult ring_allreduce(int ranks, double precision) {
  double setup_s = 0.0;
  net::Fabric fabric = make_fattree(16, precision, setup_s);
  const int r = std::min<int>(ranks, static_cast<int>(fabric.topology().host_count()));
  const double chunk = static_cast<double>(static_cast<std::uint64_t>(1e9 / r));
  const int steps = 2 * (r - 1);
  const auto t0 = Clock::now();
  // step_[i]: the step rank i is in; send_done_/recv_done_: its two transfers of that step.
  std::vector<int> step(r, 0);
  std::vector<char> send_done(r, 0), recv_done(r, 0), send_started(r, 0);
  std::int64_t finished = 0, last = 0;
  auto try_start = [&](int i, sim::Time now) {  // flow i -> i+1 of rank i's current step
    const int j = (i + 1) % r;
    if (!send_started[i] && step[i] < steps && step[j] == step[i] && !recv_done[j]) {
      send_started[i] = 1;
      fabric.start_flow(now, static_cast<net::NodeId>(i), static_cast<net::NodeId>(j), chunk,
                        static_cast<std::uint64_t>(i));
    }
  };
  for (int i = 0; i < r; ++i) try_start(i, sim::Time::zero());
  std::vector<net::FinishedFlow> done;
  std::vector<int> advanced;
  for (sim::Time t = fabric.next_event_time(); !t.is_max(); t = fabric.next_event_time()) {
    done.clear();
    fabric.advance(t, done);
    advanced.clear();
    for (const auto& f : done) {
      const int i = static_cast<int>(f.tag), j = (i + 1) % r;
      send_done[i] = 1;
      recv_done[j] = 1;
      advanced.push_back(i);
      advanced.push_back(j);
    }
    finished += static_cast<std::int64_t>(done.size());
    if (!done.empty()) last = t.ns();
    for (int i : advanced) {
      if (send_done[i] && recv_done[i]) {
        send_done[i] = recv_done[i] = send_started[i] = 0;
        ++step[i];
      }
    }
    for (int i : advanced) {
      try_start(i, t);                  // its own send of the new step
      try_start((i + r - 1) % r, t);    // its predecessor may have been waiting for it
    }
  }
  CaseResult result{fabric.topology().host_count(), finished, static_cast<double>(last) * 1e-9,
                    std::chrono::duration<double>(Clock::now() - t0).count()};
  result.setup_s = setup_s;
  return result;
}

// build-rail-131072-gpus: a three-tier rail-optimised fabric of 16,384 nodes x 8 NICs at 400 Gb/s
// on 128-port switches (a 64x800G Spectrum-4 SN5600 in 2x400G breakout): 2,048 rail leaves of
// 64 nodes, 32 pods of 64 spines, 64 planes of 16 cores. wall_s: building the topology and its
// routing tables (Router: the rail switches' distance tables), then one route per host (host i
// to i + 8,192 on NIC 0), which derives each destination's table from its 8 rail switches'.
CaseResult build_rail_131072() {
  const auto t0 = Clock::now();
  net::TopologyConfig c;
  c.nodes = 16384;
  c.nics_per_node = 8;
  c.link_bandwidth_bps = 400e9;
  c.tier_radix = {128, 128, 128};
  c.tier_model = {"nvidia_sn5600", "nvidia_sn5600", "nvidia_sn5600"};
  const net::Topology topology = net::build_rail_optimized(c);
  net::Router router(topology, net::RoutingConfig{});
  std::vector<net::LinkId> route;
  std::int64_t routed = 0;
  for (net::NodeId h = 0; h < topology.host_count(); ++h) {
    const auto dst = static_cast<net::NodeId>((h + topology.host_count() / 2) % topology.host_count());
    if (router.route(h, dst, h, 0, route, 0)) ++routed;
  }
  if (routed != static_cast<std::int64_t>(topology.host_count())) {
    throw sim::InternalError("build-rail-131072-gpus: a host pair without a route (this is a bug)");
  }
  CaseResult result{topology.host_count(), routed, 0.0, std::chrono::duration<double>(Clock::now() - t0).count()};
  return result;
}

struct Case {
  std::string name;
  bool default_set;
  std::function<CaseResult(double)> run;
};

std::vector<Case> cases() {
  return {
      {"fattree16-permutation-1GB", true, permutation},
      {"fattree16-ring-allreduce-1024", true, [](double p) { return ring_allreduce(1024, p); }},
      {"fattree16-random-1000", true, [](double p) { return random_pairs(16, 1000, p); }},
      {"fattree16-random-10000", true, [](double p) { return random_pairs(16, 10000, p); }},
      {"fattree16-random-3000", false, [](double p) { return random_pairs(16, 3000, p); }},
      {"fattree16-random-30000", false, [](double p) { return random_pairs(16, 30000, p); }},
      {"fattree16-random-100000", false, [](double p) { return random_pairs(16, 100000, p); }},
      // 1.7 s and 295 MB on the quiet 2-core reference machine (target: under 10 s and 4 GiB).
      {"build-rail-131072-gpus", true, [](double) { return build_rail_131072(); }},
  };
}

// fattreeK-random-F: F random-pair flows on a k=K fat-tree, as the fattree16-random cases.
// Growing K with F keeps the flows per host fixed (weak scaling); F alone, the fabric fixed.
std::optional<Case> random_case(const std::string& name) {
  static const std::regex pattern("fattree([0-9]{1,3})-random-([0-9]{1,8})");
  std::smatch m;
  if (!std::regex_match(name, m, pattern)) return std::nullopt;
  const int k = std::stoi(m[1]);
  const long n = std::stol(m[2]);
  if (k < 4 || k > 128 || k % 2 != 0)
    throw sim::InputError("fabric bench case '" + name + "': fat-tree k must be even, 4 to 128");
  if (n < 1 || n > 10'000'000)
    throw sim::InputError("fabric bench case '" + name + "': flows must be 1 to 10,000,000");
  return Case{name, false, [k, n](double p) { return random_pairs(k, n, p); }};
}

}  // namespace

nlohmann::json run_fabric_bench(const std::vector<std::string>& case_names, double precision) {
  const auto all = cases();
  std::vector<const Case*> selected;
  std::deque<Case> extra;
  if (case_names.empty()) {
    for (const auto& c : all)
      if (c.default_set) selected.push_back(&c);
  } else {
    for (const auto& name : case_names) {
      auto it = std::find_if(all.begin(), all.end(), [&](const Case& c) { return c.name == name; });
      if (it == all.end()) {
        if (auto random = random_case(name)) {
          extra.push_back(std::move(*random));
          selected.push_back(&extra.back());
          continue;
        }
        std::string valid;
        for (const auto& c : all) valid += (valid.empty() ? "" : ", ") + c.name;
        throw sim::InputError("unknown fabric bench case '" + name + "'; valid: " + valid +
                              ", or fattreeK-random-F (K even, 4 to 128; F flows, 1 to 10,000,000)");
      }
      selected.push_back(&*it);
    }
  }
  nlohmann::json out = nlohmann::json::array();
  for (const Case* c : selected) {
    const CaseResult r = c->run(precision);
    const double wall = r.wall_s;
    out.push_back({{"name", c->name},
                   {"hosts", r.hosts},
                   {"flows", r.flows},
                   {"wall_s", wall},
                   {"setup_s", r.setup_s},
                   {"flows_per_s", wall > 0 ? static_cast<double>(r.flows) / wall : 0.0},
                   {"peak_rss_mb", peak_rss_mb()},
                   {"makespan_s", r.makespan_s},
                   {"mean_fct_s", r.mean_fct_s},
                   {"max_min_precision", precision},
                   {"active_flows_per_completion", r.active_per_completion},
                   {"rate_changes_per_completion", r.changed_per_completion},
                   {"solved_flows_per_completion", r.solved_per_completion},
                   {"full_solve_share", r.full_solve_share},
                   {"fill_rounds_per_completion", r.rounds_per_completion},
                   {"filled_flows_per_completion", r.filled_per_completion}});
  }
  return out;
}

}  // namespace dcsim::tools::bench
