"""A plain model load prints none of torchao's import noise (transformers imports torchao
whenever it is installed), and the filter drops nothing else."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from poetic_eval.lm.quiet_imports import TorchaoImportNoise

SOURCE = str(Path(__file__).resolve().parents[2] / "src")
NOISE = ("Failed to load", "register_constant()")


def assert_quiet(script: str, folder: Path) -> None:
    """Runs ``script`` in a fresh interpreter: it succeeds, prints True last, and its error
    stream holds none of torchao's import noise."""
    environment = {**os.environ, "PYTHONPATH": SOURCE, "HF_HUB_OFFLINE": "1"}
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=folder,
        env=environment, check=False, timeout=300,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert completed.stdout.strip().endswith("True")
    for noise in NOISE:
        assert noise not in completed.stderr, completed.stderr[-2000:]


def test_a_plain_model_load_prints_no_torchao_noise(tmp_path):
    pytest.importorskip("torchao")
    script = (
        "import transformers\n"  # the package alone does not import torchao; its models do
        "from poetic_eval.lm import load_language_model\n"
        "lm = load_language_model(device='cpu')\n"
        "import sys; assert 'torchao' in sys.modules  # the noise's source did run\n"
        "print(lm.score_texts(['the cat sleeps.'])[0] < 0)\n"
    )
    assert_quiet(script, tmp_path)


def test_loading_a_metric_prints_no_torchao_noise(tmp_path):
    """evaluate imports transformers' model base too; poetic_eval's metric loader imports it
    quietly first."""
    pytest.importorskip("torchao")
    script = (
        "from poetic_eval.evaluate_modules import load_metric\n"
        "metric = load_metric('mtld')\n"
        "import sys; assert 'torchao' in sys.modules  # the noise's source did run\n"
        "print(metric.compute(predictions=['a b a b c'])['mtld'] > 0)\n"
    )
    assert_quiet(script, tmp_path)


def test_loading_the_sentence_encoder_prints_no_torchao_noise(tmp_path):
    pytest.importorskip("torchao")
    script = (
        "from poetic_eval.diversity.encoders import load_sentence_encoder\n"
        "encoder = load_sentence_encoder()\n"
        "import sys; assert 'torchao' in sys.modules  # the noise's source did run\n"
        "print(encoder.encode(['the sea']).shape[1] > 0)\n"
    )
    assert_quiet(script, tmp_path)


class Enumish:
    """Stands for an Enum class of another package, as torch's pytree warning names it."""


def record(name: str, message: str, *args) -> logging.LogRecord:
    return logging.LogRecord(name, logging.WARNING, __file__, 1, message, args, None)


def test_the_filter_drops_only_torchao_noise():
    noise = TorchaoImportNoise()
    torchao_enum = type("KernelPreference", (), {"__module__": "torchao.quantization"})
    pytree = "%s is an Enum subclass ... Calling register_constant() on Enum subclasses"
    assert not noise.filter(record("torchao", "Failed to load /x/_C_mxfp8.so: no"))
    assert not noise.filter(record("torch.utils._pytree", pytree, torchao_enum))
    assert noise.filter(record("torch.utils._pytree", pytree, Enumish))
    assert noise.filter(record("torchao", "Skipping import of cpp extensions"))
    assert noise.filter(record("torch.utils._pytree", "another warning"))
