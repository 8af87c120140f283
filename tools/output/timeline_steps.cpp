#include "tools/output/timeline_steps.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

namespace dcsim::tools::output::timeline {

namespace {

// Joins the portions of each step (a step cut by a clock change comes in two pieces), then
// consecutive whole steps into slices of `per_slice`, and writes each slice with its children.
class StepSlicer {
 public:
  StepSlicer(EventWriter& writer, int pid, int tid, std::int64_t per_slice)
      : writer_(writer), pid_(pid), tid_(tid), per_slice_(per_slice) {}

  // The part of step `index` in [start_ns, end_ns) and its share of one step's breakdown.
  void add_portion(std::int64_t index, std::int64_t start_ns, std::int64_t end_ns, double c, double m, double b,
                   bool completes, bool starts_mid_step) {
    if (step_.open && (step_.first != index || step_.end_ns != start_ns)) flush_step(false);
    if (!step_.open) step_ = Span{true, index, index, 1, start_ns, start_ns, 0.0, 0.0, 0.0, 0.0, 0, starts_mid_step, false};
    step_.end_ns = end_ns;
    step_.c += c;
    step_.m += m;
    step_.b += b;
    if (completes) flush_step(false, true);
  }

  // `reached_end`: the step's last portion came (else it was cut off).
  void flush_step(bool interrupted, bool reached_end = false) {
    if (!step_.open) return;
    Span s = step_;
    step_.open = false;
    const bool whole = !s.part && !interrupted && reached_end;
    s.part = !whole;
    s.interrupted = interrupted;
    if (group_.open && (!whole || group_.part || group_.end_ns != s.start_ns || group_.last + 1 != s.first ||
                        group_.count >= per_slice_)) {
      flush_group();
    }
    if (!group_.open) {
      group_ = s;
    } else {
      group_.last = s.last;
      group_.count += 1;
      group_.end_ns = s.end_ns;
      group_.c += s.c;
      group_.m += s.m;
      group_.b += s.b;
    }
    // A full group stays open until the next step: a checkpoint right after it still joins it.
    if (!whole) flush_group();
  }

  // A checkpoint write: in grouped mode (per_slice > 1) one right after the group's last step joins
  // the group as its "checkpoint" part (else the slices would be bounded by the checkpoint
  // count, not the step count); otherwise a slice of its own.
  void add_checkpoint(const TimelineRecords::StepPiece& p) {
    flush_step(false);
    if (per_slice_ > 1 && group_.open && !group_.part && group_.end_ns == p.start_ns && !p.interrupted) {
      group_.ck += static_cast<double>(p.end_ns - p.start_ns) * 1e-9;
      group_.checkpoints += 1;
      group_.end_ns = p.end_ns;
      return;
    }
    flush_group();
    Args args;
    args.add("after_step", number(p.from_step));
    if (p.interrupted) args.add("interrupted", "true");
    if (p.end_ns > p.start_ns) {
      writer_.complete(p.interrupted ? "checkpoint (interrupted)" : "checkpoint", "checkpoint", p.start_ns,
                       p.end_ns - p.start_ns, pid_, tid_, args);
    }
  }

  void flush_group() {
    if (!group_.open) return;
    group_.open = false;
    write(group_);
  }

 private:
  struct Span {
    bool open = false;
    std::int64_t first = 0, last = 0, count = 0;
    std::int64_t start_ns = 0, end_ns = 0;
    double c = 0.0, m = 0.0, b = 0.0;  // seconds of compute, exposed communication, bubble
    double ck = 0.0;                    // seconds of checkpoint writes (grouped mode)
    std::int64_t checkpoints = 0;
    bool part = false;                  // not a whole step: began mid-step, or cut off
    bool interrupted = false;
  };

  void write(const Span& s) {
    const std::int64_t dur = s.end_ns - s.start_ns;
    if (dur <= 0) return;
    std::string name = s.count == 1 ? fmt::format("step {}", s.first + 1)
                                    : fmt::format("steps {}-{}", s.first + 1, s.last + 1);
    if (s.part) name += s.interrupted ? " (interrupted)" : " (part)";
    if (s.checkpoints > 0) name += fmt::format(" + {} checkpoint{}", s.checkpoints, s.checkpoints == 1 ? "" : "s");
    Args args;
    args.add("steps", fmt::format("{}", s.count))
        .add("compute_ms", number(s.c * 1e3))
        .add("communication_ms", number(s.m * 1e3))
        .add("bubble_ms", number(s.b * 1e3));
    if (s.checkpoints > 0) args.add("checkpoints", fmt::format("{}", s.checkpoints)).add("checkpoint_ms", number(s.ck * 1e3));
    if (s.interrupted) args.add("interrupted", "true");
    writer_.complete(name, "step", s.start_ns, dur, pid_, tid_, args);
    // Children end to end, scaled to the slice so that they add up to it exactly.
    const double total = s.c + s.m + s.b + s.ck;
    if (!(total > 0.0)) return;
    const auto share = [&](double part) {
      return static_cast<std::int64_t>(std::llround(static_cast<double>(dur) * part / total));
    };
    std::int64_t c_ns = std::min(share(s.c), dur);
    const std::int64_t m_ns = std::min(share(s.m), dur - c_ns);
    const std::int64_t ck_ns = s.checkpoints > 0 ? std::min(share(s.ck), dur - c_ns - m_ns) : 0;
    const std::int64_t b_ns = dur - c_ns - m_ns - ck_ns;
    std::int64_t at = s.start_ns;
    // Categories: compute, communication, bubble, checkpointing (a checkpoint part inside a group,
    // told apart from a checkpoint slice of its own, category checkpoint).
    for (const auto& [part, cat, ns] : {std::tuple<const char*, const char*, std::int64_t>{"compute", "compute", c_ns},
                                        {"communication", "communication", m_ns},
                                        {"bubble", "bubble", b_ns},
                                        {"checkpoint", "checkpointing", ck_ns}}) {
      if (ns > 0) writer_.complete(part, cat, at, ns, pid_, tid_, Args());
      at += ns;
    }
  }

  EventWriter& writer_;
  int pid_, tid_;
  std::int64_t per_slice_;
  Span step_, group_;
};

}  // namespace

std::int64_t steps_per_slice(const std::vector<const TimelineRecords::StepPiece*>& pieces, std::size_t max_steps) {
  double total = 0.0;
  for (const auto* p : pieces) {
    if (!p->checkpoint && p->to_step > p->from_step) total += p->to_step - p->from_step;
  }
  const double limit = static_cast<double>(std::max<std::size_t>(max_steps, 1));
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(total / limit)));
}

void write_training_steps(EventWriter& writer, int pid, int tid,
                          const std::vector<const TimelineRecords::StepPiece*>& pieces, std::int64_t per_slice) {
  StepSlicer slicer(writer, pid, tid, per_slice);
  for (const auto* p : pieces) {
    if (p->checkpoint) {
      slicer.add_checkpoint(*p);
      continue;
    }
    const double f = p->from_step, t = p->to_step;
    if (t > f && p->end_ns > p->start_ns) {
      // Progress is linear in time within a piece (one step time throughout).
      const auto ns_at = [&](double x) {
        if (x >= t) return p->end_ns;
        return p->start_ns + static_cast<std::int64_t>(std::llround((x - f) / (t - f) *
                                                                    static_cast<double>(p->end_ns - p->start_ns)));
      };
      for (double k = std::floor(f); k < t; k += 1.0) {
        const double lo = std::max(k, f), hi = std::min(k + 1.0, t);
        if (!(hi > lo)) continue;
        const double frac = hi - lo;
        slicer.add_portion(static_cast<std::int64_t>(k), ns_at(lo), ns_at(hi), frac * p->compute_s,
                           frac * p->comm_s, frac * p->bubble_s, hi >= k + 1.0, lo > k);
      }
    }
    if (p->interrupted) {
      slicer.flush_step(true);
      slicer.flush_group();
    }
  }
  slicer.flush_step(false);
  slicer.flush_group();
}

}  // namespace dcsim::tools::output::timeline
