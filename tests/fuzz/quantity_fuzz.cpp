// libFuzzer target: sim::parse_duration and sim::parse_quantity for every QuantityKind.
// The first byte picks the parser (and, for durations, allow_negative); the rest is the text.
// A rejection is sim::ParseError (an InputError); any other exception, a crash, a sanitizer
// report or a result that breaks the parser's contract is a finding.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

#include "sim/error.hpp"
#include "sim/time.hpp"
#include "sim/units.hpp"

namespace {

using dcsim::sim::QuantityKind;

constexpr QuantityKind kKinds[] = {
    QuantityKind::kDuration,    QuantityKind::kDataSize,   QuantityKind::kDataRate, QuantityKind::kPower,
    QuantityKind::kEnergy,      QuantityKind::kTemperature, QuantityKind::kMoney,   QuantityKind::kEnergyPrice,
    QuantityKind::kDataPrice,   QuantityKind::kLength,
};
constexpr std::size_t kNumKinds = sizeof(kKinds) / sizeof(kKinds[0]);

[[noreturn]] void contract_broken(const char* what, std::string_view text) {
  std::fprintf(stderr, "quantity_fuzz: %s for \"%.*s\"\n", what, static_cast<int>(text.size()), text.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t selector = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  // Selectors 0 .. kNumKinds-1 go to parse_quantity; the next two to parse_duration.
  const std::size_t which = selector % (kNumKinds + 2);
  try {
    if (which < kNumKinds) {
      const QuantityKind kind = kKinds[which];
      const double v = dcsim::sim::parse_quantity(kind, text);
      if (!std::isfinite(v)) contract_broken("parse_quantity returned a value that is not finite", text);
      const bool may_be_negative = kind == QuantityKind::kTemperature || kind == QuantityKind::kMoney;
      if (!may_be_negative && v < 0) contract_broken("parse_quantity returned a negative value", text);
    } else {
      const bool allow_negative = which == kNumKinds + 1;
      const dcsim::sim::Time t = dcsim::sim::parse_duration(text, allow_negative);
      if (!allow_negative && t.ns() < 0) contract_broken("parse_duration returned a negative duration", text);
      // Formatting any parsed duration must work too.
      (void)dcsim::sim::format_duration(t);
    }
  } catch (const dcsim::sim::InputError&) {
    // The expected rejection.
  }
  return 0;
}
