#pragma once
#include <string_view>

namespace dcsim::tools {
std::string_view version();
}  // namespace dcsim::tools
