#pragma once
// A training job's data loader reading its input from the shared store ahead of the steps
// (DataFeed): chunks of `chunk_steps` steps' input, each one store read in which every node
// reads its share, one read at a time, at most `depth` chunks from the chunk the run is in (the
// one it consumes, and the next ones it prefetches). A step whose chunk has not arrived waits
// for it: when the store delivers less than the steps consume, the job runs at the store's rate.
//
// By hand: chunk c of a run starting at step s covers steps [s + c x chunk_steps, ... + chunk_steps)
// (the last one cut at the run's end) and reads chunk_steps x bytes_per_step; with depth 2 the
// read of chunk c + 1 runs beside the steps of chunk c, so the run stalls for
// max(0, read time - chunk_steps x step time) per chunk once both run, and for the whole first
// read at its start. A read the store fails (data on no OSD up) is retried after the chunk's
// nominal step time.

#include <functional>
#include <memory>

#include "models/cluster/data_feed.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::cluster {

class DatasetReader final : public DataFeed {
 public:
  // Reads `bytes` (the whole job's, one chunk) and calls done(ok) as an event.
  using ReadChunk = std::function<void(double bytes, std::function<void(bool ok)> done)>;
  struct Config {
    int first_step = 0;      // the run's resume point
    int last_step = 0;       // the job's step count: nothing is read beyond it
    int chunk_steps = 1;     // >= 1
    int depth = 2;           // chunks held or in flight from the run's current one, >= 1
    double bytes_per_step = 0.0;
    sim::Time retry_after;   // after a failed read
  };
  // Starts reading the first chunk now.
  DatasetReader(Config config, ReadChunk read, sim::Simulator& simulator);
  ~DatasetReader() override;

  int steps_ready() const override { return ready_through_; }
  void wait_for(int step, std::function<void()> ready) override;
  void consumed_through(int step) override;
  void stop() override;

 private:
  void maybe_read();
  void on_read(bool ok, int through);

  Config config_;
  ReadChunk read_;
  sim::Simulator& sim_;
  int ready_through_;   // steps below it have their input
  int next_read_;       // first step of the next chunk to read
  int current_;         // the step the run is at
  bool reading_ = false;
  bool stopped_ = false;
  int waiting_for_ = -1;
  std::function<void()> on_ready_;
  // Read callbacks outlive a stopped reader only through this flag.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace dcsim::models::cluster
