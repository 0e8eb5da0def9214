#!/usr/bin/env bash
# Install what mcugen needs (idempotent): Debian's Arm toolchain and QEMU, then mcugen with the extras
# MCUGEN_EXTRAS names (default test: everything) into ./.venv. Sourced by demo.sh (extras quantize: the
# oracles and the quantizer, no TensorFlow or PyTorch) and test.sh; MCUGEN_APT_MORE names further Debian
# packages (test.sh's) for the same apt transaction. The apt step runs beside pip's (one downloads .debs, the other
# wheels), so the two together take about as long as the longer.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
apt_packages="${MCUGEN_APT_MORE:-}"
extras="${MCUGEN_EXTRAS:-test}"
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null \
   || [ ! -f /usr/lib/arm-none-eabi/newlib/libc_nano.a ]; then
  # --no-install-recommends: ~0.9 GB on disk instead of 3.3 GB (no C++ newlib, no QEMU GUI)
  apt_packages=" gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm$apt_packages"
fi
apt_job=""
if [ -n "${apt_packages// /}" ]; then
  echo "== installing from apt:$apt_packages"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  [ -z "$sudo" ] || sudo -v  # a password is asked here, not in the background beside pip
  ( export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    # shellcheck disable=SC2086  # a list of package names
    $sudo apt-get install -y -qq --no-install-recommends $apt_packages ) &
  apt_job=$!
fi
if [ ! -x "$root/.venv/bin/python" ]; then
  echo "== creating $root/.venv"
  python3 -m venv "$root/.venv"
fi
# one stamp per set of extras; test's holds every other's
stamp="$root/.venv/.mcugen-installed-$extras"
if [ -f "$root/.venv/.mcugen-installed-test" ] && [ ! "$root/pyproject.toml" -nt "$root/.venv/.mcugen-installed-test" ]; then
  stamp="$root/.venv/.mcugen-installed-test"
fi
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
  echo "== installing mcugen with PlatformIO and the extras [$extras]"
  "$root/.venv/bin/python" -m pip install --quiet --upgrade pip
  # pip byte-compiles a file at a time (~2 min here); compileall on every core takes half that. Files some
  # packages ship that no Python parses (templates, old test data) fail there as they do in pip: not an error
  "$root/.venv/bin/python" -m pip install --quiet --no-compile -e "$root[$extras]"
  "$root/.venv/bin/python" -m compileall -q -j 0 "$root/.venv/lib" >/dev/null || true
  touch "$stamp"
fi
if [ -n "$apt_job" ] && ! wait "$apt_job"; then
  echo "error: installing${apt_packages} from apt failed (see above); install them by hand and run this again" >&2
  exit 1
fi
export PATH="$root/.venv/bin:$PATH"
