#pragma once
// The seam between a training run and whatever supplies its input ahead of its steps (a reader
// of the shared store, dataset_reader.hpp). Without one a run's input costs nothing.

#include <functional>

namespace dcsim::models::cluster {

class DataFeed {
 public:
  virtual ~DataFeed() = default;
  // Steps whose input the nodes hold now: steps below this can start.
  virtual int steps_ready() const = 0;
  // The run waits for step `step`'s input: `ready` is called (as an event) once it is there.
  virtual void wait_for(int step, std::function<void()> ready) = 0;
  // The run is at step `step`: input before it is consumed, the loader may read further ahead.
  virtual void consumed_through(int step) = 0;
  // The run stopped: no more reads start, nothing more is called.
  virtual void stop() = 0;
};

}  // namespace dcsim::models::cluster
