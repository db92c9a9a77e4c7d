"""Bare-name pointers that were damaged, or whose removal was killed (issue 24, items 12 and
13): a damaged pointer is an error naming the cache and what to do, and a removal killed at
any step is finished by the next one, which never skips a folder while saying it is done."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from fault_injection import run_killed_at

import poetic_eval
from poetic_eval.evaluate_modules.bare_names import (
    install_metrics,
    metrics_cache_dir,
    remove_metrics,
)


def load_in_fresh_process(cache, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env.update(
        HF_MODULES_CACHE=str(cache),
        HF_METRICS_CACHE=str(tmp_path / "metrics-cache"),
        HF_EVALUATE_OFFLINE="1",
        HF_UPDATE_DOWNLOAD_COUNTS="0",
        # this worktree's package only: tests/evaluate_modules would shadow evaluate's cache
        PYTHONPATH=str(Path(poetic_eval.__file__).parents[1]),
    )
    script = "import evaluate; print(evaluate.load('mtld').name)"
    return subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip


@pytest.mark.parametrize("damage", ["truncated", "empty", "missing", "edited"])
def test_the_guard_names_a_damaged_pointer_and_install_metrics_repairs_it(tmp_path, damage):
    """evaluate imports the version folder's __init__.py (the guard) before the pointer."""
    cache = tmp_path / "modules"
    [metric] = install_metrics(["mtld"], modules_cache=cache)
    guard = metric.pointer.parent / "__init__.py"
    runpy.run_path(str(guard))  # an intact pointer passes
    text = metric.pointer.read_text()
    if damage == "missing":
        metric.pointer.unlink()
    else:
        damaged = {"truncated": text[: len(text) // 2], "empty": "", "edited": text + "x = 1\n"}
        metric.pointer.write_text(damaged[damage])
    with pytest.raises(ImportError) as raised:
        runpy.run_path(str(guard))
    message = str(raised.value)
    assert message.startswith("poetic-eval's pointer for evaluate.load('mtld')")
    assert str(metric.pointer) in message and "run `poetic-eval install-metrics`" in message
    assert f"or delete {metric.pointer.parent.parent}" in message
    install_metrics(["mtld"], modules_cache=cache)
    runpy.run_path(str(guard))


def test_evaluate_load_of_a_damaged_pointer_fails_with_that_line(tmp_path):
    cache = tmp_path / "modules"
    [metric] = install_metrics(["mtld"], modules_cache=cache)
    metric.pointer.write_text(metric.pointer.read_text()[:200])
    failed = load_in_fresh_process(cache, tmp_path)
    assert failed.returncode != 0
    last = failed.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: poetic-eval's pointer for evaluate.load('mtld')")
    assert str(metric.pointer) in last


def test_a_half_deleted_version_folder_is_still_removed(tmp_path):
    """What a removal killed inside its delete used to leave: the pointer gone, the rest there."""
    cache = tmp_path / "modules"
    [metric] = install_metrics(["mtld"], modules_cache=cache)
    metric.pointer.unlink()
    (metric.pointer.parent / "__init__.py").unlink()
    assert remove_metrics(modules_cache=cache) == [metric.pointer.parent]
    assert not (metrics_cache_dir(cache) / "evaluate-metric--mtld").exists()


def test_a_removal_killed_at_any_step_is_finished_by_the_next(tmp_path):
    step = 1
    while True:
        cache = tmp_path / f"modules-{step}"
        install_metrics(["mtld", "rhyme_kl"], modules_cache=cache)
        killed = run_killed_at(step, partial(remove_metrics, modules_cache=cache))
        remove_metrics(modules_cache=cache)
        root = metrics_cache_dir(cache)
        assert sorted(p.name for p in root.iterdir()) == ["__init__.py"], f"step {step}"
        if not killed:
            break
        step += 1
    assert step > 2
