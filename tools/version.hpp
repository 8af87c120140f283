#pragma once
#include <string_view>

namespace dcsim::tools {
std::string_view version();
// Identifies this build of dcsim: a hash of the running executable ("unknown" where it cannot be
// read). Two builds of one version with different code differ, so a resumed sweep does not reuse
// results a rebuilt simulator would compute differently.
std::string_view build_id();
}  // namespace dcsim::tools
