#pragma once
// Private to tools/output: RAII over HDF5 C-API ids, and HDF5 failures turned into exceptions.
//
// HDF5 is linked PRIVATE to dcsim_tools: public headers of tools/output never include this one.
// Its users are the .cpp files of tools/output and the tests that read trace files back.
//
// Every HDF5 call that can fail goes through `check`, which throws Hdf5Error with the object path
// and the innermost message of HDF5's error stack. HDF5's own printing of that stack to stderr is
// switched off (`silence_hdf5_errors`): a library that throws must not also scribble on stderr.

#if __has_include(<hdf5.h>)
#include <hdf5.h>
#else
// Debian's location, for targets (the tests) that get HDF5 only through dcsim_tools' link line.
#include <hdf5/serial/hdf5.h>
#endif

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dcsim::tools::output {

// A failed HDF5 operation: disk full, corrupt file, ... (exit code 1 in the CLI).
class Hdf5Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where the automatic error printing is a per-thread setting (a thread-safe build): called on
// entry to each public operation (it is cheap after the first call). Hdf5Lock calls it.
void silence_hdf5_errors();

// Every HDF5 call in the process is made while holding this one lock. Debian also ships serial
// HDF5 builds that are not thread-safe (and even a thread-safe build serialises its calls behind
// one global lock), and `dcsim sweep` runs variants on several threads, each with its own trace
// writer: so each public operation of tools/output that touches HDF5 takes the lock on entry.
// Recursive, because such operations call each other (a writer's finish() closes handles, which
// lock again). The simulation itself runs unlocked; only the buffered writes wait for each other.
class Hdf5Lock {
 public:
  Hdf5Lock();

 private:
  std::unique_lock<std::recursive_mutex> lock_;
};

// The most specific message on the current thread's HDF5 error stack ("" when empty).
std::string hdf5_error_detail();

// Throws Hdf5Error("<what> '<object>': <detail>") when `status` is negative.
[[noreturn]] void throw_hdf5_error(const std::string& what, const std::string& object);
inline herr_t check(herr_t status, const char* what, const std::string& object) {
  if (status < 0) throw_hdf5_error(what, object);
  return status;
}

// Owns one hid_t and closes it with the matching H5*close. Move-only.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);

  Handle() = default;
  // Throws Hdf5Error when `id` is negative (the call that produced it failed).
  Handle(hid_t id, Closer closer, const char* what, const std::string& object);
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), closer_(other.closer_) {}
  Handle& operator=(Handle&& other) noexcept;
  ~Handle() { reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now; errors are ignored (destructors and failure paths cannot report them).
  void reset() noexcept;
  // Closes now and throws when HDF5 reports a failure: used on the success path, where a failed
  // close (e.g. a final flush to a full disk) must not go unnoticed.
  void close(const std::string& object);

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

inline Handle file_handle(hid_t id, const std::string& object) {
  return Handle(id, H5Fclose, "cannot open HDF5 file", object);
}
inline Handle group_handle(hid_t id, const std::string& object) {
  return Handle(id, H5Gclose, "cannot open group", object);
}
inline Handle dataset_handle(hid_t id, const std::string& object) {
  return Handle(id, H5Dclose, "cannot open dataset", object);
}
inline Handle space_handle(hid_t id, const std::string& object) {
  return Handle(id, H5Sclose, "cannot create dataspace", object);
}
inline Handle type_handle(hid_t id, const std::string& object) {
  return Handle(id, H5Tclose, "cannot create datatype", object);
}
inline Handle plist_handle(hid_t id, const std::string& object) {
  return Handle(id, H5Pclose, "cannot create property list", object);
}
inline Handle attr_handle(hid_t id, const std::string& object) {
  return Handle(id, H5Aclose, "cannot open attribute", object);
}

// Variable-length UTF-8 string type: what h5py reads as `str` (attributes) or, with .asstr(),
// from datasets. Attributes and summary values are written with it.
Handle utf8_string_type();
// Fixed-length UTF-8 string type of `width` bytes (1 at least), null-padded: what table string
// columns are written with (LAYOUT.md). A value of exactly `width` bytes has no terminator.
Handle fixed_utf8_string_type(std::size_t width);

// Attribute writers on an open object (`object` names it in errors). Strings are variable-length
// UTF-8; `strings` becomes a 1-D array attribute.
void write_string_attribute(hid_t obj, const std::string& object, const std::string& name,
                            const std::string& value);
void write_string_array_attribute(hid_t obj, const std::string& object, const std::string& name,
                                  const std::vector<std::string>& values);
void write_uint64_attribute(hid_t obj, const std::string& object, const std::string& name,
                            std::uint64_t value);
void write_double_attribute(hid_t obj, const std::string& object, const std::string& name,
                            double value);

// Readers for what the writers above wrote (the trace reader, the CSV and timeline exports).
std::string read_string_attribute(hid_t obj, const std::string& object, const std::string& name);
std::vector<std::string> read_string_array_attribute(hid_t obj, const std::string& object, const std::string& name);
std::uint64_t read_uint64_attribute(hid_t obj, const std::string& object, const std::string& name);

// Whether `path` ("/events/jobs/name") is in the file: each component in turn, as H5Lexists on
// "a/b" fails when "a" is missing.
bool link_exists(hid_t file, const std::string& path);
// The series of a trace: the groups under /series with a time_ns dataset (LAYOUT.md), as paths
// below /series ("power/cluster_w"), in name order.
std::vector<std::string> list_series(hid_t file);
// The element count of a 1-D dataset.
hsize_t dataset_length(hid_t dataset, const std::string& object);
// Elements [start, start + count) of a 1-D dataset, read as `mem_type` into `data`.
void read_slab(hid_t dataset, hid_t mem_type, hsize_t start, hsize_t count, void* data, const std::string& object);
// Elements [start, start + count) of a 1-D string dataset, fixed-length (table columns) or
// variable-length (traces written before fixed-length columns, sweep results): HDF5 converts
// neither kind into the other, so each is read as itself.
std::vector<std::string> read_string_slab(hid_t dataset, hsize_t start, hsize_t count, const std::string& object);

// A trace file opened read-only after checking its format_version (csv_export.cpp); throws
// sim::InputError when it cannot be opened or is not a dcsim trace.
Handle open_dcsim_trace(const std::filesystem::path& trace);

}  // namespace dcsim::tools::output
