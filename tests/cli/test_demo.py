"""`make demo` end to end on tiny settings: builds, report, minimal-pair section."""

from __future__ import annotations

import json

import pytest

import poetic_eval.lm
from poetic_eval.cli import main


def test_demo_builds_datasets_and_writes_the_full_report(tmp_path, monkeypatch):
    out, built = tmp_path / "out", tmp_path / "datasets"
    loads = []
    load_language_model = poetic_eval.lm.load_language_model

    def counting(model=None, **options):
        if not isinstance(model, poetic_eval.lm.LanguageModel):  # a loaded one passes through
            loads.append(model)
        return load_language_model(model, **options)

    monkeypatch.setattr(poetic_eval.lm, "load_language_model", counting)
    status = main(
        ["demo", "--out", str(out), "--datasets", str(built), "--max-pairs", "2", "--seed", "0"]
        + ["--blm-items", "1"]
    )
    assert status == 0
    assert loads == [None]  # the model is resolved once, for the pairs and the BLM items
    for name in ("bpomp", "agreement", "quatrain", "blm"):
        assert (built / name / "README.md").is_file()
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert list(report["sections"]) == [
        "memorization",
        "length",
        "rhyme",
        "lexical",
        "semantic",
        "diversity_de",
        "minimal_pairs",
        "blm",
    ]
    accuracy, verbs = report["sections"]["minimal_pairs"]["tables"]
    configs = [row[0] for row in accuracy["rows"]]
    assert "bpomp/line_swap" in configs and "agreement/simple_agrmt" in configs
    assert configs[-1] == "overall"
    assert all(row[1] == 2 for row in accuracy["rows"][:-1])  # --max-pairs per config
    assert all(0.0 <= row[2] <= 1.0 for row in accuracy["rows"])
    assert [row[0] for row in verbs["rows"]] == [
        "simple_agrmt",
        "prep_anim",
        "obj_rel_across_anim",
        "subj_rel",
    ]
    for figure in ("length_histograms", "rhyme_schemes", "max_similarity", "minimal_pair_accuracy"):
        assert (out / "figures" / f"{figure}.png").stat().st_size > 1000
    # the German section beside the English one: rhyme distribution, lexical, length
    german = report["sections"]["diversity_de"]
    assert german["title"] == "German poems"
    assert {table["caption"] for table in german["tables"]} >= {
        "Rhyme: rhyme-scheme distributions", "Lexical diversity", "Length"
    }  # fmt: skip
    for figure in ("length_histograms_de", "rhyme_schemes_de"):
        assert (out / "figures" / f"{figure}.png").stat().st_size > 1000
    scores = (out / "minimal_pair_scores.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(scores) == accuracy["rows"][-1][1]
    assert "## Minimal pairs" in (out / "report.md").read_text(encoding="utf-8")
    [blm] = report["sections"]["blm"]["tables"]
    configs = ["agr_ii", "agr_iii", "caus_ii", "caus_iii", "od_ii", "od_iii"]
    assert [(row[0], row[1], row[2]) for row in blm["rows"]] == [
        (config, method, 1)
        for config in configs
        for method in ("prompt (0-shot, en)", "candidates (sum)")
    ]
    assert all(row[3] in (0.0, 1.0) for row in blm["rows"])  # one item: right or wrong


def test_a_negative_blm_items_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["demo", "--out", str(tmp_path / "out"), "--blm-items", "-1"])
    assert exit_info.value.code == 2
    assert "--blm-items: must be at least 0, got -1" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
