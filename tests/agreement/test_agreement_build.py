"""The agreement hub build: every config loads offline, builds are deterministic, and published
files and the BLiMP release convert through the builder."""

from __future__ import annotations

from pathlib import Path

import datasets
import pytest
from agreement_cases import write_jsonl

from poetic_eval.agreement import BLIMP_FAMILIES, FAMILIES, generate_pairs
from poetic_eval.agreement.agreement_pairs import tse_label
from poetic_eval.builders import agreement as agreement_builder
from poetic_eval.cli import main as cli_main

# --- the hub build ----------------------------------------------------------------------------


def _parquet_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("agreement") / "agreement"
    assert (
        cli_main(["build", "agreement", "--out", str(out), "--seed", "5", "--n-pairs", "60"]) == 0
    )
    return out


def test_build_loads_offline_for_every_config(built, tmp_path):
    card = (built / "README.md").read_text(encoding="utf-8")
    assert "--n-pairs 60" in card and "agreement_lexicon.json" in card
    for config in [*FAMILIES, "verbs"]:
        data = datasets.load_dataset(str(built), config, split="test", cache_dir=str(tmp_path))
        if config == "verbs":
            assert data.column_names == ["lemma", "singular", "plural", "frequency"]
            assert {"lemma": "be", "singular": "is", "plural": "are"}.items() <= data[0].items()
            continue
        assert data.num_rows == 60
        assert data.features["label"].names == ["singular", "plural"]
        expected = generate_pairs(config, n_pairs=60, seed=5)
        assert data[0]["sentence_good"] == expected[0].sentence_good
        assert data.features["label"].int2str(data[0]["label"]) == expected[0].label
    with pytest.raises(ValueError, match="simple_agrmt"):
        datasets.load_dataset(str(built), "no_such_config", cache_dir=str(tmp_path))


def test_build_is_deterministic(built, tmp_path):
    again = tmp_path / "agreement"
    assert (
        cli_main(["build", "agreement", "--out", str(again), "--seed", "5", "--n-pairs", "60"]) == 0
    )
    assert _parquet_bytes(again) == _parquet_bytes(built)
    assert (again / "README.md").read_text().replace(str(again), "OUT") == (
        (built / "README.md").read_text().replace(str(built), "OUT")
    )


def test_build_converts_published_files(tmp_path, generated):
    source = tmp_path / "source"
    source.mkdir()
    pairs = generated["vp_coord"][:30]
    write_jsonl(
        source / "vp_coord_all.jsonl",
        [
            {
                "sentence_good": p.sentence_good,
                "sentence_bad": p.sentence_bad,
                "label": tse_label(p.label),
            }
            for p in pairs
        ],
    )
    out = tmp_path / "converted"
    assert (
        cli_main(["build", "agreement", "--source", str(source), "--out", str(out), "--seed", "0"])
        == 0
    )
    data = datasets.load_dataset(
        str(out), "vp_coord", split="test", cache_dir=str(tmp_path / "cache")
    )
    assert data["sentence_good"] == [p.sentence_good for p in pairs]
    assert "vp_coord_all.jsonl" in (out / "README.md").read_text()
    assert "license: other" in (out / "README.md").read_text()


@pytest.mark.needs_shared_data
def test_build_converts_the_blimp_release(shared_data, tmp_path):
    dataset = agreement_builder.converted_dataset(
        shared_data / "blimp", 0, agreement_builder.verbs_config()
    )
    assert dataset.config_names()[:-1] == list(BLIMP_FAMILIES)
    assert any("dropped 1 pairs" in line for line in dataset.report)
