#include "tools/design/design_spec.hpp"

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/scenario/input_reader.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::design {

namespace {

using nlohmann::json;
using Reader = scenario::InputReader;
using Kind = SearchVariable::Kind;

// Most grid points one continuous variable may have, and most candidates a grid may hold: far
// beyond what a machine evaluates, but a typo ("grid_points": 1e9) must not start a search
// that never ends.
constexpr double kMaxGridPoints = 1e6;
constexpr double kMaxGridSize = 1e9;

std::vector<std::string> read_sets(const json& object, const std::string& ptr, Reader& r) {
  std::vector<std::string> out;
  if (!object.contains("set")) return out;
  const json& sets = object.at("set");
  if (!sets.is_array()) {
    r.error(ptr + "/set", "expected an array of \"path=value\" strings, got " + sets.dump());
    return out;
  }
  for (std::size_t k = 0; k < sets.size(); ++k) {
    if (!sets[k].is_string() || sets[k].get<std::string>().find('=') == std::string::npos) {
      r.error(ptr + "/set/" + std::to_string(k), "expected a \"path=value\" string, got " + sets[k].dump());
    } else {
      out.push_back(sets[k].get<std::string>());
    }
  }
  return out;
}

void read_range(const json& range, const std::string& ptr, DesignVariable& v, Reader& r) {
  if (!range.is_object()) {
    r.error(ptr, "expected an object with low, high and step or grid_points (and scale, unit), got " + range.dump());
    return;
  }
  r.only_keys(range, ptr, {"low", "high", "step", "grid_points", "scale", "unit"});
  const auto low = r.number(range, "low", ptr, true);
  const auto high = r.number(range, "high", ptr, true);
  const std::string scale = range.contains("scale") ? r.string(range, "scale", ptr, false) : "linear";
  if (scale != "linear" && scale != "log")
    r.error(ptr + "/scale", "expected \"linear\" or \"log\", got " + range.at("scale").dump());
  v.log_scale = scale == "log";
  v.unit = range.contains("unit") ? r.string(range, "unit", ptr, false) : "";
  if (range.contains("step") && range.contains("grid_points")) {
    r.error(ptr, "expected step (an integer variable) or grid_points (a continuous one), not both");
    return;
  }
  if (!low || !high) return;
  if (!(*high >= *low)) {
    r.error(ptr + "/high",
            fmt::format("expected high >= low ({}), got {}", range.at("low").dump(), range.at("high").dump()));
    return;
  }
  if (v.log_scale && !(*low > 0)) r.error(ptr + "/low", "a log range needs low > 0, got " + range.at("low").dump());
  v.low = *low;
  v.high = *high;
  if (range.contains("step")) {
    v.kind = Kind::kInteger;
    const json& step = range.at("step");
    const bool integral = step.is_number_integer() && range.at("low").is_number_integer();
    if (!integral || step.get<double>() < 1) {
      r.error(ptr + "/step", "an integer variable needs an integer low and an integer step >= 1, got low " +
                                 range.at("low").dump() + " and step " + step.dump());
      return;
    }
    v.step = step.get<double>();
    if ((v.high - v.low) / v.step + 1 > kMaxGridPoints) {
      r.error(ptr + "/step", fmt::format("the range has {:.0f} values; at most {:.0f} are allowed",
                                         (v.high - v.low) / v.step + 1, kMaxGridPoints));
    }
    return;
  }
  v.kind = Kind::kContinuous;
  if (range.contains("grid_points")) {
    const auto n = r.count(range, "grid_points", ptr, 2);
    if (n && static_cast<double>(*n) > kMaxGridPoints) {
      r.error(ptr + "/grid_points", fmt::format("at most {:.0f} are allowed, got {}", kMaxGridPoints, *n));
    }
    v.grid_points = n.value_or(0);
  }
  if (v.low == v.high) r.error(ptr + "/high", "a continuous range needs high > low (a fixed value belongs in \"set\")");
}

DesignVariable read_variable(const json& item, const std::string& ptr, Reader& r) {
  DesignVariable v;
  v.pointer = ptr;
  if (!item.is_object()) {
    r.error(ptr, "expected a variable object with path and values or range, got " + item.dump());
    return v;
  }
  r.only_keys(item, ptr, {"path", "values", "range"});
  v.path = r.string(item, "path", ptr, true);
  if (v.path == "seed") r.error(ptr + "/path", "the seed is not a design variable: set \"seed\" at the top level");
  if (item.contains("values") == item.contains("range")) {
    r.error(ptr, "expected exactly one of values (a list of choices) or range");
    return v;
  }
  if (item.contains("values")) {
    const json& values = item.at("values");
    if (!values.is_array() || values.empty()) {
      r.error(ptr + "/values", "expected a non-empty array of choices, got " + values.dump());
      return v;
    }
    std::set<std::string> seen;
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (values[k].is_null()) r.error(ptr + "/values/" + std::to_string(k), "expected a value, got null");
      if (!seen.insert(values[k].dump()).second) {
        r.error(ptr + "/values/" + std::to_string(k), values[k].dump() + " is listed twice");
      }
      v.choices.push_back(values[k]);
    }
    v.kind = Kind::kChoice;
  } else {
    read_range(item.at("range"), ptr + "/range", v, r);
  }
  return v;
}

Coupling read_coupling(const json& item, const std::string& ptr, const std::set<std::string>& known, Reader& r) {
  Coupling c;
  c.pointer = ptr;
  if (!item.is_object()) {
    r.error(ptr, "expected a coupling object with path and from, got " + item.dump());
    return c;
  }
  r.only_keys(item, ptr, {"path", "from", "scale", "offset", "round", "min", "max", "unit", "map"});
  c.path = r.string(item, "path", ptr, true);
  c.from = r.string(item, "from", ptr, true);
  if (!c.path.empty() && c.path == c.from) {
    r.error(ptr + "/from", "'" + c.from + "' names the coupling itself; expected a variable or an earlier coupling");
  } else if (!c.from.empty() && known.count(c.from) == 0) {
    r.error(ptr + "/from",
            "'" + c.from + "' is not a variable or an earlier coupling (couplings are computed in order)");
  }
  if (item.contains("map")) {
    for (const char* key : {"scale", "offset", "round", "min", "max", "unit"}) {
      if (item.contains(key)) r.error(ptr + "/" + key, "not used with \"map\" (a lookup)");
    }
    if (!item.at("map").is_object() || item.at("map").empty()) {
      r.error(ptr + "/map", "expected an object from each value of 'from' (as JSON text) to this key's value, got " +
                                item.at("map").dump());
    } else {
      c.map = item.at("map");
    }
    return c;
  }
  c.scale = r.number(item, "scale", ptr).value_or(1.0);
  c.offset = r.number(item, "offset", ptr).value_or(0.0);
  c.min = r.number(item, "min", ptr);
  c.max = r.number(item, "max", ptr);
  if (c.min && c.max && *c.min > *c.max)
    r.error(ptr + "/max", fmt::format("expected max >= min ({}), got {}", *c.min, *c.max));
  c.unit = item.contains("unit") ? r.string(item, "unit", ptr, false) : "";
  if (item.contains("round")) {
    static const std::map<std::string, Coupling::Round> rounds{{"down", Coupling::Round::kDown},
                                                               {"up", Coupling::Round::kUp},
                                                               {"nearest", Coupling::Round::kNearest}};
    const std::string round = r.string(item, "round", ptr, false);
    const auto it = rounds.find(round);
    if (it == rounds.end()) {
      r.error(ptr + "/round", "expected \"down\", \"up\" or \"nearest\", got " + item.at("round").dump());
    } else {
      c.round = it->second;
    }
  }
  return c;
}

template <class Item>
void read_summary_items(const json& doc, const char* key, Reader& r, std::vector<Item>& out,
                        const std::function<void(const json&, const std::string&, Item&)>& fill) {
  if (!doc.contains(key)) return;
  const std::string ptr = std::string("/") + key;
  if (!doc.at(key).is_array()) {
    r.error(ptr, "expected an array, got " + doc.at(key).dump());
    return;
  }
  for (std::size_t i = 0; i < doc.at(key).size(); ++i) {
    const json& item = doc.at(key)[i];
    Item it;
    it.pointer = ptr + "/" + std::to_string(i);
    if (!item.is_object()) {
      r.error(it.pointer, "expected an object with key, got " + item.dump());
      continue;
    }
    it.key = r.string(item, "key", it.pointer, true);
    fill(item, it.pointer, it);
    out.push_back(std::move(it));
  }
}

// 12 significant digits: float noise (0.30000000000000004) does not reach the scenario.
json number_value(double v, bool integral, const std::string& unit) {
  if (!unit.empty()) return integral ? fmt::format("{} {}", std::llround(v), unit) : fmt::format("{:.12g} {}", v, unit);
  return integral ? json(static_cast<std::int64_t>(std::llround(v))) : json(std::stod(fmt::format("{:.12g}", v)));
}

// The number a value stands for ("400 W" -> 400): couplings compute from it.
std::optional<double> number_of(const json& value) {
  if (value.is_number()) return value.get<double>();
  if (!value.is_string()) return std::nullopt;
  try {
    std::size_t used = 0;
    const double v = std::stod(value.get<std::string>(), &used);
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

Design parse_design(const json& doc, const std::string& source, const std::string& base_dir) {
  Reader r(source, base_dir);
  Design d;
  d.source = source;
  if (!doc.is_object()) {
    r.error("", "expected an object with name, scenario, variables and objectives");
    r.flush();
  }
  r.only_keys(doc, "",
              {"name", "description", "scenario", "set", "seed", "variables", "couplings", "constraints", "objectives",
               "fidelities", "strategy"});
  d.name = r.string(doc, "name", "", true);
  if (doc.contains("description")) d.description = r.string(doc, "description", "", false);
  const std::string scenario = r.string(doc, "scenario", "", true);
  if (!scenario.empty()) d.scenario = r.resolve(scenario);
  d.sets = read_sets(doc, "", r);
  d.seed = r.count(doc, "seed", "", 0);

  std::set<std::string> known;  // paths a coupling may read
  if (!doc.contains("variables") || !doc.at("variables").is_array() || doc.at("variables").empty()) {
    r.error("/variables", "expected a non-empty array of variables");
  } else {
    double grid = 1.0;
    for (std::size_t i = 0; i < doc.at("variables").size(); ++i) {
      const std::string ptr = "/variables/" + std::to_string(i);
      DesignVariable v = read_variable(doc.at("variables")[i], ptr, r);
      if (!v.path.empty() && !known.insert(v.path).second)
        r.error(ptr + "/path", "'" + v.path + "' is a variable twice");
      if (v.kind == Kind::kChoice) grid *= static_cast<double>(v.choices.size());
      if (v.kind == Kind::kInteger) grid *= std::floor((v.high - v.low) / v.step) + 1;
      if (v.kind == Kind::kContinuous) grid *= static_cast<double>(std::max<std::size_t>(v.grid_points, 1));
      d.variables.push_back(std::move(v));
    }
    if (grid > kMaxGridSize)
      r.error("/variables",
              fmt::format("the space has {:.3g} grid points; at most {:.0g} are allowed", grid, kMaxGridSize));
  }
  if (doc.contains("couplings")) {
    if (!doc.at("couplings").is_array()) r.error("/couplings", "expected an array, got " + doc.at("couplings").dump());
    for (std::size_t i = 0; doc.at("couplings").is_array() && i < doc.at("couplings").size(); ++i) {
      const std::string ptr = "/couplings/" + std::to_string(i);
      Coupling c = read_coupling(doc.at("couplings")[i], ptr, known, r);
      if (!c.path.empty() && !known.insert(c.path).second) {
        r.error(ptr + "/path", "'" + c.path + "' is already set by a variable or a coupling");
      }
      d.couplings.push_back(std::move(c));
    }
  }
  read_summary_items<Constraint>(doc, "constraints", r, d.constraints,
                                 [&](const json& item, const std::string& ptr, Constraint& c) {
                                   r.only_keys(item, ptr, {"key", "min", "max"});
                                   c.min = r.number(item, "min", ptr);
                                   c.max = r.number(item, "max", ptr);
                                   if (!c.min && !c.max) r.error(ptr, "expected min, max or both");
                                   if (c.min && c.max && *c.min > *c.max)
                                     r.error(ptr + "/max",
                                             fmt::format("expected max >= min ({}), got {}", *c.min, *c.max));
                                 });
  read_summary_items<Objective>(doc, "objectives", r, d.objectives,
                                [&](const json& item, const std::string& ptr, Objective& o) {
                                  r.only_keys(item, ptr, {"key", "goal"});
                                  const std::string goal =
                                      item.contains("goal") ? r.string(item, "goal", ptr, false) : "minimize";
                                  if (goal != "minimize" && goal != "maximize")
                                    r.error(ptr + "/goal",
                                            "expected \"minimize\" or \"maximize\", got " + item.at("goal").dump());
                                  o.maximize = goal == "maximize";
                                });
  if (!doc.contains("objectives") || d.objectives.empty())
    r.error("/objectives", "expected at least one objective {\"key\": ..., \"goal\": ...}");
  std::set<std::string> objective_keys;
  for (const auto& o : d.objectives) {
    if (!o.key.empty() && !objective_keys.insert(o.key).second)
      r.error(o.pointer + "/key", "'" + o.key + "' is an objective twice");
  }

  if (doc.contains("fidelities")) {
    const json& levels = doc.at("fidelities");
    if (!levels.is_array() || levels.empty())
      r.error("/fidelities", "expected a non-empty array of {\"name\", \"set\"}, cheapest first");
    std::set<std::string> names;
    for (std::size_t i = 0; levels.is_array() && i < levels.size(); ++i) {
      const std::string ptr = "/fidelities/" + std::to_string(i);
      if (!levels[i].is_object()) {
        r.error(ptr, "expected an object with name and set, got " + levels[i].dump());
        continue;
      }
      r.only_keys(levels[i], ptr, {"name", "set"});
      Fidelity f{r.string(levels[i], "name", ptr, true), read_sets(levels[i], ptr, r)};
      if (!f.name.empty() && !names.insert(f.name).second)
        r.error(ptr + "/name", "'" + f.name + "' is a fidelity twice");
      d.fidelities.push_back(std::move(f));
    }
  }
  if (d.fidelities.empty()) d.fidelities.push_back({"full", {}});

  if (doc.contains("strategy")) {
    const json& s = doc.at("strategy");
    if (!s.is_object()) {
      r.error("/strategy", "expected an object {\"name\": ..., \"params\": {...}}, got " + s.dump());
    } else {
      r.only_keys(s, "/strategy", {"name", "params"});
      d.strategy = r.string(s, "name", "/strategy", true);
      if (s.contains("params")) {
        if (!s.at("params").is_object())
          r.error("/strategy/params", "expected an object, got " + s.at("params").dump());
        else d.strategy_params = s.at("params");
      }
    }
  }
  r.flush();
  return d;
}

Design load_design(const std::string& path) {
  const json doc = scenario::read_json_file(path, "the design file");
  return parse_design(doc, path, std::filesystem::path(path).parent_path().string());
}

SearchSpace search_space(const Design& design) {
  SearchSpace space;
  for (const auto& v : design.variables) {
    SearchVariable s;
    s.name = v.path;
    s.kind = v.kind;
    s.choices = v.choices.size();
    s.low = v.low;
    s.high = v.high;
    s.step = v.step;
    s.log_scale = v.log_scale;
    s.grid_points = v.grid_points;
    space.variables.push_back(std::move(s));
  }
  return space;
}

std::vector<std::pair<std::string, json>> design_values(const Design& design, const SearchPoint& point) {
  if (point.size() != design.variables.size())
    throw sim::InternalError("design: a point of the wrong size (this is a bug)");
  std::vector<std::pair<std::string, json>> out;
  std::map<std::string, json> by_path;
  for (std::size_t i = 0; i < design.variables.size(); ++i) {
    const auto& v = design.variables[i];
    json value;
    switch (v.kind) {
      case Kind::kChoice: value = v.choices.at(static_cast<std::size_t>(point[i])); break;
      case Kind::kInteger: value = number_value(point[i], true, v.unit); break;
      case Kind::kContinuous: value = number_value(point[i], false, v.unit); break;
    }
    by_path[v.path] = value;
    out.emplace_back(v.path, std::move(value));
  }
  for (const auto& c : design.couplings) {
    const json& from = by_path.at(c.from);
    json value;
    if (c.map) {
      const std::string key = from.is_string() ? from.get<std::string>() : from.dump();
      if (!c.map->contains(key)) {
        throw sim::InputError(fmt::format("{}:{}/map: no value for {} = {}; expected a key for every value it takes",
                                          design.source, c.pointer, c.from, from.dump()));
      }
      value = c.map->at(key);
    } else {
      const auto x = number_of(from);
      if (!x) {
        throw sim::InputError(
            fmt::format("{}:{}/from: {} = {} is not a number; a linear coupling needs one (or use \"map\")",
                        design.source, c.pointer, c.from, from.dump()));
      }
      double y = c.scale * *x + c.offset;
      switch (c.round) {
        case Coupling::Round::kDown: y = std::floor(y + 1e-9); break;
        case Coupling::Round::kUp: y = std::ceil(y - 1e-9); break;
        case Coupling::Round::kNearest: y = std::round(y); break;
        case Coupling::Round::kNone: break;
      }
      if (c.min) y = std::max(y, *c.min);
      if (c.max) y = std::min(y, *c.max);
      // An integer stays one through integral arithmetic (nodes -> nodes of a job).
      const bool integral =
          c.round != Coupling::Round::kNone ||
          (from.is_number_integer() && c.scale == std::floor(c.scale) && c.offset == std::floor(c.offset));
      value = number_value(y, integral, c.unit);
    }
    by_path[c.path] = value;
    out.emplace_back(c.path, std::move(value));
  }
  return out;
}

std::vector<std::string> candidate_overrides(const Design& design, const SearchPoint& point, int fidelity,
                                             std::uint64_t seed) {
  std::vector<std::string> out = design.sets;
  const auto& level = design.fidelities.at(static_cast<std::size_t>(fidelity));
  out.insert(out.end(), level.sets.begin(), level.sets.end());
  for (const auto& [path, value] : design_values(design, point)) out.push_back(path + "=" + value.dump());
  out.push_back("seed=" + std::to_string(seed));
  return out;
}

}  // namespace dcsim::tools::design
