#pragma once
// Registry<Factory>: implementations of one interface (topology, scheduler, collective algorithm,
// failover policy, cooling control, ...) under the names scenario files use. Each entry documents
// itself (description and parameter specs), so `dcsim list` and the schema are generated from
// the code and cannot drift from it. Registration is an explicit call (static constructors are
// dropped when linking static libraries, and there is no global registry: whoever runs a
// scenario owns its registries).

#include <algorithm>
#include <string>
#include <vector>

#include "sim/error.hpp"

namespace dcsim::sim {

struct ParamSpec {
  std::string name;           // key under the entry's JSON object
  // "" (a plain number), "integer", "boolean", "string", or a quantity kind name ("duration",
  // "temperature", "power": sim/units.hpp), which also sets the value's SI unit.
  std::string unit;
  std::string default_value;  // as a scenario would write it, e.g. "\"10 s\"" or "0.8"
  // e.g. "0 < x <= 1", "x >= 1" (in the SI unit); "" = any. The scenario layer parses it and
  // enforces it (a contract test parses every registered one).
  std::string valid_range;
  std::string help;           // one line
};

template <class Factory>
class Registry {
 public:
  struct Entry {
    std::string name;
    std::string description;  // one line
    std::vector<ParamSpec> params;
    Factory factory;
  };

  explicit Registry(std::string kind) : kind_(std::move(kind)) {}

  const std::string& kind() const { return kind_; }

  void add(Entry entry) {
    if (contains(entry.name)) {
      throw InternalError(kind_ + " '" + entry.name + "' registered twice (this is a bug)");
    }
    auto pos = std::lower_bound(entries_.begin(), entries_.end(), entry.name,
                                [](const Entry& e, const std::string& n) { return e.name < n; });
    entries_.insert(pos, std::move(entry));
  }

  bool contains(const std::string& name) const { return find(name) != nullptr; }

  const Entry* find(const std::string& name) const {
    for (const auto& e : entries_) {
      if (e.name == name) return &e;
    }
    return nullptr;
  }

  // Unknown names are input errors that list the valid ones.
  const Entry& get(const std::string& name) const {
    if (const Entry* e = find(name)) return *e;
    throw InputError("unknown " + kind_ + " '" + name + "'; valid: " + names_joined());
  }

  // Sorted by name.
  const std::vector<Entry>& entries() const { return entries_; }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : entries_) out.push_back(e.name);
    return out;
  }

  std::string names_joined() const {
    std::string out;
    for (const auto& e : entries_) out += (out.empty() ? "" : ", ") + e.name;
    return out;
  }

 private:
  std::string kind_;
  std::vector<Entry> entries_;
};

}  // namespace dcsim::sim
