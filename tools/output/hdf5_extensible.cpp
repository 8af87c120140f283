#include "tools/output/hdf5_extensible.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "tools/output/chunk_compression.hpp"

namespace dcsim::tools::output {

namespace {

// An empty, unlimited dataset named `name` in `loc`, or anonymous (not linked) for a null `name`.
Extensible create_empty(hid_t loc, const char* name, hid_t file_type, hid_t dcpl, hid_t dapl,
                        const std::string& object) {
  const hsize_t zero = 0;
  const hsize_t unlimited = H5S_UNLIMITED;
  Handle space = space_handle(H5Screate_simple(1, &zero, &unlimited), object);
  Extensible out;
  out.object = object;
  out.dataset = dataset_handle(name != nullptr ? H5Dcreate2(loc, name, file_type, space.get(), H5P_DEFAULT, dcpl, dapl)
                                               : H5Dcreate_anon(loc, file_type, space.get(), dcpl, dapl),
                               object);
  check(H5Pget_chunk(dcpl, 1, &out.chunk) < 0 ? -1 : 0, "cannot read chunk size", object);
  return out;
}

}  // namespace

Extensible create_extensible(hid_t loc, const std::string& name, hid_t file_type, hid_t dcpl, hid_t dapl,
                             const std::string& object) {
  return create_empty(loc, name.c_str(), file_type, dcpl, dapl, object);
}

Handle dcpl_with_chunk(hid_t base, hsize_t chunk, const std::string& object) {
  Handle dcpl = plist_handle(H5Pcopy(base), "dataset creation properties");
  check(H5Pset_chunk(dcpl.get(), 1, &chunk), "cannot set chunk size", object);
  return dcpl;
}

Handle string_type_of_width(std::size_t width) {
  return width == kVariableWidth ? utf8_string_type() : fixed_utf8_string_type(width);
}

void append_strings(Extensible& ds, std::size_t width, const std::vector<std::string>& values) {
  const Handle type = string_type_of_width(width);
  if (width == kVariableWidth) {
    std::vector<const char*> ptrs;
    ptrs.reserve(values.size());
    for (const auto& v : values) ptrs.push_back(v.c_str());
    append_to(ds, type.get(), ptrs.data(), ptrs.size());
    return;
  }
  // Null-padded: a value of exactly `width` bytes has no terminator.
  std::vector<char> bytes(values.size() * width, '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::copy(values[i].begin(), values[i].end(), bytes.begin() + static_cast<std::ptrdiff_t>(i * width));
  }
  append_to(ds, type.get(), bytes.data(), values.size());
}

void rewrite_strings(Extensible& ds, hid_t loc, const std::string& name, std::size_t width, hid_t dcpl, hid_t dapl) {
  const Handle type = string_type_of_width(width);
  Extensible out = create_empty(loc, nullptr, type.get(), dcpl, dapl, ds.object);
  for (hsize_t start = 0; start < ds.size; start += out.chunk) {
    append_strings(out, width,
                   read_string_slab(ds.dataset.get(), start, std::min(out.chunk, ds.size - start), ds.object));
  }
  ds.dataset.reset();
  check(H5Ldelete(loc, name.c_str(), H5P_DEFAULT), "cannot replace dataset", ds.object);
  check(H5Olink(out.dataset.get(), loc, name.c_str(), H5P_DEFAULT, H5P_DEFAULT), "cannot link dataset", ds.object);
  ds = std::move(out);
}

void append_to(Extensible& ds, hid_t mem_type, const void* data, std::size_t count) {
  if (count == 0) return;
  const hsize_t n = count;
  const hsize_t start = ds.size;
  const hsize_t new_size = start + n;
  check(H5Dset_extent(ds.dataset.get(), &new_size), "cannot extend dataset", ds.object);
  Handle file_space = space_handle(H5Dget_space(ds.dataset.get()), ds.object);
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &n, nullptr), "cannot select in dataset",
        ds.object);
  Handle mem_space = space_handle(H5Screate_simple(1, &n, nullptr), ds.object);
  check(H5Dwrite(ds.dataset.get(), mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, data),
        "cannot write dataset", ds.object);
  ds.size = new_size;
}

bool filters_outside_lock(int deflate_level) {
  return std::endian::native == std::endian::little && deflate_level > 0 && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0;
}

StagedAppend stage_append(Extensible& ds, hid_t mem_type, const void* data, std::size_t count, hsize_t chunk,
                          bool direct_chunks, int deflate_level) {
  StagedAppend a{&ds, mem_type, data, count, chunk, {}};
  if (!direct_chunks || count == 0 || count % chunk != 0 || ds.size % chunk != 0) return a;
  for (std::size_t first = 0; first < count; first += chunk) {
    auto bytes =
        compress_chunk(static_cast<const char*>(data) + first * 8, chunk, 8, ChunkFilters{true, deflate_level});
    if (!bytes) {  // deflate would not shrink it: HDF5 writes such a chunk unfiltered itself
      a.filtered.clear();
      return a;
    }
    a.filtered.push_back(std::move(*bytes));
  }
  return a;
}

void commit(StagedAppend& a) {
  if (a.filtered.empty()) {
    append_to(*a.ds, a.mem_type, a.data, a.count);
    return;
  }
  Extensible& ds = *a.ds;
  const hsize_t new_size = ds.size + a.count;
  check(H5Dset_extent(ds.dataset.get(), &new_size), "cannot extend dataset", ds.object);
  for (std::size_t i = 0; i < a.filtered.size(); ++i) {
    const hsize_t offset = ds.size + i * a.chunk;
    // Filter mask 0: every filter of the dataset's pipeline was applied.
    check(H5Dwrite_chunk(ds.dataset.get(), H5P_DEFAULT, 0, &offset, a.filtered[i].size(), a.filtered[i].data()),
          "cannot write chunk", ds.object);
  }
  ds.size = new_size;
}

}  // namespace dcsim::tools::output
