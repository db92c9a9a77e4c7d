#!/usr/bin/env bash
# Rehearse scripts/device_check.sh here, without a GPU, in a stand-in for the device image: a
# fresh venv holding only the versions that image was seen with (KINDS.md's pip list:
# transformers 5.17, huggingface_hub 1.33, tokenizers 0.23.2, accelerate 1.15,
# sentence-transformers 6.0.1, and the newest pandas / pyarrow / scipy / numpy this index serves)
# plus scripts/device_wheels.txt installed the way device_check.sh installs them. A package the
# device lacks and the check imports then fails here, not in the device's 15 minutes.
#
# What it cannot copy: the device's Python is 3.12 and its torch 2.11 (CUDA); this index serves a
# CPU torch for Python 3.11 only, so the venv is 3.11 with torch $TORCH_VERSION. The CUDA tests
# skip, and the bench runs its CPU dry run (default model's shape, quick size, one repeat).
# About 7 minutes on 2 cores. Extra arguments replace the bench's.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3.11}
TORCH_VERSION=${TORCH_VERSION:-2.13.0}
VENV=${VENV:-/tmp/poetic-eval-device-rehearsal}
OUT=${OUT:-$VENV/out}
[ -d .device/default-model ] || { echo "no .device/: run scripts/prepare_device_check.sh first"; exit 2; }
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install -q torch=="$TORCH_VERSION"
"$VENV/bin/pip" install -q transformers==5.17.0 huggingface_hub==1.33.0 tokenizers==0.23.2 \
  accelerate==1.15.0 safetensors==0.8.0 sentence-transformers==6.0.1 numpy scipy pandas pyarrow \
  matplotlib scikit-learn pyyaml tqdm threadpoolctl requests xxhash aiohttp psutil pytest
"$VENV/bin/pip" download -q --no-deps --only-binary=:all: -d "$VENV/wheels" -r scripts/device_wheels.txt
rm -rf /tmp/site  # device_check.sh installs the wheels there
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--device cpu --quick --models default --repeats 1)
OUT=$OUT PY="$VENV/bin/python" WHEELS="$VENV/wheels" bash scripts/device_check.sh "${args[@]}"
echo "rehearsal passed; logs and gpu_figures.json in $OUT"
