#pragma once
// Private to tools/output: how a trace table's string column is stored (hdf5_trace_writer.cpp
// decides which tables and columns there are). Fixed-length UTF-8, not variable-length: a
// variable-length string costs a 16-byte reference plus an uncompressed heap copy (2 GB in a site
// year). A column is created at its table's first flush as wide as its longest value then, and
// rewritten wider (every row so far copied) when a longer one comes; a column with a value over
// kMaxFixedWidth bytes is variable-length, for good.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/trace_sink.hpp"
#include "tools/output/hdf5_extensible.hpp"

namespace dcsim::tools::output {

// String columns are fixed-length up to this many bytes per value, variable-length beyond. A
// fixed column holds every value at its longest's width, in the flush buffer and in HDF5's chunk
// before deflate: node lists of big jobs (16 KB) took the 7-day site run from 228 to 436 MB peak.
// Texts that long vary too, and a 16-byte heap reference is a small part of their cost.
inline constexpr std::size_t kMaxFixedWidth = 256;

// The width (string_type_of_width) a string column needs for `values` after its values so far
// were stored at `now` (nullopt: none yet): the longest in bytes (a value of exactly the width has
// no terminator) rounded up to a power of two, so a column widens at most log2(kMaxFixedWidth)
// times; kVariableWidth beyond kMaxFixedWidth, and once variable, for good.
std::size_t string_width(const std::vector<std::string>& values, std::optional<std::size_t> now);

// Under the lock: appends `values` to the string column `ds` (`column` of the table group
// `group`), whose values so far are stored at `width` (nullopt: its dataset is not created yet,
// and is created now, also for no values). When `values` need a wider type the column is first
// created or rewritten at it (with its unit and description attributes) and `width` updated.
// `dcpl`: the string columns' creation properties, chunked here at most `chunk_elements` values
// and 1 MB uncompressed. Widening is the rare, costly case: O(rows so far) read and written
// again, at most log2(kMaxFixedWidth) + 1 times per column; in the site scenarios most columns
// settle at their first flush.
void append_string_column(Extensible& ds, std::optional<std::size_t>& width, hid_t group, const sim::Column& column,
                          const std::vector<std::string>& values, hid_t dcpl, hid_t dapl, hsize_t chunk_elements,
                          const std::string& file);

}  // namespace dcsim::tools::output
