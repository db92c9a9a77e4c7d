"""score-pairs keeps the previous --out when the scores are bad, and refuses a --n-bootstrap it
could not hold before any scoring (issue 24, items 3 and 15)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

import poetic_eval.lm
import poetic_eval.lm.distributed
from poetic_eval.cli import main


@pytest.fixture()
def pairs_file(tmp_path):
    source = tmp_path / "pairs.jsonl"
    rows = [{"good": f"good {i}", "bad": f"bad {i}", "category": "ab"[i % 2]} for i in range(6)]
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return source


def fake_model(monkeypatch, good, bad):
    model = SimpleNamespace(name="fake", kind="causal", device="cpu")
    monkeypatch.setattr(poetic_eval.lm, "load_language_model", lambda *a, **k: model)
    monkeypatch.setattr(
        poetic_eval.lm.distributed,
        "score_pairs_sharded",
        lambda *a, **k: (np.asarray(good, dtype=float), np.asarray(bad, dtype=float)),
    )


def score(pairs_file, out, *extra):
    argv = ["score-pairs", "--dataset", str(pairs_file), "--out", str(out), "--no-progress"]
    return main([*argv, *extra])


@pytest.mark.parametrize("bad_value", [np.nan, np.inf, -np.inf])
def test_bad_scores_keep_the_previous_file(tmp_path, pairs_file, monkeypatch, capsys, bad_value):
    out = tmp_path / "scores.jsonl"
    fake_model(monkeypatch, [-1.0] * 6, [-2.0] * 6)
    assert score(pairs_file, out) == 0
    previous = out.read_bytes()
    assert [json.loads(line)["correct"] for line in previous.splitlines()] == [True] * 6
    capsys.readouterr()
    fake_model(monkeypatch, [-1.0, bad_value, -1.0, -1.0, -1.0, -1.0], [-2.0] * 6)
    assert score(pairs_file, out) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1:]  # after datasets' progress lines
    assert "NaN or infinite scores for 1 of 6 pairs (first: config pairs, row 1" in err[0]
    assert f"{out} is as it was" in err[0]
    assert out.read_bytes() == previous
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.jsonl", "scores.jsonl"]


def test_a_huge_n_bootstrap_is_refused_before_the_model_loads(
    tmp_path, pairs_file, monkeypatch, capsys
):
    def no_model(*args, **kwargs):
        raise AssertionError("the model was loaded before --n-bootstrap was checked")

    monkeypatch.setattr(poetic_eval.lm, "load_language_model", no_model)
    assert score(pairs_file, tmp_path / "s.jsonl", "--n-bootstrap", "10000000000") == 1
    err = capsys.readouterr().err.strip().splitlines()[-1:]
    assert "--n-bootstrap 10,000,000,000 is too many resamples for 3 group" in err[0]
    assert not (tmp_path / "s.jsonl").exists()
