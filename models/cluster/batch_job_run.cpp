#include "models/cluster/batch_job_run.hpp"

#include <algorithm>

namespace dcsim::models::cluster {

BatchJobRun::BatchJobRun(sim::Simulator& sim, double work_s, double clock_factor, std::function<void()> on_done,
                         std::vector<workload::UtilizationPhase> profile, std::function<void(double)> on_phase)
    : sim_(sim), work_s_(work_s), clock_factor_(clock_factor), on_done_(std::move(on_done)),
      profile_(std::move(profile)), on_phase_(std::move(on_phase)) {
  start_piece();
}

void BatchJobRun::start_piece() {
  const double left_s = work_s_ - done_before_s_;
  const double piece_s = profile_.empty() ? left_s : std::min(left_s, profile_[phase_].work.seconds());
  piece_ = std::make_unique<sim::Activity>(sim_, piece_s, clock_factor_, [this](sim::Activity&) { on_piece_done(); });
}

void BatchJobRun::on_piece_done() {
  done_before_s_ += piece_->total_work();
  // Pieces are whole phases but the last: the work is done once the last piece is.
  constexpr double kWorkTolS = 1e-9;  // a nanosecond: the engine's time step
  if (profile_.empty() || work_s_ - done_before_s_ <= kWorkTolS ||
      piece_->total_work() < profile_[phase_].work.seconds()) {
    on_done_();
    return;
  }
  phase_ = (phase_ + 1) % profile_.size();
  start_piece();
  if (on_phase_) on_phase_(profile_[phase_].gpu_utilization);
}

void BatchJobRun::set_clock_factor(double factor) {
  clock_factor_ = factor;
  if (piece_ && !piece_->done() && !piece_->cancelled()) piece_->set_rate(factor);
}

void BatchJobRun::interrupt() {
  if (piece_) piece_->cancel();
}

double BatchJobRun::done_s() const {
  double done = done_before_s_;
  if (piece_ && !piece_->done()) done += piece_->total_work() - piece_->remaining();
  return done;
}

}  // namespace dcsim::models::cluster
