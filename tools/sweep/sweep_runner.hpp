#pragma once
// Runs a validated sweep's variants, each into <dir>/<variant name>/ (trace.h5, summary.json and
// variant.json), on `jobs` threads; under MPI (mpi_world.hpp) each rank takes every ranks-th
// variant. A variant whose folder already holds a finished run of the same overrides, seed and
// scenario is not run again (resume); a variant that fails with bad input (sim::InputError) is
// recorded as failed in its variant.json and the others carry on.
//
// variant.json: { "variant": "v0003", "index": 3, "replication": 0, "seed": 7,
//                 "values": { "<path>": <value>, ... }, "overrides": ["path=value", ..., "seed=7"],
//                 "scenario_hash": "<16 hex>", "dcsim_version": "...",
//                 "status": "ok" | "failed", "error": "<message>" (failed only) }
// It is written after the run's trace.h5 and summary.json (atomically), so its presence with
// status "ok" marks a finished variant.

#include <cstddef>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "tools/scenario/resource_guard.hpp"
#include "tools/sweep/sweep_progress.hpp"
#include "tools/sweep/sweep_spec.hpp"
#include "tools/sweep/sweep_validation.hpp"

namespace dcsim::tools::sweep {

struct RunOptions {
  std::filesystem::path output_dir;
  std::size_t jobs = 1;
  int rank = 0;   // this process's share: variants with index % ranks == rank
  int ranks = 1;
};

struct RunTally {
  std::size_t ran = 0, reused = 0, failed = 0;
  double cpu_s = 0.0;  // CPU time of the variants run (each on its thread's clock)
  // Time their threads were runnable but waited for a core (Linux schedstat): on a busy machine,
  // what the other processes took.
  double queued_s = 0.0;
  // Their wall times, summed: wall - CPU - queued is time blocked (fsync of the outputs, the
  // HDF5 lock, reading files).
  double wall_s = 0.0;
};

// The variants of `sweep` this rank runs (index % ranks == rank).
std::size_t share_count(std::size_t variants, int rank, int ranks);

RunTally run_variants(const Sweep& sweep, const Plan& plan, const models::ModelRegistries& registries,
                      const scenario::ResourceLimits& limits, const RunOptions& options, SweepProgress& progress);

// "" when <dir> holds a finished run of `variant` with `scenario_hash` that can be reused, else
// why not ("not run yet", "its values changed since: ...").
std::string reuse_problem(const std::filesystem::path& dir, const Variant& variant, const std::string& scenario_hash);

nlohmann::json variant_record(const Sweep& sweep, const Variant& variant, const std::string& scenario_hash);

}  // namespace dcsim::tools::sweep
