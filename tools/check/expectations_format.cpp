#include "tools/check/expectations_format.hpp"

#include "sim/error.hpp"

namespace dcsim::tools::check {

using nlohmann::json;

const std::vector<KeyDecl>& file_keys() {
  static const std::vector<KeyDecl> keys = {
      {"name", KeyType::kString, true, "Names the gate: the table's title and the JUnit `testsuites` name."},
      {"runs", KeyType::kRunList, true, "The scenarios to run and what their summaries must show."},
  };
  return keys;
}

const std::vector<KeyDecl>& run_keys() {
  static const std::vector<KeyDecl> keys = {
      {"name", KeyType::kString, true,
       "Unique among the runs: its output folder (`-o DIR/<name>`) and JUnit `testsuite`."},
      {"scenario", KeyType::kString, true, "The scenario file, relative to the expectations file."},
      {"set", KeyType::kSetList, false,
       "Overrides, as `dcsim run --set` takes them (`\"fabric.k=4\"`, `\"duration=null\"` removes a key)."},
      {"checks", KeyType::kCheckList, true, "What the run's summary.json must show; each check is one form below."},
  };
  return keys;
}

const std::vector<KeyDecl>& check_keys() {
  static const std::vector<KeyDecl> keys = {
      {"path", KeyType::kString, false,
       "The summary value: summary.json's keys joined by `/` (`network/fct_p99_s`); a headline table's row by "
       "its name or index (`jobs/llama3-70b/step_time_s`, `jobs/0/step_time_s`). Checked against the keys the run "
       "will report before anything runs."},
      {"min", KeyType::kNumber, false, "Bounds: the value is at least this."},
      {"max", KeyType::kNumber, false, "Bounds: the value is at most this."},
      {"equals", KeyType::kScalar, false, "The value is exactly this number or string."},
      {"baseline", KeyType::kString, false,
       "A summary.json to compare with, relative to the expectations file: its value at the same `path`."},
      {"rel_tol", KeyType::kTolerance, false,
       "Two-sided: within this fraction of the baseline value, either way (0.05: 5%)."},
      {"abs_tol", KeyType::kTolerance, false,
       "Two-sided: within this much of the baseline, in the value's unit; with `rel_tol` the larger allowance "
       "holds."},
      {"max_increase", KeyType::kAllowance, false,
       "One-sided: at most this much above the baseline, in the value's unit (`0.002`) or as a percentage of the "
       "baseline (`\"2%\"`); a decrease passes (unless `max_decrease` limits it). \"Must not regress\" for a "
       "time or a cost."},
      {"max_decrease", KeyType::kAllowance, false,
       "One-sided: at most this much below the baseline, as `max_increase`. \"Must not regress\" for a "
       "throughput or a utilisation."},
      {"fingerprint", KeyType::kString, false,
       "The run's `engine/fingerprint`: the same events in the same order as the run that gave it."},
      {"no_failed_flows", KeyType::kTrue, false, "No flow failed, on the backend fabric or the front-end network."},
      {"no_unfinished_jobs", KeyType::kTrue, false,
       "Every job completed: none still waiting or running when the run ended, none given up."},
  };
  return keys;
}

const std::vector<CheckForm>& check_forms() {
  static const std::vector<CheckForm> forms = {
      {"bounds", {"path"}, {"min", "max"}, "the value within `min` and/or `max`"},
      {"equals", {"path", "equals"}, {}, "the value equal to `equals`"},
      {"baseline, two-sided", {"path", "baseline"}, {"rel_tol", "abs_tol"},
       "the value within a tolerance of the baseline's, either way"},
      {"baseline, one-sided", {"path", "baseline"}, {"max_increase", "max_decrease"},
       "the value no further above and/or below the baseline's than allowed: a gate that improvements pass"},
      {"fingerprint", {"fingerprint"}, {}, "the run's event sequence"},
      {"no failed flows", {"no_failed_flows"}, {}, "`flows_failed` of both networks is 0"},
      {"no unfinished jobs", {"no_unfinished_jobs"}, {}, "`jobs_unfinished` and `jobs_failed` are 0"},
  };
  return forms;
}

std::vector<std::string> key_names(const std::vector<KeyDecl>& keys) {
  std::vector<std::string> out;
  for (const auto& k : keys) out.push_back(k.key);
  return out;
}

std::vector<std::string> form_keys(const CheckForm& form) {
  std::vector<std::string> out = form.required;
  out.insert(out.end(), form.any_of.begin(), form.any_of.end());
  return out;
}

namespace {

// The number syntax a percentage takes: what std::from_chars reads, without a sign.
constexpr const char* kPercentPattern = R"(^\s*([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\s*%\s*$)";

json run_schema();
json check_schema();

json type_schema(KeyType type) {
  switch (type) {
    case KeyType::kString: return {{"type", "string"}, {"minLength", 1}};
    case KeyType::kNumber: return {{"type", "number"}};
    case KeyType::kTolerance: return {{"type", "number"}, {"minimum", 0}};
    case KeyType::kAllowance:
      return {{"oneOf", json::array({json{{"type", "number"}, {"minimum", 0}},
                                     json{{"type", "string"}, {"pattern", kPercentPattern}}})}};
    case KeyType::kTrue: return {{"const", true}};
    case KeyType::kScalar: return {{"type", json::array({"number", "string"})}};
    case KeyType::kSetList: return {{"type", "array"}, {"items", {{"type", "string"}, {"pattern", "^[^=]+="}}}};
    case KeyType::kRunList: return {{"type", "array"}, {"minItems", 1}, {"items", run_schema()}};
    case KeyType::kCheckList: return {{"type", "array"}, {"minItems", 1}, {"items", check_schema()}};
  }
  throw sim::InternalError("expectations: unknown KeyType (this is a bug)");
}

std::string type_text(KeyType type) {
  switch (type) {
    case KeyType::kString: return "string";
    case KeyType::kNumber: return "number";
    case KeyType::kTolerance: return "number >= 0";
    case KeyType::kAllowance: return "number >= 0, or a percentage (\"2%\")";
    case KeyType::kTrue: return "`true`";
    case KeyType::kScalar: return "number or string";
    case KeyType::kSetList: return "array of strings";
    case KeyType::kRunList: return "array of runs";
    case KeyType::kCheckList: return "array of checks";
  }
  throw sim::InternalError("expectations: unknown KeyType (this is a bug)");
}

const KeyDecl& decl(const std::vector<KeyDecl>& keys, const std::string& name) {
  for (const auto& k : keys) {
    if (k.key == name) return k;
  }
  throw sim::InternalError("expectations: form key '" + name + "' is not declared (this is a bug)");
}

json object_schema(const std::vector<KeyDecl>& keys) {
  json properties = json::object();
  json required = json::array();
  for (const auto& k : keys) {
    json s = type_schema(k.type);
    s["description"] = k.meaning;
    properties[k.key] = std::move(s);
    if (k.required) required.push_back(k.key);
  }
  json out = {{"type", "object"}, {"additionalProperties", false}, {"properties", properties}};
  if (!required.empty()) out["required"] = required;
  return out;
}

json run_schema() { return object_schema(run_keys()); }

// Exactly one form: each closed to its own keys, so no object fits two.
json check_schema() {
  json forms = json::array();
  for (const auto& f : check_forms()) {
    std::vector<KeyDecl> keys;
    for (const auto& name : form_keys(f)) keys.push_back(decl(check_keys(), name));
    json s = object_schema(keys);
    s["required"] = f.required;
    if (!f.any_of.empty()) {
      json any = json::array();
      for (const auto& k : f.any_of) any.push_back({{"required", json::array({k})}});
      s["anyOf"] = any;
    }
    s["title"] = f.name;
    s["description"] = f.meaning;
    forms.push_back(std::move(s));
  }
  return {{"type", "object"}, {"oneOf", forms}};
}

void key_rows(const std::vector<KeyDecl>& keys, const std::string& prefix, std::string& out) {
  for (const auto& k : keys) {
    out += "| `" + prefix + "/" + k.key + "` | " + type_text(k.type) + " | " + (k.required ? "**required**" : "") +
           " | " + k.meaning + " |\n";
  }
}

}  // namespace

json expectations_schema() {
  json s = object_schema(file_keys());
  s = {{"$id", "https://dcsim.dev/schemas/expectations.json"},
       {"$schema", "https://json-schema.org/draft/2020-12/schema"},
       {"title", "dcsim check expectations"},
       {"description",
        "What `dcsim check` runs and what each run's summary.json must show (docs/cli.md, \"CI gates\")."},
       {"type", "object"},
       {"additionalProperties", false},
       {"properties", s["properties"]},
       {"required", s["required"]}};
  return s;
}

std::string expectations_reference_markdown() {
  std::string out = "| key | type | | meaning |\n|---|---|---|---|\n";
  key_rows(file_keys(), "", out);
  key_rows(run_keys(), "/runs/*", out);
  key_rows(check_keys(), "/runs/*/checks/*", out);
  out += "\nA check is exactly one of these forms:\n\n| form | keys | checks |\n|---|---|---|\n";
  for (const auto& f : check_forms()) {
    std::string keys;
    for (const auto& k : f.required) keys += (keys.empty() ? "" : " + ") + ("`" + k + "`");
    if (!f.any_of.empty()) {
      std::string any;
      for (const auto& k : f.any_of) any += (any.empty() ? "" : " and/or ") + ("`" + k + "`");
      keys += " + " + any;
    }
    out += "| " + f.name + " | " + keys + " | " + f.meaning + " |\n";
  }
  return out;
}

}  // namespace dcsim::tools::check
