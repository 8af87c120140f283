#pragma once
// A subsystem as the datacenter assembly drives it (models/datacenter/subsystems.cpp registers
// each with one line): a model that is not one of the core parts (cluster, fabric, facility) but
// observes them through signals and acts on them through the seams of this folder. It lives in
// its own part's folder and includes only seams: the assembly includes it, never the reverse.

namespace dcsim::models::seams {

class Subsystem {
 public:
  virtual ~Subsystem() = default;
  // Schedules the first events (after the core parts started).
  virtual void start() {}
  // Closes the accounts at the engine's time and emits the summary (after the core parts).
  virtual void finish() {}
};

}  // namespace dcsim::models::seams
