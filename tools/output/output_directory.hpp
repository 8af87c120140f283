#pragma once
// Atomic outputs: files are written under temporary names in the output directory and renamed to
// their final names only when the run completes, so an interrupted run leaves nothing that looks
// complete.
//
//   OutputDirectory out("out/run1");                 // creates it; InputError if unwritable
//   auto trace = out.stage("trace.h5");              // out/run1/.trace.h5.tmp-<pid>
//   auto summary = out.stage("summary.json");        // out/run1/.summary.json.tmp-<pid>
//   ... write both ...
//   out.commit();                                    // rename both; summary.json last
//
// If commit() is never reached (an exception, a failed run), the destructor deletes the
// temporaries. A process killed outright (SIGKILL, power loss) leaves only hidden ".*.tmp-<pid>"
// files, which no reader mistakes for results; the next run into the directory deletes those of
// its staged names whose process is gone (discard_previous).
//
// commit() first deletes any earlier results of the same names, then renames in staging order:
// stage the file that marks a complete run (summary.json) last. Each rename is atomic, so a
// crash during commit leaves a prefix of the new set and never a mix of an old and a new run.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace dcsim::tools::output {

class OutputDirectory {
 public:
  // Creates `dir` (with parents) when missing and checks that files can be created in it.
  // Throws sim::InputError with the path and the reason otherwise, and for an empty path (an
  // unset shell variable in `-o "$DIR"` must not write into the current directory).
  explicit OutputDirectory(std::filesystem::path dir);
  // Removes the temporaries unless committed; never throws.
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;

  const std::filesystem::path& path() const { return dir_; }
  // The temporary path to write `name` (a plain file name, no '/') to; it becomes path()/name at
  // commit(). Staging a name twice is an InternalError.
  std::filesystem::path stage(const std::string& name);
  // The final path of `name` (whether or not it exists yet).
  std::filesystem::path final_path(const std::string& name) const { return dir_ / name; }

  // Deletes earlier results under the staged names, the last staged (the marker of a complete
  // run) first, so that from the moment a run starts, a script that ignores its exit code cannot
  // read the previous run's summary as this one's. InputError when one cannot be deleted.
  // Also deletes the stale temporaries of the staged names that killed runs left
  // (".<name>.tmp-<pid>" whose pid is no live process on this machine; a live one may be another
  // run writing now, and is left alone). Returns how many it deleted.
  std::size_t discard_previous();
  // Renames every staged temporary to its final name (see above), then syncs the directory.
  // Throws sim::InputError when a temporary is missing or a rename fails; the temporaries left
  // are then removed.
  void commit();
  // Removes the staged temporaries now (what the destructor does for an uncommitted run).
  void abandon() noexcept;
  bool committed() const { return committed_; }

 private:
  std::size_t discard_stale_temporaries() const;

  std::filesystem::path dir_;
  std::vector<std::pair<std::string, std::filesystem::path>> staged_;  // (final name, temporary)
  bool committed_ = false;
};

}  // namespace dcsim::tools::output
