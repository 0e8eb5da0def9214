#!/usr/bin/env bash
# Install everything, then run the test suite (HYPOTHESIS_PROFILE=long for 200 cases per op).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/install.sh"
cd "$root"
python -m pytest -q "$@"
