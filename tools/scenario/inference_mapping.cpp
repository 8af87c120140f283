#include "tools/scenario/inference_mapping.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "models/inference/iteration_cost.hpp"
#include "sim/error.hpp"
#include "tools/scenario/data_file.hpp"
#include "tools/scenario/inference_spec.hpp"
#include "tools/scenario/job_trace_rows.hpp"
#include "tools/scenario/registry_params.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/software_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
namespace mi = models::inference;
using namespace trace_rows;

namespace {

// arrival_s,input_tokens,output_tokens; rows sorted by arrival (stable: file order on ties).
std::vector<mi::TraceRequest> read_request_trace(const std::string& path, const std::string& display) {
  std::ifstream in = open_data_file(path, display);
  LineReader r(in, display, '#');
  const std::vector<std::string> header = {"arrival_s", "input_tokens", "output_tokens"};
  std::string line;
  std::vector<mi::TraceRequest> out;
  bool first = true;
  while (r.next(line)) {
    if (first) {
      first = false;
      if (split_commas(line) != header) r.fail("expected the header 'arrival_s,input_tokens,output_tokens', got '" + line + "'");
      continue;
    }
    const std::vector<std::string> cells = header_row(r, line, header);
    double at = 0, input = 0, output = 0;
    if (!parse_number(cells[0], at) || at < 0) r.fail("arrival_s: expected seconds >= 0, got '" + cells[0] + "'");
    if (!parse_number(cells[1], input) || input < 1 || input != std::floor(input) || input > 1e9) {
      r.fail("input_tokens: expected a whole number of tokens >= 1, got '" + cells[1] + "'");
    }
    if (!parse_number(cells[2], output) || output < 1 || output != std::floor(output) || output > 1e9) {
      r.fail("output_tokens: expected a whole number of tokens >= 1, got '" + cells[2] + "'");
    }
    if (at > 1e9) r.fail("arrival_s: expected at most 1e9 s (31 years), got '" + cells[0] + "'");
    out.push_back({sim::Time::from_seconds(at), static_cast<int>(input), static_cast<int>(output)});
  }
  if (out.empty()) throw sim::InputError(display + ": expected at least one request row, found none");
  std::stable_sort(out.begin(), out.end(),
                   [](const mi::TraceRequest& a, const mi::TraceRequest& b) { return a.arrival < b.arrival; });
  return out;
}

// One token count per row under the header `tokens`.
std::vector<int> read_token_counts(const std::string& path, const std::string& display) {
  std::ifstream in = open_data_file(path, display);
  LineReader r(in, display, '#');
  std::string line;
  std::vector<int> out;
  bool first = true;
  while (r.next(line)) {
    if (first) {
      first = false;
      if (line != "tokens") r.fail("expected the header 'tokens', got '" + line + "'");
      continue;
    }
    double v = 0;
    if (!parse_number(line, v) || v < 1 || v != std::floor(v) || v > 1e9) {
      r.fail("expected a whole number of tokens >= 1, got '" + line + "'");
    }
    out.push_back(static_cast<int>(v));
  }
  if (out.empty()) throw sim::InputError(display + ": expected at least one token count, found none");
  return out;
}

mi::LengthDistribution map_length(const json& j, const std::string& ptr, std::vector<std::string>& errors,
                                  const std::string& source) {
  mi::LengthDistribution d;
  const std::string kind = j.at("kind").get<std::string>();
  d.value = j.at("value").get<int>();
  d.sigma = j.at("sigma").get<double>();
  d.min = j.at("min").get<int>();
  d.max = j.at("max").get<int>();
  if (d.min > d.max) {
    errors.push_back(source + ":" + ptr + "/max: expected at least min (" + std::to_string(d.min) + "), got " +
                     std::to_string(d.max));
  }
  if (kind == "lognormal") {
    d.kind = mi::LengthDistribution::Kind::kLognormal;
    if (!j.contains("median")) {
      errors.push_back(source + ":" + ptr + "/median: expected the median tokens of a lognormal length, got none");
    } else {
      d.median = j.at("median").get<double>();
    }
  } else if (kind == "empirical") {
    d.kind = mi::LengthDistribution::Kind::kEmpirical;
    if (j.contains("samples") == j.contains("samples_file")) {
      errors.push_back(source + ":" + ptr + "/samples: expected the token counts an empirical length draws from, "
                                            "as samples or samples_file (one of them), got " +
                       (j.contains("samples") ? "both" : "neither"));
    } else if (j.contains("samples")) {
      d.samples = j.at("samples").get<std::vector<int>>();
    } else {
      const std::string file = j.at("samples_file").get<std::string>();
      try {
        d.samples = read_token_counts(beside(source, file), file);
      } catch (const sim::InputError& bad_row) {
        errors.push_back(source + ":" + ptr + "/samples_file: " + bad_row.what());
      }
    }
  }
  return d;
}

}  // namespace

std::vector<mi::ServiceConfig> map_inference_section(const json& inference, const json& given, const Scenario& s,
                                                     const models::ModelRegistries& registries) {
  std::vector<std::string> errors;
  const auto error = [&](const std::string& pointer, const std::string& message) {
    errors.push_back(s.source + ":" + pointer + ": " + message);
  };
  if (!s.has_cluster) {
    throw sim::InputError(s.source + ":/inference: needs /cluster: a service's replicas are jobs on the cluster's "
                                     "nodes (their GPUs, NVLink and power)");
  }
  const auto bindings = inference_bindings(registries);
  InferenceSection section;
  bindings.apply(inference, section);
  std::vector<mi::ServiceConfig>& out = section.services;
  // What the bindings cannot say: checks across keys and parts, defaults from other keys, the
  // length distributions and trace files.
  std::set<std::string> names;
  const json& services = inference.at("services");
  for (std::size_t i = 0; i < services.size(); ++i) {
    const json& j = services[i];
    const std::string ptr = "/inference/services/" + std::to_string(i);
    mi::ServiceConfig& c = out[i];
    c.engine.software = s.software;
    if (j.contains("software")) {
      try {
        c.engine.software = map_software_object(find_at(given, ptr + "/software"), j.at("software"), ptr + "/software",
                                                s.source, registries);
      } catch (const sim::InputErrors& e) {
        errors.insert(errors.end(), e.messages().begin(), e.messages().end());
      }
    }
    if (!names.insert(c.name).second) error(ptr + "/name", "expected each service name once, got '" + c.name + "' again");
    if (c.engine.max_batched_tokens < c.engine.max_batch) {
      error(ptr + "/engine/max_batched_tokens",
            "expected at least max_batch (" + std::to_string(c.engine.max_batch) +
                "): every sequence of a full batch decodes one token per iteration, got " +
                std::to_string(c.engine.max_batched_tokens));
    }
    const int gpus = s.cluster.node.gpus * s.cluster.nodes;
    if (c.engine.tp > s.cluster.node.gpus) {
      error(ptr + "/engine/tp", "expected at most the " + std::to_string(s.cluster.node.gpus) +
                                    " GPUs of one node (a replica's tensor parallelism stays in its NVLink domain), "
                                    "got " + std::to_string(c.engine.tp));
    }
    try {
      const models::inference::IterationCostModel probe(c.model, c.engine, s.cluster.node, [](double) { return 0.0; });
      (void)probe;
    } catch (const sim::ConfigError& ce) {
      // The model names the engine's field ("engine.tp"); its binding, the key.
      error(bindings.pointer_of("services[" + std::to_string(i) + "]." + ce.field(), "/inference").value_or(ptr),
            ce.detail());
    }

    if (!j.contains("min_replicas")) c.min_replicas = c.replicas;
    if (!j.contains("max_replicas")) c.max_replicas = c.replicas;
    if (j.contains("autoscaler")) {
      const auto* entry = registries.autoscalers.find(c.autoscaler);
      ErrorList param_errors;
      const json* given_params = nullptr;
      const json::json_pointer gp(ptr + "/autoscaler_params");
      if (given.contains(gp)) given_params = &given.at(gp);
      check_params_of_entry(given_params, ptr + "/autoscaler_params", registries.autoscalers.kind(), c.autoscaler,
                            entry_params(registries.autoscalers), param_errors);
      for (const auto& pe : param_errors.errors()) error(pe.pointer, pe.message);
      c.autoscaler_params.fill_defaults(entry->params);
      if (param_errors.empty()) {
        try {
          (void)entry->factory(c.autoscaler_params);
        } catch (const sim::ConfigError& ce) {
          error(bindings.pointer_of("services[" + std::to_string(i) + "]." + ce.field(), "/inference").value_or(ptr),
                ce.detail());
        }
      }
    } else if (const bool params = given.contains(json::json_pointer(ptr + "/autoscaler_params"));
               params || j.contains("min_replicas") || j.contains("max_replicas")) {
      error(ptr + (params ? "/autoscaler_params" : j.contains("min_replicas") ? "/min_replicas" : "/max_replicas"),
            "applies to an autoscaler, and the service has none (a fixed fleet of `replicas`): set `autoscaler`");
    }
    if (c.min_replicas > c.max_replicas) {
      error(ptr + "/min_replicas", "expected at most max_replicas (" + std::to_string(c.max_replicas) + "), got " +
                                       std::to_string(c.min_replicas));
    } else if (c.replicas < c.min_replicas || c.replicas > c.max_replicas) {
      error(ptr + "/replicas", "expected between min_replicas and max_replicas (" + std::to_string(c.min_replicas) +
                                   " to " + std::to_string(c.max_replicas) + "), got " + std::to_string(c.replicas));
    }
    const long long per_replica = c.engine.gpus();
    if (static_cast<long long>(c.max_replicas + c.prefill_replicas) * per_replica > gpus) {
      error(ptr + (j.contains("max_replicas") ? "/max_replicas" : "/replicas"),
            "expected at most " + std::to_string(gpus / std::max<long long>(1, per_replica)) +
                " replicas: " + std::to_string(c.max_replicas + c.prefill_replicas) + " (prefill and decode) x " +
                std::to_string(per_replica) + (c.engine.ep > 1 ? " GPUs (ep x pp)" : " GPUs (tp x pp)") +
                " exceed the cluster's " + std::to_string(gpus));
    }
    if (c.weights_from_store) {
      if (j.contains("load_rate")) {
        error(ptr + "/load_rate", "expected load_rate or weights_pool, not both (weights from the store take the "
                                  "store's time)");
      } else if (!s.storage) {
        error(ptr + "/weights_pool", "needs the scenario's /storage section (the store it is read from), which it "
                                     "lacks: add one, or give load_rate");
      } else {
        bool found = false;
        for (const auto& p : s.storage->store.pools) found = found || p.name == c.weights_pool;
        if (!found) error(ptr + "/weights_pool", "expected a pool of /storage/pools, got '" + c.weights_pool + "'");
      }
    }

    const json& r = j.at("requests");
    const std::string rptr = ptr + "/requests";
    mi::RequestStreamConfig& q = c.requests;
    const std::string arrivals = r.at("arrivals").get<std::string>();
    q.stop = r.contains("stop") ? sim::Time::from_seconds(r.at("stop").get<double>()) : s.duration;
    q.input_tokens = map_length(r.at("input_tokens"), rptr + "/input_tokens", errors, s.source);
    q.output_tokens = map_length(r.at("output_tokens"), rptr + "/output_tokens", errors, s.source);
    for (const char* key : {"clients", "think_time"}) {
      if (q.kind != mi::RequestStreamConfig::Kind::kClosedLoop && find_at(given, rptr + "/" + key) != nullptr) {
        error(rptr + "/" + key, "applies to closed_loop arrivals only (arrivals is \"" + arrivals +
                                    "\"): drop it or set arrivals to \"closed_loop\"");
      }
    }
    if (q.kind == mi::RequestStreamConfig::Kind::kTrace) {
      if (!r.contains("trace")) {
        error(rptr + "/trace", "expected the CSV file of a trace stream, got none");
      } else {
        const std::string file = r.at("trace").get<std::string>();
        try {
          q.trace = read_request_trace(beside(s.source, file), file);
        } catch (const sim::InputError& bad_row) {
          throw sim::InputError(s.source + ":" + rptr + "/trace: " + bad_row.what());  // the key, then file:line
        }
      }
    } else {
      if (q.kind == mi::RequestStreamConfig::Kind::kClosedLoop) {
        if (!r.contains("clients")) error(rptr + "/clients", "expected the closed loop's number of clients, got none");
        if (r.contains("rate")) {
          error(rptr + "/rate", "given with closed_loop arrivals: the clients' answers pace their requests");
        }
      } else {
        if (!r.contains("rate")) {
          error(rptr + "/rate", "expected the requests per second of a " + arrivals + " stream, got none");
        }
      }
      if (q.stop.is_max()) {
        error(rptr + "/stop", "a " + arrivals + " stream never ends: give requests/stop or /duration");
      } else if (q.stop <= q.start) {
        error(rptr + "/stop", "expected after requests/start, got " + sim::format_duration(q.stop));
      }
      if (q.kind == mi::RequestStreamConfig::Kind::kBursty) {
        if (!r.contains("burst_rate")) {
          error(rptr + "/burst_rate", "expected the requests per second during a burst, got none");
        }
        if (q.burst_length >= q.burst_every) {
          error(rptr + "/burst_length", "expected below burst_every (" + sim::format_duration(q.burst_every) +
                                            "), got " + sim::format_duration(q.burst_length));
        }
      }
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    // What the fluid resolution cannot serve: request-level mechanisms and inputs.
    const mi::ServiceConfig& c = out[i];
    if (c.resolution != mi::Resolution::kFluid) continue;
    const std::string ptr = "/inference/services/" + std::to_string(i) + "/resolution";
    if (c.prefill_replicas > 0) {
      error(ptr, "fluid cannot serve disaggregated prefill and decode (each request's KV moves between two "
                 "replicas, a per-request event): set resolution to \"iteration\" (or \"auto\"), or "
                 "prefill_replicas to 0");
    }
    if (c.requests.kind == mi::RequestStreamConfig::Kind::kTrace) {
      error(ptr, "fluid serves arrival rates and cannot replay a trace's requests one by one: set resolution to "
                 "\"iteration\" (or \"auto\"), or requests/arrivals to poisson, diurnal or bursty");
    }
    if (c.requests.kind == mi::RequestStreamConfig::Kind::kClosedLoop) {
      error(ptr,
            "fluid serves arrival rates, and closed-loop clients send each request when an answer arrives: "
            "set resolution to \"iteration\" (or \"auto\"), or requests/arrivals to poisson, diurnal or "
            "bursty");
    }
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  return out;
}

}  // namespace dcsim::tools::scenario
