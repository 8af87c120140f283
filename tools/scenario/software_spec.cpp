#include "tools/scenario/software_spec.hpp"

#include <fstream>
#include <iterator>
#include <optional>
#include <vector>

#include "models/economics/price_preset.hpp"
#include "sim/error.hpp"
#include "tools/scenario/data_file.hpp"
#include "tools/scenario/registry_params.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
namespace mw = models::workload;

namespace {

FieldSpec software_object_spec(const models::ModelRegistries& registries) {
  return object_field(
      "software",
      "The software stack every training job and inference service runs with: the kernel and NCCL "
      "efficiencies of one framework release (models/workload/software_stack.hpp). Changing it changes no "
      "mechanism, only how close to the datasheet each kind of work runs.",
      {
          with_default(enum_field("stack", "Software stack preset (`dcsim list` shows each one's source and date).",
                                  registries.software_stacks.kind(), registries.software_stacks.names()),
                       mw::kDefaultSoftwareStack),
          params_object_field("params", "Overrides of the stack's parameters (what a site measured).",
                              entry_params(registries.software_stacks)),
          string_field("profile",
                       "A profile `dcsim calibrate` wrote (path beside the scenario): its stack and params, "
                       "instead of stack and params here."),
      });
}

// The stack of a resolved {"stack", "params"} object; errors at `at` + "/stack" or "/params/<key>"
// (`given`: the object as written).
std::optional<mw::SoftwareStack> stack_of(const json& given, const json& resolved, const std::string& at,
                                          const models::ModelRegistries& registries, ErrorList& errors) {
  const std::string name = resolved.value("stack", std::string(mw::kDefaultSoftwareStack));
  const auto* entry = registries.software_stacks.find(name);
  if (entry == nullptr) {
    errors.add(at + "/stack",
               "unknown software stack '" + name + "'; valid: " + registries.software_stacks.names_joined());
    return std::nullopt;
  }
  const std::size_t before = errors.errors().size();
  check_params_of_entry(find_at(given, "/params"), at + "/params", registries.software_stacks.kind(), name,
                        entry_params(registries.software_stacks), errors);
  if (errors.errors().size() != before) return std::nullopt;
  try {
    return entry->factory(params_from_resolved(find_at(resolved, "/params")));
  } catch (const sim::ConfigError& e) {
    errors.add(at + "/params/" + e.field(), e.detail());
    return std::nullopt;
  }
}

}  // namespace

FieldSpec software_section(const models::ModelRegistries& registries) {
  return optional_section(software_object_spec(registries),
                          std::string("the ") + mw::kDefaultSoftwareStack + " stack as registered");
}

FieldSpec software_override_field(const models::ModelRegistries& registries, const std::string& what) {
  FieldSpec f = software_object_spec(registries);
  f.description = "The software stack of this " + what + ", replacing /software for it (same keys).";
  return optional_section(f, "/software");
}

mw::SoftwareStack map_software_object(const json* given_section, const json& section, const std::string& pointer,
                                      const std::string& source, const models::ModelRegistries& registries) {
  const json empty = json::object();
  ErrorList errors;
  std::optional<mw::SoftwareStack> stack;
  if (section.contains("profile")) {
    for (const char* key : {"stack", "params"}) {
      if (given_section != nullptr && given_section->contains(key)) {
        errors.add(pointer + "/" + key,
                   "given with " + pointer + "/profile: a profile names its own stack and parameters");
      }
    }
    if (!errors.empty()) {
      std::vector<std::string> messages;
      for (const auto& e : errors.errors()) messages.push_back(located(source, e.pointer, e.message));
      throw sim::InputErrors(std::move(messages));
    }
    const std::string path = beside(source, section.at("profile").get<std::string>());
    json profile;
    try {
      std::ifstream in =
          open_data_file(path, section.at("profile").get<std::string>(), source + ":" + pointer + "/profile");
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      profile = parse_json_text(text, path);
    } catch (const sim::InputError& e) {
      throw sim::InputErrors({e.what()});
    }
    // The profile's "software" object is checked as the scenario's would be, located in its file.
    ErrorList profile_errors;
    const json* inner = find_at(profile, "/software");
    if (inner == nullptr) {
      profile_errors.add("/software", "missing: a profile holds the \"software\" object dcsim calibrate writes");
    } else {
      FieldSpec spec = software_object_spec(registries);
      spec.key = "";
      const json inner_resolved = resolve_value(spec, *inner, "/software", profile_errors);
      if (profile_errors.empty()) {
        if (inner_resolved.contains("profile")) {
          profile_errors.add("/software/profile", "a profile cannot name another profile");
        } else {
          stack = stack_of(*inner, inner_resolved, "/software", registries, profile_errors);
        }
      }
    }
    std::vector<std::string> messages;
    for (const auto& e : profile_errors.errors()) messages.push_back(located(path, e.pointer, e.message));
    if (!messages.empty()) throw sim::InputErrors(std::move(messages));
  } else {
    stack = stack_of(given_section != nullptr ? *given_section : empty, section, pointer, registries, errors);
  }
  if (!errors.empty() || !stack) {
    std::vector<std::string> messages;
    for (const auto& e : errors.errors()) messages.push_back(located(source, e.pointer, e.message));
    throw sim::InputErrors(std::move(messages));
  }
  return *stack;
}

mw::SoftwareStack map_software_section(const json& given, const json& resolved, const std::string& source,
                                       const models::ModelRegistries& registries) {
  const json* section = find_at(resolved, "/software");
  if (section == nullptr) return registries.software_stacks.get(mw::kDefaultSoftwareStack).factory({});
  return map_software_object(find_at(given, "/software"), *section, "/software", source, registries);
}

json software_object(const std::string& stack_name, const mw::SoftwareStack& stack, const mw::SoftwareStack& base) {
  json params = json::object();
  mw::SoftwareStack s = stack;
  mw::SoftwareStack b = base;
  const auto fields = mw::stack_parameters(s);
  const auto base_fields = mw::stack_parameters(b);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (*fields[i].value == *base_fields[i].value) continue;
    const std::string value = models::economics::format_number(*fields[i].value);
    if (fields[i].unit == "duration") {
      params[fields[i].name] = value + " s";
    } else {
      params[fields[i].name] = *fields[i].value;
    }
  }
  json out = {{"stack", stack_name}};
  if (!params.empty()) out["params"] = params;
  return out;
}

}  // namespace dcsim::tools::scenario
