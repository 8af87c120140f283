#pragma once
// Scenario files: reading, --set overrides, validation, defaults, and mapping to model configs.
//
// The format is defined once, as a FieldSpec tree (scenario_spec.cpp); validation, the resolved
// document, the JSON Schema (scenarios/schema.json) and the key reference (docs/scenario-keys.md)
// are all derived from it.
//
// Errors: every problem found is reported, not just the first, as sim::InputErrors whose
// messages read `<source>:<JSON pointer>: <what is wrong>`, e.g.
//   scenarios/rack.json:/cluster/nodes: expected a positive integer, got -2
//   scenarios/rack.json:/cluster/nodez: unknown key; valid keys here: node, nodes, nodes_per_rack
// Unreadable files, invalid JSON text (with line and column) and malformed --set arguments are
// sim::InputError.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/cluster/cluster_config.hpp"
#include "models/datacenter/nvmeof_namespaces_config.hpp"
#include "models/economics/economics_config.hpp"
#include "models/facility/facility_config.hpp"
#include "models/inference/service_config.hpp"
#include "models/model_registries.hpp"
#include "models/network/uplink_config.hpp"
#include "models/reliability/fault_class.hpp"
#include "models/reliability/scripted_node_fault.hpp"
#include "models/storage/storage_config.hpp"
#include "models/workload/plan_search.hpp"
#include "sim/error.hpp"
#include "tools/scenario/fabric_config.hpp"
#include "tools/scenario/field_spec.hpp"
#include "tools/scenario/resource_guard.hpp"
#include "tools/scenario/trace_mapping.hpp"

namespace dcsim::tools::scenario {

struct Scenario {
  std::string source;       // file path or "<string>"
  nlohmann::json given;     // as read, after --set overrides (and the --seed override)
  // Defaults filled (node fields from the preset), quantities as SI numbers (durations in
  // seconds, powers in W, ...), distributions as {"kind", parameters in SI}. Optional keys
  // without a default ("duration", "description" ...) are absent when not given.
  nlohmann::json resolved;
  std::string name, description;
  std::uint64_t seed = 1;
  models::cluster::ClusterConfig cluster;
  // /software: the stack every training job and service runs with (the default when left out).
  models::workload::SoftwareStack software;
  // A fabric-only scenario leaves /cluster out: no compute nodes are simulated.
  bool has_cluster = true;
  sim::Time duration = sim::Time::max();  // /duration; max() runs until nothing is left to do
  std::optional<FabricScenario> fabric;   // /fabric, when given
  std::optional<FabricScenario> frontend;  // /frontend, when given (needs /cluster)
  std::optional<TrafficScenario> traffic; // /traffic, when given (needs /fabric)
  std::optional<models::facility::FacilityConfig> facility;  // /facility, when given
  std::optional<models::reliability::FaultModelConfig> reliability;  // /reliability, when given
  std::optional<models::network::UplinkConfig> uplink;               // /uplink, when given
  std::optional<models::storage::StorageConfig> storage;             // /storage, when given
  std::optional<models::datacenter::NvmeofNamespacesConfig> nvmeof;  // /nvmeof, when given
  std::optional<models::economics::EconomicsConfig> economics;       // /economics, when given
  std::vector<models::inference::ServiceConfig> inference;          // /inference/services
  std::vector<TraceReport> traces;  // /workload/traces: what each trace gave (jobs, rows skipped)
  // Issue 37 item 2: the /workload/training entries whose plan was searched ("parallelism":
  // {"auto": true}), by index, and what the search found; the plan itself is in `cluster` and
  // written back into `resolved`.
  std::vector<std::pair<std::size_t, models::workload::PlanSearchOutcome>> plan_searches;
  // /faults entries of kinds `node` and `job_crash`, in time order (the fabric's and the plant's
  // are in `fabric` and `facility`).
  std::vector<models::reliability::ScriptedNodeFault> node_faults;
  // What the loader changed on its own (old keys moved to today's format), for the user to read.
  std::vector<std::string> notices;
  // The --set overrides applied, as given, in order (and "seed=N" for a --seed): recorded with
  // the run's outputs so a result says which variant produced it.
  std::vector<std::string> overrides;
};

// Reads, overrides, validates and maps. `set_overrides` are "a.b.c=VALUE" strings (see
// apply_override), applied in order; `seed_override` replaces /seed.
// A scenario whose run would not fit `limits` (memory, periodic steps; resource_guard.hpp) is
// an InputError too, found before anything large is allocated.
Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& set_overrides,
                            std::optional<std::uint64_t> seed_override,
                            const models::ModelRegistries& registries,
                            const ResourceLimits& limits = ResourceLimits::for_this_machine());
Scenario load_scenario_json(nlohmann::json doc, const std::string& source,
                            const std::vector<std::string>& set_overrides,
                            std::optional<std::uint64_t> seed_override,
                            const models::ModelRegistries& registries,
                            const ResourceLimits& limits = ResourceLimits::for_this_machine());

// The same with the format's spec tree built once by the caller (scenario_spec(registries), for
// these registries): what a caller loading many documents (the fuzzer) saves, as building the
// tree costs more than checking a small document against it.
Scenario load_scenario_json(nlohmann::json doc, const std::string& source,
                            const std::vector<std::string>& set_overrides,
                            std::optional<std::uint64_t> seed_override,
                            const models::ModelRegistries& registries, const ResourceLimits& limits,
                            const FieldSpec& spec);

// Parses JSON text; InputError "<source>:<line>:<column>: invalid JSON: ..." when it is not, or
// when it nests arrays and objects deeper than kMaxJsonDepth (check_json_depth, before parsing).
nlohmann::json parse_json_text(std::string_view text, const std::string& source);

// The text of a JSON file, read whole: InputError "<path>: cannot open <what>", "<path>: is a
// directory, not a file", or "<path>: larger than 64 MB ..." (a device such as /dev/zero would
// be read until memory ran out; a scenario is a few kB, bulk data lives in trace files).
std::string read_json_file_text(const std::string& path, const std::string& what);
inline constexpr std::size_t kMaxJsonFileBytes = std::size_t{64} << 20;

// The deepest nesting of arrays and objects a scenario file, sweep file or --set value may have.
// The shipped scenarios nest 7 levels at most; 64 leaves room for what users add and bounds what
// parsing costs: 200,000 nested brackets (400 KB) made the duplicate-key check allocate 4.2 GB (a
// JSON pointer string per level, depth squared in all).
inline constexpr std::size_t kMaxJsonDepth = 64;
// InputError "<source>:<line>:<column>: invalid JSON: arrays and objects nested deeper than 64
// levels ..." at the bracket that goes one level too deep. One pass, no allocation.
void check_json_depth(std::string_view text, const std::string& source);

// Applies one --set argument "a.b.c=VALUE" to `doc`. Path segments are object keys, or array
// indices where the value there is an array (an index equal to the size appends). VALUE is
// parsed as JSON when it parses (8, true, [1,2], {"x":1}, "quoted"), else taken as a string
// ("400 Gbps"). Missing objects on the path are created; whether the key is valid is left to
// validation. VALUE null removes the key or array element (later elements move up), so the
// scenario has the key's default; "\"null\"" is the string. InputError when the argument is
// malformed (no '=', empty path or segment), an index is out of range, or the path goes through
// a scalar. Returns false when a null found nothing to remove (load_scenario_json then checks
// that the path is a key of the format at all).
bool apply_override(nlohmann::json& doc, const std::string& assignment);

// The scenario format's spec tree, with enum values taken from the registries.
FieldSpec scenario_spec(const models::ModelRegistries& registries);

// JSON Schema (draft 2020-12) of scenario files, as committed in scenarios/schema.json.
nlohmann::json scenario_schema(const models::ModelRegistries& registries);
// The Markdown table of every key (type, default, valid values, meaning), as in
// docs/scenario-keys.md between the "generated" markers.
std::string scenario_reference_markdown(const models::ModelRegistries& registries);

// "<source>:<pointer>: <detail>, got <value>" for a ConfigError the cluster model threw about a
// loaded scenario (from ClusterSimulation's constructor, say), so it reads like the loader's own
// messages; "<source>: <field>: <detail>" for a field no key feeds.
sim::InputError cluster_config_error(const Scenario& s, const sim::ConfigError& error,
                                     const models::ModelRegistries& registries);

}  // namespace dcsim::tools::scenario
