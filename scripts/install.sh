#!/usr/bin/env bash
# Install everything mcugen needs (idempotent): Debian's Arm toolchain and QEMU, then mcugen with its
# test oracles into ./.venv. Sourced by demo.sh and test.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null \
   || [ ! -f /usr/lib/arm-none-eabi/newlib/libc_nano.a ] || ! command -v cmake >/dev/null \
   || ! command -v c++ >/dev/null || ! command -v cppcheck >/dev/null; then
  echo "== installing the Arm toolchain, QEMU, CMake, a host C/C++ compiler and cppcheck (apt, ~135 MB download)"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # --no-install-recommends: ~0.9 GB on disk instead of 3.3 GB (no C++ newlib, no QEMU GUI)
  # cmake and g++: the tests build exported libraries as a user would (CMake, C++); cppcheck: runtime_c/'s analyzer
  $sudo apt-get install -y -qq --no-install-recommends gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm \
    cmake g++ cppcheck
fi
if [ ! -x "$root/.venv/bin/python" ]; then
  echo "== creating $root/.venv"
  python3 -m venv "$root/.venv"
fi
stamp="$root/.venv/.mcugen-installed"
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
  echo "== installing mcugen with PlatformIO and its test oracles (tflite-micro, ai-edge-litert)"
  "$root/.venv/bin/python" -m pip install --quiet --upgrade pip
  "$root/.venv/bin/python" -m pip install --quiet -e "$root[test]"
  touch "$stamp"
fi
export PATH="$root/.venv/bin:$PATH"
