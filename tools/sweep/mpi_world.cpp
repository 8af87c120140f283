#include "tools/sweep/mpi_world.hpp"

#include <chrono>
#include <cstdlib>
#include <exception>
#include <thread>
#include <string>

#include "sim/error.hpp"

#ifdef DCSIM_WITH_MPI
// The C API only: Open MPI's mpi.h otherwise pulls in its deprecated C++ bindings, which need
// libmpi_cxx at link time.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace dcsim::tools::sweep {

namespace {

// The world size the launcher announced, 1 when not launched by mpirun.
int launcher_world_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') {
      const int n = std::atoi(v);
      if (n > 0) return n;
    }
  }
  return 1;
}

}  // namespace

MpiWorld::MpiWorld() {
  const int announced = launcher_world_size();
  if (announced <= 1) return;
#ifdef DCSIM_WITH_MPI
  int already = 0;
  MPI_Initialized(&already);
  if (already == 0) {
    // Threads run the variants; only the main thread calls MPI.
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    initialised_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  local_size_ = size_;
  if (const char* v = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE"); v != nullptr && std::atoi(v) > 0) {
    local_size_ = std::atoi(v);
  }
#else
  throw sim::InputError("sweep: started by mpirun with " + std::to_string(announced) +
                        " ranks, but this dcsim was built without MPI (install libopenmpi-dev and rebuild, or run "
                        "without mpirun: threads use every core of one machine)");
#endif
}

MpiWorld::~MpiWorld() {
#ifdef DCSIM_WITH_MPI
  if (initialised_) {
    // Wait asleep for rank 0 to write the results; MPI_Finalize would wait busy.
    if (std::uncaught_exceptions() == 0) barrier();
    MPI_Finalize();
  }
#endif
}

void MpiWorld::barrier() const {
#ifdef DCSIM_WITH_MPI
  if (size_ <= 1) return;
  // Not MPI_Barrier: Open MPI busy-polls in it, so a rank that finished its share would burn a
  // core that the ranks still running need (on a 2-core machine, half of it). A non-blocking
  // barrier tested every few milliseconds waits asleep.
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done != 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
#endif
}

std::vector<double> MpiWorld::sum(const std::vector<double>& values) const {
#ifdef DCSIM_WITH_MPI
  if (size_ > 1) {
    std::vector<double> out(values.size());
    MPI_Allreduce(values.data(), out.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return out;
  }
#endif
  return values;
}

void MpiWorld::abort(int exit_code) const {
#ifdef DCSIM_WITH_MPI
  if (size_ > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
#else
  (void)exit_code;
#endif
}

}  // namespace dcsim::tools::sweep
