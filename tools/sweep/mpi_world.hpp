#pragma once
// The MPI side of `dcsim sweep`: under `mpirun -np R dcsim sweep ...` each rank runs its share
// of the variants and rank 0 writes the results. MPI is an optional build feature
// (DCSIM_WITH_MPI, on when CMake finds MPI); without it, or when not started by mpirun, the
// world is one process (rank 0 of 1) and every call here is free.
//
// Started by mpirun is told by the launcher's environment (OMPI_COMM_WORLD_SIZE for Open MPI,
// PMI_SIZE / PMIX_RANK for others); MPI_Init is called only then, so a plain `dcsim sweep` never
// touches MPI. A dcsim built without MPI under an mpirun of more than one rank refuses to run
// (InputError): each copy would run every variant into the same folder.

#include <vector>

namespace dcsim::tools::sweep {

class MpiWorld {
 public:
  MpiWorld();
  // MPI_Finalize when MPI_Init was called.
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Ranks on this machine (OMPI_COMM_WORLD_LOCAL_SIZE; 1 outside mpirun): the default --jobs
  // is the core count divided by it, so ranks x threads does not oversubscribe the cores.
  int local_size() const { return local_size_; }
  void barrier() const;
  // Element-wise sum over the ranks, the result on every rank.
  std::vector<double> sum(const std::vector<double>& values) const;
  // Ends every rank at once (MPI_Abort): for a failure on one rank while the others would wait
  // for it at the barrier. A no-op in a one-process world.
  void abort(int exit_code) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_size_ = 1;
  bool initialised_ = false;
};

}  // namespace dcsim::tools::sweep
