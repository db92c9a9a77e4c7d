"""The command line starts at once: listing commands, metrics or builders imports none of the
heavy libraries (the commands import what they use when they run), and output into a pipe
closed early ends quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import poetic_eval
from poetic_eval.builders import BUILDERS

HEAVY = ("torch", "matplotlib", "datasets")

_IMPORTED_AFTER = """
import contextlib, io, json, sys
from poetic_eval.cli import main
with contextlib.redirect_stdout(io.StringIO()) as shown:
    try:
        status = main(json.loads(sys.argv[1]))
    except SystemExit as stop:  # --help
        status = stop.code
print(json.dumps({"status": status, "stdout": shown.getvalue(), "modules": sorted(sys.modules)}))
"""


def run_in_a_fresh_interpreter(argv: list[str]) -> dict:
    completed = subprocess.run(
        [sys.executable, "-c", _IMPORTED_AFTER, json.dumps(argv)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["--help"], "install-metrics"),
        (["metrics"], "mtld\t"),
        (["build", "--help"], "bpomp"),
        (["build", "bpomp", "--out", "x", "--n-pairs", "nine"], ""),  # a parser error
    ],
)
def test_listing_imports_no_heavy_library(argv, shown):
    result = run_in_a_fresh_interpreter(argv)
    assert shown in result["stdout"]
    top_level = {name.split(".")[0] for name in result["modules"]}
    if argv[:2] == ["build", "bpomp"]:
        # the chosen builder is imported (its features are datasets'), its siblings are not
        assert result["status"] == 2 and "datasets" in top_level
        assert "poetic_eval.builders.bpomp" in result["modules"]
        assert "poetic_eval.builders.blm" not in result["modules"]
        return
    assert result["status"] in (0, None)
    assert not top_level & set(HEAVY), sorted(top_level & set(HEAVY))
    builder_modules = {f"poetic_eval.builders.{name}" for name in BUILDERS}
    assert not builder_modules & set(result["modules"])


def test_metrics_into_a_closed_pipe_ends_quietly():
    """`poetic-eval metrics | head -0`: the reader is gone before the first write."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "poetic_eval.cli", "metrics"],
            stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=300, check=False,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert completed.stderr == ""  # no "Broken pipe" error and no traceback
    assert completed.returncode == 141  # as a process stopped by SIGPIPE


def test_metrics_through_head_prints_the_first_lines():
    shell = f"{sys.executable} -m poetic_eval.cli metrics | head -3"
    completed = subprocess.run(
        ["bash", "-c", shell], capture_output=True, text=True, timeout=300, check=False
    )
    assert completed.returncode == 0 and completed.stderr == ""
    assert completed.stdout.splitlines() == [
        f"{name}\t{poetic_eval.metric_path(name)}" for name in poetic_eval.available_metrics()[:3]
    ]
