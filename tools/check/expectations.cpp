#include "tools/check/expectations.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::check {

namespace {

using nlohmann::json;

class Reader {
 public:
  Reader(std::string source, std::string base_dir) : source_(std::move(source)), base_dir_(std::move(base_dir)) {}

  void error(const std::string& pointer, const std::string& message) {
    errors_.push_back(source_ + ":" + pointer + ": " + message);
  }
  void flush() {
    if (!errors_.empty()) throw sim::InputErrors(std::move(errors_));
  }
  // Keys of `object` outside `valid` are errors: a misspelt check must not pass silently.
  void only_keys(const json& object, const std::string& pointer, const std::set<std::string>& valid) {
    for (const auto& [key, value] : object.items()) {
      if (valid.count(key) == 0) {
        std::string list;
        for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
        error(pointer + "/" + key, "unknown key; valid keys here: " + list);
      }
    }
  }
  std::optional<double> number(const json& object, const std::string& key, const std::string& pointer) {
    if (!object.contains(key)) return std::nullopt;
    const json& v = object.at(key);
    if (!v.is_number()) {
      error(pointer + "/" + key, "expected a number, got " + v.dump());
      return std::nullopt;
    }
    return v.get<double>();
  }
  std::string string(const json& object, const std::string& key, const std::string& pointer, bool required) {
    if (!object.contains(key)) {
      if (required) error(pointer + "/" + key, "missing required key; expected a string");
      return "";
    }
    const json& v = object.at(key);
    if (!v.is_string() || v.get<std::string>().empty()) {
      error(pointer + "/" + key, "expected a non-empty string, got " + v.dump());
      return "";
    }
    return v.get<std::string>();
  }
  std::string resolve(const std::string& path) const {
    const std::filesystem::path p(path);
    return p.is_relative() ? (std::filesystem::path(base_dir_) / p).string() : path;
  }
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::string base_dir_;
  std::vector<std::string> errors_;
};

json read_json_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw sim::InputError(path + ": cannot open " + what);
  std::ostringstream text;
  text << in.rdbuf();
  return scenario::parse_json_text(text.str(), path);
}

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
        const json base = read_json_file(check.baseline_file, "baseline summary");
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
  const json doc = read_json_file(path, "expectations file");
  return parse_expectations(doc, path, std::filesystem::path(path).parent_path().string());
}

}  // namespace dcsim::tools::check
