#!/usr/bin/env bash
# Install everything, then inspect, run and validate an example model against TFLM.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/install.sh"
model="$root/examples/keyword_spotting/kws_dscnn.tflite"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== mcugen inspect"
mcugen inspect "$model"
echo "== mcugen run (golden model on the host, one random input)"
python -c "import numpy as np; np.save('$work/x0.npy', np.random.default_rng(0).integers(-128, 128, (1, 49, 10, 1), dtype=np.int8))"
mcugen run "$model" --input "$work/x0.npy" --output "$work/out.npz" --dump-layers "$work/layers"
python -c "import numpy as np; print('output_0 =', np.load('$work/out.npz')['output_0'])"
echo "== mcugen compare (golden model vs the TFLM interpreter, layer by layer)"
mcugen compare "$model" --samples 10 --seed 1
