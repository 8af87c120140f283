#include "models/reliability/fault_process.hpp"

#include <algorithm>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::reliability {

namespace {

constexpr double kSecondsPerHour = 3600.0;

// One instance's next fault time in a Weibull class's heap; ordered by time, then instance, so
// that equal times never leave the order to the heap's internals.
struct Pending {
  std::int64_t at_ns;
  std::uint64_t instance;
};
struct Later {
  bool operator()(const Pending& a, const Pending& b) const {
    return a.at_ns != b.at_ns ? a.at_ns > b.at_ns : a.instance > b.instance;
  }
};

}  // namespace

struct FaultProcess::ClassState {
  ClassState(std::uint64_t seed, const std::string& name) : rng(seed, "reliability/" + name) {}
  sim::RandomStream rng;
  std::uint64_t instances = 0;
  double rate_per_s = 0.0;       // per instance, scale applied
  bool weibull = false;
  double weibull_scale_s = 0.0;  // lifetime scale giving MTTF = 1 / rate
  std::vector<Pending> heap;     // Weibull: every instance's next fault
  std::uint64_t next_instance = 0;  // exponential: the next fault's, drawn with its time
  std::uint64_t faults = 0;
  std::uint64_t skipped = 0;
};

FaultProcess::FaultProcess(FaultModelConfig config, std::uint64_t seed, sim::Simulator& simulator, Handler on_fault,
                           Handler on_repair, sim::Time horizon)
    : config_(std::move(config)),
      sim_(simulator),
      on_fault_(std::move(on_fault)),
      on_repair_(std::move(on_repair)),
      horizon_(horizon) {
  validate(config_);
  for (const FaultClass& fc : config_.classes) {
    auto state = std::make_unique<ClassState>(seed, fc.name);
    const std::int64_t n = config_.inventory.count(fc.component);
    state->instances = n > 0 ? static_cast<std::uint64_t>(n) : 0;
    state->rate_per_s = fc.rate_per_hour * config_.scale / kSecondsPerHour;
    state->weibull = fc.weibull_shape != 1.0;
    if (state->weibull && state->rate_per_s > 0) {
      state->weibull_scale_s = weibull_scale_hours(fc.rate_per_hour * config_.scale, fc.weibull_shape) * kSecondsPerHour;
    }
    classes_.push_back(std::move(state));
  }
}

FaultProcess::~FaultProcess() = default;

void FaultProcess::start() {
  if (started_) throw sim::InternalError("FaultProcess::start called twice (this is a bug)");
  started_ = true;
  const sim::Time now = sim_.now();
  for (std::size_t c = 0; c < classes_.size(); ++c) {
    ClassState& s = *classes_[c];
    if (s.instances == 0 || s.rate_per_s <= 0) continue;
    if (s.weibull) {
      const double shape = config_.classes[c].weibull_shape;
      s.heap.reserve(s.instances);
      for (std::uint64_t i = 0; i < s.instances; ++i) {
        const sim::Time t = now + sim::Time::from_seconds(s.rng.weibull(shape, s.weibull_scale_s));
        s.heap.push_back({t.ns(), i});
      }
      std::make_heap(s.heap.begin(), s.heap.end(), Later{});
      for (const Pending& p : s.heap) announce(c, static_cast<std::size_t>(p.instance), sim::Time::from_ns(p.at_ns));
    }
    schedule_next(c);
  }
}

void FaultProcess::schedule_next(std::size_t c) {
  ClassState& s = *classes_[c];
  sim::Time t;
  if (s.weibull) {
    if (s.heap.empty()) return;
    t = sim::Time::from_ns(s.heap.front().at_ns);
  } else {
    // The superposed process: mean gap 1 / (n r), on a uniformly chosen instance.
    const double mean_gap_s = 1.0 / (static_cast<double>(s.instances) * s.rate_per_s);
    t = sim_.now() + sim::Time::from_seconds(s.rng.exponential(mean_gap_s));
    s.next_instance = s.rng.uniform_int(s.instances);
  }
  if (t >= horizon_ || t.is_max()) return;
  if (!s.weibull) announce(c, static_cast<std::size_t>(s.next_instance), t);
  sim_.at(t, [this, c] { on_class_event(c); }, sim::Priority::kFirst);
}

void FaultProcess::on_class_event(std::size_t c) {
  ClassState& s = *classes_[c];
  if (s.weibull) {
    std::pop_heap(s.heap.begin(), s.heap.end(), Later{});
    Pending& p = s.heap.back();
    const std::size_t instance = static_cast<std::size_t>(p.instance);
    // Failed now or already down from another class: either way it is down until renew_at.
    fire(c, instance);
    const sim::Time renew_at = down_[static_cast<std::size_t>(config_.classes[c].component)].at(instance);
    // Age 0 again once repaired (by this fault or by the other class's that held it down).
    const sim::Time next = renew_at + sim::Time::from_seconds(s.rng.weibull(config_.classes[c].weibull_shape,
                                                                             s.weibull_scale_s));
    p.at_ns = next.ns();
    std::push_heap(s.heap.begin(), s.heap.end(), Later{});
    announce(c, instance, next);
  } else {
    fire(c, static_cast<std::size_t>(s.next_instance));
  }
  schedule_next(c);
}

bool FaultProcess::fire(std::size_t c, std::size_t instance) {
  ClassState& s = *classes_[c];
  const FaultClass& fc = config_.classes[c];
  auto& down = down_[static_cast<std::size_t>(fc.component)];
  if (down.contains(instance)) {
    ++s.skipped;
    return false;
  }
  const sim::Time now = sim_.now();
  const double repair_s = std::max(0.0, fc.repair_s.sample(s.rng));
  Fault f{now, c, instance, static_cast<int>(config_.inventory.node_of(fc.component, static_cast<std::int64_t>(instance))),
          now + sim::Time::from_seconds(repair_s)};
  down.emplace(instance, f.repair_done);
  ++s.faults;
  if (on_fault_) on_fault_(f);
  if (f.repair_done < horizon_ && !f.repair_done.is_max()) {
    sim_.at(
        f.repair_done,
        [this, f] {
          down_[static_cast<std::size_t>(config_.classes[f.class_index].component)].erase(f.instance);
          if (on_repair_) on_repair_(f);
        },
        sim::Priority::kFirst);
  }
  return true;
}

void FaultProcess::set_lookahead(sim::Time lead, std::vector<bool> classes, Handler on_upcoming) {
  if (started_ || classes.size() != config_.classes.size() || lead < sim::Time::zero()) {
    throw sim::InternalError("FaultProcess::set_lookahead after start, with a wrong class count or a negative "
                             "lead (this is a bug)");
  }
  lead_ = lead;
  lookahead_classes_ = std::move(classes);
  on_upcoming_ = std::move(on_upcoming);
}

void FaultProcess::announce(std::size_t c, std::size_t instance, sim::Time at) {
  if (!on_upcoming_ || !lookahead_classes_[c] || at >= horizon_ || at.is_max()) return;
  const sim::Time when = std::max(sim_.now(), at - lead_);
  sim_.at(
      when,
      [this, c, instance, at] {
        const FaultClass& fc = config_.classes[c];
        if (down_[static_cast<std::size_t>(fc.component)].contains(instance)) return;
        const Fault f{at, c, instance,
                      static_cast<int>(config_.inventory.node_of(fc.component, static_cast<std::int64_t>(instance))),
                      sim::Time::max()};
        on_upcoming_(f);
      },
      sim::Priority::kFirst);
}

std::string FaultProcess::path(const Fault& f) const {
  return config_.inventory.path(config_.classes[f.class_index].component, static_cast<std::int64_t>(f.instance));
}

std::uint64_t FaultProcess::faults(std::size_t class_index) const { return classes_.at(class_index)->faults; }

std::uint64_t FaultProcess::faults_total() const {
  std::uint64_t total = 0;
  for (const auto& s : classes_) total += s->faults;
  return total;
}

std::uint64_t FaultProcess::skipped(std::size_t class_index) const { return classes_.at(class_index)->skipped; }

bool FaultProcess::is_down(ComponentKind kind, std::size_t instance) const {
  return down_[static_cast<std::size_t>(kind)].contains(instance);
}

double FaultProcess::nominal_rate_per_hour(std::size_t class_index) const {
  const ClassState& s = *classes_.at(class_index);
  return s.rate_per_s * kSecondsPerHour * static_cast<double>(s.instances);
}

}  // namespace dcsim::models::reliability
