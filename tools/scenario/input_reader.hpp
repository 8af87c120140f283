#pragma once
// Reading the small JSON files that drive several runs (`dcsim check` expectations, `dcsim sweep`
// files): typed keys with every problem collected as "<source>:<JSON pointer>: <message>" and
// thrown together (sim::InputErrors), unknown keys refused, relative paths resolved against the
// file's folder. The scenario format itself is read by its FieldSpec tree (field_spec.hpp).

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dcsim::tools::scenario {

class InputReader {
 public:
  InputReader(std::string source, std::string base_dir);

  void error(const std::string& pointer, const std::string& message);
  bool ok() const { return errors_.empty(); }
  // Throws every error so far as one sim::InputErrors; nothing when there is none.
  void flush();
  // Keys of `object` outside `valid` are errors: a misspelt key must not pass silently.
  void only_keys(const nlohmann::json& object, const std::string& pointer, const std::set<std::string>& valid);
  // The number at `key`; none when absent (an error when `required`) or not a number.
  std::optional<double> number(const nlohmann::json& object, const std::string& key, const std::string& pointer,
                               bool required = false);
  // The non-empty string at `key`; "" when absent (an error when `required`) or not one.
  std::string string(const nlohmann::json& object, const std::string& key, const std::string& pointer,
                     bool required);
  // An integer >= `minimum` at `key` (replications, samples); none when absent or not one.
  std::optional<std::uint64_t> count(const nlohmann::json& object, const std::string& key, const std::string& pointer,
                                     std::uint64_t minimum);
  // `path` as given when absolute, else relative to the file's folder.
  std::string resolve(const std::string& path) const;
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::string base_dir_;
  std::vector<std::string> errors_;
};

// The JSON document in `path`; sim::InputError "<path>: cannot open <what>" or, for text that
// is not JSON, "<path>:<line>:<column>: invalid JSON: ...".
nlohmann::json read_json_file(const std::string& path, const std::string& what);

}  // namespace dcsim::tools::scenario
