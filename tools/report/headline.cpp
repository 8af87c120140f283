#include "tools/report/headline.hpp"

#include <fmt/format.h>

#include <cmath>

#include "models/economics/capex.hpp"

namespace dcsim::tools::report {

namespace {

using Lines = std::vector<HeadlineLine>;

double number_at(const nlohmann::json& j, const char* pointer) {
  const nlohmann::json::json_pointer p(pointer);
  return j.contains(p) && j.at(p).is_number() ? j.at(p).get<double>() : 0.0;
}

std::string short_bytes(double bytes) {
  if (bytes >= 1e9) return fmt::format("{:.3f} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.3f} MB", bytes / 1e6);
  return fmt::format("{:.0f} B", bytes);
}

void add_fabric(Lines& out, const HeadlineFacts& facts, const nlohmann::json& s) {
  // The bill of materials in one line: what the fabric costs next to what it delivered.
  out.push_back(
      {"fabric",
       fmt::format("{:.0f} switches, {:.0f} cables ({:.0f} transceivers), {:.0f} NIC ports",
                   number_at(s, "/network/switches"), number_at(s, "/network/cables"),
                   number_at(s, "/network/transceivers"), number_at(s, "/network/nic_ports"))});
  // A fabric with more hosts than the cluster has nodes is priced as built: say so.
  const double hosts = number_at(s, "/network/hosts");
  if (facts.cluster_nodes > 0 && hosts > facts.cluster_nodes) {
    out.push_back({"", fmt::format("built for {:.0f} hosts, {:.0f} of them cluster nodes: the other {:.0f} are "
                                   "priced as built",
                                   hosts, facts.cluster_nodes, hosts - facts.cluster_nodes)});
  }
  // Batch jobs (and closed-form training) put no flow on it: four lines of zeros say nothing.
  if (number_at(s, "/network/flows_completed") + number_at(s, "/network/flows_failed") <= 0) {
    out.push_back({"network", "no flow crossed the fabric in this run"});
    return;
  }
  out.push_back({"network", fmt::format("{:.0f} flows completed, {:.0f} failed; makespan {}",
                                        number_at(s, "/network/flows_completed"),
                                        number_at(s, "/network/flows_failed"),
                                        short_time_text(number_at(s, "/network/makespan_s")))});
  out.push_back({"flow times", fmt::format("p50 {}, p99 {}, max {}",
                                           short_time_text(number_at(s, "/network/fct_p50_s")),
                                           short_time_text(number_at(s, "/network/fct_p99_s")),
                                           short_time_text(number_at(s, "/network/fct_max_s")))});
  out.push_back({"links", fmt::format("utilisation mean {:.1f}%, max {:.1f}%",
                                      100 * number_at(s, "/network/link_utilisation_mean"),
                                      100 * number_at(s, "/network/link_utilisation_max"))});
  out.push_back({"bytes", fmt::format("{} sent, {} delivered",
                                      short_bytes(number_at(s, "/network/bytes_sent")),
                                      short_bytes(number_at(s, "/network/bytes_delivered")))});
}

// The front-end network in one line: what it is built of and what crossed it (checkpoints).
// What the store did and what it cost the jobs: saves and restart reads, the time jobs waited on
// it (checkpoints and reads, and their input), and its faults.
void add_storage(Lines& out, const nlohmann::json& s) {
  const auto waited = [](double seconds) {
    return seconds <= 0 ? std::string("0 s") : seconds >= 600 ? hours_text(seconds) : short_time_text(seconds);
  };
  const double waited_gpu_h = number_at(s, "/storage/stall_gpu_h") + number_at(s, "/storage/data_stall_gpu_h");
  out.push_back({"storage", fmt::format("{:.0f} OSD hosts; {:.0f} saves (p50 {}, max {}), {:.0f} restart reads; jobs "
                                        "waited {} on saves and reads, {} for input ({:.1f} GPU-h); {:.0f} host "
                                        "failures, {:.0f} OSD failures",
                                        number_at(s, "/storage/osd_hosts"), number_at(s, "/storage/checkpoint_writes"),
                                        short_time_text(number_at(s, "/storage/checkpoint_write_s_p50")),
                                        short_time_text(number_at(s, "/storage/checkpoint_write_s_max")),
                                        number_at(s, "/storage/checkpoint_reads"),
                                        waited(number_at(s, "/storage/stall_s")),
                                        waited(number_at(s, "/storage/data_stall_s")), waited_gpu_h,
                                        number_at(s, "/storage/host_failures"),
                                        number_at(s, "/storage/osd_failures"))});
}

// NVMe-oF targets: what the checkpoints to them took, and the CPU TCP spent moving them.
void add_nvmeof(Lines& out, const nlohmann::json& s) {
  out.push_back({"nvmeof", fmt::format("{:.0f} targets over {}; {:.0f} saves (p50 {}, max {}), {:.0f} restart reads "
                                       "(max {}); {:.0f} + {:.0f} core-s on nodes + targets",
                                       number_at(s, "/nvmeof/targets"), s.value("/nvmeof/transport"_json_pointer,
                                                                                 std::string("?")),
                                       number_at(s, "/nvmeof/checkpoint_writes"),
                                       short_time_text(number_at(s, "/nvmeof/checkpoint_write_s_p50")),
                                       short_time_text(number_at(s, "/nvmeof/checkpoint_write_s_max")),
                                       number_at(s, "/nvmeof/checkpoint_reads"),
                                       short_time_text(number_at(s, "/nvmeof/checkpoint_read_s_max")),
                                       number_at(s, "/nvmeof/host_core_s"), number_at(s, "/nvmeof/target_core_s"))});
}

// Silent corruption, where the scenario can have any: how much was caught, and what was not.
void add_integrity(Lines& out, const nlohmann::json& s) {
  if (!s.contains("integrity")) return;
  out.push_back({"integrity", fmt::format("{:.0f} GPU corruptions reached {:.0f} jobs: {:.0f} caught, {:.0f} "
                                          "missed; {:.0f} corrupt checkpoints found by checksums; {:.0f} jobs ended "
                                          "on wrong state, {:.0f} still on it",
                                          number_at(s, "/integrity/sdc_faults"),
                                          number_at(s, "/integrity/jobs_corrupted"), number_at(s, "/integrity/caught"),
                                          number_at(s, "/integrity/missed"),
                                          number_at(s, "/integrity/corrupt_checkpoint_fallbacks"),
                                          number_at(s, "/integrity/wrong_results"),
                                          number_at(s, "/integrity/corrupted_at_end"))});
}

void add_frontend(Lines& out, const nlohmann::json& s) {
  out.push_back({"frontend", fmt::format("{:.0f} switches, {:.0f} cables, {:.0f} NIC ports; {:.0f} flows ({:.0f} "
                                         "failed), {} delivered",
                                         number_at(s, "/frontend/switches"), number_at(s, "/frontend/cables"),
                                         number_at(s, "/frontend/nic_ports"),
                                         number_at(s, "/frontend/flows_completed"),
                                         number_at(s, "/frontend/flows_failed"),
                                         short_bytes(number_at(s, "/frontend/bytes_delivered")))});
}

// One line per training job the scenario names (its summary row in /jobs): what it trained and how
// fast, the figures a training run is judged by. The first kMaxTrainingLines; the rest counted.
void add_training(Lines& out, const nlohmann::json& s) {
  constexpr int kMaxTrainingLines = 8;
  if (!s.contains("jobs") || !s.at("jobs").is_array()) return;
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
    const std::string progress =
        state == "done" ? fmt::format("done, {:.0f} steps", steps)
                        : fmt::format("{} ({:.0f} whole steps done)", state, std::floor(steps));
    // MoE jobs: their exposed expert all-to-alls (measured in flow mode), the figure fabric
    // choices move (issue 41).
    const std::string name = job.value("name", "?");
    std::string ep;
    if (s.contains("training") && s.at("training").contains("jobs") && s.at("training").at("jobs").contains(name)) {
      const nlohmann::json& moe = s.at("training").at("jobs").at(name);
      if (moe.contains("exposed_ep_s") && moe.at("exposed_ep_s").is_number()) {
        ep = fmt::format(", all-to-all {:.3f} s exposed", moe.at("exposed_ep_s").get<double>());
      }
    }
    out.push_back(
        {"training", fmt::format("{}: step {:.3f} s{}, {:.1f}k tokens/s, {:.0f} TFLOP/s per GPU, MFU {:.1f}%; {}", name,
                                 job.value("step_time_s", 0.0), ep, job.value("tokens_per_s", 0.0) / 1e3,
                                 job.value("tflops_per_gpu", 0.0), 100 * job.value("mfu", 0.0), progress)});
  }
  if (more > 0)
    out.push_back(
        {"training", fmt::format("... and {} more training jobs (summary.json /jobs)", more)});
}

// Jobs that did not finish, said plainly: a script reading only the headline must not mistake an
// unfinished run for a finished one.
void add_unfinished(Lines& out, const nlohmann::json& s) {
  const double unfinished = number_at(s, "/workload/jobs_unfinished");
  const double failed = number_at(s, "/workload/jobs_failed");
  std::string what;
  const auto jobs = [](double n) { return fmt::format("{:.0f} job{}", n, n == 1 ? "" : "s"); };
  if (unfinished > 0) what = jobs(unfinished) + " still waiting or running when the run ended";
  if (failed > 0)
    what += (what.empty() ? "" : "; ") + jobs(failed) + " failed (the failover policy gave up)";
  if (!what.empty()) out.push_back({"not done", what});
  // Generated or trace jobs due after the end were never part of the run: said apart.
  const double not_arrived = number_at(s, "/workload/jobs_not_arrived");
  if (not_arrived > 0) out.push_back({"not arrived", jobs(not_arrived) + " never arrived before the end"});
}

// The period priced, and the warning when the run covers too little of it.
void add_priced_period(Lines& out, const nlohmann::json& s) {
  const nlohmann::json::json_pointer basis("/cost/priced_period_basis");
  if (!s.contains(basis) || !s.at(basis).is_string()) return;
  const double priced_s = number_at(s, "/cost/priced_period_s");
  const double simulated_s = number_at(s, "/cost/simulated_s");
  const std::string period =
      fmt::format("{} ({:.0f} billing month{})", span_text(priced_s), number_at(s, "/cost/months"),
                  number_at(s, "/cost/months") == 1 ? "" : "s");
  if (s.at(basis).get<std::string>() == "horizon") {
    out.push_back({"priced", fmt::format("{}, the horizon asked for; the run simulated {} of it ({:.3g}%), {} "
                                         "kWh of energy priced after it at its last power",
                                         period, span_text(simulated_s),
                                         100 * number_at(s, "/cost/simulated_fraction"),
                                         grouped(number_at(s, "/cost/energy_after_run_kwh"), 0))});
  } else {
    out.push_back({"priced", period + ", the run's own span"});
  }
  const nlohmann::json::json_pointer warning("/cost/warning");
  if (s.contains(warning) && s.at(warning).is_string()) {
    out.push_back({"WARNING", s.at(warning).get<std::string>()});
  }
}

// Money split into its parts, "label $1,234" each, zero parts left out.
std::string parts_text(const nlohmann::json& s, const std::string& base, const CostLabels& parts) {
  std::string text;
  for (const auto& [key, label] : parts) {
    const nlohmann::json::json_pointer p(base + key);
    if (!s.contains(p) || !s.at(p).is_number() || s.at(p).get<double>() == 0.0) continue;
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", label, usd_text(s.at(p).get<double>()));
  }
  return text;
}

// Owning against each cloud option: TCO, $/GPU-hour and (training jobs) $/million tokens; the
// break-even month against each offer; the capex and owned TCO by category.
void add_costs(Lines& out, const HeadlineFacts& facts, const nlohmann::json& s) {
  add_priced_period(out, s);
  const auto option = [&](const std::string& name) {
    const auto unit_cost = [&](const char* key, int decimals, const char* unit) -> std::string {
      const nlohmann::json::json_pointer p("/cost/" + name + "/" + key);
      return s.contains(p) && s.at(p).is_number() ? usd_text(s.at(p).get<double>(), decimals) + unit : "";
    };
    std::string per_unit = unit_cost("usd_per_gpu_hour", 2, "/GPU-h");
    if (per_unit.empty()) per_unit = "no GPU-hours delivered";
    if (const auto per_token = unit_cost("usd_per_million_tokens", 3, "/M tokens"); !per_token.empty()) {
      per_unit += ", " + per_token;
    }
    return fmt::format("{} {} ({})", name,
                       short_usd_text(number_at(s, ("/cost/" + name + "/tco_usd").c_str())),
                       per_unit);
  };
  std::string cost = option("owned");
  for (const auto& name : facts.cloud_options) cost += "; " + option(name);
  out.push_back({"cost", cost});
  // Against every offer: each its own break-even month.
  std::string break_even;
  for (const auto& name : facts.cloud_options) {
    const nlohmann::json::json_pointer p("/cost/" + name + "/break_even_month");
    if (!s.contains(p)) continue;
    break_even += fmt::format("{}{} {}", break_even.empty() ? "" : ", ", name,
                              s.at(p).is_number() ? fmt::format("in month {}", s.at(p).get<std::int64_t>()) : "never");
  }
  if (!break_even.empty()) {
    out.push_back({"break-even", fmt::format("owning catches up with {}; {} GPU-hours delivered", break_even,
                                             grouped(number_at(s, "/cost/delivered_gpu_hours"), 0))});
  }
  const std::string capex = parts_text(s, "/cost/capex/", capex_category_labels());
  if (!capex.empty()) {
    out.push_back({"capex", fmt::format("{}: {}", usd_text(number_at(s, "/cost/capex_usd")), capex)});
  }
  const std::string owned = parts_text(s, "/cost/owned/breakdown/", tco_item_labels());
  if (!owned.empty()) out.push_back({"owned TCO", owned});
  // A hybrid run: what the cloud pool did and cost beside the owned side.
  if (s.contains(nlohmann::json::json_pointer("/cost/burst/usd"))) {
    out.push_back(
        {"burst",
         fmt::format(
             "{:.0f} jobs, {:.0f} GPU-hours in the cloud ({:.0f} instance-hours, {:.0f} spot "
             "preemptions): {}; hybrid {} (${:.2f}/GPU-h)",
             number_at(s, "/workload/burst/jobs"), number_at(s, "/cost/burst/gpu_hours"),
             number_at(s, "/cost/burst/instance_hours"), number_at(s, "/workload/spot_preemptions"),
             short_usd_text(number_at(s, "/cost/burst/usd")),
             short_usd_text(number_at(s, "/cost/hybrid/tco_usd")),
             number_at(s, "/cost/hybrid/usd_per_gpu_hour"))});
  }
}

// What crossed the site's uplink and whether its ports kept up.
void add_uplink(Lines& out, const nlohmann::json& s) {
  const nlohmann::json::json_pointer binds("/uplink/binds_day");
  const std::string when = s.contains(binds) && s.at(binds).is_number()
                               ? fmt::format("binds on day {}", s.at(binds).get<std::int64_t>())
                               : std::string("never binds");
  // Jobs that waited for staging space are where a too-slow port costs training time.
  const nlohmann::json::json_pointer stall("/uplink/job_stall_s");
  const double stall_s = s.contains(stall) ? s.at(stall).get<double>() : 0.0;
  const std::string stalled =
      stall_s > 0 ? fmt::format("; jobs stalled {} for staging", hours_text(stall_s)) : "";
  out.push_back(
      {"uplink",
       fmt::format("{:.1f} TB out, {:.1f} TB in at {:.0f} Gb/s; busiest day {:.1f}%; {}; longest "
                   "transfer {}{}",
                   number_at(s, "/uplink/out_bytes") / 1e12,
                   number_at(s, "/uplink/in_bytes") / 1e12,
                   number_at(s, "/uplink/capacity_bps") / 1e9,
                   100 * number_at(s, "/uplink/out_utilisation_peak_day"), when,
                   hours_text(number_at(s, "/uplink/transfer_time_max_s")), stalled)});
}

// Per inference service: what it answered and how fast, what its SLA and fleet came to.
void add_inference(Lines& out, const HeadlineFacts& facts, const nlohmann::json& s) {
  constexpr std::size_t kMaxServiceLines = 8;
  for (std::size_t i = 0; i < facts.services.size() && i < kMaxServiceLines; ++i) {
    const std::string& name = facts.services[i];
    // Looked up by key, not by a JSON pointer: a service name may hold '~'.
    const nlohmann::json* svc = nullptr;
    if (s.contains("inference") && s.at("inference").contains(name)) svc = &s.at("inference").at(name);
    const auto value = [&](const char* key) {
      return svc != nullptr && svc->contains(key) && svc->at(key).is_number() ? svc->at(key).get<double>() : 0.0;
    };
    out.push_back({"serving", fmt::format("{}: {:.0f} requests answered, {:.0f} rejected (never fit), {:.0f} still "
                                          "in the system at the end; SLA met by {:.1f}%; {:.0f} output tokens/s",
                                          name, value("requests"), value("rejected"), value("unfinished"),
                                          100 * value("sla_attainment"), value("output_tokens_per_s"))});
    out.push_back({"latency", fmt::format("{}: TTFT p50 {}, p99 {}; TPOT p50 {}, p99 {}", name,
                                          short_time_text(value("ttft_p50_s")), short_time_text(value("ttft_p99_s")),
                                          short_time_text(value("tpot_p50_s")),
                                          short_time_text(value("tpot_p99_s")))});
    out.push_back({"replicas", fmt::format("{}: min {:.0f}, mean {:.2f}, max {:.0f} serving; {:.0f} scale-ups, {:.0f} "
                                           "scale-downs; {:.1f} GPU-hours",
                                           name, value("replicas_min"), value("replicas_mean"),
                                           value("replicas_max"), value("scale_ups"), value("scale_downs"),
                                           value("gpu_hours"))});
  }
  if (facts.services.size() > kMaxServiceLines) {
    out.push_back({"serving", fmt::format("... and {} more services (summary.json /inference)",
                                          facts.services.size() - kMaxServiceLines)});
  }
}

void add_cluster(Lines& out, const HeadlineFacts& facts, const nlohmann::json& s) {
  // The compute nodes' energy; with a facility, its line gives the IT total with the switches.
  out.push_back({"IT energy", fmt::format("{:.1f} kWh, compute nodes", number_at(s, "/energy/it_kwh"))});
  out.push_back({"IT power", fmt::format("mean {:.1f} kW, peak {:.1f} kW, peak rack {:.1f} kW",
                                         number_at(s, "/power/mean_w") / 1e3,
                                         number_at(s, "/power/peak_w") / 1e3,
                                         number_at(s, "/power/peak_rack_w") / 1e3)});
  const double completed = number_at(s, "/workload/jobs_completed");
  // A serving-only run has no workload jobs (its replicas are the services' lines below).
  const bool serving_only = number_at(s, "/workload/jobs_total") <= 0 && !facts.services.empty();
  if (!serving_only) {
    out.push_back({"jobs", fmt::format("{:.0f} of {:.0f} completed; mean wait {}; {}", completed,
                                       number_at(s, "/workload/jobs_total"),
                                       hours_text(number_at(s, "/workload/mean_wait_s")),
                                       completed > 0 ? "mean completion " +
                                                           hours_text(number_at(
                                                               s, "/workload/mean_completion_s"))
                                                     : std::string("none completed"))});
  }
  add_unfinished(out, s);
  const std::string busy = fmt::format("{:.1f}% of node-time", 100 * number_at(s, "/utilization/node_busy_fraction"));
  out.push_back({"nodes busy",
                 serving_only ? busy + " (inference replicas)"
                              : busy + "; " + (completed > 0 ? "makespan " + hours_text(number_at(s, "/makespan_s"))
                                                             : std::string("no job completed, so no makespan"))});
  add_training(out, s);
  add_inference(out, facts, s);
  for (const auto& note : facts.trace_notes) out.push_back({"trace", note});
  // What faults cost, where a run has any (the question a reliability scenario asks).
  if (facts.has_reliability) {
    const nlohmann::json::json_pointer effective("/goodput/effective_training_fraction");
    out.push_back(
        {"faults", fmt::format("{:.0f} faults, {:.0f} job interruptions; goodput {:.1f}%{}",
                               number_at(s, "/reliability/faults_total"),
                               number_at(s, "/reliability/interruptions_total"),
                               100 * number_at(s, "/goodput/fraction"),
                               s.contains(effective) && s.at(effective).is_number()
                                   ? fmt::format(", effective training {:.1f}%",
                                                 100 * s.at(effective).get<double>())
                                   : std::string())});
    // What they cost in GPU time, by kind: the figures a failover policy is chosen on.
    std::string cost = grouped(number_at(s, "/goodput/lost_gpu_h"), 0) + " GPU-h of work lost (redone), " +
                       grouped(number_at(s, "/goodput/restart_gpu_h"), 0) + " GPU-h restarting";
    // Of which detection and diagnosis (issue 40 item 5), where the operations have any.
    const double found_gpu_h = number_at(s, "/goodput/restart_gpu_h_by_stage/detection") +
                               number_at(s, "/goodput/restart_gpu_h_by_stage/diagnosis");
    cost += found_gpu_h > 0
                ? " (" + grouped(found_gpu_h, 0) + " detecting and diagnosing faults, the rest relaunch, reload)"
                : std::string(" (relaunch, reload)");
    for (const auto& [key, what] : {std::pair{"/goodput/shrunk_missing_gpu_h", "short of replicas (elastic)"},
                                    std::pair{"/goodput/stalled_gpu_h", "stalled at held checkpoints"}}) {
      const double gpu_h = number_at(s, key);
      if (gpu_h > 0) cost += ", " + grouped(gpu_h, 0) + " GPU-h " + what;
    }
    out.push_back({"fault cost", cost});
  }
}

}  // namespace

// A priced period as a planner states it: minutes, hours, or days from two days up ("1,095.75 d").
std::string span_text(double seconds) {
  if (seconds < 3600) return fmt::format("{:.1f} min", seconds / 60);
  if (seconds < 2 * 86400) return fmt::format("{:.2f} h", seconds / 3600);
  return grouped(seconds / 86400, 2) + " d";
}

std::string hours_text(double seconds) {
  return seconds >= 3600 ? fmt::format("{:.2f} h", seconds / 3600)
                         : fmt::format("{:.1f} min", seconds / 60);
}

// Flow times are micro- to milliseconds: print them in the unit that keeps 3 significant digits.
std::string short_time_text(double seconds) {
  if (seconds >= 1) return fmt::format("{:.3f} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3f} ms", seconds * 1e3);
  return fmt::format("{:.3f} us", seconds * 1e6);
}

std::string grouped(double value, int decimals) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  const std::string digits = fmt::format("{:.{}f}", std::abs(value), decimals);
  const std::size_t point = digits.find('.');
  const std::size_t whole = point == std::string::npos ? digits.size() : point;
  std::string out;
  for (std::size_t i = 0; i < whole; ++i) {
    if (i > 0 && (whole - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  out += digits.substr(whole);
  // "-0" is not a number people write.
  const bool negative = value < 0 && out.find_first_not_of("0.,") != std::string::npos;
  return (negative ? "-" : "") + out;
}

std::string usd_text(double usd, int decimals) {
  const std::string digits = grouped(std::abs(usd), decimals);
  return (usd < 0 && digits.find_first_not_of("0.,") != std::string::npos ? "-$" : "$") + digits;
}

const CostLabels& capex_category_labels() {
  static const CostLabels labels = [] {
    namespace econ = models::economics;
    CostLabels out;
    for (std::size_t i = 0; i < econ::kCapexCategories; ++i) {
      const auto c = static_cast<econ::CapexCategory>(i);
      out.emplace_back(std::string(econ::capex_category_name(c)) + "_usd", econ::capex_category_label(c));
    }
    return out;
  }();
  return labels;
}

const CostLabels& tco_item_labels() {
  // The ledger's items (cost_ledger.cpp), owning's then a cloud offer's.
  static const CostLabels labels{{"capex_usd", "capex"},
                                 {"interest_usd", "interest"},
                                 {"book_value_credit_usd", "book value left"},
                                 {"energy_usd", "electricity"},
                                 {"colocation_usd", "colocation"},
                                 {"ports_usd", "internet ports"},
                                 {"support_usd", "support"},
                                 {"staff_usd", "staff"},
                                 {"licences_usd", "licences"},
                                 {"repairs_usd", "repairs"},
                                 {"metered_egress_usd", "metered egress"},
                                 {"gpu_hours_usd", "GPU-hours"},
                                 {"egress_usd", "egress"},
                                 {"storage_usd", "storage"}};
  return labels;
}

std::string usd_text(double usd) { return usd_text(usd, std::abs(usd) >= 1000 ? 0 : 2); }

// Money in the unit that keeps it readable: a one-node month is thousands, a fleet millions.
std::string short_usd_text(double usd) {
  if (usd >= 1e6) return fmt::format("${:.3f}M", usd / 1e6);
  if (usd >= 1e3) return fmt::format("${:.1f}k", usd / 1e3);
  return fmt::format("${:.2f}", usd);
}

HeadlineFacts headline_facts_from_resolved(const nlohmann::json& resolved, std::uint64_t seed) {
  HeadlineFacts f;
  f.name = resolved.value("name", "");
  f.seed = seed;
  f.has_cluster = resolved.contains("cluster");
  f.has_facility = resolved.contains("facility");
  f.has_fabric = resolved.contains("fabric");
  const nlohmann::json::json_pointer nodes("/cluster/nodes");
  if (resolved.contains(nodes) && resolved.at(nodes).is_number()) f.cluster_nodes = resolved.at(nodes).get<double>();
  f.has_frontend = resolved.contains("frontend");
  f.has_reliability = resolved.contains("reliability");
  f.has_storage = resolved.contains("storage");
  f.has_nvmeof = resolved.contains("nvmeof");
  if (resolved.contains("uplink")) {
    const auto& u = resolved.at("uplink");
    f.uplink_carries_traffic =
        (u.contains("streams") && !u.at("streams").empty()) || u.contains("checkpoint_copies");
  }
  const nlohmann::json::json_pointer services("/inference/services");
  if (resolved.contains(services) && resolved.at(services).is_array()) {
    for (const auto& svc : resolved.at(services)) {
      if (svc.contains("name") && svc.at("name").is_string()) f.services.push_back(svc.at("name").get<std::string>());
    }
  }
  if (resolved.contains("economics")) {
    f.has_economics = true;
    const nlohmann::json::json_pointer cloud("/economics/cloud");
    if (resolved.contains(cloud) && resolved.at(cloud).is_array()) {
      for (const auto& c : resolved.at(cloud)) {
        if (c.contains("offer") && c.at("offer").is_string())
          f.cloud_options.push_back(c.at("offer").get<std::string>());
      }
    }
  }
  return f;
}

std::vector<HeadlineLine> headline_lines(const HeadlineFacts& facts, const nlohmann::json& s) {
  Lines out;
  if (facts.has_cluster) add_cluster(out, facts, s);
  if (facts.has_facility) {
    out.push_back(
        {"facility",
         fmt::format("PUE {:.3f} (energy-weighted); {:.1f} kWh total for {:.1f} kWh IT (compute nodes and "
                     "{:.1f} kWh of network switches)",
                     number_at(s, "/facility/pue"), number_at(s, "/facility/total_energy_kwh"),
                     number_at(s, "/facility/it_energy_kwh"), number_at(s, "/facility/energy/network_kwh"))});
    out.push_back({"thermal", fmt::format("hottest GPU {:.1f} C; {:.0f} GPU-seconds throttled",
                                          number_at(s, "/thermal/max_gpu_c"),
                                          number_at(s, "/thermal/throttled_gpu_s"))});
    // An undersized plant is never silent (issue 15): its warning heads the facility's lines.
    const nlohmann::json::json_pointer warning("/facility/cooling_warning");
    if (s.contains(warning) && s.at(warning).is_string()) {
      out.push_back({"WARNING", s.at(warning).get<std::string>()});
    }
  }
  if (facts.has_fabric) add_fabric(out, facts, s);
  if (facts.has_frontend) add_frontend(out, s);
  if (facts.has_storage) add_storage(out, s);
  if (facts.has_nvmeof) add_nvmeof(out, s);
  if (facts.has_cluster) add_integrity(out, s);
  if (facts.uplink_carries_traffic) add_uplink(out, s);
  if (facts.has_economics) add_costs(out, facts, s);
  return out;
}

std::string headline_text_line(const HeadlineLine& line) {
  return fmt::format("  {:<12}{}\n", line.label, line.text);
}

}  // namespace dcsim::tools::report
