#!/usr/bin/env bash
# Install everything, then take the keyword-spotting example from .tflite to a validated Cortex-M4
# firmware: inspect, compare the golden model with TFLM, build for the emulated Cortex-M4 and check
# it bit for bit there, then build the same model for the Arduino Nano 33 BLE.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/install.sh"
model="$root/examples/keyword_spotting/kws_dscnn.tflite"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== mcugen inspect"
mcugen inspect "$model"
echo "== mcugen compare (golden model vs the TFLM interpreter, layer by layer)"
mcugen compare "$model" --samples 5 --seed 1
echo "== mcugen test on the emulated Cortex-M4 (QEMU mps2-an386): build, boot, validate, per-layer timing"
mcugen test "$model" --board mps2-an386 --out "$work/an386" --samples 5 --profile --json "$work/report.json"
echo "== mcugen build for the Arduino Nano 33 BLE (offline bare-metal build; sizes from the ELF)"
mcugen build "$model" --board nano33 --out "$work/nano33"
echo "== mcugen export: the same model as a CMake library for your own firmware (kws.h: kws_init, kws_invoke, ...)"
mcugen export "$model" --name kws --out "$work/kws" --format cmake --board nano33
ls -R "$work/kws"
