#include "tools/scenario/inference_spec.hpp"

#include "tools/scenario/registry_params.hpp"
#include "tools/scenario/software_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;

namespace {

FieldSpec length_field(const char* key, const char* what, int fixed) {
  return with_default(
      object_field(key, std::string("Tokens of each request's ") + what + ".",
                   {with_default(enum_field("kind",
                                            "fixed: `value`; lognormal: exp(N(ln median, sigma)) rounded; "
                                            "empirical: drawn uniformly from `samples` or the rows of `samples_file`. Clamped to [min, max].",
                                            "length distribution", {"fixed", "lognormal", "empirical"}),
                                 "fixed"),
                    with_default(integer_field("value", "Tokens (fixed).", at_least(1)), fixed),
                    with_default_note(number_field("median", "Median tokens (lognormal).", above(0)),
                                      "none: needed by lognormal"),
                    with_default(number_field("sigma", "Sigma of the underlying normal (lognormal).", at_least(0)),
                                 0.5),
                    with_default_note(min_items(integer_array_field("samples", "Token counts to draw from "
                                                                               "(empirical).",
                                                                    at_least(1)),
                                                1),
                                      "none: empirical needs samples or samples_file"),
                    with_default_note(non_empty(string_field("samples_file",
                                                             "Empirical: CSV of token counts, one per row under the "
                                                             "header `tokens` (beside the scenario when relative), "
                                                             "e.g. a dataset's prompt lengths.")),
                                      "none: empirical needs samples or samples_file"),
                    with_default(integer_field("min", "Fewest tokens.", at_least(1)), 1),
                    with_default(integer_field("max", "Most tokens.", at_least(1)), 131072)}),
      json::object());
}

}  // namespace

Bindings<InferenceSection> inference_bindings(const models::ModelRegistries& registries) {
  namespace mi = models::inference;
  using models::compute::Precision;
  using S = mi::ServiceConfig;
  const std::vector<std::pair<std::string, Precision>> precisions = {{"bf16", Precision::kBf16},
                                                                     {"fp8", Precision::kFp8}};
  // The model names the engine's fields "engine.tp"; a value no key feeds ("engine.memory", the
  // HBM it needs) is located at /engine.
  Bindings<mi::EngineConfig> engine(
      object_field("engine", "One replica's serving engine (as vLLM / TensorRT-LLM configure theirs).", {}));
  engine
      .bind(integer_field("tp",
                          "Tensor-parallel GPUs per replica, in one NVLink domain; must divide the attention "
                          "heads.",
                          at_least(1)),
            &mi::EngineConfig::tp, "engine.tp")
      .bind(integer_field("pp",
                          "Pipeline stages per replica: tp x pp GPUs (whole nodes when more "
                          "than one node's), each stage holding its layers' weights and KV; "
                          "pp virtual engines keep every stage busy (vLLM). Each iteration "
                          "pays pp - 1 sends of its hidden states.",
                          at_least(1)),
            &mi::EngineConfig::pp, "engine.pp")
      .bind(with_default(integer_field("ep",
                                       "Expert parallelism of a mixture-of-experts model: each MoE layer's routed "
                                       "experts spread whole over ep GPUs, attention tp-way on ep / tp "
                                       "data-parallel ranks, a dispatch and a combine all-to-all per MoE layer; "
                                       "a replica is ep x pp GPUs. Must be a multiple of tp dividing the experts; "
                                       "1: experts tensor-parallel like a dense MLP.",
                                       at_least(1)),
                         1),
            &mi::EngineConfig::ep, "engine.ep")
      .bind(with_default(number_field("expert_skew",
                                      "Mixture-of-experts routing imbalance: the busiest expert's tokens over the "
                                      "mean (its GPU sets each MoE layer's time; capped at the model's capacity "
                                      "factor).",
                                      at_least(1)),
                         1.0),
            &mi::EngineConfig::expert_skew, "engine.expert_skew")
      .bind_enum(with_default(enum_field("weights", "Weight precision: bf16, or fp8 (W8A8 FP8 GEMMs).", "precision",
                                         {"bf16", "fp8"}),
                              "bf16"),
                 &mi::EngineConfig::weights, "engine.weights", precisions)
      .bind_enum(with_default(enum_field("kv_cache", "KV cache precision (fp8 halves its bytes).", "precision",
                                         {"bf16", "fp8"}),
                              "bf16"),
                 &mi::EngineConfig::kv_cache, "engine.kv_cache", precisions)
      .bind(integer_field("max_batch", "Most sequences per iteration (vLLM max_num_seqs; 256 is its engine default).",
                          at_least(1)),
            &mi::EngineConfig::max_batch, "engine.max_batch")
      .bind(integer_field("max_batched_tokens",
                          "Most tokens per iteration, prefill and decode together (vLLM "
                          "max_num_batched_tokens); at least max_batch.",
                          at_least(1)),
            &mi::EngineConfig::max_batched_tokens, "engine.max_batched_tokens")
      .bind(boolean_field("chunked_prefill",
                          "Sarathi-style chunked prefill (decodes first, prompts fill the "
                          "rest of the token budget); off: prefill-first iterations as "
                          "vLLM v0, and a request's whole context must fit "
                          "max_batched_tokens."),
            &mi::EngineConfig::chunked_prefill, "engine.chunked_prefill")
      .bind_enum(with_default(enum_field("preemption",
                                         "When the KV cache runs out: recompute (drop the KV, prefill again) "
                                         "or swap (copy it to host memory and back at swap_rate).",
                                         "preemption mode", {"recompute", "swap"}),
                              "recompute"),
                 &mi::EngineConfig::preemption, "engine.preemption",
                 {{"recompute", mi::Preemption::kRecompute}, {"swap", mi::Preemption::kSwap}})
      .bind_enum(with_default(enum_field("admission",
                                         "When a waiting request starts: on_demand (vLLM: its prompt's KV fits "
                                         "now, the answer's grows into the cache and a sequence is preempted when "
                                         "it runs out) or reserve (TensorRT-LLM's GUARANTEED_NO_EVICT: its prompt "
                                         "and whole answer fit beside what running requests reserved; never "
                                         "preempts, fewer run at once).",
                                         "admission policy", {"on_demand", "reserve"}),
                              "on_demand"),
                 &mi::EngineConfig::admission, "engine.admission",
                 {{"on_demand", mi::Admission::kOnDemand}, {"reserve", mi::Admission::kReserve}})
      .bind(number_field("memory_fraction",
                         "Fraction of each GPU's HBM for weights, activations and KV cache "
                         "(vLLM gpu_memory_utilization).",
                         Range{0.0, 1.0, true, false}),
            &mi::EngineConfig::memory_fraction, "engine.memory_fraction")
      .bind(with_default(quantity_field("swap_rate",
                                        "Host <-> GPU copy rate of swapped KV, per GPU (measured H2D "
                                        "51 GB/s on H100, public-figures.md).",
                                        QuantityKind::kDataRate, above(0)),
                         "408 Gbps"),
            &mi::EngineConfig::swap_bytes_per_s, "engine.swap_bytes_per_s", 1.0 / 8.0);

  // input_tokens, output_tokens, trace and stop need the mapping (files, /duration, checks).
  using R = mi::RequestStreamConfig;
  Bindings<R> requests(object_field("requests", "The requests the service receives.", {}));
  requests
      .bind_enum(with_default(enum_field("arrivals",
                                         "poisson (rate), diurnal (a cosine day around rate), bursty (base "
                                         "rate with bursts), trace (a CSV file) or closed_loop (clients, each "
                                         "with one request in flight: genai-perf's concurrency).",
                                         "arrival process", {"poisson", "diurnal", "bursty", "trace", "closed_loop"}),
                              "poisson"),
                 &R::kind, "requests.kind",
                 {{"poisson", R::Kind::kPoisson},
                  {"diurnal", R::Kind::kDiurnal},
                  {"bursty", R::Kind::kBursty},
                  {"trace", R::Kind::kTrace},
                  {"closed_loop", R::Kind::kClosedLoop}})
      .bind(with_default_note(integer_field("clients",
                                            "Closed loop: users, each with one request in flight, sending the "
                                            "next think_time after its answer arrived.",
                                            between(1, 1000000)),
                              "none: needed by closed_loop"),
            &R::clients, "requests.clients")
      .bind(with_default(quantity_field("think_time", "Closed loop: from a client's answer to its next request.",
                                        QuantityKind::kDuration, at_least(0)),
                         "0 s"),
            &R::think_time, "requests.think_time")
      .bind(with_default_note(number_field("rate",
                                           "Requests per second (diurnal: the mean over a "
                                           "period; bursty: between bursts).",
                                           above(0)),
                              "none: needed by poisson, diurnal and bursty"),
            &R::rate_per_s, "requests.rate_per_s")
      .bind(with_default(number_field("peak_to_trough", "Diurnal: peak rate / trough rate.", at_least(1)), 3),
            &R::peak_to_trough, "requests.peak_to_trough")
      .bind(with_default(quantity_field("period", "Diurnal: length of one cycle.", QuantityKind::kDuration, above(0)),
                         "24 h"),
            &R::period, "requests.period")
      .bind(with_default(quantity_field("peak_at", "Diurnal: time of the peak within a cycle.", QuantityKind::kDuration,
                                        at_least(0)),
                         "14 h"),
            &R::peak_at, "requests.peak_at")
      .bind(with_default_note(number_field("burst_rate", "Bursty: requests per second during a burst.", above(0)),
                              "none: needed by bursty"),
            &R::burst_rate_per_s, "requests.burst_rate_per_s")
      .bind(with_default(quantity_field("burst_every", "Bursty: mean time between bursts' starts.",
                                        QuantityKind::kDuration, above(0)),
                         "1 h"),
            &R::burst_every, "requests.burst_every")
      .bind(with_default(quantity_field("burst_length", "Bursty: mean burst length (below burst_every).",
                                        QuantityKind::kDuration, above(0)),
                         "1 min"),
            &R::burst_length, "requests.burst_length")
      .bind(with_default(quantity_field("start", "First arrival no earlier than this.", QuantityKind::kDuration,
                                        at_least(0)),
                         "0 s"),
            &R::start, "requests.start")
      .key(with_default_note(quantity_field("stop", "No arrival at or after this.", QuantityKind::kDuration, above(0)),
                             "/duration"),
           "requests.stop")
      .key(length_field("input_tokens", "prompt", 512), "requests.input_tokens")
      .key(length_field("output_tokens", "answer", 128), "requests.output_tokens")
      .key(with_default_note(non_empty(string_field("trace",
                                                    "Trace: CSV with header arrival_s,input_tokens,"
                                                    "output_tokens (beside the scenario when "
                                                    "relative), rows in any order.")),
                             "none: needed by trace"),
           "requests.trace");

  Bindings<mi::GatewayConfig> gateway(object_field(
      "gateway",
      "The gateway requests enter through: half its round trip and the prompt's bytes "
      "on the way in, half the round trip and each token's bytes on the way out.",
      {}));
  gateway
      .bind(with_default(quantity_field("rtt", "Round trip between client and replica.", QuantityKind::kDuration,
                                        at_least(0)),
                         "0 s"),
            &mi::GatewayConfig::rtt, "gateway.rtt")
      .bind(with_default(quantity_field("bandwidth", "Gateway link rate for one request.", QuantityKind::kDataRate,
                                        above(0)),
                         "10 Gbps"),
            &mi::GatewayConfig::bandwidth_bps, "gateway.bandwidth_bps")
      .bind(with_default(number_field("bytes_per_token", "Text bytes per token (about 4 for English).", above(0)), 4),
            &mi::GatewayConfig::bytes_per_token, "gateway.bytes_per_token");

  Bindings<mi::SlaConfig> sla(
      object_field("sla", "Bounds a request must meet to count as good (goodput, sla_attainment).", {}));
  sla.bind(with_default_note(quantity_field("ttft", "Time to first token.", QuantityKind::kDuration, above(0)),
                             "not judged"),
           &mi::SlaConfig::ttft_s, "sla.ttft_s")
      .bind(with_default_note(quantity_field("tpot", "Time per output token after the first.",
                                             QuantityKind::kDuration, above(0)),
                              "not judged"),
            &mi::SlaConfig::tpot_s, "sla.tpot_s")
      .bind(with_default_note(quantity_field("e2e", "End-to-end latency.", QuantityKind::kDuration, above(0)),
                              "not judged"),
            &mi::SlaConfig::e2e_s, "sla.e2e_s");

  Bindings<S> service(required(min_items(object_array_field("services", "The services.", {}), 1)));
  service.bind(required(non_empty(string_field("name", "Service name (unique); names its outputs."))), &S::name, "name")
      .bind(required(enum_field("model",
                                "Transformer preset served (`dcsim list \"training model\"`): its layers, "
                                "heads, KV heads and vocabulary set the weights, KV cache and costs.",
                                registries.training_models.kind(), registries.training_models.names())),
            "model",
            [&registries](S& c, const json& v) {
              c.model = registries.training_models.get(v.get<std::string>()).factory();
            })
      .object(
          std::move(engine), [](S& c) -> mi::EngineConfig& { return c.engine; }, "engine")
      .bind(integer_field("replicas",
                          "Replicas at the start (serving from time 0); the decode "
                          "replicas when prefill_replicas > 0.",
                          at_least(1)),
            &S::replicas, "replicas")
      .bind(integer_field("prefill_replicas",
                          "Disaggregated prefill and decode (DistServe, Splitwise): this many "
                          "more replicas (fixed) only prefill and sample the first token; each "
                          "prompt's KV then moves to a decode replica, as flows on /fabric when "
                          "there is one (over NVLink on the same node, else at the NICs' line "
                          "rate). 0: every replica does both.",
                          at_least(0)),
            &S::prefill_replicas, "prefill_replicas")
      .bind(with_default_note(enum_field("autoscaler", "Policy that sets the replica count (`dcsim list autoscaler`).",
                                         registries.autoscalers.kind(), registries.autoscalers.names()),
                              "none: a fixed fleet of `replicas`"),
            &S::autoscaler, "autoscaler")
      .bind(params_object_field("autoscaler_params",
                                "Parameters of the chosen autoscaler; keys it does not document are errors, "
                                "keys left out take its defaults.",
                                entry_params(registries.autoscalers)),
            &S::autoscaler_params, "autoscaler_params")
      .bind(with_default_note(integer_field("min_replicas", "Fewest replicas the autoscaler keeps.", at_least(1)),
                              "replicas"),
            &S::min_replicas, "min_replicas")
      .bind(with_default_note(integer_field("max_replicas", "Most replicas the autoscaler starts.", at_least(1)),
                              "replicas"),
            &S::max_replicas, "max_replicas")
      .bind(with_default(quantity_field("allocation_delay",
                                        "From a scale-up decision until the replica's engine starts loading "
                                        "(GPUs placed, container and engine started).",
                                        QuantityKind::kDuration, at_least(0)),
                         "0 s"),
            &S::allocation_delay, "allocation_delay")
      .bind(with_default_note(quantity_field("load_rate",
                                             "Rate at which a new replica reads its weights (the replica's "
                                             "share of the model).",
                                             QuantityKind::kDataRate, above(0)),
                              "the node's storage NICs (storage_nics x storage_nic_bandwidth)"),
            &S::load_bytes_per_s, "load_bytes_per_s", 1.0 / 8.0)
      .bind(string_field("weights_pool",
                         "Instead of load_rate: a new replica's nodes read its weights from this /storage pool "
                         "as store reads (its drives, NICs and network decide the time; they compete with "
                         "checkpoints and datasets there)."),
            "weights_pool",
            [](S& c, const json& v) {
              c.weights_from_store = true;
              c.weights_pool = v.get<std::string>();
            })
      .bind(integer_field("priority",
                          "Queue priority of the replicas' cluster jobs (higher first; under "
                          "priority_preemptive a replica preempts running jobs at least "
                          "min_priority_gap below it, which is how training yields nodes to a "
                          "service scaling up).",
                          Range{}),
            &S::priority, "priority")
      .bind(with_default(enum_field("router",
                                    "Which serving replica gets a request (`dcsim list \"inference "
                                    "router\"`).",
                                    registries.inference_routers.kind(), registries.inference_routers.names()),
                         "least_outstanding"),
            &S::router, "router")
      .object(
          std::move(requests), [](S& c) -> R& { return c.requests; }, "requests")
      .object(
          std::move(gateway), [](S& c) -> mi::GatewayConfig& { return c.gateway; }, "gateway")
      .object(
          std::move(sla), [](S& c) -> mi::SlaConfig& { return c.sla; }, "sla")
      .bind(with_default(quantity_field("sample_every", "Period of the service's series.", QuantityKind::kDuration,
                                        above(0)),
                         "10 s"),
            &S::sample_every, "sample_every")
      .bind_enum(with_default(enum_field("resolution",
                                         "iteration: every engine iteration of every replica is an event "
                                         "(exact, ~requests x output tokens / batch events); fluid: the fleet "
                                         "advances every fluid_step from one replica's capacity and latency "
                                         "curves, measured at start-up by the iteration-level engine itself "
                                         "(cost per step independent of the request rate; no disaggregation "
                                         "or trace streams); auto: fluid when the request stream spans at "
                                         "least auto_fluid_from, else iteration (docs/models/inference.md).",
                                         "serving resolution", {"iteration", "fluid", "auto"}),
                              "iteration"),
                 &S::resolution, "resolution",
                 {{"iteration", mi::Resolution::kIteration},
                  {"fluid", mi::Resolution::kFluid},
                  {"auto", mi::Resolution::kAuto}})
      .bind(with_default(quantity_field("fluid_step",
                                        "Fluid: the step at which arrivals are taken and the fleet advanced "
                                        "(also at every fleet change); a diurnal day barely moves in a minute.",
                                        QuantityKind::kDuration, above(0)),
                         "1 min"),
            &S::fluid_step, "fluid_step")
      .bind(with_default(quantity_field("auto_fluid_from",
                                        "Auto: the request stream's span (requests/start to stop) from which "
                                        "the service runs fluid; shorter spans run at iteration level.",
                                        QuantityKind::kDuration, above(0)),
                         "6 h"),
            &S::auto_fluid_from, "auto_fluid_from")
      // Mapped with its profile file by inference_mapping.cpp.
      .key(software_override_field(registries, "service"), "engine.software");

  Bindings<InferenceSection> inference(object_field(
      "inference",
      "Inference services (models/inference): each serves a model with replicas of `engine.tp` GPUs that are "
      "jobs of the cluster (placed by its scheduler, drawing node power, interrupted by faults), iteration by "
      "iteration with continuous batching. Writes series inference/<service>/... and summary "
      "inference/<service>/... (docs/models/inference.md).",
      {}));
  inference.array(&InferenceSection::services, "services", std::move(service));
  return inference;
}

FieldSpec inference_section(const models::ModelRegistries& registries) {
  return optional_section(inference_bindings(registries).spec(), "no inference service");
}

}  // namespace dcsim::tools::scenario
