// A main for the fuzz targets in the default (GCC) build: calls LLVMFuzzerTestOneInput once on
// every file of the files and directories named on the command line (not recursive into
// subdirectories' subdirectories), so the seed corpora and the regression inputs run as ordinary
// ctest tests. A finding aborts or throws, which fails the test; a missing path fails too.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool run_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << path.string() << ": cannot open\n";
    return false;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 0;
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(arg)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());  // a stable order, so a failure is reproducible
      for (const auto& f : files) {
        std::cout << "replay " << f.string() << std::endl;  // the last line names a crashing input
        ok = run_file(f) && ok;
        ++count;
      }
    } else if (std::filesystem::is_regular_file(arg, ec)) {
      ok = run_file(arg) && ok;
      ++count;
    } else {
      std::cerr << arg.string() << ": no such file or directory\n";
      ok = false;
    }
  }
  std::cout << "replayed " << count << " inputs\n";
  return ok ? 0 : 1;
}
