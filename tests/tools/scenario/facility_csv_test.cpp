#include <catch2/catch.hpp>

#include <string>

#include "sim/error.hpp"
#include "tools/scenario/facility_mapping.hpp"

using dcsim::tools::scenario::read_temperature_csv;

namespace {
std::string data(const std::string& name) { return std::string(DCSIM_SOURCE_DIR) + "/tests/data/bad_scenarios/" + name; }
}  // namespace

TEST_CASE("outdoor temperature CSV: gaps and non-numeric cells name file and line", "[tools][scenario][facility]") {
  // Line 1 is a header, line 4 is empty: a gap in an hourly series would shift every later hour.
  CHECK_THROWS_WITH(read_temperature_csv(data("facility_outdoor_gap.csv"), "gap.csv"),
                    "gap.csv:4: empty line (a gap in the series)");
  CHECK_THROWS_WITH(read_temperature_csv(data("facility_outdoor_nonnumeric.csv"), "warm.csv"),
                    "warm.csv:3: expected a temperature in C, got \"warm\"");
  CHECK_THROWS_AS(read_temperature_csv(data("no_such_file.csv"), "x.csv"), dcsim::sim::InputError);
}
