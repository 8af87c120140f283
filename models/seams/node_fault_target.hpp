#pragma once
// The cluster as faults see it: nodes that go down and come back, jobs that crash or run on
// silently corrupted state, precursor warnings. Implemented by the cluster; used by the fault
// router and scripted faults.

#include <optional>
#include <string>

#include "models/reliability/precursor_config.hpp"
#include "models/seams/recovery_delay.hpp"
#include "sim/time.hpp"

namespace dcsim::models::seams {

class NodeFaultTarget {
 public:
  virtual ~NodeFaultTarget() = default;
  virtual int node_count() const = 0;
  // The node goes down now (its jobs are interrupted); up once every fault holding it down is
  // repaired (one set_node_up per set_node_down). `recovery`: the interruption's detection and
  // diagnosis, which its jobs pay before their restart (none: the fault scripts the
  // interruption itself).
  virtual void set_node_down(int node, const std::string& cause, const RecoveryDelay& recovery = {}) = 0;
  virtual void set_node_up(int node) = 0;
  // The node's jobs crash (software, watchdog); the node stays usable.
  virtual void crash_jobs_on_node(int node, const std::string& cause, const RecoveryDelay& recovery = {}) = 0;
  // A GPU of the node computes wrong numbers silently: the training jobs on it run on corrupted
  // state until their loss checks catch it (then they roll back to their last clean checkpoint
  // and the node is quarantined for `quarantine`) or never.
  virtual void corrupt_jobs_on_node(int node, const std::string& cause, sim::Time quarantine) = 0;
  // The precursor signal the node owner acts on (a predictive failover policy), if any: the
  // fault router then raises its alarms (reliability/fault_precursor.hpp) and warns here.
  virtual std::optional<reliability::PrecursorConfig> wanted_precursor() const { return std::nullopt; }
  // A precursor warns of a fault on `node` (drain it until `drain_until`, move its jobs).
  virtual void warn_node(int node, const std::string& cause, sim::Time drain_until, bool false_alarm) {
    (void)node, (void)cause, (void)drain_until, (void)false_alarm;
  }
};

}  // namespace dcsim::models::seams
