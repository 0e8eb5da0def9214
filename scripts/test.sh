#!/usr/bin/env bash
# Install everything, then run the test suite (HYPOTHESIS_PROFILE=long for 200 cases per op).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/install.sh"
# Chromium renders the HTML report in tests/test_html_report.py (Debian's package)
if ! command -v chromium >/dev/null; then
  echo "== installing Chromium (apt) for the HTML report's tests"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium
fi
# onnx2tf (quantize's ONNX front end) pins a TensorFlow, NumPy and LiteRT older than the oracles: an
# environment of its own, its program linked into .venv/bin so that tests find it on PATH
if [ ! -x "$root/.venv-onnx2tf/bin/onnx2tf" ]; then
  echo "== installing onnx2tf into .venv-onnx2tf (its own TensorFlow; ~70 s)"
  python3 -m venv "$root/.venv-onnx2tf"
  "$root/.venv-onnx2tf/bin/python" -m pip install --quiet onnx2tf
fi
ln -sf "$root/.venv-onnx2tf/bin/onnx2tf" "$root/.venv/bin/onnx2tf"
# ccache (Debian's): the suite builds hundreds of firmwares from the same kernels, each compiled once
if ! command -v ccache >/dev/null; then
  echo "== installing ccache (apt) for the firmware builds"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends ccache
fi
# every build is a folder of its own: paths below the temporary folder are made relative, the folder not hashed
export MCUGEN_CCACHE=1 CCACHE_DIR="$root/.ccache" CCACHE_BASEDIR="${TMPDIR:-/tmp}" CCACHE_NOHASHDIR=1
cd "$root"
# one worker per core: the suite is mostly compilers and QEMU, one process each
python -m pytest -q -n auto "$@"
