#!/usr/bin/env bash
# Install everything, then run the test suite (HYPOTHESIS_PROFILE=long for 200 cases per op).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# onnx2tf (quantize's ONNX front end) pins a TensorFlow, NumPy and LiteRT older than the oracles: an
# environment of its own, installed beside the main one (~70 s), its program linked into .venv/bin so that
# tests find it on PATH
onnx2tf_job=""
if [ ! -x "$root/.venv-onnx2tf/bin/onnx2tf" ]; then
  echo "== installing onnx2tf into .venv-onnx2tf (its own TensorFlow)"
  ( python3 -m venv "$root/.venv-onnx2tf" && "$root/.venv-onnx2tf/bin/python" -m pip install --quiet --no-compile onnx2tf \
    && { "$root/.venv-onnx2tf/bin/python" -m compileall -q -j 0 "$root/.venv-onnx2tf/lib" >/dev/null || true; } ) &
  onnx2tf_job=$!
fi
# Chromium renders the HTML report in tests/test_html_report.py; ccache: the suite builds hundreds of
# firmwares from the same kernels, each compiled once; cmake and g++: the tests build exported libraries as a
# user would; cppcheck: runtime_c/'s analyzer (Debian's packages, in install.sh's apt transaction)
MCUGEN_APT_MORE=""
for tool in cmake cppcheck; do command -v "$tool" >/dev/null || MCUGEN_APT_MORE+=" $tool"; done
command -v c++ >/dev/null || MCUGEN_APT_MORE+=" g++"
command -v chromium >/dev/null || MCUGEN_APT_MORE+=" chromium"
command -v ccache >/dev/null || MCUGEN_APT_MORE+=" ccache"
export MCUGEN_APT_MORE
source "$root/scripts/install.sh"
if [ -n "$onnx2tf_job" ] && ! wait "$onnx2tf_job"; then
  echo "error: installing onnx2tf into $root/.venv-onnx2tf failed (see above)" >&2
  exit 1
fi
ln -sf "$root/.venv-onnx2tf/bin/onnx2tf" "$root/.venv/bin/onnx2tf"
# every build is a folder of its own: paths below the temporary folder are made relative, the folder not hashed
export MCUGEN_CCACHE=1 CCACHE_DIR="$root/.ccache" CCACHE_BASEDIR="${TMPDIR:-/tmp}" CCACHE_NOHASHDIR=1
cd "$root"
# mcugen's own modules byte-compiled once: where PYTHONDONTWRITEBYTECODE is set, each of the suite's hundreds
# of mcugen and PlatformIO processes would compile them again
python -m compileall -q "$root/mcugen" >/dev/null
# one worker per core: the suite is mostly compilers and QEMU, one process each
python -m pytest -q -n auto "$@"
