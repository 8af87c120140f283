#pragma once
// `dcsim bench sweep`: how close a sweep comes to the ideal parallel speed-up. A sweep of
// `variants` replications of a scenario that runs about a second (bench_scenario_json; its
// seeds differ, nothing else) goes through everything `dcsim sweep` does -- validation, the
// variants on `jobs` threads (and on every rank under mpirun), results.csv and results.h5 --
// into `output_dir` (emptied first; the variant folders are deleted after). The wall time of the whole is compared with the ideal:
// the variants' total CPU time (each on its own thread's clock, summed over ranks) divided by
// the workers that ran at once, min(jobs x ranks, cores). Target (issue 14): ratio <= 1.15.
// On a busy machine the wall ratio measures the neighbours: so the variants' threads' wait for a
// core (Linux schedstat, queued_s) is reported, and the ratio with the wall time less the mean
// wait per worker (ratio_without_queueing), an estimate of the ratio on a quiet machine.
// Also the CPU time of the whole processes against the variants' (cpu_overhead): what the sweep
// machinery costs whatever else the machine is doing, when a busy machine makes the wall ratio
// measure the neighbours.
// Returns {"variants", "jobs", "ranks", "workers", "wall_s", "variant_cpu_s", "ideal_s",
// "process_cpu_s", "cpu_overhead", "cores", "load_average_before", "load_average_after", "ratio",
// "queued_s", "ratio_without_queueing"}
// on rank 0 (other ranks return null).

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"

namespace dcsim::tools::sweep {
class MpiWorld;
}

namespace dcsim::tools::bench {

nlohmann::json run_sweep_bench(const models::ModelRegistries& registries, const sweep::MpiWorld& world,
                               std::size_t variants, std::size_t jobs, const std::string& output_dir);

// The scenario each variant runs (about a second of CPU on one core of the reference machine).
nlohmann::json bench_scenario_json();

}  // namespace dcsim::tools::bench
