#pragma once
// The scenario format's `faults` section: every scripted fault in one list, whatever part it
// hits (a fabric link, switch or NIC port; a node; a cooling plant part). Random faults are the
// /reliability section. Files written before this section had /fabric/faults and
// /facility/faults: the loader moves those entries here (migrate_legacy_faults) and says so.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/reliability/scripted_node_fault.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

FieldSpec faults_section();

// Moves the entries of /fabric/faults and /facility/faults (in that order) to the end of /faults
// and removes the old keys; a notice per moved list names where its entries went. Leaves a
// document whose old keys are not arrays to validation (they are reported as unknown keys).
std::vector<std::string> migrate_legacy_faults(nlohmann::json& doc);

// What the spec alone cannot say: keys a fault's kind does not use (given: the document as
// written), the section a kind needs, `state` and `duration` where the kind has them.
void check_faults_cross_field(const nlohmann::json& given, const nlohmann::json& resolved, ErrorList& errors);

// The node-kind entries (node, job_crash) of the resolved /faults, in time order; a node fault
// with a duration comes back up then. InputError (pointer /faults/i/node) for a node the cluster
// (`nodes` of them) does not have.
std::vector<models::reliability::ScriptedNodeFault> map_node_faults(const nlohmann::json& faults, int nodes,
                                                                   const std::string& source);

// Which part a fault kind hits.
enum class FaultTarget { kFabric, kNode, kPlant, kStore };
FaultTarget fault_target(const std::string& kind);

// A part's faults are the /faults entries of its target, in order: its field "faults[k].<key>"
// is /faults/<i>/<key> (the k-th such entry; its own pointer when it has no such key).
std::optional<std::string> part_fault_pointer(std::string_view field, const nlohmann::json& faults, FaultTarget target);

}  // namespace dcsim::tools::scenario
