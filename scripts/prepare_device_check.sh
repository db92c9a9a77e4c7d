#!/usr/bin/env bash
# Prepare, on this machine, what scripts/device_check.sh needs on a lent GPU machine, which has
# PyTorch and transformers but no network: the wheels of the packages its image lacks, and the
# default model's config and tokenizer (its 540 MB of weights cannot travel; bench_gpu.py times
# random weights of its shape). Everything goes to .device/ (git-ignored, a few MB), which the
# device call carries: run(command="bash scripts/device_check.sh", carry=[".device"]).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
mkdir -p .device/wheels .device/default-model
# The device's Python is 3.12; the packages and versions are in scripts/device_wheels.txt.
"$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  -d .device/wheels -r scripts/device_wheels.txt
"$PY" - <<'PYTHON'
import shutil
from pathlib import Path

from poetic_eval.lm import default_model_cache_dir, load_language_model

load_language_model(device="cpu")  # makes sure the converted default model is cached
source = default_model_cache_dir()
for name in ("config.json", "tokenizer.json", "tokenizer_config.json"):
    shutil.copy(source / name, Path(".device/default-model") / name)
PYTHON
du -sh .device
