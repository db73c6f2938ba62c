#!/usr/bin/env bash
# Installs what toadbase needs from Debian 12's packages, when missing. Run as root.
set -euo pipefail
pkgs=(build-essential cmake pkg-config librocksdb-dev libtbb-dev libzstd-dev catch2
      libcli11-dev nlohmann-json3-dev xz-utils python3 time
      ccache                     # tools/test.sh and tools/fuzz.sh compile through it
      help2man man-db            # the man page, toadbase(1), from the command's own help
      clang libclang-rt-14-dev  # the fuzz targets (tools/fuzz.sh)
      libcpp-httplib-dev wrk     # serve: the HTTP library; its load benchmark
      libopenmpi-dev openmpi-bin  # the distributed solve
      # the Python module, its tests and the plots in results/
      python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-matplotlib
      python3-build python3-wheel python3-setuptools python3-venv  # the wheel, pip install .
      chromium nodejs npm)       # the page's browser tests (tests/web)
missing=()
for p in "${pkgs[@]}"; do
  # node and npm may come from elsewhere (NodeSource ships both in one package): a working
  # command is enough
  case "$p" in nodejs) command -v node >/dev/null && continue ;; npm) command -v npm >/dev/null && continue ;; esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: every Debian package is installed"
elif [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing ${missing[*]}; run this as root (apt-get)" >&2
  exit 1
else
  echo "install-deps: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# the browser tests' driver: playwright-core from npm, pinned by the committed lock file, into
# tests/web/node_modules (not committed); it drives the system chromium, downloads none
web_tests="$(cd "$(dirname "$0")/.." && pwd)/tests/web"
if [ ! -f "$web_tests/node_modules/playwright-core/package.json" ]; then
  echo "install-deps: npm ci in tests/web (playwright-core)"
  (cd "$web_tests" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi
