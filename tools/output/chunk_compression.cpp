#include "tools/output/chunk_compression.hpp"

#include <cstring>

#include <zlib.h>

#include "sim/error.hpp"

namespace dcsim::tools::output {

namespace {

std::vector<unsigned char> shuffled(const unsigned char* in, std::size_t elements, std::size_t element_size) {
  std::vector<unsigned char> out(elements * element_size);
  for (std::size_t b = 0; b < element_size; ++b) {
    unsigned char* dst = out.data() + b * elements;
    for (std::size_t i = 0; i < elements; ++i) dst[i] = in[i * element_size + b];
  }
  return out;
}

}  // namespace

std::optional<std::vector<unsigned char>> compress_chunk(const void* data, std::size_t elements,
                                                         std::size_t element_size,
                                                         const ChunkFilters& filters) {
  const auto* raw = static_cast<const unsigned char*>(data);
  const std::size_t raw_bytes = elements * element_size;
  std::vector<unsigned char> staged;
  const unsigned char* input = raw;
  // HDF5's shuffle filter leaves one-byte elements alone.
  if (filters.shuffle && element_size > 1) {
    staged = shuffled(raw, elements, element_size);
    input = staged.data();
  }
  uLongf out_bytes = compressBound(static_cast<uLong>(raw_bytes));
  std::vector<unsigned char> out(out_bytes);
  const int rc = compress2(out.data(), &out_bytes, input, static_cast<uLong>(raw_bytes), filters.deflate_level);
  if (rc != Z_OK) throw sim::InternalError("zlib compress2 failed with code " + std::to_string(rc) + " (this is a bug)");
  // H5Zdeflate.c fails (and the optional filter is skipped) when the output is not smaller.
  if (out_bytes >= raw_bytes) return std::nullopt;
  out.resize(out_bytes);
  return out;
}

std::vector<unsigned char> decompress_chunk(const std::vector<unsigned char>& compressed,
                                            std::size_t elements, std::size_t element_size,
                                            const ChunkFilters& filters) {
  uLongf raw_bytes = static_cast<uLongf>(elements * element_size);
  std::vector<unsigned char> inflated(raw_bytes);
  const int rc = uncompress(inflated.data(), &raw_bytes, compressed.data(), static_cast<uLong>(compressed.size()));
  if (rc != Z_OK || raw_bytes != elements * element_size) {
    throw sim::InternalError("zlib uncompress failed (this is a bug)");
  }
  if (!filters.shuffle || element_size <= 1) return inflated;
  std::vector<unsigned char> out(inflated.size());
  for (std::size_t b = 0; b < element_size; ++b) {
    for (std::size_t i = 0; i < elements; ++i) out[i * element_size + b] = inflated[b * elements + i];
  }
  return out;
}

}  // namespace dcsim::tools::output
