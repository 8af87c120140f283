# Sourced by the mpi tests (tests/tools/*/mpi_*_test.sh) after they set dcsim, work and with_mpi:
# exits 77 (CTest's skip) with the reason when this build has no MPI support or no mpirun is
# installed, lets Open MPI run as root, and gives the test an empty $work removed at exit.
if [[ "$with_mpi" != "ON" && "$with_mpi" != "1" && "$with_mpi" != "TRUE" ]]; then
  echo "skipped: this build has no MPI support (DCSIM_WITH_MPI=OFF or CMake found no MPI; Debian: libopenmpi-dev openmpi-bin)"
  exit 77
fi
if ! command -v mpirun >/dev/null; then
  echo "skipped: no mpirun on PATH (Debian: openmpi-bin)"
  exit 77
fi
# Under AddressSanitizer (tools/sanitize.sh), unwind allocations fully, so that Open MPI's own
# leaks are recognised by tools/lsan-openmpi.supp (the file says why); no effect otherwise.
if [[ -n "${ASAN_OPTIONS:-}" ]]; then export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"; fi
# Open MPI refuses root unless told; --oversubscribe: more ranks than cores is fine for a test.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
