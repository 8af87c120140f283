#pragma once
// Everything a sweep needs checked before anything is written: every swept path is a key of the
// scenario format, and every variant that will run loads (its combination of values, not each
// value alone over the base: a sweep that zips nodes with replicas is valid only in pairs), and its
// models build as `run` builds them (what `dcsim validate` checks). All
// problems are reported together (sim::InputErrors), each where it belongs in the sweep file:
//   sweep.json:/parameters/0/values/2: fabric.k=3: <what the loader said>   (every variant with that
//                                                                          value fails, and only those)
//   sweep.json:/parameters: variant v0004 (cluster.nodes=1, ..., seed=1): <...>   (a combination)
//   sweep.json:/set: <...>   (the base scenario with the sweep's `set` fails in every variant)

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "models/model_registries.hpp"
#include "tools/scenario/field_spec.hpp"
#include "tools/scenario/resource_guard.hpp"
#include "tools/sweep/sweep_spec.hpp"

namespace dcsim::tools::sweep {

struct Plan {
  std::uint64_t base_seed = 0;  // sweep.seed, or the base scenario's /seed
  // Per variant: a hash of its scenario document after the overrides and of the contents of
  // every data file it reads (scenario_hash), so a finished variant is not reused when the base
  // scenario or a CSV it names changed under it.
  std::vector<std::string> scenario_hashes;
};

// Most load failures listed one by one; the rest are counted. A bad value is reported once at
// its own pointer, and an error shared by several variants once, not once per variant.
inline constexpr std::size_t kMaxVariantErrorsListed = 50;

Plan validate_sweep(const Sweep& sweep, const models::ModelRegistries& registries, std::size_t jobs,
                    const scenario::ResourceLimits& limits);

// The seed of `scenario_file` as its document gives it after `sets`, for a base that does not
// load on its own (the variants' values may be what makes it valid); none when the document
// cannot be read or its seed is not one.
std::optional<std::uint64_t> document_seed(const std::string& scenario_file, const std::vector<std::string>& sets,
                                           const scenario::FieldSpec& spec);

// 64-bit FNV-1a of the text, as 16 hex digits.
std::string text_hash(const std::string& text);

// The content hash of each data file, read once however many variants name it (thread-safe).
class FileHashCache {
 public:
  std::string of(const std::string& path);

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> hashes_;
};

}  // namespace dcsim::tools::sweep
