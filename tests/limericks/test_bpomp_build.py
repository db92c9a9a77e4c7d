"""The built bpomp hub dataset: configs load offline, the card's record, byte-identical rebuilds,
``all`` and the CLI forwarding options, failed builds, ``poetic-eval build bpomp --help``."""

from __future__ import annotations

import subprocess
import sys

import datasets
import pytest
from bpomp_cases import SEEDS, assert_valid_synonym_pair

import poetic_eval.builders
from poetic_eval.cli import main as cli_main
from poetic_eval.files import file_sha256
from poetic_eval.files.dataset_cards import read_built_card
from poetic_eval.hub.cards import parquet_path
from poetic_eval.limericks.corruptions import CORRUPTIONS
from poetic_eval.text import write_poems


@pytest.fixture(scope="module")
def built(tmp_path_factory, finder):
    """The bpomp dataset built by `poetic-eval build bpomp` (in-process) from the seeds."""
    out = tmp_path_factory.mktemp("built") / "bpomp"
    code = cli_main(
        ["build", "bpomp", "--out", str(out), "--seed", "5", "--n-pairs", "40", "--no-progress"]
    )
    assert code == 0
    return out


# --- the built dataset ---------------------------------------------------------------------


def test_built_configs_load_offline(built, finder, seed_limericks, tmp_path):
    # a fresh datasets cache: the shared one may hold another build of a "bpomp" folder
    texts = {limerick.text for limerick in seed_limericks}
    for config in CORRUPTIONS:
        rows = datasets.load_dataset(
            str(built), config, split="test", cache_dir=str(tmp_path)
        ).to_list()
        assert len(rows) == 40
        assert [row["id"] for row in rows] == [f"{config}-{i:05d}" for i in range(40)]
        assert len({(row["good"], row["bad"]) for row in rows}) == 40
        assert len({row["source_id"] for row in rows}) == 40
        for row in rows:
            assert row["good"] in texts and row["good"] != row["bad"]
            assert row["corruption"]["type"] == config
            if config == "synonym_replace":
                assert_valid_synonym_pair(row, finder)
            else:
                assert row["corruption"]["synset"] == row["corruption"]["pos"] == ""
    with pytest.raises(ValueError, match=r"'swap' not found.*'rhyme_word_swap', 'line_swap'"):
        datasets.load_dataset(str(built), "swap", cache_dir=str(tmp_path))


def test_card_records_seed_checksum_counts_and_command(built):
    card = (built / "README.md").read_text(encoding="utf-8")
    assert file_sha256(SEEDS) in card
    assert "seed `5`" in card
    assert "poetic-eval build bpomp --out" in card and "--seed 5 --n-pairs 40" in card
    assert "| `synonym_replace` | test | 40 |" in card
    assert "kept 45 of 45 source records" in card
    assert "license: cc-by-4.0" in card


def test_rebuild_is_byte_identical_and_seed_dependent(built, tmp_path, finder):
    again = tmp_path / "again" / "bpomp"
    other = tmp_path / "other" / "bpomp"
    for out, seed in ((again, "5"), (other, "6")):
        assert (
            cli_main(
                [
                    "build",
                    "bpomp",
                    "--out",
                    str(out),
                    "--seed",
                    seed,
                    "--n-pairs",
                    "40",
                    "--no-progress",
                ]
            )
            == 0
        )
    for config in CORRUPTIONS:
        path = parquet_path(config, "test")
        assert (built / path).read_bytes() == (again / path).read_bytes()
        assert (built / path).read_bytes() != (other / path).read_bytes()
    assert (again / "README.md").read_bytes() == (built / "README.md").read_bytes()  # any folder


def test_build_all_and_cli_build_forward_options(tmp_path, monkeypatch, finder, seed_limericks):
    source = tmp_path / "three.txt"
    write_poems([limerick.text for limerick in seed_limericks[:3]], source)
    only_bpomp = {"bpomp": poetic_eval.builders.BUILDERS["bpomp"]}
    monkeypatch.setattr(poetic_eval.builders, "BUILDERS", only_bpomp)
    monkeypatch.setattr("poetic_eval.cli.build.BUILDERS", only_bpomp)
    out = tmp_path / "datasets"
    code = cli_main(
        ["build", "all", "--out", str(out), "--seed", "1", "--bpomp-source", str(source),
         "--n-pairs", "2", "--no-progress"]
    )  # fmt: skip
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["bpomp"]
    rows = datasets.load_dataset(
        str(out / "bpomp"), "line_swap", split="test", cache_dir=str(tmp_path / "hf")
    )
    assert rows.num_rows == 2
    card = (out / "bpomp" / "README.md").read_text(encoding="utf-8")
    assert (
        f"--source {source.name}" in card
        and str(source.parent) not in card
        and "license: other" in card
    )
    code = cli_main(
        ["build", "bpomp", "--source", str(source), "--out", str(tmp_path / "cli"),
         "--n-pairs", "9", "--no-progress"]
    )  # fmt: skip
    assert code == 0
    card = (tmp_path / "cli" / "README.md").read_text(encoding="utf-8")
    assert "3 pairs (9 requested; capped at one pair per source limerick)" in card


def test_license_options_reach_the_card(tmp_path, seed_limericks, capsys):
    source = tmp_path / "three.txt"
    write_poems([limerick.text for limerick in seed_limericks[:3]], source)
    build = ["build", "bpomp", "--source", str(source), "--n-pairs", "2", "--no-progress"]
    terms = ["--license-name", "my-limericks-1.0", "--license-link", "https://example.org/terms"]
    assert cli_main([*build, "--out", str(tmp_path / "named"), *terms]) == 0
    built = read_built_card(tmp_path / "named")
    header = built.card.data.to_dict()
    assert built.license == "other"
    assert (header["license"], header["license_name"], header["license_link"]) == (
        "other",
        "my-limericks-1.0",
        "https://example.org/terms",
    )
    card = (tmp_path / "named" / "README.md").read_text(encoding="utf-8")
    assert " ".join(terms) in card  # the recorded build command repeats them

    assert cli_main([*build, "--out", str(tmp_path / "half"), *terms[:2]]) == 1
    assert "--license-name needs --license-link too" in capsys.readouterr().err
    bundled = ["build", "bpomp", "--n-pairs", "2", "--no-progress", "--out", str(tmp_path / "b")]
    assert cli_main([*bundled, *terms]) == 1
    assert "are for license 'other', not 'cc-by-4.0'" in capsys.readouterr().err
    assert not (tmp_path / "half").exists() and not (tmp_path / "b").exists()


def test_failed_build_names_the_source_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"poem": "x"}]', encoding="utf-8")
    out = tmp_path / "out" / "bpomp"
    assert cli_main(["build", "bpomp", "--source", str(bad), "--out", str(out)]) == 1
    assert "bad.json: record 0: missing field 'limerick'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    prose = tmp_path / "prose.txt"
    prose.write_text("Not a limerick at all.\n", encoding="utf-8")
    assert cli_main(["build", "bpomp", "--source", str(prose), "--out", str(out)]) == 1
    assert "no verified limericks" in capsys.readouterr().err
    assert not out.exists()


def test_build_help_lists_the_declared_options(repo_root):
    result = subprocess.run(
        [sys.executable, "-m", "poetic_eval.cli", "build", "bpomp", "--help"],
        cwd=repo_root, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "--n-pairs N_PAIRS" in result.stdout and "--source PATH" in result.stdout
    assert "pairs per config, capped by what the source allows" in result.stdout
