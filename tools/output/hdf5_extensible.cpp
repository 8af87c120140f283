#include "tools/output/hdf5_extensible.hpp"

#include <bit>
#include <utility>

#include "tools/output/chunk_compression.hpp"

namespace dcsim::tools::output {

Extensible create_extensible(hid_t loc, const std::string& name, hid_t file_type, hid_t dcpl, hid_t dapl,
                             const std::string& object) {
  const hsize_t zero = 0;
  const hsize_t unlimited = H5S_UNLIMITED;
  Handle space = space_handle(H5Screate_simple(1, &zero, &unlimited), object);
  Extensible out;
  out.object = object;
  out.dataset = dataset_handle(H5Dcreate2(loc, name.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl, dapl), object);
  check(H5Pget_chunk(dcpl, 1, &out.chunk) < 0 ? -1 : 0, "cannot read chunk size", object);
  return out;
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
