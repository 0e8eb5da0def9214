#!/usr/bin/env bash
# Install what the main job needs (the Arm toolchain, QEMU, mcugen with its oracles and quantizer: no
# TensorFlow, no PyTorch), then take two models to validated Cortex-M4 firmware on the emulated board:
# - the digits CNN, a float model: quantized to int8, validated bit for bit against the golden model, its
#   accuracy on labelled images beside its float original's, one HTML page of it all;
# - the MLPerf Tiny keyword-spotting model: per-layer estimated cycles, then built for the Arduino Nano 33
#   BLE and exported as a CMake library.
# Everything it writes goes into one new folder (./mcugen-demo, or the next free ./mcugen-demo.N).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MCUGEN_EXTRAS=quantize source "$root/scripts/install.sh"
out="$PWD/mcugen-demo"
for n in $(seq 1 99); do [ -e "$out" ] || break; out="$PWD/mcugen-demo.$n"; done
mkdir "$out"
digits="$root/examples/digits"
kws="$root/examples/keyword_spotting/kws_dscnn.tflite"

echo "== mcugen quantize: the float digits CNN to int8, calibrated on its images"
mcugen quantize "$digits/digits_float.tflite" --data "$digits/calibration.npz" --out "$out/digits_int8.tflite"
echo "== mcugen test on the emulated Cortex-M4 (QEMU mps2-an386): 597 labelled images, against the float model too"
mcugen test "$out/digits_int8.tflite" --board mps2-an386 --out "$out/digits-an386" --data "$digits/evaluation.npz" \
  --labels "$digits/labels.npy" --reference "$digits/digits_float.tflite" --profile --json "$out/digits.json" \
  --html "$out/digits.html"
echo "== mcugen test of keyword spotting on the emulated Cortex-M4, per-layer estimated cycles"
mcugen test "$kws" --board mps2-an386 --out "$out/kws-an386" --samples 3 --profile --html "$out/kws.html"
echo "== mcugen build for the Arduino Nano 33 BLE (offline bare-metal build; sizes from the ELF)"
mcugen build "$kws" --board nano33 --out "$out/kws-nano33"
echo "== mcugen export: the same model as a CMake library for your own firmware (kws.h: kws_init, kws_invoke, ...)"
mcugen export "$kws" --name kws --out "$out/kws-library" --format cmake --board nano33
echo "== done: open $out/digits.html and $out/kws.html; the firmware and the library are in $out"
