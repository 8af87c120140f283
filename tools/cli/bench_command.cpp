#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/bench_engine.hpp"
#include "tools/bench/design_bench.hpp"
#include "tools/bench/design_grid_bench.hpp"
#include "tools/bench/economics_bench.hpp"
#include "tools/bench/fabric_bench.hpp"
#include "tools/bench/facility_bench.hpp"
#include "tools/bench/inference_bench.hpp"
#include "tools/bench/operations_bench.hpp"
#include "tools/bench/site_bench.hpp"
#include "tools/bench/storage_bench.hpp"
#include "tools/bench/sweep_bench.hpp"
#include "tools/bench/training_bench.hpp"
#include "tools/cli/command.hpp"
#include "tools/sweep/mpi_world.hpp"
#include "tools/sweep/parallel_for.hpp"

namespace dcsim::tools::cli {

namespace {

// One subcommand of `dcsim bench` per function, each with its options (parsed into state its
// action owns) and its action; add_bench_command lists them in `--help` order.

// A subcommand with --json: its action prints `run`'s cases as a JSON array, or as a table of
// `header` and one `row` per case. Options added to it after --json come after it in --help.
Command add_cases_bench(CLI::App& bench, const std::string& name, const std::string& description,
                        std::function<nlohmann::json()> run, std::string header,
                        std::function<std::string(const nlohmann::json&)> row) {
  auto json = std::make_shared<bool>(false);
  auto* sub = bench.add_subcommand(name, description);
  sub->add_flag("--json", *json, "print a JSON array of cases");
  return {sub, [json, run = std::move(run), header = std::move(header), row = std::move(row)] {
            const auto cases = run();
            if (*json) {
              std::cout << cases.dump(2) << '\n';
              return 0;
            }
            std::cout << header;
            for (const auto& c : cases) std::cout << row(c);
            return 0;
          }};
}

Command add_engine_bench(CLI::App& bench) {
  struct Args {
    std::size_t pending = 100'000;
    std::uint64_t events = 10'000'000;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* engine =
      bench.add_subcommand("engine", "hold model on the event engine vs a plain std::priority_queue baseline");
  engine->add_option("--pending", args->pending, "events pending at all times")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
  engine->add_option("--events", args->events, "events executed per timed repeat")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{10'000'000'000ULL}));
  engine->add_flag("--json", args->json, "print one JSON object");
  return {engine, [args] {
            const auto r = sim::run_engine_bench(args->pending, args->events);
            if (args->json) {
              std::cout << nlohmann::json{{"pending", r.pending},
                                          {"events", r.events},
                                          {"engine_events_per_s", r.engine_events_per_s},
                                          {"heap_events_per_s", r.heap_events_per_s},
                                          {"ratio", r.ratio}}
                               .dump()
                        << '\n';
            } else {
              std::cout << fmt::format(
                  "hold model, {} pending, {} events\n  engine      {:8.2f} M events/s\n"
                  "  plain heap  {:8.2f} M events/s\n  ratio       {:8.2f}x\n",
                  r.pending, r.events, r.engine_events_per_s / 1e6, r.heap_events_per_s / 1e6, r.ratio);
            }
            return 0;
          }};
}

Command add_fabric_bench(CLI::App& bench) {
  struct Args {
    std::vector<std::string> cases;
    double precision = 1e-9;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* fabric = bench.add_subcommand("fabric", "flow-level fabric cases (compare with ../shared/bench/simgrid)");
  fabric->add_option("--case", args->cases,
                     "only these cases (repeatable); default: the standard set. Names: fattree16-permutation-1GB, "
                     "fattree16-ring-allreduce-1024, fattreeK-random-F (F random-pair flows on a k=K fat-tree, "
                     "e.g. fattree16-random-10000, fattree74-random-100000)");
  fabric->add_flag("--json", args->json, "print a JSON array of cases");
  fabric
      ->add_option("--precision", args->precision,
                   "relative precision of the max-min solve: 1e-9 (default) is exact, up to 1e-2 trades a bounded "
                   "drift for speed")
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            // CLI::Range would print the bounds as 0.000000 to 0.010000.
            double v = 0.0;
            try {
              v = std::stod(text);
            } catch (const std::exception&) {
              return "expected a number from 1e-9 to 1e-2, got '" + text + "'";
            }
            return v >= 1e-9 && v <= 1e-2 ? std::string() : "expected a number from 1e-9 to 1e-2, got " + text;
          },
          "1e-9..1e-2"));
  return {fabric, [args] {
            const auto cases = bench::run_fabric_bench(args->cases, args->precision);
            if (args->json) {
              std::cout << cases.dump(2) << '\n';
              return 0;
            }
            std::cout << fmt::format("{:<32} {:>7} {:>9} {:>10} {:>12} {:>9} {:>12}\n", "case", "hosts", "flows",
                                     "wall_s", "flows/s", "rss_MB", "makespan_s");
            for (const auto& c : cases) {
              std::cout << fmt::format("{:<32} {:>7} {:>9} {:>10.4f} {:>12.0f} {:>9.1f} {:>12.6f}\n",
                                       c["name"].get<std::string>(), c["hosts"].get<long long>(),
                                       c["flows"].get<long long>(), c["wall_s"].get<double>(),
                                       c["flows_per_s"].get<double>(), c["peak_rss_mb"].get<double>(),
                                       c["makespan_s"].get<double>());
            }
            return 0;
          }};
}

Command add_facility_bench(CLI::App& bench) {
  struct Args {
    int nodes = 128;
    double days = 30.0;
    double tick_s = 10.0;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* facility = bench.add_subcommand("facility", "facility model: per-GPU thermal state, 30 days at a 10 s tick");
  facility->add_option("--nodes", args->nodes, "HGX H100 nodes (8 GPUs each)")->check(CLI::Range(1, 100'000));
  facility->add_option("--days", args->days, "simulated days")->check(CLI::Range(0.001, 3650.0));
  facility->add_option("--tick", args->tick_s, "thermal tick, seconds")->check(CLI::Range(0.1, 86400.0));
  facility->add_flag("--json", args->json, "print one JSON object");
  return {facility, [args] {
            const auto r = bench::run_facility_bench(args->nodes, args->days, args->tick_s);
            if (args->json) {
              std::cout << r.dump() << '\n';
            } else {
              std::cout << fmt::format(
                  "facility: {} GPUs, {} days at {} s tick\n  wall     {:8.2f} s\n  peak RSS {:8.1f} MB\n"
                  "  events   {}\n  PUE      {:.3f}\n",
                  r["gpus"].get<int>(), r["simulated_days"].get<double>(), r["tick_s"].get<double>(),
                  r["wall_s"].get<double>(), r["peak_rss_mb"].get<double>(), r["events"].get<std::uint64_t>(),
                  r["pue"].get<double>());
            }
            return 0;
          }};
}

Command add_training_bench(CLI::App& bench) {
  auto cases = std::make_shared<std::vector<std::string>>();
  Command training = add_cases_bench(
      bench, "training",
      "training jobs: 1,024 GPUs x 1,000 steps in flow mode, 16,384 GPUs x 1 day analytic, one Llama-3-405B-style "
      "step in flow mode on 16,384 and 131,072 GPUs, one DeepSeek-V3 MoE step in flow mode (every all-to-all on the "
      "fabric) on 2,048 and 16,384 GPUs",
      [cases] { return bench::run_training_bench(*cases); },
      fmt::format("{:<34} {:>7} {:>9} {:>9} {:>10} {:>12} {:>10} {:>9}\n", "case", "gpus", "steps", "wall_s", "events",
                  "events/s", "flows", "rss_MB"),
      [](const nlohmann::json& c) {
        // Flows and peak RSS where a case reports them (the flow-step cases' targets).
        const std::string flows = c.contains("flows")          ? std::to_string(c["flows"].get<std::uint64_t>())
                                  : c.contains("fabric_flows") ? std::to_string(c["fabric_flows"].get<std::uint64_t>())
                                                               : "-";
        const std::string rss = c.contains("peak_rss_mb") ? fmt::format("{:.0f}", c["peak_rss_mb"].get<double>()) : "-";
        return fmt::format("{:<34} {:>7} {:>9.0f} {:>9.3f} {:>10} {:>12.0f} {:>10} {:>9}\n",
                           c["name"].get<std::string>(), c["gpus"].get<int>(), c["steps"].get<double>(),
                           c["wall_s"].get<double>(), c["events"].get<std::uint64_t>(), c["events_per_s"].get<double>(),
                           flows, rss);
      });
  training.subcommand->add_option("--case", *cases,
                                  "only these cases (repeatable); default: the standard set. Names: dp-1024-gpus-flow, "
                                  "llama3-70b-16384-gpus-analytic, flow-step-N-gpus (one Llama-3-405B-style step in "
                                  "flow mode on N GPUs, e.g. flow-step-16384-gpus, flow-step-131072-gpus), "
                                  "moe-flow-step-N-gpus (one DeepSeek-V3 step with its all-to-alls as flows, e.g. "
                                  "moe-flow-step-2048-gpus)");
  return training;
}

Command add_operations_bench(CLI::App& bench) {
  return add_cases_bench(
      bench, "operations",
      "operations at scale: 1e6 jobs under easy_backfill, Llama 3 405B for 54 days with faults, 131,072 GPUs for a "
      "year with hot spares, the fault process alone",
      bench::run_operations_bench, fmt::format("{:<40} {:>9} {:>9} {:>12}\n", "case", "wall_s", "rss_MB", "events"),
      [](const nlohmann::json& c) {
        return fmt::format("{:<40} {:>9.3f} {:>9.1f} {:>12}\n", c["name"].get<std::string>(), c["wall_s"].get<double>(),
                           c["peak_rss_mb"].get<double>(), c["events"].get<std::uint64_t>());
      });
}

Command add_inference_bench(CLI::App& bench) {
  return add_cases_bench(bench, "inference",
                         "serving at scale: 128 llama3-8b replicas at 1,000 requests/s for one simulated hour (target: "
                         "under 60 s and 4 GiB)",
                         bench::run_inference_bench,
                         fmt::format("{:<28} {:>9} {:>9} {:>12} {:>10} {:>12}\n", "case", "wall_s", "rss_MB", "events",
                                     "requests", "requests/s"),
                         [](const nlohmann::json& c) {
                           return fmt::format("{:<28} {:>9.3f} {:>9.1f} {:>12} {:>10.0f} {:>12.0f}\n",
                                              c["name"].get<std::string>(), c["wall_s"].get<double>(),
                                              c["peak_rss_mb"].get<double>(), c["events"].get<std::uint64_t>(),
                                              c["requests"].get<double>(), c["requests_per_wall_s"].get<double>());
                         });
}

Command add_storage_bench(CLI::App& bench) {
  return add_cases_bench(bench, "storage",
                         "one checkpoint of a 16,384-GPU job into a 100-host, 3-replica object store on the front-end "
                         "(target: under 5 s and 2 GiB)",
                         bench::run_storage_bench,
                         fmt::format("{:<24} {:>9} {:>9} {:>9} {:>9} {:>12}\n", "case", "wall_s", "rss_MB", "events",
                                     "flows", "write_s"),
                         [](const nlohmann::json& c) {
                           return fmt::format("{:<24} {:>9.3f} {:>9.1f} {:>9} {:>9.0f} {:>12.3f}\n",
                                              c["name"].get<std::string>(), c["wall_s"].get<double>(),
                                              c["peak_rss_mb"].get<double>(), c["events"].get<std::uint64_t>(),
                                              c["flows"].get<double>(), c["checkpoint_write_s"].get<double>());
                         });
}

Command add_economics_bench(CLI::App& bench) {
  struct Args {
    int repeats = 3;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* economics = bench.add_subcommand(
      "economics",
      "the same 30-day 1,024-GPU run without and with /economics: what pricing costs (target: within 10%)");
  economics->add_option("--repeats", args->repeats, "runs of each, alternately; the best of each counts")
      ->check(CLI::Range(1, 100));
  economics->add_flag("--json", args->json, "print one JSON object");
  return {economics, [args] {
            const auto r = bench::run_economics_bench(args->repeats);
            if (args->json) {
              std::cout << r.dump(2) << '\n';
              return 0;
            }
            std::cout << fmt::format("{:<20} {:>9} {:>12}\n", "case", "wall_s", "events");
            for (const auto& c : r["cases"]) {
              std::cout << fmt::format("{:<20} {:>9.3f} {:>12}\n", c["name"].get<std::string>(),
                                       c["wall_s"].get<double>(), c["events"].get<std::uint64_t>());
            }
            std::cout << fmt::format("on / off: {:.3f} (best of {} each; target under 1.10)\n",
                                     r["ratio"].get<double>(), r["repeats"].get<int>());
            return 0;
          }};
}

Command add_site_bench(CLI::App& bench) {
  struct Args {
    std::vector<int> gpus = {1024, 4096, 16384, 131072};
    double days = 30;
    bool json = false;
    std::string scenario;
    std::string output = "site-bench-out";
  };
  auto args = std::make_shared<Args>();
  auto* site =
      bench.add_subcommand("site",
                           "site-scaling: the site year's mix (trainings, a job stream, a chat fleet, a store, faults, "
                           "a D2C facility, economics) at 1,024 to 131,072 GPUs for 30 days: wall time "
                           "per simulated day and its exponent in the site's size (target: 1)");
  site->add_option("--gpus", args->gpus,
                   "site sizes in GPUs, each a multiple of 1,024 (default 1024 4096 16384 131072)")
      ->check(CLI::Validator(
          [](std::string& v) {
            const long g = std::strtol(v.c_str(), nullptr, 10);
            if (g >= 1024 && g <= 1'048'576 && g % 1024 == 0) return std::string();
            return "expected a multiple of 1,024 GPUs up to 1,048,576, got " + v;
          },
          "GPUS"));
  auto* days =
      site->add_option("--days", args->days, "simulated days per size (default 30)")->check(CLI::Range(0.01, 366.0));
  site->add_option("--scenario", args->scenario,
                   "run this site scenario file instead, as `dcsim run` does (site-131k-gpus-1-year: "
                   "scenarios/site/site-year-131k.json), its duration unless --days is given")
      ->check(CLI::ExistingFile);
  site->add_option("-o,--output", args->output, "with --scenario: the run's output directory (default site-bench-out)");
  site->add_flag("--json", args->json, "print one JSON object");
  return {site, [args, days] {
            if (!args->scenario.empty()) {
              const auto c =
                  bench::run_site_scenario_file(args->scenario, days->count() > 0 ? args->days : 0.0, args->output);
              if (args->json) {
                std::cout << c.dump(2) << '\n';
                return 0;
              }
              std::cout << fmt::format(
                  "{}: {:.4g} days in {:.1f} s ({:.3f} s per simulated day), {} events, peak RSS "
                  "{:.0f} MB, trace {:.0f} MB\n",
                  c["name"].get<std::string>(), c["days"].get<double>(), c["wall_s"].get<double>(),
                  c["s_per_day"].get<double>(), c["events"].get<std::uint64_t>(), c["peak_rss_mb"].get<double>(),
                  c["trace_mb"].get<double>());
              return 0;
            }
            const auto r = bench::run_site_bench(args->gpus, args->days);
            if (args->json) {
              std::cout << r.dump(2) << '\n';
              return 0;
            }
            std::cout << fmt::format("{:<28} {:>9} {:>10} {:>12} {:>9}\n", "case", "wall_s", "s/day", "events",
                                     "rss_mb");
            for (const auto& c : r["cases"]) {
              std::cout << fmt::format("{:<28} {:>9.2f} {:>10.3f} {:>12} {:>9.0f}\n", c["name"].get<std::string>(),
                                       c["wall_s"].get<double>(), c["s_per_day"].get<double>(),
                                       c["events"].get<std::uint64_t>(), c["peak_rss_mb"].get<double>());
            }
            if (!r["exponent"].is_null()) {
              std::cout << fmt::format(
                  "wall per simulated day ~ GPUs^{:.2f} (target 1: cost per event independent "
                  "of the site)\n",
                  r["exponent"].get<double>());
            }
            return 0;
          }};
}

Command add_sweep_bench(CLI::App& bench, const CommandContext& context) {
  struct Args {
    std::size_t variants = 100;
    std::size_t jobs = 0;
    std::string output = "out/bench-sweep";
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* sweep_cmd = bench.add_subcommand(
      "sweep",
      "a 100-variant sweep of a one-second scenario: wall time against the ideal (variant CPU time / cores; "
      "target within 15%); also under mpirun -np R");
  sweep_cmd->add_option("--variants", args->variants, "variants (replications of the bench scenario)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000}));
  sweep_cmd->add_option("-j,--jobs", args->jobs, "threads per rank (default: the cores / the ranks on this machine)");
  sweep_cmd->add_option("-o,--output", args->output, "scratch folder, emptied first (default out/bench-sweep)");
  sweep_cmd->add_flag("--json", args->json, "print one JSON object");
  return {sweep_cmd, [args, &context] {
            const sweep::MpiWorld world;
            const std::size_t jobs =
                args->jobs > 0
                    ? args->jobs
                    : std::max<std::size_t>(1, sweep::core_count() / static_cast<std::size_t>(world.local_size()));
            const auto r = bench::run_sweep_bench(context.registries, world, args->variants, jobs, args->output);
            if (world.rank() != 0) return 0;
            if (args->json) {
              std::cout << r.dump() << '\n';
              return 0;
            }
            std::cout << fmt::format(
                "sweep: {} variants, {} ranks x {} threads ({} workers)\n  wall          {:8.2f} s\n"
                "  variant CPU   {:8.2f} s ({:.3f} s each)\n  ideal         {:8.2f} s (CPU / workers)\n"
                "  ratio         {:8.3f} (target <= 1.15)\n  process CPU   {:8.2f} s ({:.3f} x the variants')\n"
                "  queued        {:8.2f} s (variant threads waiting for a core other processes held)\n"
                "  ratio less queueing {:8.3f} (the wall less the mean wait per worker, over the ideal)\n"
                "  blocked       {:8.2f} s (variant threads neither running nor queued: fsync, HDF5 lock, reads)\n",
                r["variants"].get<std::size_t>(), r["ranks"].get<int>(), r["jobs"].get<std::size_t>(),
                r["workers"].get<std::size_t>(), r["wall_s"].get<double>(), r["variant_cpu_s"].get<double>(),
                r["mean_variant_cpu_s"].get<double>(), r["ideal_s"].get<double>(), r["ratio"].get<double>(),
                r["process_cpu_s"].get<double>(), r["cpu_overhead"].get<double>(), r["queued_s"].get<double>(),
                r["ratio_without_queueing"].get<double>(), r["blocked_s"].get<double>());
            const double load = std::max(r["load_average_before"].get<double>(), r["load_average_after"].get<double>());
            if (load > static_cast<double>(r["cores"].get<std::size_t>())) {
              std::cout << fmt::format(
                  "  note: the machine was busy (load average {:.1f} on {} cores): the wall ratio "
                  "measures the other processes too; the process CPU ratio does not\n",
                  load, r["cores"].get<std::size_t>());
            }
            return 0;
          }};
}

Command add_design_bench(CLI::App& bench, const CommandContext& context) {
  auto json = std::make_shared<bool>(false);
  auto jobs = std::make_shared<std::size_t>(0);
  auto* design = bench.add_subcommand(
      "design",
      "design search: bayesian-vs-grid (4,320 Llama 3 70B training designs priced by the step model; target: within "
      "1% of the grid's optimum in at most 10% of its evaluations, median of 10 seeds) and "
      "grid-1000-designs-training (`dcsim design`'s whole path over 1,000 designs of a 1,024-GPU site at analytic "
      "fidelity; target: under 2 minutes on 2 cores)");
  design->add_flag("--json", *json, "print a JSON array of cases");
  design->add_option("-j,--jobs", *jobs, "threads for grid-1000-designs-training (default: the core count)");
  return {design, [json, jobs, &context] {
            auto cases = bench::run_design_bench();
            const auto grid =
                bench::run_design_grid_bench(context.registries,
                                             *jobs > 0 ? *jobs : std::max<std::size_t>(1, sweep::core_count()));
            if (*json) {
              for (const auto& c : grid) cases.push_back(c);
              std::cout << cases.dump(2) << '\n';
              return 0;
            }
            const auto fmt_count = [](const nlohmann::json& v) {
              return v.is_null() ? std::string("-") : fmt::format("{:.0f}", v.get<double>());
            };
            for (const auto& c : grid) {
              const auto& e = c["efficiency_100_designs"];
              std::cout << fmt::format(
                  "{}: {} designs ({} feasible, {} infeasible, {} pruned before running, {} failed), plan {}, in "
                  "{:.1f} s on {} threads ({:.0f} ms a design{}; target {} s); best {:.4f} USD per million tokens; the "
                  "first 100 designs on 1 and 2 threads: {:.1f} s and {:.1f} s, efficiency {:.0f}%\n",
                  c["name"].get<std::string>(), c["designs"].get<std::size_t>(), c["feasible"].get<std::size_t>(),
                  c["infeasible"].get<std::size_t>(), c["pruned"].get<std::size_t>(), c["failed"].get<std::size_t>(),
                  c["plan"].get<std::string>(), c["wall_s"].get<double>(), c["jobs"].get<std::size_t>(),
                  c["ms_per_design"].get<double>(),
                  c["plans_evaluated_per_design"].is_null()
                      ? std::string()
                      : fmt::format(", {:.0f} plans estimated each", c["plans_evaluated_per_design"].get<double>()),
                  c["target_wall_s"].get<int>(), c["best_usd_per_million_tokens"].get<double>(),
                  e["wall_1_thread_s"].get<double>(), e["wall_2_threads_s"].get<double>(),
                  100.0 * e["efficiency"].get<double>());
            }
            for (const auto& c : cases) {
              std::cout << fmt::format("{}: {}\n", c["name"].get<std::string>(), c["measured"].get<std::string>());
              std::cout << fmt::format(
                  "  grid: {} evaluations ({} feasible) in {:.2f} s ({:.0f} us each); optimum {:.4f} USD per "
                  "million tokens at {}\n",
                  c["grid_evaluations"].get<std::size_t>(), c["feasible"].get<std::size_t>(),
                  c["grid_wall_s"].get<double>(), c["step_model_us_per_evaluation"].get<double>(),
                  c["optimum_usd_per_million_tokens"].get<double>(), c["optimum"].dump());
              std::cout << fmt::format(
                  "  {:<10} {:>7} {:>8} {:>7} {:>7} {:>7}   median gap to the optimum after 1/2/5/10% "
                  "of the grid\n",
                  "strategy", "budget", "reached", "median", "min", "max");
              for (const auto& s : c["strategies"]) {
                std::string curve;
                for (const auto& p : s["curve"])
                  curve += fmt::format(" {:7.2f}%", 100.0 * p["median_gap"].get<double>());
                std::cout << fmt::format("  {:<10} {:>7} {:>5}/{:<2} {:>7} {:>7} {:>7}  {}\n",
                                         s["strategy"].get<std::string>(), s["budget"].get<std::size_t>(),
                                         s["reached"].get<std::size_t>(), s["seeds"].get<int>(),
                                         fmt_count(s["evaluations_median"]), fmt_count(s["evaluations_min"]),
                                         fmt_count(s["evaluations_max"]), curve);
              }
              std::cout << fmt::format("  target: median evaluations to within 1% <= {} (10% of the grid)\n",
                                       c["target_evaluations"].get<std::size_t>());
            }
            return 0;
          }};
}

}  // namespace

Command add_bench_command(CLI::App& app, const CommandContext& context) {
  auto* cmd = app.add_subcommand("bench", "benchmarks (wall-clock figures; run on a quiet machine)");
  cmd->require_subcommand(1);
  // Registration order is `dcsim bench --help`'s order.
  std::vector<Command> benches = {
      add_engine_bench(*cmd),   add_fabric_bench(*cmd),          add_facility_bench(*cmd),
      add_training_bench(*cmd), add_operations_bench(*cmd),      add_inference_bench(*cmd),
      add_storage_bench(*cmd),  add_economics_bench(*cmd),       add_sweep_bench(*cmd, context),
      add_site_bench(*cmd),     add_design_bench(*cmd, context),
  };
  return {cmd, [benches = std::move(benches)] {
            for (const Command& b : benches) {
              if (*b.subcommand) return b.action();
            }
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
