#pragma once
// `dcsim sweep`'s sweep file: a base scenario and the parameters to vary, as --set paths with
// their values. The file (docs/cli.md, "Sweeps"):
//   { "name": "step-vs-oversubscription",
//     "scenario": "../two-jobs-shared-fabric.json",         // relative to the sweep file
//     "set": ["duration=1 s"],                               // fixed overrides, optional
//     "parameters": [
//       { "path": "fabric.oversubscription", "values": [1, 2, 4] },
//       { "path": "economics.electricity.price_per_kwh",
//         "range": { "start": 0.05, "stop": 0.2, "step": 0.05 } },            // linear
//       { "path": "cluster.nodes", "range": { "start": 2, "stop": 32, "step": 2, "scale": "log" } },
//       { "path": "fabric.link_rate", "range": { "start": 100, "stop": 400, "step": 100, "unit": "Gbps" } } ],
//     "combine": "grid",            // or "zip" (parameters side by side) or "random"
//     "samples": 20, "sample_seed": 7,   // "random": draws per sample; a range needs no step
//     "replications": 3,            // each point run with this many seeds
//     "seed": 42 }                  // base seed; default: the scenario's /seed
//
// Ranges include `stop` (within a relative 1e-9) and are computed as start + i * step (linear) or
// start * step^i (log: step is the factor), rounded to 12 significant digits so 0.1 steps print
// as 0.3, not 0.30000000000000004. Integer start and step give integers.
// Variants are numbered grid-style (first parameter slowest, replications innermost); each is
// computed from its index alone (variant_at), so a 10,000-variant sweep is never held at once.
// Every problem is a sim::InputError naming the sweep file and the JSON pointer, all together.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dcsim::tools::sweep {

struct Parameter {
  std::string path;     // a --set path, "fabric.oversubscription"
  std::string pointer;  // where it is in the sweep file, "/parameters/0"
  // Lists and stepped ranges: the values, and where each came from in the sweep file.
  std::vector<nlohmann::json> values;
  std::vector<std::string> value_pointers;
  // A range without step, sampled ("combine": "random"): uniform (or log-uniform) in [low, high].
  bool continuous = false;
  double low = 0.0, high = 0.0;
  bool log_scale = false;
  std::string unit;  // appended to numbers from a range: 100 -> "100 Gbps"
};

enum class Combine { kGrid, kZip, kRandom };

struct Sweep {
  std::string name;
  std::string source;    // the sweep file, as named on the command line
  std::string scenario;  // resolved against the sweep file's folder
  std::vector<std::string> sets;
  std::vector<Parameter> parameters;
  Combine combine = Combine::kGrid;
  std::size_t samples = 0;             // kRandom
  std::uint64_t sample_seed = 1;       // kRandom
  std::size_t replications = 1;
  std::optional<std::uint64_t> seed;   // base seed; none: the scenario's
};

struct Variant {
  std::size_t index = 0;
  std::string name;                    // "v0007": its folder under -o
  std::vector<nlohmann::json> values;  // one per parameter
  // Per parameter, the sweep-file pointer of the value (for messages).
  std::vector<std::string> value_pointers;
  std::size_t replication = 0;
  std::uint64_t seed = 0;
  // What the variant's scenario is loaded with: the sweep's `set`, one "path=VALUE" per
  // parameter (VALUE as JSON, so "8" stays a string and 8 a number), and "seed=N".
  std::vector<std::string> overrides;
};

// Most variants one sweep may have: far beyond what a machine runs, but it keeps a typo
// ("step": 1e-9) from filling the disk with folders.
inline constexpr std::size_t kMaxVariants = 1'000'000;

Sweep load_sweep(const std::string& path);
// `source` names the document in messages; relative paths resolve against `base_dir`.
Sweep parse_sweep(const nlohmann::json& doc, const std::string& source, const std::string& base_dir);

std::size_t point_count(const Sweep& sweep);    // distinct parameter points
std::size_t variant_count(const Sweep& sweep);  // points x replications
// The seed of replication r: the base seed for r = 0 (so replication 0 is what `dcsim run` with
// the same --set gives), then a hash of (base seed, r) -- the same for every point, so points
// are compared on common random numbers.
std::uint64_t replication_seed(std::uint64_t base_seed, std::size_t replication);
// Variant `index` (< variant_count); `base_seed` is sweep.seed or the scenario's.
Variant variant_at(const Sweep& sweep, std::size_t index, std::uint64_t base_seed);
// "v0007": zero-padded to at least 4 digits, more when the sweep has more variants.
std::string variant_name(std::size_t index, std::size_t count);
// "fabric.oversubscription=2, seed=42": a variant's values for messages.
std::string describe_values(const Sweep& sweep, const Variant& variant);

}  // namespace dcsim::tools::sweep
