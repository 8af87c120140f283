#include "sim/error.hpp"

namespace dcsim::sim {

namespace {
std::string join_lines(const std::vector<std::string>& messages) {
  std::string out;
  for (const auto& m : messages) {
    if (!out.empty()) out += '\n';
    out += m;
  }
  return out;
}
}  // namespace

InputErrors::InputErrors(std::vector<std::string> messages)
    : InputError(join_lines(messages)), messages_(std::move(messages)) {}

}  // namespace dcsim::sim
