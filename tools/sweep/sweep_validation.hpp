#pragma once
// Everything a sweep needs checked before anything is written: the base scenario loads, every
// swept path is a key of the scenario format, every value loads on its own, and every variant
// loads. All problems are reported together (sim::InputErrors), each with the sweep file's JSON
// pointer: "sweep.json:/parameters/0/values/2: fabric.k=3: <what the scenario loader said>".

#include <cstddef>
#include <cstdint>
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

// Most variant load failures listed one by one; the rest are counted. A bad value is reported
// once at its own pointer, not once per variant that uses it.
inline constexpr std::size_t kMaxVariantErrorsListed = 50;

Plan validate_sweep(const Sweep& sweep, const models::ModelRegistries& registries, std::size_t jobs,
                    const scenario::ResourceLimits& limits);

// "" when `path` ("fabric.k", "workload.jobs.0.nodes") names a key of the scenario format,
// else why not ("no key 'kk' in /fabric; keys there: ...").
std::string path_problem(const scenario::FieldSpec& root, const std::string& path);

// 64-bit FNV-1a of the text, as 16 hex digits.
std::string text_hash(const std::string& text);

}  // namespace dcsim::tools::sweep
