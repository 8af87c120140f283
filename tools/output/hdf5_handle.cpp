#include "tools/output/hdf5_handle.hpp"

#include <algorithm>

namespace dcsim::tools::output {

void silence_hdf5_errors() {
  // Per thread in a thread-safe HDF5 build; the flag saves the library call after the first.
  thread_local bool silenced = false;
  if (!silenced) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    silenced = true;
  }
}

namespace {
std::recursive_mutex& hdf5_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}
}  // namespace

Hdf5Lock::Hdf5Lock() : lock_(hdf5_mutex()) { silence_hdf5_errors(); }

std::string hdf5_error_detail() {
  std::string detail;
  // The walk goes from the innermost frame outwards (H5E_WALK_UPWARD): keep the first message,
  // which names the actual cause ("unable to open file", "no space left on device").
  auto visit = [](unsigned n, const H5E_error2_t* err, void* out) -> herr_t {
    auto* text = static_cast<std::string*>(out);
    if (n == 0 && err->desc != nullptr) *text = err->desc;
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, visit, &detail);
  H5Eclear2(H5E_DEFAULT);
  return detail;
}

void throw_hdf5_error(const std::string& what, const std::string& object) {
  std::string message = what + " '" + object + "'";
  const std::string detail = hdf5_error_detail();
  if (!detail.empty()) message += ": " + detail;
  throw Hdf5Error(message);
}

Handle::Handle(hid_t id, Closer closer, const char* what, const std::string& object)
    : id_(id), closer_(closer) {
  if (id < 0) throw_hdf5_error(what, object);
}

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = std::exchange(other.id_, -1);
    closer_ = other.closer_;
  }
  return *this;
}

void Handle::reset() noexcept {
  if (id_ >= 0 && closer_ != nullptr) {
    const Hdf5Lock lock;
    closer_(id_);
  }
  id_ = -1;
}

void Handle::close(const std::string& object) {
  if (id_ < 0) return;
  const hid_t id = std::exchange(id_, -1);
  const Hdf5Lock lock;
  if (closer_(id) < 0) throw_hdf5_error("cannot close", object);
}

Handle utf8_string_type() {
  Handle type = type_handle(H5Tcopy(H5T_C_S1), "string type");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "cannot set size of", "string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "cannot set character set of", "string type");
  return type;
}

Handle fixed_utf8_string_type(std::size_t width) {
  Handle type = type_handle(H5Tcopy(H5T_C_S1), "string type");
  check(H5Tset_size(type.get(), std::max<std::size_t>(width, 1)), "cannot set size of", "string type");
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "cannot set padding of", "string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "cannot set character set of", "string type");
  return type;
}

namespace {

void write_attribute(hid_t obj, const std::string& object, const std::string& name, hid_t file_type,
                     hid_t mem_type, hid_t space, const void* data) {
  const std::string where = object + "@" + name;
  // Overwrite semantics: a second write of the same attribute replaces the first.
  if (H5Aexists(obj, name.c_str()) > 0) {
    check(H5Adelete(obj, name.c_str()), "cannot replace attribute", where);
  }
  Handle attr = attr_handle(H5Acreate2(obj, name.c_str(), file_type, space, H5P_DEFAULT, H5P_DEFAULT),
                            where);
  check(H5Awrite(attr.get(), mem_type, data), "cannot write attribute", where);
  attr.close(where);
}

}  // namespace

void write_string_attribute(hid_t obj, const std::string& object, const std::string& name,
                            const std::string& value) {
  Handle type = utf8_string_type();
  Handle space = space_handle(H5Screate(H5S_SCALAR), object);
  const char* ptr = value.c_str();
  write_attribute(obj, object, name, type.get(), type.get(), space.get(), &ptr);
}

void write_string_array_attribute(hid_t obj, const std::string& object, const std::string& name,
                                  const std::vector<std::string>& values) {
  Handle type = utf8_string_type();
  const hsize_t n = values.size();
  Handle space = space_handle(H5Screate_simple(1, &n, nullptr), object);
  std::vector<const char*> ptrs;
  ptrs.reserve(values.size());
  for (const auto& v : values) ptrs.push_back(v.c_str());
  // HDF5 refuses a null buffer even for no elements (an empty vector's data() may be null).
  const char* none = nullptr;
  write_attribute(obj, object, name, type.get(), type.get(), space.get(), ptrs.empty() ? &none : ptrs.data());
}

void write_uint64_attribute(hid_t obj, const std::string& object, const std::string& name,
                            std::uint64_t value) {
  Handle space = space_handle(H5Screate(H5S_SCALAR), object);
  write_attribute(obj, object, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, space.get(), &value);
}

void write_double_attribute(hid_t obj, const std::string& object, const std::string& name,
                            double value) {
  Handle space = space_handle(H5Screate(H5S_SCALAR), object);
  write_attribute(obj, object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, space.get(), &value);
}

std::string read_string_attribute(hid_t obj, const std::string& object, const std::string& name) {
  const std::string where = object + "@" + name;
  Handle attr = attr_handle(H5Aopen(obj, name.c_str(), H5P_DEFAULT), where);
  Handle type = utf8_string_type();
  Handle space = space_handle(H5Aget_space(attr.get()), where);
  char* ptr = nullptr;
  check(H5Aread(attr.get(), type.get(), &ptr), "cannot read attribute", where);
  std::string value = ptr != nullptr ? ptr : "";
  H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, &ptr);
  return value;
}

std::vector<std::string> read_string_array_attribute(hid_t obj, const std::string& object, const std::string& name) {
  const std::string where = object + "@" + name;
  Handle attr = attr_handle(H5Aopen(obj, name.c_str(), H5P_DEFAULT), where);
  Handle space = space_handle(H5Aget_space(attr.get()), where);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
  if (n == 0) return {};  // an empty array: nothing to read (and no buffer to pass)
  std::vector<char*> ptrs(n, nullptr);
  Handle type = utf8_string_type();
  check(H5Aread(attr.get(), type.get(), ptrs.data()), "cannot read attribute", where);
  std::vector<std::string> out;
  for (char* p : ptrs) out.emplace_back(p != nullptr ? p : "");
  H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, ptrs.data());
  return out;
}

std::uint64_t read_uint64_attribute(hid_t obj, const std::string& object, const std::string& name) {
  const std::string where = object + "@" + name;
  Handle attr = attr_handle(H5Aopen(obj, name.c_str(), H5P_DEFAULT), where);
  std::uint64_t v = 0;
  check(H5Aread(attr.get(), H5T_NATIVE_UINT64, &v), "cannot read attribute", where);
  return v;
}

bool link_exists(hid_t file, const std::string& path) {
  std::string prefix;
  std::size_t from = 1;
  while (from <= path.size()) {
    const std::size_t slash = path.find('/', from);
    prefix = path.substr(0, slash);
    if (H5Lexists(file, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) break;
    from = slash + 1;
  }
  return true;
}

std::vector<std::string> list_series(hid_t file) {
  std::vector<std::string> paths;
  if (H5Lexists(file, "/series", H5P_DEFAULT) <= 0) return paths;
  Handle series = group_handle(H5Gopen2(file, "/series", H5P_DEFAULT), "/series");
  auto visit = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
    const std::string n = name;
    const std::string leaf = "/time_ns";
    if (n.size() > leaf.size() && n.compare(n.size() - leaf.size(), std::string::npos, leaf) == 0) {
      static_cast<std::vector<std::string>*>(out)->push_back(n.substr(0, n.size() - leaf.size()));
    }
    return 0;
  };
  check(H5Lvisit(series.get(), H5_INDEX_NAME, H5_ITER_INC, visit, &paths), "cannot list", "/series");
  return paths;
}

hsize_t dataset_length(hid_t dataset, const std::string& object) {
  Handle space = space_handle(H5Dget_space(dataset), object);
  return static_cast<hsize_t>(H5Sget_simple_extent_npoints(space.get()));
}

void read_slab(hid_t dataset, hid_t mem_type, hsize_t start, hsize_t count, void* data, const std::string& object) {
  Handle mem = space_handle(H5Screate_simple(1, &count, nullptr), object);
  Handle file_space = space_handle(H5Dget_space(dataset), object);
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr), "cannot select in",
        object);
  check(H5Dread(dataset, mem_type, mem.get(), file_space.get(), H5P_DEFAULT, data), "cannot read", object);
}

std::vector<std::string> read_string_slab(hid_t dataset, hsize_t start, hsize_t count, const std::string& object) {
  std::vector<std::string> out;
  if (count == 0) return out;
  out.reserve(count);
  Handle file_type = type_handle(H5Dget_type(dataset), object);
  if (H5Tis_variable_str(file_type.get()) > 0) {
    Handle type = utf8_string_type();
    std::vector<char*> ptrs(count, nullptr);
    read_slab(dataset, type.get(), start, count, ptrs.data(), object);
    for (const char* p : ptrs) out.emplace_back(p != nullptr ? p : "");
    Handle mem = space_handle(H5Screate_simple(1, &count, nullptr), object);
    H5Dvlen_reclaim(type.get(), mem.get(), H5P_DEFAULT, ptrs.data());
    return out;
  }
  // Read as stored (the file's own type): a value ends at its first null or at the width.
  const std::size_t width = H5Tget_size(file_type.get());
  std::vector<char> bytes(count * width);
  read_slab(dataset, file_type.get(), start, count, bytes.data(), object);
  for (std::size_t i = 0; i < count; ++i) {
    const char* value = bytes.data() + i * width;
    out.emplace_back(value, std::find(value, value + width, '\0'));
  }
  return out;
}

}  // namespace dcsim::tools::output
