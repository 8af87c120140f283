#include "models/collective/flow_collective.hpp"

#include <algorithm>
#include <cmath>

#include "models/collective/collective_algorithm.hpp"
#include "sim/error.hpp"

namespace dcsim::models::collective {

FlowRunResult ring_all_reduce_on_fabric(network::Fabric& fabric,
                                        const std::vector<network::NodeId>& hosts, double bytes,
                                        const CollectiveSystem& s, const CollectiveTuning& t,
                                        int channels, sim::Time start) {
  if (static_cast<int>(hosts.size()) != s.nodes) {
    throw sim::ConfigError("hosts", "need one fabric host per node");
  }
  if (channels < 1) throw sim::ConfigError("channels", "must be a positive integer");
  if (!(bytes > 0.0)) throw sim::ConfigError("bytes", "message size must be positive");
  FlowRunResult r;
  const int n = s.ranks();
  if (n <= 1) return r;
  const int pi = static_cast<int>(Protocol::kSimple);
  const double chunk = bytes / n;
  const double nvlink_s = s.gpus_per_node > 1 ? chunk / nvlink_bandwidth(s, t) : 0.0;
  const double wire = chunk / channels / t.network_efficiency;
  r.steps = 2 * (n - 1);
  sim::Time now = start;
  std::vector<network::FinishedFlow> finished;
  for (int step = 0; step < r.steps; ++step) {
    sim::Time step_end = now + sim::Time::ceil_from_seconds(nvlink_s);
    if (s.nodes > 1) {
      std::size_t pending = 0;
      const auto tag = static_cast<std::uint64_t>(step) + 1;
      for (int node = 0; node < s.nodes; ++node) {
        for (int c = 0; c < channels; ++c) {
          fabric.start_flow(now, hosts[node], hosts[(node + 1) % s.nodes], wire, tag);
          ++pending;
        }
      }
      r.flows += pending;
      sim::Time last = now;
      while (pending > 0) {
        const sim::Time next = fabric.next_event_time();
        if (next.is_max()) throw sim::InternalError("fabric idle with collective flows pending (this is a bug)");
        finished.clear();
        fabric.advance(next, finished);
        for (const auto& f : finished) {
          if (f.tag != tag) continue;  // someone else's flow
          --pending;
          r.failed = r.failed || f.failed;
          last = std::max(last, f.finish);
        }
      }
      step_end = std::max(step_end, last);
    }
    now = step_end;
  }
  r.bandwidth_s = (now - start).seconds();
  const double inter = 2.0 * (s.nodes - 1);
  r.latency_s = (t.ring_base_latency_us[pi] + (r.steps - inter) * t.ring_nvlink_step_us[pi] +
                 inter * t.ring_net_step_us[pi]) *
                1e-6;
  r.time_s = r.bandwidth_s + r.latency_s;
  return r;
}

}  // namespace dcsim::models::collective
