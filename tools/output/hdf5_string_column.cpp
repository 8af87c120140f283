#include "tools/output/hdf5_string_column.hpp"

#include <algorithm>
#include <bit>

namespace dcsim::tools::output {

namespace {

// Bound on a fixed string column's uncompressed chunk (chunk_elements values, fewer when wide).
constexpr std::size_t kStringChunkBytes = std::size_t{1} << 20;

}  // namespace

std::size_t string_width(const std::vector<std::string>& values, std::optional<std::size_t> now) {
  if (now == kVariableWidth) return kVariableWidth;
  std::size_t longest = 1;
  for (const auto& v : values) longest = std::max(longest, v.size());
  const std::size_t width = std::max(now.value_or(1), std::bit_ceil(longest));
  return width > kMaxFixedWidth ? kVariableWidth : width;
}

void append_string_column(Extensible& ds, std::optional<std::size_t>& width, hid_t group, const sim::Column& column,
                          const std::vector<std::string>& values, hid_t dcpl, hid_t dapl, hsize_t chunk_elements,
                          const std::string& file) {
  const std::size_t needed = string_width(values, width);
  if (width != needed) {
    const hsize_t chunk =
        needed == kVariableWidth ? chunk_elements : std::clamp<hsize_t>(kStringChunkBytes / needed, 1, chunk_elements);
    const Handle chunked = dcpl_with_chunk(dcpl, chunk, file);
    if (ds.dataset.valid()) {
      rewrite_strings(ds, group, column.name, needed, chunked.get(), dapl);
    } else {
      const Handle type = string_type_of_width(needed);
      ds = create_extensible(group, column.name, type.get(), chunked.get(), dapl, ds.object);
    }
    write_string_attribute(ds.dataset.get(), ds.object, "unit", column.unit);
    write_string_attribute(ds.dataset.get(), ds.object, "description", column.description);
    width = needed;
  }
  append_strings(ds, needed, values);
}

}  // namespace dcsim::tools::output
