#include "models/reliability/fault_precursor.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::reliability {

namespace {

void validate(const PrecursorConfig& c, const FaultModelConfig& model) {
  if (!(c.precision > 0.0 && c.precision <= 1.0)) {
    throw sim::ConfigError("precision",
                           "expected a fraction in (0, 1], got " + std::to_string(c.precision));
  }
  if (!(c.recall >= 0.0 && c.recall <= 1.0)) {
    throw sim::ConfigError("recall",
                           "expected a fraction in [0, 1], got " + std::to_string(c.recall));
  }
  if (c.lead_time < sim::Time::zero()) throw sim::ConfigError("lead_time", "must not be negative");
  if (c.drain_time < sim::Time::zero())
    throw sim::ConfigError("drain_time", "must not be negative");
  for (const std::string& name : c.classes) {
    bool known = false;
    std::string valid;
    for (const FaultClass& fc : model.classes) {
      known = known || fc.name == name;
      valid += (valid.empty() ? "" : ", ") + fc.name;
    }
    if (!known) {
      throw sim::ConfigError("precursor_classes",
                             "the fault model has no class '" + name +
                                 "'; its classes: " + (valid.empty() ? "none" : valid));
    }
  }
}

}  // namespace

FaultPrecursor::FaultPrecursor(PrecursorConfig config, FaultProcess& faults, std::uint64_t seed,
                               sim::Simulator& simulator, Handler on_alarm, sim::Time horizon)
    : config_(std::move(config)),
      faults_(faults),
      sim_(simulator),
      on_alarm_(std::move(on_alarm)),
      horizon_(horizon),
      false_rng_(seed, "reliability/precursor/false_alarms") {
  const FaultModelConfig& model = faults.config();
  validate(config_, model);
  std::vector<bool> listed(model.classes.size(), false);
  class_rng_.resize(model.classes.size());
  double true_rate_per_h = 0.0;
  for (std::size_t c = 0; c < model.classes.size(); ++c) {
    for (const std::string& name : config_.classes)
      listed[c] = listed[c] || name == model.classes[c].name;
    if (!listed[c]) continue;
    class_rng_[c] =
        std::make_unique<sim::RandomStream>(seed, "reliability/precursor/" + model.classes[c].name);
    true_rate_per_h += config_.recall * faults.nominal_rate_per_hour(c);
  }
  false_rate_per_s_ = true_rate_per_h * (1.0 - config_.precision) / config_.precision / 3600.0;
  nodes_ = model.inventory.nodes;
  faults.set_lookahead(config_.lead_time, std::move(listed),
                       [this](const Fault& f) { on_upcoming(f); });
}

void FaultPrecursor::start() {
  if (started_) throw sim::InternalError("FaultPrecursor::start called twice (this is a bug)");
  started_ = true;
  schedule_false_alarm();
}

void FaultPrecursor::on_upcoming(const Fault& f) {
  // One draw per announced fault, in the order the class announces them: deterministic.
  if (f.node < 0 || !(class_rng_[f.class_index]->uniform01() < config_.recall)) {
    ++missed_;
    return;
  }
  ++true_alarms_;
  if (on_alarm_) on_alarm_({f.node, false, "predicted:" + faults_.fault_class(f).name, f.at});
}

void FaultPrecursor::schedule_false_alarm() {
  if (!(false_rate_per_s_ > 0.0) || nodes_ <= 0) return;
  const sim::Time t =
      sim_.now() + sim::Time::from_seconds(false_rng_.exponential(1.0 / false_rate_per_s_));
  if (t >= horizon_ || t.is_max()) return;
  sim_.at(
      t,
      [this] {
        const int node =
            static_cast<int>(false_rng_.uniform_int(static_cast<std::uint64_t>(nodes_)));
        ++false_alarms_;
        if (on_alarm_) on_alarm_({node, true, "false_alarm", sim_.now() + config_.drain_time});
        schedule_false_alarm();
      },
      sim::Priority::kFirst);
}

}  // namespace dcsim::models::reliability
