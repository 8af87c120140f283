#include "models/cluster/precursor_drain.hpp"

#include <utility>

namespace dcsim::models::cluster {

PrecursorDrain::PrecursorDrain(int nodes, Host& host, sim::Simulator& sim)
    : host_(host),
      sim_(sim),
      drained_until_(static_cast<std::size_t>(nodes)),
      drained_(static_cast<std::size_t>(nodes), 0) {}

void PrecursorDrain::drain(int node, sim::Time until) {
  const auto n = static_cast<std::size_t>(node);
  if (until <= sim_.now()) return;
  if (!drained_[n]) host_.set_drained(node, true);
  drained_[n] = 1;
  if (until > drained_until_[n]) {
    drained_until_[n] = until;
    // After the faults of that instant (kFirst): a true alarm's node is down by then.
    sim_.at(until, [this, node] { end_drain(node); });
  }
}

void PrecursorDrain::end_drain(int node) {
  const auto n = static_cast<std::size_t>(node);
  if (!drained_[n] || sim_.now() < drained_until_[n]) return;  // a later warning extended it
  drained_[n] = 0;
  host_.set_drained(node, false);
}

void PrecursorDrain::migrate(std::size_t job, sim::Time relaunch, const std::string& cause) {
  // Its checkpoint is under way: the move leaves every drained node.
  if (!moves_.emplace(job, relaunch).second) return;
  host_.save_for_move(job, cause, [this, job] { saved(job); });
}

void PrecursorDrain::saved(std::size_t job) {
  const auto it = moves_.find(job);
  if (it == moves_.end()) return;  // cancelled: the run that saved stopped
  const sim::Time relaunch = it->second;
  moves_.erase(it);
  host_.move(job, relaunch);
}

}  // namespace dcsim::models::cluster
