#!/usr/bin/env bash
# Installs what toadbase needs from Debian 12's packages, when missing. Run as root.
set -euo pipefail
pkgs=(build-essential cmake pkg-config librocksdb-dev libtbb-dev libzstd-dev catch2
      libcli11-dev nlohmann-json3-dev xz-utils python3 time
      clang libclang-rt-14-dev  # the fuzz targets (tools/fuzz.sh)
      libcpp-httplib-dev wrk     # serve: the HTTP library; its load benchmark
      libopenmpi-dev openmpi-bin  # the distributed solve
      # the Python module, its tests and the plots in results/
      python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-matplotlib)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing ${missing[*]}; run this as root (apt-get)" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
