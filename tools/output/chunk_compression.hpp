#pragma once
// Compresses one whole chunk of a numeric dataset the way HDF5's shuffle + deflate filters
// would, so a writer can do it outside the process-wide HDF5 lock and hand HDF5 only the
// finished bytes (H5Dwrite_chunk). In a sweep, several variants write their traces at once;
// HDF5 runs every call under one lock (Hdf5Lock), and deflate inside H5Dwrite made the other
// variants wait for it.
//
// The output is what the filters produce (HDF5 1.10, H5Zshuffle.c and H5Zdeflate.c): the
// shuffle filter stores byte 0 of every element, then byte 1 of every element, ...; deflate is
// zlib's compress2 at the dataset's level. A reader therefore decodes these chunks with the
// dataset's own filter pipeline, as if HDF5 had written them.

#include <cstddef>
#include <optional>
#include <vector>

namespace dcsim::tools::output {

struct ChunkFilters {
  bool shuffle = true;
  int deflate_level = 4;  // 1-9
};

// The filtered bytes of `elements` values of `element_size` bytes at `data`, or nothing when
// deflate would not make them smaller (HDF5's optional deflate filter then skips the chunk: the
// caller writes it through the normal path instead).
std::optional<std::vector<unsigned char>> compress_chunk(const void* data, std::size_t elements,
                                                         std::size_t element_size,
                                                         const ChunkFilters& filters);

// The inverse, for tests: inflates and unshuffles.
std::vector<unsigned char> decompress_chunk(const std::vector<unsigned char>& compressed,
                                            std::size_t elements, std::size_t element_size,
                                            const ChunkFilters& filters);

}  // namespace dcsim::tools::output
