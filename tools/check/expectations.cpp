#include "tools/check/expectations.hpp"

#include <filesystem>
#include <set>

#include "sim/error.hpp"
#include "tools/scenario/input_reader.hpp"

namespace dcsim::tools::check {

namespace {

using nlohmann::json;

using Reader = scenario::InputReader;


Check read_check(const json& c, const std::string& ptr, Reader& r) {
  Check check;
  check.pointer = ptr;
  if (!c.is_object()) {
    r.error(ptr, "expected a check object, got " + c.dump());
    return check;
  }
  const bool fingerprint = c.contains("fingerprint");
  const bool no_flows = c.contains("no_failed_flows");
  const bool no_jobs = c.contains("no_unfinished_jobs");
  if (fingerprint + no_flows + no_jobs + c.contains("path") != 1) {
    r.error(ptr, "expected exactly one of path (with min/max, equals or baseline), fingerprint, no_failed_flows, "
                 "no_unfinished_jobs");
    return check;
  }
  if (fingerprint) {
    r.only_keys(c, ptr, {"fingerprint"});
    check.kind = Check::Kind::kFingerprint;
    check.fingerprint = r.string(c, "fingerprint", ptr, true);
    return check;
  }
  if (no_flows || no_jobs) {
    const std::string key = no_flows ? "no_failed_flows" : "no_unfinished_jobs";
    r.only_keys(c, ptr, {key});
    if (!c.at(key).is_boolean() || !c.at(key).get<bool>()) {
      r.error(ptr + "/" + key, "expected true (leave the check out to skip it), got " + c.at(key).dump());
    }
    check.kind = no_flows ? Check::Kind::kNoFailedFlows : Check::Kind::kNoUnfinishedJobs;
    return check;
  }
  r.only_keys(c, ptr, {"path", "min", "max", "equals", "baseline", "rel_tol", "abs_tol"});
  check.path = r.string(c, "path", ptr, true);
  const bool bounds = c.contains("min") || c.contains("max");
  const bool equals = c.contains("equals");
  const bool baseline = c.contains("baseline");
  if (bounds + equals + baseline != 1) {
    r.error(ptr, "expected exactly one of min/max, equals, baseline for path '" + check.path + "'");
    return check;
  }
  if (bounds) {
    check.kind = Check::Kind::kBounds;
    check.min = r.number(c, "min", ptr);
    check.max = r.number(c, "max", ptr);
    if (check.min && check.max && *check.min > *check.max) {
      r.error(ptr + "/min", "expected min <= max, got " + c.at("min").dump() + " > " + c.at("max").dump());
    }
  } else if (equals) {
    check.kind = Check::Kind::kEquals;
    check.equals = c.at("equals");
    if (!check.equals.is_number() && !check.equals.is_string()) {
      r.error(ptr + "/equals", "expected a number or a string, got " + check.equals.dump());
    }
  } else {
    check.kind = Check::Kind::kBaseline;
    check.rel_tol = r.number(c, "rel_tol", ptr);
    check.abs_tol = r.number(c, "abs_tol", ptr);
    if (!check.rel_tol && !check.abs_tol) r.error(ptr, "a baseline check needs rel_tol or abs_tol (or both)");
    for (const auto& [key, tol] : {std::pair{"rel_tol", check.rel_tol}, std::pair{"abs_tol", check.abs_tol}}) {
      if (tol && !(*tol >= 0)) r.error(ptr + "/" + key, "expected a tolerance >= 0, got " + c.at(key).dump());
    }
    const std::string file = r.string(c, "baseline", ptr, true);
    if (!file.empty()) {
      check.baseline_file = r.resolve(file);
      try {
        const json base = scenario::read_json_file(check.baseline_file, "baseline summary");
        const json::json_pointer p("/" + check.path);
        if (!base.contains(p) || !base.at(p).is_number()) {
          r.error(ptr + "/baseline", "the baseline " + file + " has no number at '" + check.path + "'");
        } else {
          check.baseline_value = base.at(p).get<double>();
        }
      } catch (const sim::InputError& e) {
        r.error(ptr + "/baseline", e.what());
      } catch (const json::exception&) {
        r.error(ptr + "/path", "'" + check.path + "' is not a summary path (keys joined by /)");
      }
    }
  }
  return check;
}

}  // namespace

Expectations parse_expectations(const json& doc, const std::string& source, const std::string& base_dir) {
  Reader r(source, base_dir);
  Expectations out;
  if (!doc.is_object()) {
    r.error("", "expected an object with name and runs");
    r.flush();
  }
  r.only_keys(doc, "", {"name", "runs"});
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
    r.only_keys(run, ptr, {"name", "scenario", "set", "checks"});
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
