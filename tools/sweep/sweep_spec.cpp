#include "tools/sweep/sweep_spec.hpp"

#include <cmath>
#include <filesystem>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "sim/random.hpp"
#include "tools/scenario/input_reader.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::sweep {

namespace {

using nlohmann::json;

using Reader = scenario::InputReader;

// 12 significant digits: what a person wrote as a step survives, float noise does not.
double round12(double v) { return std::stod(fmt::format("{:.12g}", v)); }

json range_value(double v, bool integral, const std::string& unit) {
  json number = integral ? json(static_cast<std::int64_t>(std::llround(v))) : json(round12(v));
  if (unit.empty()) return number;
  return number.dump() + " " + unit;
}

void read_range(const json& range, const std::string& ptr, bool random, Parameter& p, Reader& r) {
  if (!range.is_object()) {
    r.error(ptr, "expected an object with start, stop, step (and scale, unit), got " + range.dump());
    return;
  }
  r.only_keys(range, ptr, {"start", "stop", "step", "scale", "unit"});
  const auto start = r.number(range, "start", ptr, true);
  const auto stop = r.number(range, "stop", ptr, true);
  // A sampled range needs no step: it is drawn from continuously.
  const auto step = r.number(range, "step", ptr, !random);
  const std::string scale = range.contains("scale") ? r.string(range, "scale", ptr, false) : "linear";
  if (scale != "linear" && scale != "log" && !scale.empty()) {
    r.error(ptr + "/scale", "expected \"linear\" or \"log\", got " + range.at("scale").dump());
    return;
  }
  p.unit = range.contains("unit") ? r.string(range, "unit", ptr, false) : "";
  if (!start || !stop || (!random && !step) || scale.empty()) return;
  p.log_scale = scale == "log";
  if (p.log_scale && !(*start > 0 && *stop > 0)) {
    r.error(ptr + (*start > 0 ? "/stop" : "/start"),
            fmt::format("a log range needs start > 0 and stop > 0, got start {} and stop {}", range.at("start").dump(),
                        range.at("stop").dump()));
    return;
  }
  if (!step) {
    if (*stop < *start) {
      r.error(ptr + "/stop", "expected stop >= start, got " + range.at("stop").dump());
      return;
    }
    p.continuous = true;
    p.low = *start;
    p.high = *stop;
    return;
  }
  double n = 0.0;
  if (!p.log_scale) {
    if (*step == 0.0) {
      r.error(ptr + "/step", "expected a non-zero step, got " + range.at("step").dump());
      return;
    }
    n = (*stop - *start) / *step;
  } else {
    if (!(*step > 0) || *step == 1.0) {
      r.error(ptr + "/step", "a log range's step is the factor between values: expected a number > 0 other than 1, got " +
                                 range.at("step").dump());
      return;
    }
    n = std::log(*stop / *start) / std::log(*step);
  }
  if (n < -1e-9) {
    r.error(ptr + "/step", fmt::format("step {} never gets from start {} to stop {}", range.at("step").dump(),
                                       range.at("start").dump(), range.at("stop").dump()));
    return;
  }
  // Steps that land on stop within a relative 1e-9 include it: 0.2 / 0.05 is 3.9999999999999996.
  const double steps = std::floor(n + 1e-9 * std::max(1.0, n));
  if (steps + 1.0 > static_cast<double>(kMaxVariants)) {
    r.error(ptr + "/step", fmt::format("the range has {:.0f} values; at most {} are allowed", steps + 1, kMaxVariants));
    return;
  }
  const auto count = static_cast<std::size_t>(steps) + 1;
  const bool integral = range.at("start").is_number_integer() && range.at("step").is_number_integer();
  for (std::size_t i = 0; i < count; ++i) {
    const double k = static_cast<double>(i);
    const double v = p.log_scale ? *start * std::pow(*step, k) : *start + k * *step;
    p.values.push_back(range_value(v, integral, p.unit));
    p.value_pointers.push_back(ptr);
  }
}

Parameter read_parameter(const json& item, const std::string& ptr, bool random, Reader& r) {
  Parameter p;
  p.pointer = ptr;
  if (!item.is_object()) {
    r.error(ptr, "expected a parameter object with path and values or range, got " + item.dump());
    return p;
  }
  r.only_keys(item, ptr, {"path", "values", "range"});
  p.path = r.string(item, "path", ptr, true);
  if (p.path == "seed") {
    r.error(ptr + "/path", "the seed is not swept as a parameter: use \"replications\" (and \"seed\" for the base)");
  }
  if (item.contains("values") == item.contains("range")) {
    r.error(ptr, "expected exactly one of values (a list) or range");
    return p;
  }
  if (item.contains("values")) {
    const json& values = item.at("values");
    if (!values.is_array() || values.empty()) {
      r.error(ptr + "/values", "expected a non-empty array of values, got " + values.dump());
      return p;
    }
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (values[k].is_null()) {
        r.error(ptr + "/values/" + std::to_string(k), "expected a value, got null");
        continue;
      }
      p.values.push_back(values[k]);
      p.value_pointers.push_back(ptr + "/values/" + std::to_string(k));
    }
  } else {
    read_range(item.at("range"), ptr + "/range", random, p, r);
  }
  return p;
}


// The value of a continuous parameter for one sample: its own stream per (sample, parameter),
// so a sample does not depend on the others or on the parameters' order.
json sample_continuous(const Sweep& sweep, const Parameter& p, std::size_t sample) {
  sim::RandomStream stream(sweep.sample_seed, "sweep/sample/" + std::to_string(sample), p.path);
  const double u = stream.uniform01();
  const double v = p.log_scale ? p.low * std::pow(p.high / p.low, u) : p.low + u * (p.high - p.low);
  return range_value(v, false, p.unit);
}

std::size_t sample_choice(const Sweep& sweep, const Parameter& p, std::size_t sample) {
  sim::RandomStream stream(sweep.sample_seed, "sweep/sample/" + std::to_string(sample), p.path);
  return static_cast<std::size_t>(stream.uniform_int(p.values.size()));
}

}  // namespace

Sweep parse_sweep(const json& doc, const std::string& source, const std::string& base_dir) {
  Reader r(source, base_dir);
  Sweep s;
  s.source = source;
  if (!doc.is_object()) {
    r.error("", "expected an object with name, scenario and parameters");
    r.flush();
  }
  r.only_keys(doc, "", {"name", "scenario", "set", "parameters", "combine", "samples", "sample_seed", "replications",
                        "seed"});
  s.name = r.string(doc, "name", "", true);
  const std::string scenario = r.string(doc, "scenario", "", true);
  if (!scenario.empty()) s.scenario = r.resolve(scenario);
  if (doc.contains("set")) {
    const json& sets = doc.at("set");
    if (!sets.is_array()) r.error("/set", "expected an array of \"path=value\" strings, got " + sets.dump());
    for (std::size_t k = 0; sets.is_array() && k < sets.size(); ++k) {
      if (!sets[k].is_string()) {
        r.error("/set/" + std::to_string(k), "expected a \"path=value\" string, got " + sets[k].dump());
      } else {
        s.sets.push_back(sets[k].get<std::string>());
      }
    }
  }
  const std::string combine = doc.contains("combine") ? r.string(doc, "combine", "", false) : "grid";
  if (combine == "zip") {
    s.combine = Combine::kZip;
  } else if (combine == "random") {
    s.combine = Combine::kRandom;
  } else if (combine != "grid" && !combine.empty()) {
    r.error("/combine", "expected \"grid\", \"zip\" or \"random\", got " + doc.at("combine").dump());
  }
  const bool random = s.combine == Combine::kRandom;
  if (random) {
    if (!doc.contains("samples")) r.error("/samples", "missing required key for \"combine\": \"random\"; expected an integer >= 1");
    s.samples = r.count(doc, "samples", "", 1).value_or(0);
    if (s.samples > kMaxVariants) r.error("/samples", fmt::format("at most {} samples are allowed", kMaxVariants));
    s.sample_seed = r.count(doc, "sample_seed", "", 0).value_or(1);
  } else {
    for (const char* key : {"samples", "sample_seed"}) {
      if (doc.contains(key)) r.error(std::string("/") + key, "only used with \"combine\": \"random\"");
    }
  }
  s.replications = r.count(doc, "replications", "", 1).value_or(1);
  if (s.replications > kMaxVariants) r.error("/replications", fmt::format("at most {} are allowed", kMaxVariants));
  s.seed = r.count(doc, "seed", "", 0);

  if (!doc.contains("parameters") || !doc.at("parameters").is_array()) {
    r.error("/parameters", "expected an array of parameters (it may be empty when only replications vary)");
    r.flush();
  }
  const json& params = doc.at("parameters");
  if (params.empty() && s.combine != Combine::kGrid) {
    r.error("/parameters", "expected at least one parameter for \"combine\": \"" + combine + "\"");
  }
  std::set<std::string> paths;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const std::string ptr = "/parameters/" + std::to_string(i);
    Parameter p = read_parameter(params[i], ptr, random, r);
    if (!p.path.empty() && !paths.insert(p.path).second) {
      r.error(ptr + "/path", "'" + p.path + "' is swept twice");
    }
    s.parameters.push_back(std::move(p));
  }
  if (!r.ok()) r.flush();
  if (s.combine == Combine::kZip) {
    const std::size_t n = s.parameters.front().values.size();
    for (const auto& p : s.parameters) {
      if (p.values.size() != n) {
        r.error(p.pointer, fmt::format("\"zip\" runs the parameters side by side: expected {} values (as {} has), got {}",
                                       n, s.parameters.front().pointer, p.values.size()));
      }
    }
  }
  if (!random) {
    double points = 1.0;
    for (const auto& p : s.parameters) points *= static_cast<double>(p.values.size());
    if (s.combine == Combine::kZip) points = static_cast<double>(s.parameters.front().values.size());
    if (points * static_cast<double>(s.replications) > static_cast<double>(kMaxVariants)) {
      r.error("/parameters", fmt::format("the sweep has {:.0f} variants; at most {} are allowed",
                                         points * static_cast<double>(s.replications), kMaxVariants));
    }
  } else if (static_cast<double>(s.samples) * static_cast<double>(s.replications) > static_cast<double>(kMaxVariants)) {
    r.error("/samples", fmt::format("samples x replications is above {} variants", kMaxVariants));
  }
  r.flush();
  return s;
}

Sweep load_sweep(const std::string& path) {
  const json doc = scenario::read_json_file(path, "the sweep file");
  return parse_sweep(doc, path, std::filesystem::path(path).parent_path().string());
}

std::size_t point_count(const Sweep& sweep) {
  switch (sweep.combine) {
    case Combine::kRandom: return sweep.samples;
    case Combine::kZip: return sweep.parameters.front().values.size();
    case Combine::kGrid: break;
  }
  std::size_t n = 1;
  for (const auto& p : sweep.parameters) n *= p.values.size();
  return n;
}

std::size_t variant_count(const Sweep& sweep) { return point_count(sweep) * sweep.replications; }

std::uint64_t replication_seed(std::uint64_t base_seed, std::size_t replication) {
  if (replication == 0) return base_seed;
  return sim::stream_seed(base_seed, "sweep/replication", std::to_string(replication));
}

std::string variant_name(std::size_t index, std::size_t count) {
  const std::size_t digits = std::max<std::size_t>(4, std::to_string(count == 0 ? 0 : count - 1).size());
  return fmt::format("v{:0{}}", index, digits);
}

Variant variant_at(const Sweep& sweep, std::size_t index, std::uint64_t base_seed) {
  const std::size_t count = variant_count(sweep);
  if (index >= count) throw sim::InternalError("sweep: variant index out of range (this is a bug)");
  Variant v;
  v.index = index;
  v.name = variant_name(index, count);
  v.replication = index % sweep.replications;
  const std::size_t point = index / sweep.replications;
  v.values.resize(sweep.parameters.size());
  v.value_pointers.resize(sweep.parameters.size());
  if (sweep.combine == Combine::kGrid) {
    // Row-major: the last parameter varies fastest, as nested loops written in file order.
    std::size_t rest = point;
    for (std::size_t i = sweep.parameters.size(); i-- > 0;) {
      const auto& p = sweep.parameters[i];
      const std::size_t k = rest % p.values.size();
      rest /= p.values.size();
      v.values[i] = p.values[k];
      v.value_pointers[i] = p.value_pointers[k];
    }
  } else {
    for (std::size_t i = 0; i < sweep.parameters.size(); ++i) {
      const auto& p = sweep.parameters[i];
      if (sweep.combine == Combine::kZip) {
        v.values[i] = p.values[point];
        v.value_pointers[i] = p.value_pointers[point];
      } else if (p.continuous) {
        v.values[i] = sample_continuous(sweep, p, point);
        v.value_pointers[i] = p.pointer + "/range";
      } else {
        const std::size_t k = sample_choice(sweep, p, point);
        v.values[i] = p.values[k];
        v.value_pointers[i] = p.value_pointers[k];
      }
    }
  }
  v.seed = replication_seed(sweep.seed.value_or(base_seed), v.replication);
  v.overrides = sweep.sets;
  for (std::size_t i = 0; i < sweep.parameters.size(); ++i) {
    v.overrides.push_back(sweep.parameters[i].path + "=" + v.values[i].dump());
  }
  v.overrides.push_back("seed=" + std::to_string(v.seed));
  return v;
}

std::string describe_values(const Sweep& sweep, const Variant& variant) {
  std::string out;
  for (std::size_t i = 0; i < sweep.parameters.size(); ++i) {
    out += (out.empty() ? "" : ", ") + sweep.parameters[i].path + "=" + variant.values[i].dump();
  }
  out += (out.empty() ? "" : ", ") + fmt::format("seed={}", variant.seed);
  return out;
}

}  // namespace dcsim::tools::sweep
