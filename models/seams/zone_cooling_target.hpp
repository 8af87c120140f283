#pragma once
// The facility as cooling faults see it: zones whose heat removal is lost and restored.

#include <string>

namespace dcsim::models::seams {

class ZoneCoolingTarget {
 public:
  virtual ~ZoneCoolingTarget() = default;
  virtual int zones() const = 0;
  // The zone's CDU and air path remove no heat while any loss is in progress.
  virtual void set_zone_cooling_lost(int zone, bool lost, const std::string& cause) = 0;
};

}  // namespace dcsim::models::seams
