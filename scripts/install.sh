#!/usr/bin/env bash
# Install mcugen and its test oracles into ./.venv (idempotent). Sourced by demo.sh and test.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ ! -x "$root/.venv/bin/python" ]; then
  echo "== creating $root/.venv"
  python3 -m venv "$root/.venv"
fi
stamp="$root/.venv/.mcugen-installed"
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
  echo "== installing mcugen with its test oracles (tflite-micro, ai-edge-litert)"
  "$root/.venv/bin/python" -m pip install --quiet --upgrade pip
  "$root/.venv/bin/python" -m pip install --quiet -e "$root[test]"
  touch "$stamp"
fi
export PATH="$root/.venv/bin:$PATH"
