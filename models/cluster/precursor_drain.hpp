#pragma once
// The response to a precursor's warning (reliability/fault_precursor.hpp): the node is drained
// (no new work) until the warning's drain ends, and a job on it that the failover policy moves
// (on_warning: kMigrate) checkpoints at the end of its step in flight, then starts again on
// healthy free nodes (or spares) in place of the drained ones, resuming from that checkpoint.
// Accounting, by hand:
//   the checkpoint write   held GPU time, useful (as every checkpoint: goodput/fraction counts
//                          checkpoint writes as useful), in the job's checkpoint_s
//   the move               the policy's relaunch overhead + reading the checkpoint back, as a
//                          restart (goodput/restart_gpu_h); nothing is lost and nothing is
//                          interrupted (reliability/migrations counts it)
// With no healthy free node or spare the job stays on its nodes, its progress saved just now
// (reliability/alarm_stays): a fault then costs only what it did since. A fault that comes
// before the checkpoint is written interrupts the job as any fault does (cancel).
//
// The drains' timing and the moves under way are here; the cluster that holds it consults the
// failover policy, counts (reliability/*), owns the nodes and the runs, and acts through Host,
// which this class declares.
//
// Cost: a warning is one event per drain that it extends; a move O(1) here.

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/simulator.hpp"
#include "sim/time.hpp"

namespace dcsim::models::cluster {

class PrecursorDrain {
 public:
  // What a drain and a move need of the cluster.
  class Host {
   public:
    // The node leaves service (the scheduler's pool or the spare list) while drained; undrained,
    // it goes back when healthy and waiting work is placed.
    virtual void set_drained(int node, bool drained) = 0;
    // The job starts to move (-> migrating, `cause`): `saved` once its step in flight ends with a
    // checkpoint (at once while its run has not begun).
    virtual void save_for_move(std::size_t job, const std::string& cause, std::function<void()> saved) = 0;
    // Saved: the job starts again on healthy free nodes or spares in place of its drained ones
    // after `relaunch`, or stays where it is when too few are free.
    virtual void move(std::size_t job, sim::Time relaunch) = 0;

   protected:
    ~Host() = default;
  };

  PrecursorDrain(int nodes, Host& host, sim::Simulator& sim);
  PrecursorDrain(const PrecursorDrain&) = delete;
  PrecursorDrain& operator=(const PrecursorDrain&) = delete;

  // A warning of a fault on `node` (an on-prem one): drained until `until`, or longer when an
  // earlier warning's drain ends later.
  void drain(int node, sim::Time until);
  // The policy moves the job off its drained nodes (kMigrate), after `relaunch`; a job already
  // saving its state to move does not start over.
  void migrate(std::size_t job, sim::Time relaunch, const std::string& cause);
  bool migrating(std::size_t job) const { return moves_.contains(job); }
  // The job stopped (interrupted, preempted): its move is off.
  void cancel(std::size_t job) { moves_.erase(job); }

 private:
  void end_drain(int node);
  void saved(std::size_t job);

  Host& host_;
  sim::Simulator& sim_;
  std::vector<sim::Time> drained_until_;    // by node: its drain ends then
  std::vector<char> drained_;               // by node
  std::map<std::size_t, sim::Time> moves_;  // job -> the policy's relaunch overhead
};

}  // namespace dcsim::models::cluster
