#include "tools/cli/run_report.hpp"

#include <cmath>

#include <fmt/format.h>

namespace dcsim::tools::cli {

namespace {

double number_at(const nlohmann::json& j, const char* pointer) {
  const nlohmann::json::json_pointer p(pointer);
  return j.contains(p) && j.at(p).is_number() ? j.at(p).get<double>() : 0.0;
}

std::string hours(double seconds) {
  return seconds >= 3600 ? fmt::format("{:.2f} h", seconds / 3600) : fmt::format("{:.1f} min", seconds / 60);
}

// Flow times are micro- to milliseconds: print them in the unit that keeps 3 significant digits.
std::string short_time(double seconds) {
  if (seconds >= 1) return fmt::format("{:.3f} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3f} ms", seconds * 1e3);
  return fmt::format("{:.3f} us", seconds * 1e6);
}

std::string short_bytes(double bytes) {
  if (bytes >= 1e9) return fmt::format("{:.3f} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.3f} MB", bytes / 1e6);
  return fmt::format("{:.0f} B", bytes);
}

std::string fabric_lines(const nlohmann::json& s) {
  std::string out;
  // The bill of materials in one line: what the fabric costs next to what it delivered.
  out += fmt::format("  fabric      {:.0f} switches, {:.0f} cables ({:.0f} transceivers), {:.0f} NIC ports\n",
                     number_at(s, "/network/switches"), number_at(s, "/network/cables"),
                     number_at(s, "/network/transceivers"), number_at(s, "/network/nic_ports"));
  out += fmt::format("  network     {:.0f} flows completed, {:.0f} failed; makespan {}\n",
                     number_at(s, "/network/flows_completed"), number_at(s, "/network/flows_failed"),
                     short_time(number_at(s, "/network/makespan_s")));
  out += fmt::format("  flow times  p50 {}, p99 {}, max {}\n", short_time(number_at(s, "/network/fct_p50_s")),
                     short_time(number_at(s, "/network/fct_p99_s")), short_time(number_at(s, "/network/fct_max_s")));
  out += fmt::format("  links       utilisation mean {:.1f}%, max {:.1f}%\n",
                     100 * number_at(s, "/network/link_utilisation_mean"),
                     100 * number_at(s, "/network/link_utilisation_max"));
  out += fmt::format("  bytes       {} sent, {} delivered\n", short_bytes(number_at(s, "/network/bytes_sent")),
                     short_bytes(number_at(s, "/network/bytes_delivered")));
  return out;
}

// One line per training job the scenario names (its summary row in /jobs): what it trained and how
// fast, the figures a training run is judged by. The first kMaxTrainingLines; the rest counted.
std::string training_lines(const nlohmann::json& s) {
  constexpr int kMaxTrainingLines = 8;
  if (!s.contains("jobs") || !s.at("jobs").is_array()) return "";
  std::string out;
  int shown = 0;
  int more = 0;
  for (const auto& job : s.at("jobs")) {
    if (!job.contains("mfu") || !job.at("mfu").is_number()) continue;  // not a training job
    if (shown == kMaxTrainingLines) {
      ++more;
      continue;
    }
    ++shown;
    const std::string state = job.value("state", "");
    const double steps = job.value("steps_done", 0.0);
    const std::string progress = state == "done" ? fmt::format("done, {:.0f} steps", steps)
                                                 : fmt::format("{} ({:.0f} whole steps done)", state, std::floor(steps));
    out += fmt::format("  training    {}: step {:.3f} s, {:.1f}k tokens/s, {:.0f} TFLOP/s per GPU, MFU {:.1f}%; {}\n",
                       job.value("name", "?"), job.value("step_time_s", 0.0), job.value("tokens_per_s", 0.0) / 1e3,
                       job.value("tflops_per_gpu", 0.0), 100 * job.value("mfu", 0.0), progress);
  }
  if (more > 0) out += fmt::format("  training    ... and {} more training jobs (summary.json /jobs)\n", more);
  return out;
}

// Jobs that did not finish, said plainly: a script reading only the headline must not mistake an
// unfinished run for a finished one.
std::string unfinished_line(const nlohmann::json& s) {
  const double unfinished = number_at(s, "/workload/jobs_unfinished");
  const double failed = number_at(s, "/workload/jobs_failed");
  if (unfinished <= 0 && failed <= 0) return "";
  std::string what;
  const auto jobs = [](double n) { return fmt::format("{:.0f} job{}", n, n == 1 ? "" : "s"); };
  if (unfinished > 0) what = jobs(unfinished) + " still waiting or running when the run ended";
  if (failed > 0) what += (what.empty() ? "" : "; ") + jobs(failed) + " failed (the failover policy gave up)";
  return "  not done    " + what + "\n";
}

// Money in the unit that keeps it readable: a one-node month is thousands, a fleet millions.
std::string short_usd(double usd) {
  if (usd >= 1e6) return fmt::format("${:.3f}M", usd / 1e6);
  if (usd >= 1e3) return fmt::format("${:.1f}k", usd / 1e3);
  return fmt::format("${:.2f}", usd);
}

// Owning against each cloud option: TCO, $/GPU-hour and (training jobs) $/million tokens, then
// the break-even month.
std::string cost_lines(const scenario::Scenario& scenario, const nlohmann::json& s) {
  const auto option = [&](const std::string& name) {
    const auto unit_cost = [&](const char* key, const char* format) -> std::string {
      const nlohmann::json::json_pointer p("/cost/" + name + "/" + key);
      return s.contains(p) && s.at(p).is_number() ? fmt::format(fmt::runtime(format), s.at(p).get<double>()) : "";
    };
    std::string per_unit = unit_cost("usd_per_gpu_hour", "${:.2f}/GPU-h");
    if (per_unit.empty()) per_unit = "no GPU-hours delivered";
    if (const auto per_token = unit_cost("usd_per_million_tokens", "${:.3f}/M tokens"); !per_token.empty()) {
      per_unit += ", " + per_token;
    }
    return fmt::format("{} {} ({})", name, short_usd(number_at(s, ("/cost/" + name + "/tco_usd").c_str())), per_unit);
  };
  std::string out = fmt::format("  cost        {}", option("owned"));
  for (const auto& c : scenario.economics->ledger.cloud) out += "; " + option(c.offer.name);
  out += "\n";
  const nlohmann::json::json_pointer be("/cost/break_even_month");
  if (s.contains(be)) {
    out += fmt::format("  break-even  {} (owned vs {}), over {:.0f} months, {:.0f} GPU-hours delivered\n",
                       s.at(be).is_number() ? fmt::format("month {}", s.at(be).get<std::int64_t>()) : "never",
                       scenario.economics->ledger.cloud.front().offer.name, number_at(s, "/cost/months"),
                       number_at(s, "/cost/delivered_gpu_hours"));
  }
  // A hybrid run: what the cloud pool did and cost beside the owned side.
  if (s.contains(nlohmann::json::json_pointer("/cost/burst/usd"))) {
    out += fmt::format("  burst       {:.0f} jobs, {:.0f} GPU-hours in the cloud ({:.0f} instance-hours, {:.0f} spot "
                       "preemptions): {}; hybrid {} (${:.2f}/GPU-h)\n",
                       number_at(s, "/workload/burst/jobs"), number_at(s, "/cost/burst/gpu_hours"),
                       number_at(s, "/cost/burst/instance_hours"), number_at(s, "/workload/spot_preemptions"),
                       short_usd(number_at(s, "/cost/burst/usd")), short_usd(number_at(s, "/cost/hybrid/tco_usd")),
                       number_at(s, "/cost/hybrid/usd_per_gpu_hour"));
  }
  return out;
}

// What crossed the site's uplink and whether its ports kept up.
std::string uplink_line(const nlohmann::json& s) {
  const nlohmann::json::json_pointer binds("/uplink/binds_day");
  const std::string when = s.contains(binds) && s.at(binds).is_number()
                               ? fmt::format("binds on day {}", s.at(binds).get<std::int64_t>())
                               : std::string("never binds");
  // Jobs that waited for staging space are where a too-slow port costs training time.
  const nlohmann::json::json_pointer stall("/uplink/job_stall_s");
  const double stall_s = s.contains(stall) ? s.at(stall).get<double>() : 0.0;
  const std::string stalled = stall_s > 0 ? fmt::format("; jobs stalled {} for staging", hours(stall_s)) : "";
  return fmt::format("  uplink      {:.1f} TB out, {:.1f} TB in at {:.0f} Gb/s; busiest day {:.1f}%; {}; longest "
                     "transfer {}{}\n",
                     number_at(s, "/uplink/out_bytes") / 1e12, number_at(s, "/uplink/in_bytes") / 1e12,
                     number_at(s, "/uplink/capacity_bps") / 1e9, 100 * number_at(s, "/uplink/out_utilisation_peak_day"),
                     when, hours(number_at(s, "/uplink/transfer_time_max_s")), stalled);
}

}  // namespace

std::string headline_report(const scenario::Scenario& scenario, const run::RunOutputs& outputs) {
  const auto& s = outputs.summary;
  std::string out = fmt::format("{} (seed {})\n", scenario.name, scenario.seed);
  // Writing the outputs is part of what the user waited for (25,000 rack series took 46 s).
  out += fmt::format("  simulated   {} in {:.3f} s of wall time ({} events), outputs written in {:.3f} s\n",
                     outputs.stats.simulated_s >= 60 ? hours(outputs.stats.simulated_s) : short_time(outputs.stats.simulated_s),
                     outputs.stats.wall_s, outputs.stats.events, outputs.stats.write_s);
  if (scenario.has_cluster) {
    out += fmt::format("  IT energy   {:.1f} kWh\n", number_at(s, "/energy/it_kwh"));
    out += fmt::format("  IT power    mean {:.1f} kW, peak {:.1f} kW, peak rack {:.1f} kW\n",
                       number_at(s, "/power/mean_w") / 1e3, number_at(s, "/power/peak_w") / 1e3,
                       number_at(s, "/power/peak_rack_w") / 1e3);
    const double completed = number_at(s, "/workload/jobs_completed");
    out += fmt::format("  jobs        {:.0f} of {:.0f} completed; mean wait {}; {}\n", completed,
                       number_at(s, "/workload/jobs_total"), hours(number_at(s, "/workload/mean_wait_s")),
                       completed > 0 ? "mean completion " + hours(number_at(s, "/workload/mean_completion_s"))
                                     : std::string("none completed"));
    out += unfinished_line(s);
    out += fmt::format("  nodes busy  {:.1f}% of node-time; {}\n", 100 * number_at(s, "/utilization/node_busy_fraction"),
                       completed > 0 ? "makespan " + hours(number_at(s, "/makespan_s"))
                           : std::string("no job completed, so no makespan"));
    out += training_lines(s);
    for (const auto& t : scenario.traces) out += fmt::format("  trace       {}: {}\n", t.name, t.summary);
    // What faults cost, where a run has any (the question a reliability scenario asks).
    if (scenario.reliability) {
      const nlohmann::json::json_pointer effective("/goodput/effective_training_fraction");
      out += fmt::format("  faults      {:.0f} faults, {:.0f} job interruptions; goodput {:.1f}%{}\n",
                         number_at(s, "/reliability/faults_total"), number_at(s, "/reliability/interruptions_total"),
                         100 * number_at(s, "/goodput/fraction"),
                         s.contains(effective) ? fmt::format(", effective training {:.1f}%", 100 * s.at(effective).get<double>())
                                               : std::string());
    }
  }
  if (scenario.facility) {
    out += fmt::format("  facility    PUE {:.3f} (energy-weighted); {:.1f} kWh total for {:.1f} kWh IT\n",
                       number_at(s, "/facility/pue"), number_at(s, "/facility/total_energy_kwh"),
                       number_at(s, "/facility/it_energy_kwh"));
    out += fmt::format("  thermal     hottest GPU {:.1f} C; {:.0f} GPU-seconds throttled\n",
                       number_at(s, "/thermal/max_gpu_c"), number_at(s, "/thermal/throttled_gpu_s"));
  }
  if (scenario.fabric) out += fabric_lines(s);
  if (scenario.uplink && (!scenario.uplink->streams.empty() || scenario.uplink->checkpoint_copies)) {
    out += uplink_line(s);
  }
  if (scenario.economics) out += cost_lines(scenario, s);
  out += fmt::format("  outputs     {}, {}\n", outputs.trace_file.string(), outputs.summary_file.string());
  return out;
}

}  // namespace dcsim::tools::cli
