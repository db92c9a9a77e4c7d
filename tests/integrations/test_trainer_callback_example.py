"""docs/trainer_callback_example.py runs as documented (two steps, one evaluation), from a folder
that is not the checkout, so the example in the docs cannot rot."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "trainer_callback_example.py"


def test_the_documented_example_trains_and_logs(tmp_path):
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    completed = subprocess.run(
        [sys.executable, str(EXAMPLE), "--steps", "2", "--every", "2"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    summary = re.search(
        r"step 2: mtld ([\d.]+), memorization_verse ([\d.]+), within_max_sim ([\d.]+), "
        r"pairs_accuracy ([\d.]+)",
        completed.stdout,
    )
    assert summary, completed.stdout[-2000:]
    mtld, memorization, within, accuracy = map(float, summary.groups())
    assert mtld > 0 and 0 <= memorization <= 1 and 0 < within <= 1 and 0 <= accuracy <= 1
    assert "'poetic/pairs_accuracy'" in completed.stdout  # logged through trainer.log
    assert "a poem of the last evaluation:" in completed.stdout
