#include "tools/check/check_verdict.hpp"

#include <chrono>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "tools/check/summary_path.hpp"

namespace dcsim::tools::check {

namespace {

using nlohmann::json;

std::string number_text(double v) { return fmt::format("{:.6g}", v); }

// The value at a summary path, or null when there is none (`why` says why, when it is known).
json value_at(const json& summary, const std::string& path, std::string* why = nullptr) {
  const PathLookup found = lookup(summary, path);
  if (why != nullptr) *why = found.problem;
  return found.value != nullptr ? *found.value : json();
}

// "no such value in the summary" and why, for a value a check needs and the run did not report.
std::string missing(const std::string& why) {
  return "no such value in the summary" + (why.empty() ? std::string() : " (" + why + ")");
}

std::string value_text(const json& v) {
  if (v.is_null()) return "(none)";
  if (v.is_number()) return number_text(v.get<double>());
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// How far inside (passed) or outside (failed) a bound: absolute, and relative to the bound.
std::string margin(double value, double bound) {
  const double d = std::fabs(value - bound);
  return bound != 0 ? fmt::format("by {} ({:.1f}% of the limit)", number_text(d), 100 * d / std::fabs(bound))
                    : fmt::format("by {}", number_text(d));
}

Verdict bounds(const Check& c, const json& v, Verdict out) {
  out.check = c.path + (c.min && c.max   ? fmt::format(" in [{}, {}]", number_text(*c.min), number_text(*c.max))
                        : c.min          ? " >= " + number_text(*c.min)
                                         : " <= " + number_text(*c.max));
  out.limit = c.min && c.max ? fmt::format("[{}, {}]", number_text(*c.min), number_text(*c.max))
              : c.min        ? ">= " + number_text(*c.min)
                             : "<= " + number_text(*c.max);
  if (!v.is_number()) {
    out.detail = v.is_null() ? "no such value in the summary" : "not a number";
    return out;
  }
  const double x = v.get<double>();
  const bool low = c.min && x < *c.min;
  const bool high = c.max && x > *c.max;
  out.passed = !low && !high;
  if (low) {
    out.detail = "below the minimum " + margin(x, *c.min);
  } else if (high) {
    out.detail = "above the maximum " + margin(x, *c.max);
  } else {
    // The nearest bound is the margin that matters.
    const std::optional<double> nearest =
        c.min && c.max ? (x - *c.min < *c.max - x ? c.min : c.max) : (c.min ? c.min : c.max);
    out.detail = "inside " + margin(x, *nearest);
  }
  return out;
}

// max_increase / max_decrease: a limit one way (or each way), none the other.
Verdict one_sided(const Check& c, const json& v, Verdict out) {
  const double b = c.baseline_value;
  const auto text = [](const Check::Allowance& a) { return a.percent ? number_text(a.amount) + "%" : number_text(a.amount); };
  out.check = c.path + " vs baseline";
  const auto& up = c.max_increase;
  const auto& down = c.max_decrease;
  if (up && down) {
    out.limit = fmt::format("[{}, {}] (baseline {} -{} +{})", number_text(b - down->of(b)), number_text(b + up->of(b)),
                            number_text(b), text(*down), text(*up));
  } else if (up) {
    out.limit = fmt::format("<= {} (baseline {} + {})", number_text(b + up->of(b)), number_text(b), text(*up));
  } else {
    out.limit = fmt::format(">= {} (baseline {} - {})", number_text(b - down->of(b)), number_text(b), text(*down));
  }
  if (!v.is_number()) {
    out.detail = v.is_null() ? "no such value in the summary" : "not a number";
    return out;
  }
  const double d = v.get<double>() - b;
  const auto& limit = d > 0 ? up : down;
  out.passed = !limit || std::fabs(d) <= limit->of(b);
  if (d == 0) {
    out.detail = "equal to the baseline";
    return out;
  }
  out.detail = fmt::format("{} the baseline by {} ({}{:.2f}%), {}", d > 0 ? "above" : "below",
                           number_text(std::fabs(d)), d > 0 ? "+" : "-", b != 0 ? 100 * std::fabs(d) / std::fabs(b) : 0.0,
                           limit ? number_text(limit->of(b)) + " allowed"
                                 : std::string(d > 0 ? "any increase allowed" : "any decrease allowed"));
  return out;
}

Verdict baseline(const Check& c, const json& v, Verdict out) {
  if (!c.baseline_problem.empty()) {  // `dcsim check` refuses this before running (exit 2)
    out.check = c.path + " vs baseline";
    out.detail = c.baseline_problem;
    return out;
  }
  if (c.max_increase || c.max_decrease) return one_sided(c, v, std::move(out));
  const double b = c.baseline_value;
  const double allowed = std::max(c.abs_tol.value_or(0.0), c.rel_tol.value_or(0.0) * std::fabs(b));
  out.check = c.path + " vs baseline";
  out.limit = number_text(b) + " +- " + number_text(allowed) +
              (c.rel_tol ? fmt::format(" ({:.3g}%)", 100 * *c.rel_tol) : std::string());
  if (!v.is_number()) {
    out.detail = v.is_null() ? "no such value in the summary" : "not a number";
    return out;
  }
  const double d = v.get<double>() - b;
  out.passed = std::fabs(d) <= allowed;
  if (d == 0) {
    out.detail = "equal to the baseline";
    return out;
  }
  out.detail = fmt::format("{} the baseline by {} ({}{:.2f}%), {} allowed either way", d >= 0 ? "above" : "below",
                           number_text(std::fabs(d)), d >= 0 ? "+" : "-",
                           b != 0 ? 100 * std::fabs(d) / std::fabs(b) : 0.0, number_text(allowed));
  return out;
}

}  // namespace

std::vector<Verdict> judge(const RunExpectation& run, const json& summary) {
  std::vector<Verdict> out;
  for (const Check& c : run.checks) {
    const auto start = std::chrono::steady_clock::now();
    Verdict v;
    v.run = run.name;
    switch (c.kind) {
      case Check::Kind::kBounds:
      case Check::Kind::kBaseline: {
        std::string why;
        const json x = value_at(summary, c.path, &why);
        v = c.kind == Check::Kind::kBounds ? bounds(c, x, v) : baseline(c, x, v);
        v.value = value_text(x);
        if (x.is_null()) v.detail = missing(why);
        break;
      }
      case Check::Kind::kEquals: {
        std::string why;
        const json x = value_at(summary, c.path, &why);
        v.check = c.path + " == " + value_text(c.equals);
        v.value = value_text(x);
        v.limit = value_text(c.equals);
        v.passed = (x.is_number() && c.equals.is_number()) ? x.get<double>() == c.equals.get<double>() : x == c.equals;
        v.detail = v.passed ? "equal" : x.is_null() ? missing(why) : "differs";
        break;
      }
      case Check::Kind::kFingerprint: {
        const json x = value_at(summary, "engine/fingerprint");
        v.check = "fingerprint";
        v.value = value_text(x);
        v.limit = c.fingerprint;
        v.passed = x.is_string() && x.get<std::string>() == c.fingerprint;
        v.detail = v.passed ? "the same events in the same order" : "the run's events differ from the expected run's";
        break;
      }
      case Check::Kind::kNoFailedFlows: {
        // Both networks: the backend fabric's flows and the front-end's (checkpoints to a store).
        const json backend = value_at(summary, "network/flows_failed");
        const json frontend = value_at(summary, "frontend/flows_failed");
        const double failed = (backend.is_number() ? backend.get<double>() : 0) +
                              (frontend.is_number() ? frontend.get<double>() : 0);
        v.check = "no failed flows";
        v.value = backend.is_null() && frontend.is_null() ? "no fabric" : number_text(failed);
        v.limit = "0";
        v.passed = failed == 0;
        v.detail = v.passed ? "none failed" : number_text(failed) + " flows failed";
        break;
      }
      case Check::Kind::kNoUnfinishedJobs: {
        const json unfinished = value_at(summary, "workload/jobs_unfinished");
        const json failed = value_at(summary, "workload/jobs_failed");
        const double n = (unfinished.is_number() ? unfinished.get<double>() : 0) +
                         (failed.is_number() ? failed.get<double>() : 0);
        v.check = "no unfinished jobs";
        v.value = unfinished.is_null() ? "no cluster" : number_text(n);
        v.limit = "0";
        v.passed = n == 0;
        v.detail = v.passed ? "every job completed"
                            : fmt::format("{} still waiting or running, {} failed", value_text(unfinished),
                                          value_text(failed));
        break;
      }
    }
    v.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace dcsim::tools::check
