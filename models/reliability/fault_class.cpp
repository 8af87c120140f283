#include "models/reliability/fault_class.hpp"

#include <array>
#include <cmath>
#include <set>

#include "sim/error.hpp"

namespace dcsim::models::reliability {

namespace {

constexpr std::array<std::string_view, kFaultEffectCount> kEffects{"node_down",   "job_crash",   "nic_down",
                                                                   "link_down",   "switch_down", "zone_cooling_loss",
                                                                   "silent_data_corruption", "osd_host_down", "osd_down"};

std::string number(double v) {
  std::string s = std::to_string(v);
  return s;
}

void validate_repair(const sim::Distribution& d, const std::string& field) {
  using K = sim::Distribution::Kind;
  const bool finite = std::isfinite(d.a) && std::isfinite(d.b);
  bool ok = finite;
  switch (d.kind) {
    case K::kFixed: ok = ok && d.a >= 0; break;
    case K::kUniform: ok = ok && d.a >= 0 && d.b >= d.a; break;
    case K::kExponential: ok = ok && d.a > 0; break;
    case K::kLognormal: ok = ok && d.a > 0 && d.b > 0; break;
    case K::kWeibull: ok = ok && d.a > 0 && d.b > 0; break;
  }
  if (!ok) {
    throw sim::ConfigError(field,
                           "expected a distribution of non-negative durations with positive "
                           "scale parameters, got parameters " +
                               number(d.a) + ", " + number(d.b));
  }
}

}  // namespace

std::string_view effect_name(FaultEffect e) { return kEffects[static_cast<std::size_t>(e)]; }

std::optional<FaultEffect> parse_effect(std::string_view name) {
  for (std::size_t i = 0; i < kEffects.size(); ++i) {
    if (kEffects[i] == name) return static_cast<FaultEffect>(i);
  }
  return std::nullopt;
}

std::vector<std::string> effect_names() { return {kEffects.begin(), kEffects.end()}; }

bool effect_applies_to(FaultEffect e, ComponentKind k) {
  switch (e) {
    case FaultEffect::kNodeDown:
    case FaultEffect::kJobCrash:
    case FaultEffect::kSilentCorruption:
      return k == ComponentKind::kGpu || k == ComponentKind::kNode || k == ComponentKind::kNic;
    case FaultEffect::kNicDown: return k == ComponentKind::kNic;
    case FaultEffect::kLinkDown: return k == ComponentKind::kLink;
    case FaultEffect::kSwitchDown: return k == ComponentKind::kSwitch;
    case FaultEffect::kZoneCoolingLoss: return k == ComponentKind::kZone;
    case FaultEffect::kOsdHostDown: return k == ComponentKind::kOsdHost;
    case FaultEffect::kOsdDown: return k == ComponentKind::kOsd;
  }
  return false;
}

double node_interruption_rate_per_hour(const FaultModelConfig& config) {
  double rate = 0.0;
  for (const auto& c : config.classes) {
    // Silent corruptions count in full: each detected one rolls the job back at least as far as
    // an interruption does (the detection probability is the cluster's, not known here).
    const bool interrupts = c.effect == FaultEffect::kNodeDown || c.effect == FaultEffect::kJobCrash ||
                            c.effect == FaultEffect::kSilentCorruption ||
                            (c.effect == FaultEffect::kNicDown && !config.nic_bonding);
    if (!interrupts) continue;
    const double per_node = c.component == ComponentKind::kGpu   ? config.inventory.gpus_per_node
                            : c.component == ComponentKind::kNic ? config.inventory.nics_per_node
                                                                 : 1.0;
    rate += c.rate_per_hour * config.scale * per_node;
  }
  return rate;
}

RecoveryStages recovery_stages(const FaultModelConfig& config, const FaultClass& c) {
  return c.recovery ? *c.recovery : operations_stages(config.operations, c.effect);
}

double weibull_scale_hours(double rate_per_hour, double shape) {
  return 1.0 / (rate_per_hour * std::tgamma(1.0 + 1.0 / shape));
}

void validate(const FaultModelConfig& config) {
  if (!std::isfinite(config.scale) || config.scale < 0) {
    throw sim::ConfigError("scale", "expected a non-negative number, got " + number(config.scale));
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < config.classes.size(); ++i) {
    const FaultClass& c = config.classes[i];
    const std::string base = "classes[" + std::to_string(i) + "].";
    if (c.name.empty()) throw sim::ConfigError(base + "name", "expected a non-empty class name");
    if (!names.insert(c.name).second) {
      throw sim::ConfigError(base + "name", "expected a unique class name, got '" + c.name + "' twice");
    }
    if (!std::isfinite(c.rate_per_hour) || c.rate_per_hour < 0) {
      throw sim::ConfigError(base + "rate_per_hour", "expected a non-negative rate, got " + number(c.rate_per_hour));
    }
    if (!std::isfinite(c.weibull_shape) || c.weibull_shape <= 0) {
      throw sim::ConfigError(base + "weibull_shape", "expected a positive shape, got " + number(c.weibull_shape));
    }
    validate_repair(c.repair_s, base + "repair_s");
    if (c.recovery) {
      validate_repair(c.recovery->detection_s, base + "detection_s");
      validate_repair(c.recovery->diagnosis_s, base + "diagnosis_s");
    }
    if (!effect_applies_to(c.effect, c.component)) {
      throw sim::ConfigError(base + "effect", "effect '" + std::string(effect_name(c.effect)) +
                                                  "' does not apply to component '" +
                                                  std::string(component_name(c.component)) + "'");
    }
  }
}

}  // namespace dcsim::models::reliability
