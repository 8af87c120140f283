#!/usr/bin/env bash
# Installs what dcsim needs on Debian 12, from Debian's packages only. Idempotent and quiet when
# everything is already there; works as root or through sudo; never prompts.
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build git pkg-config
  # C++ libraries
  libboost-graph-dev libeigen3-dev libcli11-dev nlohmann-json3-dev libfmt-dev catch2
  libhdf5-dev zlib1g-dev libbenchmark-dev
  # optional for the build (CMake detects it): `mpirun -np R dcsim sweep ...`
  openmpi-bin libopenmpi-dev
  # notebooks and test helpers (Debian's /usr/bin/python3)
  python3 python3-h5py python3-numpy python3-matplotlib python3-nbclient python3-nbformat
  python3-ipykernel python3-jsonschema
  # `dcsim report`'s browser check (tests/browser/check_report.py, tools/browser_check.sh)
  chromium chromium-driver python3-selenium
)
# the timeline viewer test (tools/install_viewer.sh fetches speedscope from the npm registry):
# Debian's npm, unless an npm is already there (another Node.js install brings its own).
command -v npm >/dev/null 2>&1 || packages+=(npm)
# --fuzz: also clang and its libFuzzer runtime, for tools/fuzz.sh (its own job, not CI's).
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "setup.sh: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi

echo "setup.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
