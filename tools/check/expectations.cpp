#include "tools/check/expectations.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <set>

#include "sim/error.hpp"
#include "tools/check/expectations_format.hpp"
#include "tools/check/summary_path.hpp"
#include "tools/scenario/input_reader.hpp"

namespace dcsim::tools::check {

namespace {

using nlohmann::json;

using Reader = scenario::InputReader;

std::set<std::string> names_of(const std::vector<KeyDecl>& keys) {
  const auto names = key_names(keys);
  return {names.begin(), names.end()};
}

const CheckForm& form_named(const std::string& name) {
  for (const auto& f : check_forms()) {
    if (f.name == name) return f;
  }
  throw sim::InternalError("expectations: no check form '" + name + "' (this is a bug)");
}

// Keys of the check that its form does not take ("rel_tol" beside "max"): never ignored.
void only_form_keys(const json& c, const std::string& ptr, const CheckForm& form, Reader& r) {
  const auto allowed = form_keys(form);
  std::string list;
  for (const auto& k : allowed) list += (list.empty() ? "" : ", ") + k;
  for (const auto& [key, value] : c.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end() && names_of(check_keys()).count(key) != 0) {
      r.error(ptr + "/" + key, "not a key of a " + form.name + " check (its keys: " + list + ")");
    }
  }
}

// "2%" of the baseline, or an amount in the value's unit.
std::optional<Check::Allowance> read_allowance(const json& c, const std::string& key, const std::string& ptr,
                                               Reader& r) {
  if (!c.contains(key)) return std::nullopt;
  const json& v = c.at(key);
  const auto bad = [&] {
    r.error(ptr + "/" + key, "expected a number >= 0 (in the value's unit) or a percentage of the baseline such as "
                             "\"2%\", got " + v.dump());
    return std::nullopt;
  };
  if (v.is_number()) {
    if (!(v.get<double>() >= 0)) return bad();
    return Check::Allowance{v.get<double>(), false};
  }
  if (!v.is_string()) return bad();
  std::string text = v.get<std::string>();
  const auto trim = [](std::string& t) {
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.erase(0, 1);
  };
  trim(text);
  if (text.empty() || text.back() != '%') return bad();
  text.pop_back();
  trim(text);
  double amount = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), amount);
  if (text.empty() || text[0] == '-' || text[0] == '+' || ec != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(amount)) {
    return bad();
  }
  return Check::Allowance{amount, true};
}

Check read_check(const json& c, const std::string& ptr, Reader& r) {
  Check check;
  check.pointer = ptr;
  if (!c.is_object()) {
    r.error(ptr, "expected a check object, got " + c.dump());
    return check;
  }
  r.only_keys(c, ptr, names_of(check_keys()));
  const bool fingerprint = c.contains("fingerprint");
  const bool no_flows = c.contains("no_failed_flows");
  const bool no_jobs = c.contains("no_unfinished_jobs");
  if (fingerprint + no_flows + no_jobs + c.contains("path") != 1) {
    r.error(ptr, "expected exactly one of path (with min/max, equals or baseline), fingerprint, no_failed_flows, "
                 "no_unfinished_jobs");
    return check;
  }
  if (fingerprint) {
    only_form_keys(c, ptr, form_named("fingerprint"), r);
    check.kind = Check::Kind::kFingerprint;
    check.fingerprint = r.string(c, "fingerprint", ptr, true);
    return check;
  }
  if (no_flows || no_jobs) {
    const std::string key = no_flows ? "no_failed_flows" : "no_unfinished_jobs";
    only_form_keys(c, ptr, form_named(no_flows ? "no failed flows" : "no unfinished jobs"), r);
    if (!c.at(key).is_boolean() || !c.at(key).get<bool>()) {
      r.error(ptr + "/" + key, "expected true (leave the check out to skip it), got " + c.at(key).dump());
    }
    check.kind = no_flows ? Check::Kind::kNoFailedFlows : Check::Kind::kNoUnfinishedJobs;
    return check;
  }
  check.path = r.string(c, "path", ptr, true);
  const bool bounds = c.contains("min") || c.contains("max");
  const bool equals = c.contains("equals");
  const bool baseline = c.contains("baseline");
  if (bounds + equals + baseline != 1) {
    r.error(ptr, "expected exactly one of min/max, equals, baseline for path '" + check.path + "'");
    return check;
  }
  if (bounds) {
    only_form_keys(c, ptr, form_named("bounds"), r);
    check.kind = Check::Kind::kBounds;
    check.min = r.number(c, "min", ptr);
    check.max = r.number(c, "max", ptr);
    if (check.min && check.max && *check.min > *check.max) {
      r.error(ptr + "/min", "expected min <= max, got " + c.at("min").dump() + " > " + c.at("max").dump());
    }
    return check;
  }
  if (equals) {
    only_form_keys(c, ptr, form_named("equals"), r);
    check.kind = Check::Kind::kEquals;
    check.equals = c.at("equals");
    if (!check.equals.is_number() && !check.equals.is_string()) {
      r.error(ptr + "/equals", "expected a number or a string, got " + check.equals.dump());
    }
    return check;
  }
  check.kind = Check::Kind::kBaseline;
  const bool two_sided = c.contains("rel_tol") || c.contains("abs_tol");
  const bool one_sided = c.contains("max_increase") || c.contains("max_decrease");
  if (two_sided && one_sided) {
    r.error(ptr, "rel_tol/abs_tol (within a tolerance either way) and max_increase/max_decrease (one way) exclude "
                 "each other: give one pair");
  } else if (!two_sided && !one_sided) {
    r.error(ptr, "a baseline check needs rel_tol or abs_tol (or both: within a tolerance either way), or "
                 "max_increase or max_decrease (or both: a limit each way, e.g. \"max_increase\": \"2%\")");
  } else {
    only_form_keys(c, ptr, form_named(two_sided ? "baseline, two-sided" : "baseline, one-sided"), r);
  }
  check.rel_tol = r.number(c, "rel_tol", ptr);
  check.abs_tol = r.number(c, "abs_tol", ptr);
  for (const auto& [key, tol] : {std::pair{"rel_tol", check.rel_tol}, std::pair{"abs_tol", check.abs_tol}}) {
    if (tol && !(*tol >= 0)) r.error(ptr + "/" + key, "expected a tolerance >= 0, got " + c.at(key).dump());
  }
  check.max_increase = read_allowance(c, "max_increase", ptr, r);
  check.max_decrease = read_allowance(c, "max_decrease", ptr, r);
  const std::string file = r.string(c, "baseline", ptr, true);
  if (!file.empty()) {
    check.baseline_file = r.resolve(file);
    try {
      const json base = scenario::read_json_file(check.baseline_file, "baseline summary");
      const PathLookup found = lookup(base, check.path);
      if (found.value == nullptr || !found.value->is_number()) {
        check.baseline_problem = "the baseline " + file + " has no number at '" + check.path + "'" +
                                 (found.problem.empty() ? "" : ": " + found.problem);
      } else {
        check.baseline_value = found.value->get<double>();
      }
    } catch (const sim::InputError& e) {
      r.error(ptr + "/baseline", e.what());
    }
  }
  return check;
}

}  // namespace

double Check::Allowance::of(double baseline) const { return percent ? amount / 100.0 * std::fabs(baseline) : amount; }

Expectations parse_expectations(const json& doc, const std::string& source, const std::string& base_dir) {
  Reader r(source, base_dir);
  Expectations out;
  if (!doc.is_object()) {
    r.error("", "expected an object with name and runs");
    r.flush();
  }
  r.only_keys(doc, "", names_of(file_keys()));
  out.name = r.string(doc, "name", "", true);
  if (!doc.contains("runs") || !doc.at("runs").is_array() || doc.at("runs").empty()) {
    r.error("/runs", "expected a non-empty array of runs");
    r.flush();
  }
  std::set<std::string> names;
  const json& runs = doc.at("runs");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string ptr = "/runs/" + std::to_string(i);
    const json& run = runs[i];
    if (!run.is_object()) {
      r.error(ptr, "expected a run object, got " + run.dump());
      continue;
    }
    r.only_keys(run, ptr, names_of(run_keys()));
    RunExpectation e;
    e.name = r.string(run, "name", ptr, true);
    if (!e.name.empty() && !names.insert(e.name).second) r.error(ptr + "/name", "expected a unique run name, got '" + e.name + "' twice");
    const std::string scenario = r.string(run, "scenario", ptr, true);
    if (!scenario.empty()) e.scenario = r.resolve(scenario);
    if (run.contains("set")) {
      const json& sets = run.at("set");
      if (!sets.is_array()) r.error(ptr + "/set", "expected an array of \"path=value\" strings, got " + sets.dump());
      for (std::size_t k = 0; sets.is_array() && k < sets.size(); ++k) {
        if (!sets[k].is_string()) {
          r.error(ptr + "/set/" + std::to_string(k), "expected a \"path=value\" string, got " + sets[k].dump());
        } else {
          e.sets.push_back(sets[k].get<std::string>());
        }
      }
    }
    if (!run.contains("checks") || !run.at("checks").is_array() || run.at("checks").empty()) {
      r.error(ptr + "/checks", "expected a non-empty array of checks");
    } else {
      const json& checks = run.at("checks");
      for (std::size_t k = 0; k < checks.size(); ++k) {
        e.checks.push_back(read_check(checks[k], ptr + "/checks/" + std::to_string(k), r));
      }
    }
    out.runs.push_back(std::move(e));
  }
  r.flush();
  return out;
}

Expectations load_expectations(const std::string& path) {
  const json doc = scenario::read_json_file(path, "expectations file");
  return parse_expectations(doc, path, std::filesystem::path(path).parent_path().string());
}

}  // namespace dcsim::tools::check
