#pragma once
// Private to tools/output: growing 1-D HDF5 datasets and appends to them, the mechanism under
// the trace layout of hdf5_trace_writer.cpp (which series, tables and groups the file holds).
//
// An append is staged, then committed. Staging runs without the process-wide HDF5 lock
// (Hdf5Lock): whole chunks that start on a chunk boundary are shuffled and deflated there
// (chunk_compression.hpp); commit, under the lock, writes them as they are (H5Dwrite_chunk), so
// the lock is held for the write only, not for deflate, and a chunk is never read back to be
// completed (a partial one would be: inflated, merged, deflated again). Anything else (a partial
// chunk, a string column) is written by commit through HDF5's own filters.

#include <cstddef>
#include <string>
#include <vector>

#include "tools/output/hdf5_handle.hpp"

namespace dcsim::tools::output {

// One growing 1-D dataset; `size` mirrors its extent so appends need not ask HDF5. `dataset`
// may be closed between writes (a trace's series are, so that 250,000 of them do not hold
// 500,000 open datasets) and reopened by `object`.
struct Extensible {
  Handle dataset;
  std::string object;
  hsize_t size = 0;
  hsize_t chunk = 0;  // elements per chunk, fixed at creation
};

// Under the lock: an empty, unlimited dataset `name` in `loc` with the chunking of `dcpl`.
Extensible create_extensible(hid_t loc, const std::string& name, hid_t file_type, hid_t dcpl, hid_t dapl,
                             const std::string& object);

// A copy of the dataset creation properties `base` with `chunk` elements per chunk (`object`
// names what an error is about).
Handle dcpl_with_chunk(hid_t base, hsize_t chunk, const std::string& object);

// A string dataset's element type: fixed-length UTF-8 of `width` bytes (fixed_utf8_string_type),
// or variable-length UTF-8 for kVariableWidth.
inline constexpr std::size_t kVariableWidth = 0;
Handle string_type_of_width(std::size_t width);

// Under the lock: appends `values` to a string dataset of `width` (as string_type_of_width);
// none may be longer than a fixed width.
void append_strings(Extensible& ds, std::size_t width, const std::vector<std::string>& values);

// Under the lock: gives the string dataset `ds` (named `name` in `loc`) the element type of
// `width`: a new dataset, chunked as `dcpl`, gets its ds.size values, a chunk at a time, and then
// takes its name. Attributes are not carried over (the caller writes them again). O(ds.size)
// values read and written.
void rewrite_strings(Extensible& ds, hid_t loc, const std::string& name, std::size_t width, hid_t dcpl, hid_t dapl);

// Under the lock: appends `count` elements of `mem_type` through HDF5's filters (one extent
// change, one hyperslab write).
void append_to(Extensible& ds, hid_t mem_type, const void* data, std::size_t count);

// One append to a numeric dataset, prepared before the lock is taken.
struct StagedAppend {
  Extensible* ds = nullptr;
  hid_t mem_type = -1;
  const void* data = nullptr;
  std::size_t count = 0;
  hsize_t chunk = 0;
  std::vector<std::vector<unsigned char>> filtered;  // non-empty: each chunk's bytes as stored
};

// Whether chunks may be filtered outside the lock: only when the stored bytes equal the memory
// bytes (numeric columns are little-endian in the file, so a little-endian machine) and deflate
// is on and available. Under the lock (it asks HDF5).
bool filters_outside_lock(int deflate_level);

// Without the lock (it compresses): stages `count` elements at `data` (valid until commit) for
// a dataset with chunks of `chunk` elements (a series not yet created gets chunks of what it
// flushes first). With `direct_chunks` (filters_outside_lock), whole chunks on chunk boundaries
// are shuffled and deflated at `deflate_level` here. O(count) bytes compressed.
StagedAppend stage_append(Extensible& ds, hid_t mem_type, const void* data, std::size_t count, hsize_t chunk,
                          bool direct_chunks, int deflate_level);

// Under the lock: writes a staged append (its filtered chunks as they are, else through
// append_to).
void commit(StagedAppend& a);

}  // namespace dcsim::tools::output
