#include "models/reliability/recovery_stages.hpp"

#include <array>
#include <utility>

#include "models/reliability/fault_class.hpp"

namespace dcsim::models::reliability {

namespace {

constexpr std::array<std::pair<std::string_view, Operations>, 3> kOperations{
    {{"automated", Operations::kAutomated}, {"manual", Operations::kManual}, {"none", Operations::kNone}}};

constexpr double kMinute = 60.0;
constexpr double kHour = 3600.0;

sim::Distribution fixed(double s) { return {sim::Distribution::Kind::kFixed, s, 0.0}; }

}  // namespace

std::string_view operations_name(Operations ops) {
  for (const auto& [name, o] : kOperations) {
    if (o == ops) return name;
  }
  return "automated";
}

std::optional<Operations> parse_operations(std::string_view name) {
  for (const auto& [n, o] : kOperations) {
    if (n == name) return o;
  }
  return std::nullopt;
}

std::vector<std::string> operations_names() {
  std::vector<std::string> out;
  for (const auto& [name, o] : kOperations) out.emplace_back(name);
  return out;
}

bool interrupts_jobs(FaultEffect effect) {
  switch (effect) {
    case FaultEffect::kNodeDown:
    case FaultEffect::kJobCrash:
    case FaultEffect::kNicDown:
    case FaultEffect::kLinkDown:
    case FaultEffect::kSwitchDown: return true;
    default: return false;
  }
}

RecoveryStages operations_stages(Operations ops, FaultEffect effect) {
  if (ops == Operations::kNone || !interrupts_jobs(effect)) return {};
  const bool crash = effect == FaultEffect::kJobCrash;
  if (ops == Operations::kAutomated) {
    // NVRx rank_heartbeat_timeout (300 s); MegaScale's < 10 min for detection + diagnosis.
    if (crash) return {};
    return {fixed(5 * kMinute), fixed(5 * kMinute)};
  }
  // Manual: BLOOM's Slurm requeue of a crashed job after ~5 min; PyTorch's 10-min NCCL watchdog
  // and an hourly monitor, then hours to find and replace the node (header).
  if (crash) return {fixed(5 * kMinute), fixed(0.0)};
  return {{sim::Distribution::Kind::kUniform, 10 * kMinute, 70 * kMinute},
          {sim::Distribution::Kind::kLognormal, 2 * kHour, 0.8}};
}

}  // namespace dcsim::models::reliability
