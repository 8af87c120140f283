#include "tools/output/run_meta.hpp"

#include <chrono>
#include <ctime>

#include <fmt/format.h>

namespace dcsim::tools::output {

std::string utc_now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);  // the reentrant form: sweeps start runs on several threads
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec);
}

}  // namespace dcsim::tools::output
