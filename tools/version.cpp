#include "tools/version.hpp"

namespace dcsim::tools {
std::string_view version() { return DCSIM_VERSION; }
}  // namespace dcsim::tools
