#include "tools/sweep/sweep_validation.hpp"

#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/scenario/data_file.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/sweep/parallel_for.hpp"

namespace dcsim::tools::sweep {

namespace {

std::vector<std::string> messages_of(const sim::InputError& e) {
  if (const auto* many = dynamic_cast<const sim::InputErrors*>(&e)) return many->messages();
  return {e.what()};
}

std::string joined(const std::vector<std::string>& messages) {
  std::string out;
  for (const auto& m : messages) out += (out.empty() ? "" : "; ") + m;
  return out;
}

bool is_index(const std::string& s) {
  return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::string text_hash(const std::string& text) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
  return fmt::format("{:016x}", h);
}

namespace {

// The content hash of each data file, read once however many variants name it.
class FileHashCache {
 public:
  std::string of(const std::string& path) {
    {
      const std::lock_guard lock(mutex_);
      if (const auto it = hashes_.find(path); it != hashes_.end()) return it->second;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    // Unreadable now although the loader just read it: a hash that matches no earlier run.
    const std::string hash = in ? text_hash(content.str()) : "unreadable";
    const std::lock_guard lock(mutex_);
    return hashes_.emplace(path, hash).first->second;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> hashes_;
};

}  // namespace

std::string path_problem(const scenario::FieldSpec& root, const std::string& path) {
  using scenario::FieldType;
  std::vector<std::string> segments;
  std::string cur;
  for (const char c : path + ".") {
    if (c == '.') {
      if (cur.empty()) return "empty key in path '" + path + "'";
      segments.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  const scenario::FieldSpec* spec = &root;
  std::string walked;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& seg = segments[i];
    const std::string where = walked.empty() ? "the scenario's top level" : "/" + walked;
    switch (spec->type) {
      case FieldType::kObject: {
        const scenario::FieldSpec* child = spec->child(seg);
        if (child == nullptr) {
          std::string keys;
          for (const auto& c : spec->children) keys += (keys.empty() ? "" : ", ") + c.key;
          return "no key '" + seg + "' at " + where + "; keys there: " + keys;
        }
        spec = child;
        break;
      }
      case FieldType::kObjectArray:
      case FieldType::kIntegerArray: {
        if (!is_index(seg)) return where + " is an array: expected an index, got '" + seg + "'";
        if (spec->type == FieldType::kIntegerArray) {
          if (i + 1 != segments.size()) return "/" + walked + "/" + seg + " is an integer, it has no keys";
          return "";
        }
        // The element: an object with the array's children.
        if (i + 1 == segments.size()) return "";
        const std::string& key = segments[++i];
        const scenario::FieldSpec* child = spec->child(key);
        if (child == nullptr) {
          std::string keys;
          for (const auto& c : spec->children) keys += (keys.empty() ? "" : ", ") + c.key;
          return "no key '" + key + "' in the elements of " + where + "; keys there: " + keys;
        }
        walked += "/" + seg;
        spec = child;
        walked += "/" + key;
        continue;
      }
      case FieldType::kDistribution:
        return "";  // its keys depend on its kind: the loader checks them
      default:
        return where + " is a single value, it has no key '" + seg + "'";
    }
    walked += (walked.empty() ? "" : "/") + seg;
  }
  return "";
}

Plan validate_sweep(const Sweep& sweep, const models::ModelRegistries& registries, std::size_t jobs,
                    const scenario::ResourceLimits& limits) {
  std::vector<std::string> errors;
  const auto prefixed = [&](const std::string& pointer, const std::string& what, const sim::InputError& e) {
    errors.push_back(sweep.source + ":" + pointer + ": " + what + joined(messages_of(e)));
  };
  // The base scenario alone, then with the fixed overrides: each failure at its own pointer.
  Plan plan;
  try {
    scenario::load_scenario_file(sweep.scenario, {}, std::nullopt, registries, limits);
  } catch (const sim::InputError& e) {
    prefixed("/scenario", "", e);
    throw sim::InputErrors(std::move(errors));
  }
  try {
    plan.base_seed = scenario::load_scenario_file(sweep.scenario, sweep.sets, std::nullopt, registries, limits).seed;
  } catch (const sim::InputError& e) {
    prefixed("/set", "", e);
    throw sim::InputErrors(std::move(errors));
  }
  if (sweep.seed) plan.base_seed = *sweep.seed;

  const scenario::FieldSpec spec = scenario::scenario_spec(registries);
  bool paths_ok = true;
  for (const auto& p : sweep.parameters) {
    const std::string why = path_problem(spec, p.path);
    if (!why.empty()) {
      errors.push_back(sweep.source + ":" + p.pointer + "/path: '" + p.path + "' is not in the scenario: " + why);
      paths_ok = false;
    }
  }
  if (!paths_ok) throw sim::InputErrors(std::move(errors));

  // Each listed value on its own (over the base): a bad value is reported once, at its pointer.
  std::set<std::string> bad_values;
  for (const auto& p : sweep.parameters) {
    for (std::size_t k = 0; k < p.values.size(); ++k) {
      const std::string assignment = p.path + "=" + p.values[k].dump();
      std::vector<std::string> sets = sweep.sets;
      sets.push_back(assignment);
      try {
        scenario::load_scenario_file(sweep.scenario, sets, std::nullopt, registries, limits);
      } catch (const sim::InputError& e) {
        // A stepped range shares one pointer: name the value.
        const std::string& ptr = p.value_pointers[k];
        if (bad_values.insert(ptr + "\n" + p.values[k].dump()).second) prefixed(ptr, assignment + ": ", e);
      }
    }
  }

  // Every variant, on `jobs` threads: combinations of good values can still fail together.
  const std::size_t count = variant_count(sweep);
  plan.scenario_hashes.resize(count);
  std::mutex mutex;
  FileHashCache file_hashes;
  std::vector<std::pair<std::size_t, std::string>> variant_errors;
  std::size_t unlisted = 0;
  parallel_for(count, jobs, [&](std::size_t i) {
    const Variant v = variant_at(sweep, i, plan.base_seed);
    for (std::size_t k = 0; k < v.values.size(); ++k) {
      if (bad_values.count(v.value_pointers[k] + "\n" + v.values[k].dump()) != 0) return;  // reported above
    }
    try {
      const scenario::DataFileLog data_files;
      const auto loaded = scenario::load_scenario_file(sweep.scenario, v.overrides, std::nullopt, registries, limits);
      // The data files it read are part of what a variant's results depend on (a resumed sweep
      // reruns the variants whose trace CSV changed), each hashed once per validation.
      std::string inputs = loaded.given.dump();
      for (const auto& path : data_files.paths()) inputs += "\n" + path + "=" + file_hashes.of(path);
      plan.scenario_hashes[i] = text_hash(inputs);
    } catch (const sim::InputError& e) {
      const std::lock_guard lock(mutex);
      variant_errors.emplace_back(i, sweep.source + ":/parameters: variant " + v.name + " (" +
                                         describe_values(sweep, v) + "): " + joined(messages_of(e)));
    }
  });
  // In variant order, whatever order the threads finished in.
  std::sort(variant_errors.begin(), variant_errors.end());
  for (auto& [index, message] : variant_errors) {
    if (errors.size() < kMaxVariantErrorsListed) {
      errors.push_back(std::move(message));
    } else {
      ++unlisted;
    }
  }
  if (unlisted > 0) errors.push_back(fmt::format("{}:/parameters: and {} more variants fail to load", sweep.source, unlisted));
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  return plan;
}

}  // namespace dcsim::tools::sweep
