"""``poetic-eval build blm``: a hub folder that load_dataset reads back, row for row."""

from __future__ import annotations

import json

import datasets
import pytest

from poetic_eval.blm import BlmSizes, generate_config, read_blm_items
from poetic_eval.builders import BUILDERS
from poetic_eval.cli import main as cli_main

ARGS = [
    "--agreement-items",
    "16",
    "--agreement-few-shot",
    "2",
    "--items-per-verb",
    "2",
    "--max-verbs",
    "3",
]
SIZES = BlmSizes(agreement_items=16, agreement_few_shot=2, items_per_verb=2, max_verbs=3)
CONFIGS = ["agr_ii", "agr_iii", "caus_ii", "caus_iii", "od_ii", "od_iii"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("datasets") / "blm"
    assert cli_main(["build", "blm", "--out", str(out), "--seed", "4", "--no-progress", *ARGS]) == 0
    return out


def test_builder_is_registered_for_build_all():
    assert "blm" in BUILDERS


@pytest.mark.parametrize("config", CONFIGS)
def test_round_trip_through_load_dataset(built, config):
    loaded = datasets.load_dataset(str(built), config)
    expected = generate_config(config, seed=4, sizes=SIZES)
    assert set(loaded) == {"train", "test"}
    for split, rows in expected.items():
        assert loaded[split].num_rows == len(rows)
        assert [dict(row) for row in loaded[split]] == rows
    assert loaded["train"].num_rows == 2  # AgrI: 2 drawn items; CausI/OdI: 1 verb x 2 items
    assert loaded["test"].num_rows == (14 if config.startswith("agr") else 4)


def test_card_lists_configs_examples_labels_and_command(built):
    card = (built / "README.md").read_text(encoding="utf-8")
    for config in CONFIGS:
        assert f"config_name: {config}" in card
        assert f"### `{config}`" in card
    assert card.count("```text") == 3 * len(CONFIGS)
    for label in ("AEN2", "WNA", "Coord", "IE-WrBy", "IER-pass", "I-Int"):
        assert f"| `{label}` |" in card
    assert "--agreement-items 16" in card and "--seed 4" in card
    assert "caus_ii: train verb(s)" in card


def test_card_label_counts_are_of_the_test_split_and_say_so(built):
    card = (built / "README.md").read_text(encoding="utf-8")
    assert "in the\n`test` split" in card and "| label | `test` answers | rule broken |" in card
    # every item has each label once: AgrI 2 configs x 14 test items, CausI and OdI each
    # 2 x 4 (with the train split they would be 2 x 16 and 2 x 6)
    assert "| `WNA` | 28 |" in card and "| `Coord` | 28 |" in card
    assert "| `IE-WrBy` | 8 |" in card and "| `I-Int` | 8 |" in card
    assert "**CausI (`caus_*`)**" in card and "**OdI (`od_*`)**" in card
    # the patterns the data uses, per label: the correct answer's da phrase is a time or da solo
    correct = next(line for line in card.splitlines() if line.startswith("| `Correct` | 8 |"))
    assert "`Pat Intr da-" in correct


def test_card_reports_both_baselines_and_the_rates(built):
    card = (built / "README.md").read_text(encoding="utf-8")
    assert "| config | items | verbs | random half | no shared verb | chance |" in card
    assert "$shortcut_baseline" not in card and "$profile" not in card
    assert "| BLM-It release | 25-50 % |" in card
    # the last independent reading: its sample seed, counts and the protocol for the next one
    assert "sample seed 6322" in card and "commit 6a8533d" in card
    assert "and 2 were odd** (0.7 %, 0.5 % and 0.3 %" in card and "**0, 0 and 0**" in card
    assert "scripts/sample_blm_for_reading.py" in card


def test_rows_are_release_format_records(built, tmp_path):
    rows = [dict(row) for row in datasets.load_dataset(str(built), "od_ii", split="test")]
    path = tmp_path / "od_ii.json"
    path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    items = read_blm_items(path)
    assert [item.id for item in items] == [row["ID"] for row in rows]
    assert all(item.labels[item.correct_index] == "Correct" for item in items)
    assert all(item.verb for item in items)


def test_same_seed_same_bytes(built, tmp_path):
    again = tmp_path / "blm"
    assert (
        cli_main(["build", "blm", "--out", str(again), "--seed", "4", "--no-progress", *ARGS]) == 0
    )
    for path in sorted(built.rglob("*.parquet")):
        assert (again / path.relative_to(built)).read_bytes() == path.read_bytes()
    assert (again / "README.md").read_bytes() == (built / "README.md").read_bytes()


def test_bad_sizes_are_refused(tmp_path, capsys):
    status = cli_main(
        [
            "build",
            "blm",
            "--out",
            str(tmp_path / "x"),
            "--agreement-few-shot",
            "20",
            "--agreement-items",
            "10",
        ]
    )
    assert status == 1
    assert "agreement_few_shot" in capsys.readouterr().err


def test_release_text_format_is_tokenised_and_read_by_blm_eval(built, tmp_path):
    """``--text-format release`` writes the release's tokenised form of the same items, and
    blm-eval's loader reads a folder and a JSON file of either form."""
    from poetic_eval.blm.item_sources import load_evaluation_sets
    from poetic_eval.blm.text_forms import release_form

    released = tmp_path / "blm"
    args = ["blm", "--out", str(released), "--seed", "4", "--no-progress", "--text-format"]
    assert cli_main(["build", *args, "release", *ARGS]) == 0
    card = (released / "README.md").read_text(encoding="utf-8")
    assert "release's tokenised form (`--text-format release`)" in card
    assert "The rows are natural Italian" in (built / "README.md").read_text(encoding="utf-8")
    for folder, form in ((built, lambda text: text), (released, release_form)):
        natural = generate_config("agr_ii", seed=4, sizes=SIZES)["test"]
        [evaluation_set] = load_evaluation_sets(folder, ["agr_ii"])
        assert [list(item.answers) for item in evaluation_set.items] == [
            [form(s.split("\t", 1)[1]) for s in row["Answer_set"]] for row in natural
        ]
        rows = [dict(r) for r in datasets.load_dataset(str(folder), "caus_ii", split="test")]
        path = tmp_path / "caus_ii.json"
        path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
        [file_set] = load_evaluation_sets(path)
        assert [item.context for item in file_set.items] == [
            tuple(s.split("\t", 1)[1] for s in row["Context"]) for row in rows
        ]
    sentence = load_evaluation_sets(released, ["agr_iii"])[0].items[0].answers[0]
    assert sentence.endswith(" .") and "'" not in sentence.replace("' ", "")
