#pragma once
// Reads trace.h5 back through the HDF5 C API, independently of the writer's code paths, so the
// round-trip tests check what is on disk rather than what the writer believes it wrote.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tools/output/hdf5_handle.hpp"

namespace dcsim::tools::output::test {

class TraceReader {
 public:
  explicit TraceReader(const std::filesystem::path& file) {
    silence_hdf5_errors();
    file_ = file_handle(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), file.string());
  }

  bool exists(const std::string& path) const {
    // H5Lexists needs each parent to exist, so walk down the path.
    std::size_t pos = 1;
    while (true) {
      const std::size_t slash = path.find('/', pos);
      const std::string prefix = path.substr(0, slash);
      if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
      if (slash == std::string::npos) return true;
      pos = slash + 1;
    }
  }

  bool is_group(const std::string& path) const {
    H5O_info_t info{};
    if (H5Oget_info_by_name(file_.get(), path.c_str(), &info, H5P_DEFAULT) < 0) return false;
    return info.type == H5O_TYPE_GROUP;
  }

  std::vector<std::int64_t> int64s(const std::string& path) const {
    return read_numeric<std::int64_t>(path, H5T_NATIVE_INT64, H5T_INTEGER, 8);
  }
  std::vector<double> doubles(const std::string& path) const {
    return read_numeric<double>(path, H5T_NATIVE_DOUBLE, H5T_FLOAT, 8);
  }
  // A table's string column: fixed-length, null-padded UTF-8 (LAYOUT.md), a value ending at its
  // first null or at the width; or variable-length UTF-8 (a column with a value over 256 bytes).
  std::vector<std::string> strings(const std::string& path) const {
    if (variable_length(path)) return vlen_strings(path);
    Handle ds = dataset_handle(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), path);
    Handle ftype = type_handle(H5Dget_type(ds.get()), path);
    if (H5Tget_class(ftype.get()) != H5T_STRING || H5Tget_cset(ftype.get()) != H5T_CSET_UTF8 ||
        H5Tget_strpad(ftype.get()) != H5T_STR_NULLPAD) {
      throw std::runtime_error(path + " is not fixed-length, null-padded UTF-8");
    }
    const std::size_t width = H5Tget_size(ftype.get());
    Handle space = space_handle(H5Dget_space(ds.get()), path);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
    std::vector<char> bytes(n * width);
    if (n > 0) {
      check(H5Dread(ds.get(), ftype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), "read", path);
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) {
      const char* value = bytes.data() + i * width;
      out.emplace_back(value, std::find(value, value + width, '\0'));
    }
    return out;
  }
  // The width in bytes of a fixed-length string dataset.
  std::size_t string_width(const std::string& path) const {
    Handle ds = dataset_handle(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), path);
    Handle ftype = type_handle(H5Dget_type(ds.get()), path);
    return H5Tget_size(ftype.get());
  }
  // The rank of a dataset (0 for scalar) and its element class.
  int rank(const std::string& path) const {
    Handle ds = dataset_handle(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), path);
    Handle space = space_handle(H5Dget_space(ds.get()), path);
    return H5Sget_simple_extent_ndims(space.get());
  }
  std::vector<hsize_t> chunk_dims(const std::string& path) const {
    Handle ds = dataset_handle(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), path);
    Handle dcpl = plist_handle(H5Dget_create_plist(ds.get()), path);
    hsize_t dims[4] = {};
    const int r = H5Pget_chunk(dcpl.get(), 4, dims);
    return r < 0 ? std::vector<hsize_t>{} : std::vector<hsize_t>(dims, dims + r);
  }
  bool has_filter(const std::string& path, H5Z_filter_t filter) const {
    Handle ds = dataset_handle(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), path);
    Handle dcpl = plist_handle(H5Dget_create_plist(ds.get()), path);
    unsigned flags = 0;
    std::size_t nelmts = 0;
    return H5Pget_filter_by_id2(dcpl.get(), filter, &flags, &nelmts, nullptr, 0, nullptr,
                                nullptr) >= 0;
  }
  bool unlimited(const std::string& path) const {
    Handle ds = dataset_handle(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), path);
    Handle space = space_handle(H5Dget_space(ds.get()), path);
    hsize_t dims = 0, maxdims = 0;
    H5Sget_simple_extent_dims(space.get(), &dims, &maxdims);
    return maxdims == H5S_UNLIMITED;
  }

  std::string attr_string(const std::string& path, const std::string& name) const {
    Handle obj = open_object(path);
    return read_string_attribute(obj.get(), path, name);
  }
  std::vector<std::string> attr_strings(const std::string& path, const std::string& name) const {
    Handle obj = open_object(path);
    const std::string where = path + "@" + name;
    Handle attr = attr_handle(H5Aopen(obj.get(), name.c_str(), H5P_DEFAULT), where);
    Handle space = space_handle(H5Aget_space(attr.get()), where);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
    std::vector<char*> ptrs(n, nullptr);
    Handle mtype = utf8_string_type();
    check(H5Aread(attr.get(), mtype.get(), ptrs.data()), "read", where);
    std::vector<std::string> out;
    for (char* p : ptrs) out.emplace_back(p != nullptr ? p : "");
    H5Dvlen_reclaim(mtype.get(), space.get(), H5P_DEFAULT, ptrs.data());
    return out;
  }
  std::int64_t attr_int64(const std::string& path, const std::string& name) const {
    std::int64_t v = 0;
    read_attr(path, name, H5T_NATIVE_INT64, H5T_INTEGER, &v);
    return v;
  }
  std::uint64_t attr_uint64(const std::string& path, const std::string& name) const {
    std::uint64_t v = 0;
    read_attr(path, name, H5T_NATIVE_UINT64, H5T_INTEGER, &v);
    return v;
  }
  double attr_double(const std::string& path, const std::string& name) const {
    double v = 0;
    read_attr(path, name, H5T_NATIVE_DOUBLE, H5T_FLOAT, &v);
    return v;
  }
  std::int64_t scalar_int64(const std::string& path) const {
    auto v = read_numeric<std::int64_t>(path, H5T_NATIVE_INT64, H5T_INTEGER, 8);
    return v.at(0);
  }
  double scalar_double(const std::string& path) const {
    return read_numeric<double>(path, H5T_NATIVE_DOUBLE, H5T_FLOAT, 8).at(0);
  }
  // A summary string: a scalar, variable-length UTF-8.
  std::string scalar_string(const std::string& path) const { return vlen_strings(path).at(0); }
  bool variable_length(const std::string& path) const {
    Handle ds = dataset_handle(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), path);
    Handle ftype = type_handle(H5Dget_type(ds.get()), path);
    return H5Tis_variable_str(ftype.get()) > 0;
  }
  // Every value of a variable-length UTF-8 string dataset.
  std::vector<std::string> vlen_strings(const std::string& path) const {
    Handle ds = dataset_handle(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), path);
    Handle ftype = type_handle(H5Dget_type(ds.get()), path);
    if (H5Tis_variable_str(ftype.get()) <= 0 || H5Tget_cset(ftype.get()) != H5T_CSET_UTF8) {
      throw std::runtime_error(path + " is not variable-length UTF-8");
    }
    Handle space = space_handle(H5Dget_space(ds.get()), path);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
    std::vector<char*> ptrs(n, nullptr);
    Handle mtype = utf8_string_type();
    if (n > 0) check(H5Dread(ds.get(), mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), "read", path);
    std::vector<std::string> out;
    for (char* p : ptrs) out.emplace_back(p != nullptr ? p : "");
    if (n > 0) H5Dvlen_reclaim(mtype.get(), space.get(), H5P_DEFAULT, ptrs.data());
    return out;
  }

  std::vector<std::string> children(const std::string& path) const {
    Handle group = group_handle(H5Gopen2(file_.get(), path.c_str(), H5P_DEFAULT), path);
    std::vector<std::string> names;
    auto visit = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
      static_cast<std::vector<std::string>*>(out)->emplace_back(name);
      return 0;
    };
    H5Literate(group.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, visit, &names);
    return names;
  }

 private:
  Handle open_object(const std::string& path) const {
    return Handle(H5Oopen(file_.get(), path.c_str(), H5P_DEFAULT), H5Oclose, "open", path);
  }

  template <typename T>
  std::vector<T> read_numeric(const std::string& path, hid_t mem_type, H5T_class_t cls,
                              std::size_t size) const {
    Handle ds = dataset_handle(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), path);
    Handle ftype = type_handle(H5Dget_type(ds.get()), path);
    // The on-disk type is part of the layout promise: exactly int64 / float64, little-endian.
    if (H5Tget_class(ftype.get()) != cls || H5Tget_size(ftype.get()) != size ||
        H5Tget_order(ftype.get()) != H5T_ORDER_LE) {
      throw std::runtime_error(path + " has an unexpected on-disk type");
    }
    Handle space = space_handle(H5Dget_space(ds.get()), path);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
    std::vector<T> out(n);
    if (n > 0) {
      check(H5Dread(ds.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), "read", path);
    }
    return out;
  }

  void read_attr(const std::string& path, const std::string& name, hid_t mem_type,
                 H5T_class_t cls, void* out) const {
    Handle obj = open_object(path);
    const std::string where = path + "@" + name;
    Handle attr = attr_handle(H5Aopen(obj.get(), name.c_str(), H5P_DEFAULT), where);
    Handle ftype = type_handle(H5Aget_type(attr.get()), where);
    if (H5Tget_class(ftype.get()) != cls || H5Tget_size(ftype.get()) != 8) {
      throw std::runtime_error(where + " has an unexpected type");
    }
    check(H5Aread(attr.get(), mem_type, out), "read", where);
  }

  Handle file_;
};

}  // namespace dcsim::tools::output::test
