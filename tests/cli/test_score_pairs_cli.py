"""``poetic-eval score-pairs`` on small files and a dataset folder written by the test."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import datasets
import numpy as np
import pytest
from tiny_language_models import random_minimal_pairs, tiny_causal_lm

from poetic_eval.cli import main
from poetic_eval.lm import score_pairs

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def model_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny_llama")
    lm = tiny_causal_lm(seed=3)
    lm.model.save_pretrained(folder)
    lm.tokenizer.save_pretrained(folder)
    return folder, lm


@pytest.mark.floors
def test_agreement_style_jsonl(tmp_path, model_folder, capsys):
    folder, lm = model_folder
    good, bad = random_minimal_pairs(40, seed=1)
    source = tmp_path / "pairs.jsonl"
    with source.open("w") as handle:
        for index, (g, b) in enumerate(zip(good, bad)):
            case = "sing" if index % 2 else "plur"
            handle.write(json.dumps({"sentence_good": g, "sentence_bad": b, "case": case}) + "\n")
    out = tmp_path / "scores.jsonl"
    code = main(
        [
            "score-pairs",
            "--dataset",
            str(source),
            "--model",
            str(folder),
            "--out",
            str(out),
            "--device",
            "cpu",
            "--category-column",
            "case",
            "--no-progress",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    expected_good, expected_bad = score_pairs(
        good, bad, lm, show_progress=False, share_prefixes=False
    )
    np.testing.assert_allclose([row["good_score"] for row in rows], expected_good, atol=1e-4)
    np.testing.assert_allclose([row["bad_score"] for row in rows], expected_bad, atol=1e-4)
    accuracy = np.mean(expected_good > expected_bad)
    overall = next(line for line in printed.splitlines() if line.startswith("overall"))
    assert overall.split()[1:3] == ["40", f"{accuracy:.3f}"]
    assert "pairs/plur" in printed and "pairs/sing" in printed


def test_bpomp_style_dataset_folder_with_configs(tmp_path, model_folder, capsys):
    folder, _ = model_folder
    good, bad = random_minimal_pairs(30, seed=2)
    root = tmp_path / "bpomp"
    for name, start in (("line_swap", 0), ("rhyme_word_swap", 15)):
        table = datasets.Dataset.from_dict(
            {"good": good[start : start + 15], "bad": bad[start : start + 15]}
        )
        (root / "data" / name).mkdir(parents=True)
        table.to_parquet(root / "data" / name / "test-00000-of-00001.parquet")
    configs = "\n".join(
        f"- config_name: {name}\n  data_files:\n  - split: test\n"
        f"    path: data/{name}/test-*.parquet"
        for name in ("line_swap", "rhyme_word_swap")
    )
    (root / "README.md").write_text(f"---\nconfigs:\n{configs}\n---\n# test\n")
    out = tmp_path / "scores.parquet"
    code = main(
        [
            "score-pairs",
            "--dataset",
            str(root),
            "--model",
            str(folder),
            "--out",
            str(out),
            "--device",
            "cpu",
            "--limit",
            "10",
            "--reduction",
            "mean",
            "--no-progress",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    written = datasets.Dataset.from_parquet(str(out))
    assert len(written) == 20
    assert sorted(set(written["category"])) == ["line_swap", "rhyme_word_swap"]
    assert "line_swap" in printed and "rhyme_word_swap" in printed
    for flag, value, message in (
        ("--split", "nope", "split 'nope' is not in config 'line_swap' of dataset .*: test$"),
        ("--config", "nope", ": unknown config 'nope'; choices: line_swap, rhyme_word_swap$"),
    ):
        code = main(["score-pairs", "--dataset", str(root), "--model", str(folder), flag, value])
        error = capsys.readouterr().err.strip()
        assert code == 1 and "Traceback" not in error
        assert re.search(message, error.splitlines()[-1]), error


def test_unusable_inputs_fail_with_a_message(tmp_path, model_folder, capsys):
    folder, _ = model_folder
    source = tmp_path / "other.jsonl"
    source.write_text(json.dumps({"text": "a"}) + "\n")
    assert main(["score-pairs", "--dataset", str(source), "--model", str(folder)]) == 1
    assert "no minimal-pair columns" in capsys.readouterr().err
    assert main(["score-pairs", "--dataset", str(tmp_path / "missing")]) == 1


def test_two_torchrun_processes_match_one(tmp_path, model_folder):
    """gloo on CPU: 2 processes each score a shard; rank 0 writes what 1 process writes."""
    folder, _ = model_folder
    good, bad = random_minimal_pairs(45, seed=5)  # odd count: unequal shards
    source = tmp_path / "pairs.parquet"
    datasets.Dataset.from_dict({"good": good, "bad": bad}).to_parquet(source)
    common = [
        "score-pairs",
        "--dataset",
        str(source),
        "--model",
        str(folder),
        "--device",
        "cpu",
        "--no-progress",
    ]
    single, double = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main([*common, "--out", str(single)]) == 0
    environment = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1"}
    launcher = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--standalone",
        "--nproc_per_node",
        "2",
    ]
    launch = [*launcher, "-m", "poetic_eval.cli", *common, "--out", str(double)]
    for attempt in (1, 2):
        completed = subprocess.run(
            launch, env=environment, capture_output=True, text=True, timeout=300, check=False
        )
        # One retry, only when a rank was killed by a signal (seen once in a CI sandbox, never
        # reproduced in ~40 runs here); a wrong result or a Python error fails at once.
        if completed.returncode == 0 or "Signal" not in completed.stderr or attempt == 2:
            break
        warnings.warn(
            f"torchrun: a rank died by a signal, retrying once:\n{launch_failure(completed.stderr)}"
        )
    assert completed.returncode == 0, launch_failure(completed.stderr)
    assert "2 processes" in completed.stdout
    one = [json.loads(line) for line in single.read_text().splitlines()]
    two = [json.loads(line) for line in double.read_text().splitlines()]
    assert [row["good"] for row in two] == good
    np.testing.assert_allclose(
        [r["good_score"] for r in two], [r["good_score"] for r in one], atol=1e-4
    )
    np.testing.assert_allclose(
        [r["bad_score"] for r in two], [r["bad_score"] for r in one], atol=1e-4
    )


def launch_failure(stderr: str) -> str:
    """What the ranks printed, without progress bars and the launcher's own traceback."""
    kept = [
        line for line in stderr.splitlines() if "it/s]" not in line and "examples/s]" not in line
    ]
    text = "\n".join(kept)
    return text[:4000] + ("\n...\n" + text[-1500:] if len(text) > 4000 else "")


def test_more_processes_than_gpus_is_a_clear_error(monkeypatch):
    """torchrun --nproc_per_node 2 on a one-GPU node: process 1 says what to do instead of
    failing inside CUDA; a CPU job (device cpu) never asks for a GPU."""
    from poetic_eval.files import DeviceError
    from poetic_eval.lm import distributed

    monkeypatch.setattr(distributed.torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(distributed.torch.cuda, "device_count", lambda: 1)
    monkeypatch.setenv("LOCAL_RANK", "0")
    assert distributed.local_device() == distributed.torch.device("cuda", 0)
    monkeypatch.setenv("LOCAL_RANK", "1")
    with pytest.raises(DeviceError, match=r"torch sees 1 GPU\(s\) here; .*--nproc_per_node 1"):
        distributed.local_device()
    monkeypatch.setattr(distributed.torch.cuda, "is_available", lambda: False)
    assert distributed.local_device() == distributed.torch.device("cpu")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="interface flags read from /sys")
def test_loopback_interface_is_a_real_loopback():
    import socket

    from poetic_eval.lm.distributed import loopback_interface

    name = loopback_interface()
    assert name in [entry[1] for entry in socket.if_nameindex()]
    assert int(Path(f"/sys/class/net/{name}/flags").read_text(), 16) & 0x8


def test_plain_folder_of_pair_files(tmp_path, model_folder, capsys):
    """A folder without a dataset card (BLiMP, refining-tse): one config per file, by its stem,
    even when the files' columns differ; files without pair columns are skipped."""
    folder, _ = model_folder
    good, bad = random_minimal_pairs(12, seed=6)
    root = tmp_path / "paradigms"
    (root / "nested").mkdir(parents=True)
    with (root / "first.jsonl").open("w") as handle:
        for g, b in zip(good[:5], bad[:5]):
            handle.write(json.dumps({"sentence_good": g, "sentence_bad": b, "UID": "first"}) + "\n")
    with (root / "nested" / "second.jsonl").open("w") as handle:
        for g, b in zip(good[5:], bad[5:]):
            handle.write(json.dumps({"sentence_good": g, "sentence_bad": b, "label": -2}) + "\n")
    (root / "notes.jsonl").write_text(json.dumps({"text": "not a pair"}) + "\n")
    out = tmp_path / "scores.jsonl"
    common = [
        "score-pairs",
        "--dataset",
        str(root),
        "--model",
        str(folder),
        "--out",
        str(out),
        "--no-progress",
    ]
    assert main([*common, "--limit", "4"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row["category"] for row in rows] == ["first"] * 4 + ["second"] * 4
    assert "first " in capsys.readouterr().out
    assert main([*common, "--config", "second"]) == 0
    assert len(out.read_text().splitlines()) == 7
    assert main([*common, "--config", "third"]) == 1
    assert "no such file" in capsys.readouterr().err
