"""blm-eval and verb-agreement under torchrun (gloo on the CPU): each process scores a
contiguous shard, rank 0 prints and writes what one process does."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tiny_language_models import random_minimal_pairs, tiny_causal_lm

from poetic_eval.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "blm"))
from blm_eval_items import RECORDS, italian_lm

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def saved(lm, folder: Path) -> Path:
    lm.model.save_pretrained(folder)
    lm.tokenizer.save_pretrained(folder)
    return folder


def torchrun(arguments: list[str]) -> subprocess.CompletedProcess:
    """``torchrun --standalone --nproc_per_node 2 -m poetic_eval.cli ...``, both on the CPU."""
    launch = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node"]
    environment = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1"}
    completed = subprocess.run(
        [*launch, "2", "-m", "poetic_eval.cli", *arguments],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    kept = [line for line in completed.stderr.splitlines() if "it/s]" not in line]
    assert completed.returncode == 0, "\n".join(kept)[-4000:]
    return completed


def assert_same(one, two, path="result"):
    """Equal JSON values, floats within 1e-5 (shards pack other prefix trees: the same sums
    in another order)."""
    if isinstance(one, dict):
        assert sorted(one) == sorted(two), path
        for key in one:
            assert_same(one[key], two[key], f"{path}.{key}")
    elif isinstance(one, list):
        assert len(one) == len(two), path
        for index, (a, b) in enumerate(zip(one, two)):
            assert_same(a, b, f"{path}[{index}]")
    elif isinstance(one, float) and not isinstance(two, bool):
        assert np.isclose(one, two, atol=1e-5, equal_nan=True), (path, one, two)
    else:
        assert one == two, path


def blm_records(count: int) -> list[dict]:
    """``count`` items made from the test records, each with its own ID."""
    records = []
    for index in range(count):
        record = copy.deepcopy(RECORDS[index % len(RECORDS)])
        record["ID"] = f"item-{index}"
        records.append(record)
    return records


@pytest.mark.parametrize("method", ["prompt", "candidates"])
def test_blm_eval_under_torchrun_matches_one_process(tmp_path, capsys, method):
    folder = saved(italian_lm(seed=2), tmp_path / "model")
    source = tmp_path / "items.json"
    source.write_text(json.dumps(blm_records(7), ensure_ascii=False), encoding="utf-8")
    command = ["blm-eval", "--items", str(source), "--model", str(folder), "--method", method]
    command += ["--device", "cpu", "--json", "--no-progress"]
    assert main(command) == 0
    one = json.loads(capsys.readouterr().out)
    two = json.loads(torchrun(command).stdout)  # rank 0 alone prints
    assert len(two["predictions"]) == 7
    assert_same(one, two)


def test_verb_agreement_under_torchrun_matches_one_process(tmp_path, capsys):
    folder = saved(tiny_causal_lm(seed=9), tmp_path / "model")
    good, bad = random_minimal_pairs(21, seed=4)
    source = tmp_path / "pairs.jsonl"
    with source.open("w") as handle:
        for index, (g, b) in enumerate(zip(good, bad)):
            row = {"sentence_good": g, "sentence_bad": b, "label": -1 - index % 2}
            handle.write(json.dumps(row) + "\n")
    command = ["verb-agreement", "--dataset", str(source), "--model", str(folder)]
    command += ["--device", "cpu", "--no-progress"]
    assert main([*command, "--out", str(tmp_path / "one.json")]) == 0
    capsys.readouterr()
    completed = torchrun([*command, "--out", str(tmp_path / "two.json")])
    assert completed.stdout.count("all cutoffs in") == 1  # rank 0 alone reports
    one = json.loads((tmp_path / "one.json").read_text())
    two = json.loads((tmp_path / "two.json").read_text())
    assert_same(one, two)


SHARDS_SCRIPT = """
import json, sys
from poetic_eval.lm.distributed import end_process_group, in_shards, process_group

calls = []
def compute(start, end):
    calls.append([start, end])
    return [index * 10 for index in range(start, end)]

everything = in_shards(7, compute, "cpu")
rank, _ = process_group("cpu")
end_process_group()
# one file per rank: two processes printing at once can share a line of stdout
with open(f"{sys.argv[1]}/rank{rank}.json", "w") as report:
    json.dump({"rank": rank, "calls": calls, "all": everything}, report)
"""


def test_each_process_computes_only_its_contiguous_shard(tmp_path):
    script = tmp_path / "shards.py"
    script.write_text(SHARDS_SCRIPT)
    launch = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node"]
    environment = {**os.environ, "OMP_NUM_THREADS": "1"}
    completed = subprocess.run(
        [*launch, "2", str(script), str(tmp_path)], env=environment, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-3000:]
    reports = [json.loads((tmp_path / f"rank{rank}.json").read_text()) for rank in (0, 1)]
    assert [report["calls"] for report in reports] == [[[0, 4]], [[4, 7]]]
    assert all(report["all"] == [index * 10 for index in range(7)] for report in reports)
