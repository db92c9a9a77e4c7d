#!/usr/bin/env bash
# The GPU checks of issue 20 in one command, on a lent device machine (after
# scripts/prepare_device_check.sh here): the CUDA tests, then bench/bench_gpu.py's figures for
# the default model's shape and a 1.1B Llama, float32 and bfloat16, against minicons. Logs and
# gpu_figures.json go to $OUT (the device tool brings them back). Extra arguments go to the
# bench, e.g. `--quick` or `--models default`.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/device-check}
PY=${PY:-python3}            # the device image's Python, which holds PyTorch
WHEELS=${WHEELS:-.device/wheels}
mkdir -p "$out"
[ -d "$WHEELS" ] || { echo "no $WHEELS: run scripts/prepare_device_check.sh first"; exit 2; }
"$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site "$WHEELS"/*.whl || exit 2
export PYTHONPATH=/tmp/site:src:tests:bench PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1
export TOKENIZERS_PARALLELISM=false
"$PY" -c "import torch; assert torch.cuda.is_available()" 2>/dev/null ||
  echo "WARNING: torch sees no CUDA device: the CUDA tests will skip and the bench do nothing"
nvidia-smi >"$out/nvidia-smi.txt" 2>&1
"$PY" -m pytest -q -p no:cacheprovider tests/lm/test_cuda.py 2>&1 | tee "$out/cuda-tests.log"
tests=${PIPESTATUS[0]}
"$PY" bench/bench_gpu.py --shape-dir .device/default-model --json "$out/gpu_figures.json" "$@" \
  2>&1 | tee "$out/bench-gpu.log"
bench=${PIPESTATUS[0]}
echo "CUDA tests: rc $tests; bench_gpu.py: rc $bench"
[ "$tests" = 0 ] && [ "$bench" = 0 ]
