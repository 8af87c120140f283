// The trace writer filters whole chunks itself, outside the HDF5 lock (chunk_compression.hpp):
// what it stores must be exactly what HDF5's shuffle + deflate pipeline decodes, so these tests
// read the chunks back through HDF5 (H5Dread decodes them with the dataset's filters) and look at
// the stored bytes themselves (H5Dread_chunk).

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/random.hpp"
#include "tests/tools/output/temp_dir.hpp"
#include "tests/tools/output/trace_reader.hpp"
#include "tools/output/chunk_compression.hpp"
#include "tools/output/hdf5_trace_writer.hpp"

using dcsim::sim::Column;
using dcsim::sim::ColumnType;
using dcsim::sim::Time;
using dcsim::tools::output::ChunkFilters;
using dcsim::tools::output::compress_chunk;
using dcsim::tools::output::decompress_chunk;
using dcsim::tools::output::Handle;
using dcsim::tools::output::Hdf5Options;
using dcsim::tools::output::Hdf5TraceWriter;
using dcsim::tools::output::test::TempDir;
using dcsim::tools::output::test::TraceReader;

namespace {

// The stored bytes and filter mask of chunk `index` of a 1-D dataset, as HDF5 keeps them.
std::vector<unsigned char> stored_chunk(const std::filesystem::path& file, const std::string& path,
                                        hsize_t offset, std::uint32_t& filter_mask) {
  Handle f = dcsim::tools::output::file_handle(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), file.string());
  Handle ds = dcsim::tools::output::dataset_handle(H5Dopen2(f.get(), path.c_str(), H5P_DEFAULT), path);
  hsize_t bytes = 0;
  REQUIRE(H5Dget_chunk_storage_size(ds.get(), &offset, &bytes) >= 0);
  std::vector<unsigned char> out(bytes);
  REQUIRE(H5Dread_chunk(ds.get(), H5P_DEFAULT, &offset, &filter_mask, out.data()) >= 0);
  return out;
}

}  // namespace

TEST_CASE("a shuffled, deflated chunk inflates back to the same bytes", "[tools][output][hdf5]") {
  // 1,000 growing int64 times below 2^50: the two high bytes of every value are zero, and
  // shuffling puts those 2,000 zero bytes together, where they cost deflate almost nothing; so
  // the chunk stores in less than the 6,000 bytes that vary.
  std::vector<std::int64_t> times(1000);
  for (std::size_t i = 0; i < times.size(); ++i) times[i] = static_cast<std::int64_t>(i) * 900'000'000'000;
  const ChunkFilters filters{true, 4};
  const auto packed = compress_chunk(times.data(), times.size(), 8, filters);
  REQUIRE(packed.has_value());
  CHECK(packed->size() < 6000);
  const auto raw = decompress_chunk(*packed, times.size(), 8, filters);
  REQUIRE(raw.size() == 8000);
  CHECK(std::memcmp(raw.data(), times.data(), raw.size()) == 0);
}

TEST_CASE("a chunk that deflate cannot shrink is left to HDF5", "[tools][output][hdf5]") {
  // Uniform random bits do not compress: HDF5's optional deflate filter would skip such a chunk,
  // so compress_chunk declines and the writer takes HDF5's own path for it.
  dcsim::sim::RandomStream rng(42, "chunk compression test");
  std::vector<std::uint64_t> noise(2000);
  for (auto& v : noise) v = rng.next_u64();
  CHECK_FALSE(compress_chunk(noise.data(), noise.size(), 8, ChunkFilters{true, 9}).has_value());
}

TEST_CASE("whole chunks written outside the lock read back through HDF5's filters", "[tools][output][hdf5]") {
  TempDir dir;
  const auto file = dir / "trace.h5";
  Hdf5Options options;
  options.chunk_elements = 512;
  // 3 whole chunks and a partial fourth: the whole ones take the direct path, the last one
  // HDF5's H5Dwrite at close.
  constexpr std::int64_t kPoints = 3 * 512 + 100;
  dcsim::sim::RandomStream rng(7, "noise column");
  std::vector<double> noise;
  {
    Hdf5TraceWriter w(file, options);
    const auto s = w.declare_series("power_w", "W", "");
    const auto t = w.declare_table("rows", {Column{"i", ColumnType::kInt64, "", ""},
                                            Column{"noise", ColumnType::kFloat64, "", ""},
                                            Column{"name", ColumnType::kString, "", ""}});
    for (std::int64_t i = 0; i < kPoints; ++i) {
      w.append(s, Time::from_ns(i * 1'000'000'000), 1000.0 + static_cast<double>(i % 17));
      std::uint64_t bits = rng.next_u64();
      double d = 0.0;
      std::memcpy(&d, &bits, sizeof d);
      if (d != d || d - d != 0.0) d = static_cast<double>(bits >> 11);  // no NaN/inf cells
      noise.push_back(d);
      w.append_row(t, {i, d, "r" + std::to_string(i)});
    }
    w.finish(0.0);
  }
  TraceReader r(file);
  const auto times = r.int64s("/series/power_w/time_ns");
  const auto values = r.doubles("/series/power_w/value");
  REQUIRE(times.size() == static_cast<std::size_t>(kPoints));
  REQUIRE(values.size() == times.size());
  bool exact = true;
  for (std::size_t i = 0; i < times.size(); ++i) {
    exact = exact && times[i] == static_cast<std::int64_t>(i) * 1'000'000'000 &&
            values[i] == 1000.0 + static_cast<double>(i % 17);
  }
  CHECK(exact);
  CHECK(r.doubles("/events/rows/noise") == noise);
  CHECK(r.strings("/events/rows/name")[1600] == "r1600");

  // The second chunk of the times was stored compressed with every filter applied (mask 0), and
  // is the writer's own shuffle + deflate of those 512 values: times below 2^41 ns leave the
  // three high bytes zero, so it is smaller than the 5 x 512 bytes that vary.
  std::uint32_t mask = 99;
  const auto stored = stored_chunk(file, "/series/power_w/time_ns", 512, mask);
  CHECK(mask == 0);
  CHECK(stored.size() < 5 * 512);
  const auto raw = decompress_chunk(stored, 512, 8, ChunkFilters{true, 4});
  std::int64_t first = 0;
  std::memcpy(&first, raw.data(), sizeof first);
  CHECK(first == 512LL * 1'000'000'000);
}
