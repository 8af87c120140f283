#include "tools/sweep/sweep_validation.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/run/build_datacenter.hpp"
#include "tools/scenario/data_file.hpp"
#include "tools/scenario/input_reader.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/spec_path.hpp"
#include "tools/sweep/parallel_for.hpp"

namespace dcsim::tools::sweep {

using nlohmann::json;

namespace {

std::vector<std::string> messages_of(const sim::InputError& e) {
  if (const auto* many = dynamic_cast<const sim::InputErrors*>(&e)) return many->messages();
  return {e.what()};
}

}  // namespace

std::optional<std::uint64_t> document_seed(const std::string& scenario_file, const std::vector<std::string>& sets,
                                           const scenario::FieldSpec& spec) {
  try {
    json doc = scenario::read_json_file(scenario_file, "scenario file");
    for (const auto& s : sets) scenario::apply_override(doc, s);
    if (!doc.is_object()) return std::nullopt;
    if (!doc.contains("seed")) return spec.child("seed")->default_value->get<std::uint64_t>();
    const json& seed = doc.at("seed");
    if (seed.is_number_unsigned()) return seed.get<std::uint64_t>();
    if (seed.is_number_integer() && seed.get<std::int64_t>() >= 0) return seed.get<std::uint64_t>();
  } catch (const sim::InputError&) {
  }
  return std::nullopt;
}

std::string FileHashCache::of(const std::string& path) {
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

std::string text_hash(const std::string& text) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
  return fmt::format("{:016x}", h);
}

namespace {

// One parameter value as a variant holds it: where it is in the sweep file and what it is.
std::string value_key(const Variant& v, std::size_t k) { return v.value_pointers[k] + "\n" + v.values[k].dump(); }

// One loader message and the variants that gave it.
struct FailureGroup {
  std::size_t first = 0;                 // the first variant with it
  std::size_t variants = 0;              // how many
  std::set<std::string> common_values;   // value_key()s every one of them holds
};

}  // namespace

Plan validate_sweep(const Sweep& sweep, const models::ModelRegistries& registries, std::size_t jobs,
                    const scenario::ResourceLimits& limits) {
  std::vector<std::string> errors;
  const auto prefixed = [&](const std::string& pointer, const std::string& what, const std::string& message) {
    errors.push_back(sweep.source + ":" + pointer + ": " + what + message);
  };
  const scenario::FieldSpec spec = scenario::scenario_spec(registries);
  for (const auto& p : sweep.parameters) {
    const std::string why = scenario::path_problem(spec, p.path);
    if (!why.empty()) errors.push_back(sweep.source + ":" + p.pointer + "/path: '" + p.path + "' is not in the scenario: " + why);
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));

  // The base scenario with the fixed overrides gives the base seed. It need not load on its own:
  // what runs is each variant, and a sweep's values may be what makes the base valid. When it
  // fails, its messages say which variant errors are the base's, whatever the values.
  Plan plan;
  std::vector<std::string> base_errors;
  std::string base_pointer = "/scenario";
  try {
    plan.base_seed = scenario::load_scenario_file(sweep.scenario, sweep.sets, std::nullopt, registries, limits).seed;
  } catch (const sim::InputError& e) {
    base_errors = messages_of(e);
    if (!sweep.sets.empty()) {
      try {
        scenario::load_scenario_file(sweep.scenario, {}, std::nullopt, registries, limits);
        base_pointer = "/set";  // the file alone loads: the fixed overrides broke it
      } catch (const sim::InputError&) {
      }
    }
    const auto seed = sweep.seed ? sweep.seed : document_seed(sweep.scenario, sweep.sets, spec);
    if (!seed) {
      prefixed(base_pointer, "", scenario::join(base_errors, "; "));
      throw sim::InputErrors(std::move(errors));
    }
    plan.base_seed = *seed;
  }
  if (sweep.seed) plan.base_seed = *sweep.seed;

  // Every variant, on `jobs` threads.
  const std::size_t count = variant_count(sweep);
  plan.scenario_hashes.resize(count);
  std::mutex mutex;
  FileHashCache file_hashes;
  std::vector<std::pair<std::size_t, std::vector<std::string>>> failures;
  parallel_for(count, jobs, [&](std::size_t i) {
    const Variant v = variant_at(sweep, i, plan.base_seed);
    try {
      const scenario::DataFileLog data_files;
      const auto loaded = scenario::load_scenario_file(sweep.scenario, v.overrides, std::nullopt, registries, limits);
      // What `validate` checks too: the models build as `run` will build them (a fabric with
      // fewer hosts than the variant's nodes loads, and fails only there).
      run::check_models_build(loaded, registries);
      // The data files it read are part of what a variant's results depend on (a resumed sweep
      // reruns the variants whose trace CSV changed), each hashed once per validation.
      std::string inputs = loaded.given.dump();
      for (const auto& path : data_files.paths()) inputs += "\n" + path + "=" + file_hashes.of(path);
      plan.scenario_hashes[i] = text_hash(inputs);
    } catch (const sim::InputError& e) {
      const std::lock_guard lock(mutex);
      failures.emplace_back(i, messages_of(e));
    }
  });
  if (failures.empty()) return plan;

  // Each message once, with the variants that gave it and the values they all hold. In variant
  // order, whatever order the threads finished in.
  std::sort(failures.begin(), failures.end());
  std::vector<std::string> order;
  std::map<std::string, FailureGroup> groups;
  for (const auto& [index, messages] : failures) {
    const Variant v = variant_at(sweep, index, plan.base_seed);
    std::set<std::string> held;
    for (std::size_t k = 0; k < v.values.size(); ++k) held.insert(value_key(v, k));
    for (const auto& m : messages) {
      auto [it, fresh] = groups.try_emplace(m);
      FailureGroup& g = it->second;
      if (fresh) {
        order.push_back(m);
        g.first = index;
        g.common_values = held;
      } else {
        std::set<std::string> both;
        std::set_intersection(g.common_values.begin(), g.common_values.end(), held.begin(), held.end(),
                              std::inserter(both, both.end()));
        g.common_values = std::move(both);
      }
      ++g.variants;
    }
  }
  // How many variants hold each value the groups share: a message every holder of one value
  // gives, and only they, is that value's.
  std::map<std::string, std::size_t> holders;
  for (const auto& [m, g] : groups) {
    for (const auto& key : g.common_values) holders.emplace(key, 0);
  }
  std::map<std::string, std::pair<std::size_t, json>> value_of;  // key -> (parameter, value)
  if (!holders.empty()) {
    for (std::size_t i = 0; i < count; ++i) {
      const Variant v = variant_at(sweep, i, plan.base_seed);
      for (std::size_t k = 0; k < v.values.size(); ++k) {
        const auto it = holders.find(value_key(v, k));
        if (it == holders.end()) continue;
        ++it->second;
        value_of.try_emplace(it->first, k, v.values[k]);
      }
    }
  }
  std::size_t unlisted = 0;
  std::set<std::string> listed;
  for (const auto& m : order) {
    const FailureGroup& g = groups.at(m);
    std::vector<std::string> owners;
    for (const auto& key : g.common_values) {
      if (holders.at(key) == g.variants) owners.push_back(key);
    }
    std::string line;
    if (g.variants == count && std::find(base_errors.begin(), base_errors.end(), m) != base_errors.end()) {
      line = sweep.source + ":" + base_pointer + ": " + m;
    } else if (owners.size() == 1) {
      const auto& [k, value] = value_of.at(owners.front());
      const std::string pointer = owners.front().substr(0, owners.front().find('\n'));
      line = sweep.source + ":" + pointer + ": " + sweep.parameters[k].path + "=" + value.dump() + ": " + m;
    } else {
      const Variant v = variant_at(sweep, g.first, plan.base_seed);
      line = sweep.source + ":/parameters: variant " + v.name + " (" + describe_values(sweep, v) + "): " + m;
      if (g.variants > 1) line += fmt::format(" (and {} more variant{})", g.variants - 1, g.variants > 2 ? "s" : "");
    }
    if (!listed.insert(line).second) continue;
    if (errors.size() < kMaxVariantErrorsListed) {
      errors.push_back(std::move(line));
    } else {
      ++unlisted;
    }
  }
  if (unlisted > 0) errors.push_back(fmt::format("{}:/parameters: and {} more errors", sweep.source, unlisted));
  throw sim::InputErrors(std::move(errors));
}

}  // namespace dcsim::tools::sweep
