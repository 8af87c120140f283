#include "models/cluster/dataset_reader.hpp"

#include <algorithm>
#include <utility>

namespace dcsim::models::cluster {

DatasetReader::DatasetReader(Config config, ReadChunk read, sim::Simulator& simulator)
    : config_(config),
      read_(std::move(read)),
      sim_(simulator),
      ready_through_(config.first_step),
      next_read_(config.first_step),
      current_(config.first_step) {
  config_.chunk_steps = std::max(1, config_.chunk_steps);
  config_.depth = std::max(1, config_.depth);
  maybe_read();
}

DatasetReader::~DatasetReader() { *alive_ = false; }

void DatasetReader::maybe_read() {
  if (stopped_ || reading_ || next_read_ >= config_.last_step) return;
  // The chunk the run is in and depth - 1 after it.
  const int window_end = config_.first_step +
                         ((current_ - config_.first_step) / config_.chunk_steps + config_.depth) * config_.chunk_steps;
  if (next_read_ >= window_end) return;
  const int through = std::min(next_read_ + config_.chunk_steps, config_.last_step);
  const double bytes = (through - next_read_) * config_.bytes_per_step;
  reading_ = true;
  read_(bytes, [this, alive = alive_, through](bool ok) {
    if (!*alive) return;
    on_read(ok, through);
  });
}

void DatasetReader::on_read(bool ok, int through) {
  reading_ = false;
  if (stopped_) return;
  if (!ok) {
    // The data is on no OSD up: the loader retries the chunk.
    reading_ = true;
    sim_.after(config_.retry_after, [this, alive = alive_] {
      if (!*alive || stopped_) return;
      reading_ = false;
      maybe_read();
    });
    return;
  }
  ready_through_ = through;
  next_read_ = through;
  maybe_read();
  if (on_ready_ && ready_through_ > waiting_for_) {
    auto ready = std::move(on_ready_);
    on_ready_ = nullptr;
    waiting_for_ = -1;
    ready();
  }
}

void DatasetReader::wait_for(int step, std::function<void()> ready) {
  if (step < ready_through_) {
    sim_.after(sim::Time::zero(), [alive = alive_, ready = std::move(ready)] {
      if (*alive) ready();
    });
    return;
  }
  waiting_for_ = step;
  on_ready_ = std::move(ready);
  consumed_through(step);
}

void DatasetReader::consumed_through(int step) {
  current_ = std::max(current_, step);
  maybe_read();
}

void DatasetReader::stop() {
  stopped_ = true;
  on_ready_ = nullptr;
}

}  // namespace dcsim::models::cluster
