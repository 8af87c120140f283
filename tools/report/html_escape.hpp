#pragma once
// Text from a scenario (job names, descriptions, file paths) goes into the report page through
// this: a name like `a<b & "c"` must show as written, never become markup.

#include <string>
#include <string_view>

namespace dcsim::tools::report {

// & < > " ' as character references; safe in element content and in quoted attribute values.
std::string html_escape(std::string_view text);

}  // namespace dcsim::tools::report
