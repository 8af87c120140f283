#pragma once
// The expectations file's format (`dcsim check`), declared once: the keys of each object with
// their type and meaning, and the forms a check takes. The parser (expectations.cpp) reads keys
// by these declarations, and the JSON Schema (scenarios/ci/expectations.schema.json, `dcsim
// schema --expectations`) and docs/cli.md's key table are generated from them, so the three
// cannot disagree; a golden test keeps the committed copies equal to what the code generates.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dcsim::tools::check {

enum class KeyType {
  kString,          // non-empty
  kNumber,
  kTolerance,       // a number >= 0
  kAllowance,       // a number >= 0 in the value's unit, or a percentage of the baseline ("2%")
  kTrue,            // true: the check is on (leave it out to skip it)
  kScalar,          // a number or a string
  kSetList,         // an array of "path=value" strings (--set)
  kRunList,         // an array of run objects
  kCheckList,       // an array of check objects
};

struct KeyDecl {
  std::string key;
  KeyType type = KeyType::kString;
  bool required = false;
  std::string meaning;
};

// One form of a check: the keys it must have, of which it needs at least one, and nothing else.
struct CheckForm {
  std::string name;                    // "bounds", "baseline (two-sided)", ...
  std::vector<std::string> required;   // all of these
  std::vector<std::string> any_of;     // at least one of these (none: no such condition)
  std::string meaning;
};

const std::vector<KeyDecl>& file_keys();   // the document
const std::vector<KeyDecl>& run_keys();    // /runs/*
const std::vector<KeyDecl>& check_keys();  // /runs/*/checks/*: every form's keys
const std::vector<CheckForm>& check_forms();

// The key names of a level, for unknown-key messages.
std::vector<std::string> key_names(const std::vector<KeyDecl>& keys);
// The keys a form allows: its required and any_of keys.
std::vector<std::string> form_keys(const CheckForm& form);

// JSON Schema (draft 2020-12) of expectations files: each check is exactly one form.
nlohmann::json expectations_schema();
// The Markdown key table, as in docs/cli.md between the "generated: expectations keys" markers.
std::string expectations_reference_markdown();

}  // namespace dcsim::tools::check
