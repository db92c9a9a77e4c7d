"""bench/bench_gpu.py runs end to end, so the device check that a session with a lent GPU runs
in one call (scripts/device_check.sh) does not rot while no GPU is lent: on the CPU it skips
cleanly, and its ``--device cpu`` dry run writes figures that hold the checks it asserts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

REPO_ROOT = Path(__file__).resolve().parents[2]
BENCH = REPO_ROOT / "bench" / "bench_gpu.py"


def _run(*arguments: str) -> subprocess.CompletedProcess:
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO_ROOT / "src"), str(REPO_ROOT / "tests")]),
    }
    return subprocess.run(
        [sys.executable, str(BENCH), *arguments],
        check=False,
        capture_output=True,
        text=True,
        env=environment,
        cwd=REPO_ROOT,
        timeout=900,
    )


@pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is here: the bench would run")
def test_without_a_gpu_it_says_so_and_exits_cleanly():
    done = _run("--quick")
    assert done.returncode == 0, done.stderr
    assert "no CUDA device here: skipped" in done.stdout


def test_an_unknown_model_gets_the_choices():
    done = _run("--device", "cpu", "--models", "1b,defualt")
    assert done.returncode != 0
    assert "unknown model 'defualt'; did you mean 'default'? choices: default, 1b" in done.stderr


@pytest.mark.slow
def test_the_cpu_dry_run_writes_checked_figures(tmp_path):
    figures_path = tmp_path / "figures.json"
    done = _run(
        "--device",
        "cpu",
        "--quick",
        "--models",
        "default",
        "--no-minicons",
        "--repeats",
        "1",
        "--json",
        str(figures_path),
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    figures = json.loads(figures_path.read_text())
    assert figures["sizes"] == {"agreement_pairs": 200, "limerick_pairs": 50, "blm_items": 8}
    model = figures["default"]
    assert 0.1e9 < model["parameters"] < 0.2e9
    for dtype in ("float32", "bfloat16"):
        row = model[dtype]
        assert row["token_budget"] > 0
        assert row["agreement"]["pairs_per_s"] > 0 and row["limerick"]["pairs_per_s"] > 0
        assert row["blm_candidates"]["items_per_s"] > 0
        for name in ("agreement", "limerick", "blm_candidates"):
            assert 0 < row[name]["linear_tflop_per_s"] < 1e4  # counted work over time
    exact = model["float32"]
    assert (
        exact["agreement"]["max_diff_nats"] < 1e-4
        and exact["blm_candidates"]["max_diff_nats"] < 1e-4
    )
    for name, count in (("agreement", 200), ("limerick", 50), ("blm_candidates", 8)):
        flipped = model["bfloat16"][name]["flipped_against_float32"]
        assert isinstance(flipped, int) and 0 <= flipped <= count


def test_only_the_default_models_float32_checks_fail_the_run(monkeypatch):
    # sys.path as a new list, restored after the test (syspath_prepend would import
    # pkg_resources, which this environment does not fully have)
    monkeypatch.setattr(sys, "path", [str(REPO_ROOT / "bench"), *sys.path])
    from bench_gpu import failed_checks

    good = {"agreement": {"max_diff_nats": 3e-5, "same_decisions_as_minicons": 1.0}}
    good["blm_candidates"] = {"max_diff_nats": 1e-5, "same_choices_as_reference": 1.0}
    off = {"agreement": {"max_diff_nats": 2e-4, "same_decisions_as_minicons": 0.995}}
    figures = {"default": {"float32": {"token_budget": 4096, **good}, "bfloat16": off}}
    assert failed_checks({**figures, "1b": {"float32": off}}) == []
    failures = failed_checks({"default": {"float32": off}})
    assert failures == [
        "default float32 agreement: scores differ by 2.00e-04 nats",
        "default float32 agreement: same_decisions_as_minicons is 0.995, not 1",
    ]
