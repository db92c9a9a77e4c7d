"""User errors end every command with one line and status 1, checked before any work; --debug
shows the traceback; a bug keeps its traceback."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
import torch
from tiny_language_models import random_minimal_pairs, tiny_causal_lm

import poetic_eval.lm
import poetic_eval.pairs
from poetic_eval.builders import BUILDERS
from poetic_eval.cli import main
from poetic_eval.cli import score_pairs as score_pairs_command

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def model_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny_llama")
    lm = tiny_causal_lm(seed=3)
    lm.model.save_pretrained(folder)
    lm.tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture()
def pairs_file(tmp_path):
    good, bad = random_minimal_pairs(6, seed=2)
    path = tmp_path / "pairs.jsonl"
    rows = [{"sentence_good": g, "sentence_bad": b, "label": -1} for g, b in zip(good, bad)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture()
def no_work(monkeypatch):
    """Fail loudly if a command loads pairs, a model, or builds anything."""

    def forbidden(*args, **kwargs):
        raise AssertionError("work started before the output location was checked")

    monkeypatch.setattr(poetic_eval.lm, "load_language_model", forbidden)
    monkeypatch.setattr(poetic_eval.pairs, "load_pair_tables", forbidden)
    monkeypatch.setattr(score_pairs_command, "load_pair_tables", forbidden)
    for builder in BUILDERS.values():
        monkeypatch.setattr(builder.load(), "build", forbidden)
    monkeypatch.setattr("poetic_eval.diversity.diversity_profile", forbidden)


def one_line_error(capsys, status, command: str, message: str) -> str:
    """The error line (the last one on stderr; progress bars may come before it)."""
    err = capsys.readouterr().err
    assert status == 1
    assert "Traceback" not in err
    last = err.rstrip("\n").split("\n")[-1]
    assert last.startswith(f"{command}: error: "), err
    assert message in last, err
    assert err.count(f"{command}: error: ") == 1, err
    return last


def test_outputs_are_checked_before_any_work(tmp_path, capsys, no_work, pairs_file):
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    cases = [
        (["score-pairs", "--dataset", str(pairs_file), "--out", str(blocked / "s.jsonl")],
         "is a file, so nothing can be written"),
        (["score-pairs", "--dataset", str(pairs_file), "--out", str(tmp_path / "s.txt")],
         "the file name must end in .jsonl, .json, .csv or .parquet"),
        (["verb-agreement", "--dataset", str(pairs_file), "--out", str(tmp_path / "v.csv")],
         "must end in .json"),
        (["report", "--generated", "g.txt", "--human", "h.txt", "--out", str(blocked)],
         "is a file, not a folder"),
        (["report", "--generated", "g.txt", "--human", "h.txt", "--out", str(tmp_path)],
         "refusing to replace a folder that is not a poetic-eval report"),
        (["build", "bpomp", "--out", str(blocked / "bpomp")], "is a file, so nothing"),
        (["demo", "--out", str(tmp_path), "--datasets", str(tmp_path / "d")],
         "not a poetic-eval report"),
    ]  # fmt: skip
    for argv, message in cases:
        one_line_error(capsys, main(argv), f"poetic-eval {argv[0]}", message)


def test_build_all_refuses_before_building_any(tmp_path, capsys, monkeypatch):
    (tmp_path / "quatrain").mkdir()
    (tmp_path / "quatrain" / "mine.txt").write_text("my own file")
    status = main(["build", "all", "--out", str(tmp_path)])
    one_line_error(capsys, status, "poetic-eval build", "refusing to replace")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quatrain"]


def test_model_device_and_input_errors_are_one_line(tmp_path, capsys, pairs_file, model_folder):
    out = ["--out", str(tmp_path / "s.jsonl"), "--no-progress"]
    latin = tmp_path / "latin.txt"
    latin.write_bytes("un café\nsur la mer".encode("latin-1"))
    poems = tmp_path / "poems.txt"
    poems.write_text("the sea is grey\nthe gulls are loud\n\na second poem\nof two lines\n")
    cases = [
        (["score-pairs", "--dataset", str(pairs_file), "--model", "./no/such/lm", *out],
         "model ./no/such/lm: no such folder"),
        (["score-pairs", "--dataset", str(pairs_file), "--model", "nobody/no-lm", *out],
         "neither a local folder nor in the local Hugging Face cache"),
        (["score-pairs", "--dataset", str(tmp_path / "missing.csv"), *out],
         "missing.csv: no such folder or file"),
        (["report", "--generated", str(latin), "--human", str(latin), "--out",
          str(tmp_path / "r")], "latin.txt: not UTF-8 text (byte 0xe9"),
        (["report", "--generated", str(poems), "--human", str(poems), "--out",
          str(tmp_path / "r"), "--option", "length_bins=ten"], "length_bins must be an integer"),
        (["analyze", str(tmp_path / "nothing-here")], "no such poem file or folder"),
    ]  # fmt: skip
    if not torch.cuda.is_available():
        cases.append(
            (["score-pairs", "--dataset", str(pairs_file), "--model", str(model_folder),
              "--device", "cuda", *out], "device 'cuda' is not available")
        )  # fmt: skip
    for argv, message in cases:
        one_line_error(capsys, main(argv), f"poetic-eval {argv[0]}", message)


def test_a_count_of_zero_is_refused_by_the_parser(capsys, pairs_file):
    with pytest.raises(SystemExit) as stopped:
        main(["score-pairs", "--dataset", str(pairs_file), "--limit", "0"])
    assert stopped.value.code == 2
    assert "argument --limit: must be at least 1, got 0" in capsys.readouterr().err


def test_a_full_disk_names_the_file_after_scoring(tmp_path, capsys, pairs_file, model_folder,
                                                  monkeypatch):  # fmt: skip
    import datasets

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(datasets.Dataset, "to_json", full)
    out = tmp_path / "scores.jsonl"
    argv = ["score-pairs", "--dataset", str(pairs_file), "--model", str(model_folder),
            "--device", "cpu", "--out", str(out), "--no-progress"]  # fmt: skip
    err = one_line_error(capsys, main(argv), "poetic-eval score-pairs", "No space left on device")
    assert f"could not write {out}" in err and "disk full" in err
    assert not out.exists() and list(tmp_path.glob(".scores.jsonl.*")) == []


@pytest.mark.parametrize("where", ["before", "after"])
def test_debug_shows_the_traceback(tmp_path, capsys, where):
    argv = ["analyze", str(tmp_path / "nothing-here")]
    argv = ["--debug", *argv] if where == "before" else [*argv, "--debug"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "FileNotFoundError" in err
    assert err.rstrip().splitlines()[-1].startswith("poetic-eval analyze: error: no such poem")


def test_builders_take_debug_too(tmp_path, capsys):
    (tmp_path / "taken").write_text("x")
    assert main(["build", "bpomp", "--out", str(tmp_path / "taken"), "--debug"]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_a_bug_keeps_its_traceback_and_ctrl_c_is_short(monkeypatch, capsys):
    def bug(args):
        raise KeyError("an internal key")

    monkeypatch.setattr("poetic_eval.cli.metrics.run", bug)
    assert main(["metrics"]) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "KeyError: 'an internal key'" in err
    assert err.rstrip().splitlines()[-1].startswith("poetic-eval metrics: this is a bug")

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr("poetic_eval.cli.metrics.run", interrupted)
    assert main(["metrics"]) == 130
    assert capsys.readouterr().err == "poetic-eval metrics: interrupted\n"


def test_the_scores_of_a_run_reach_the_file(tmp_path, pairs_file, model_folder):
    out = tmp_path / "scores.csv"
    argv = ["score-pairs", "--dataset", str(pairs_file), "--model", str(model_folder),
            "--device", "cpu", "--out", str(out), "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    assert len(Path(out).read_text().splitlines()) == 7
