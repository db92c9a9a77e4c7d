"""BLM evaluation from files and dataset folders: the ``blm-eval`` command and the report
section.
"""

from __future__ import annotations

import copy
import json

import datasets
import pytest
from blm_eval_items import AGREEMENT_ITEM, CAUSATIVE_ITEM, RECORDS, RELEASE_ITEM, broken

from poetic_eval.blm import LETTERS, blm_results, evaluate_blm, evaluate_configs, evaluate_sets
from poetic_eval.blm.answer_labels import answer_labels
from poetic_eval.blm.item_sources import load_evaluation_sets
from poetic_eval.cli import main
from poetic_eval.report import append_section, load_report, new_report
from poetic_eval.report.document import render_markdown, save_report
from poetic_eval.report.sections.blm import blm_section

pytestmark = pytest.mark.usefixtures("one_torch_thread")


# --- files, dataset folders, the command line, the report -----------------------------------------


@pytest.fixture(scope="module")
def model_folder(tmp_path_factory, lm):
    folder = tmp_path_factory.mktemp("italian_llama")
    lm.model.save_pretrained(folder)
    lm.tokenizer.save_pretrained(folder)
    return folder


def write_dataset_folder(root, configs=("agr_ii",)):
    """A hub-style folder; each config has train: the agreement item, test: the other two."""
    splits = {"train": [AGREEMENT_ITEM], "test": [CAUSATIVE_ITEM, RELEASE_ITEM]}
    labelled = copy.deepcopy(splits)
    labelled["test"][1]["Answer_set_annotation"] = [
        {
            "label": "Correct" if letter == "A" else "IR-trans",
            "value": letter == "A",
            "option": letter,
        }
        for letter in LETTERS
    ]
    card = ["---", "configs:"]
    for config in configs:
        (root / "data" / config).mkdir(parents=True, exist_ok=True)
        card += [f"- config_name: {config}", "  data_files:"]
        for split, records in labelled.items():
            rows = [{**r, "ID": str(r["ID"]), "Verb": r.get("Verb", "")} for r in records]
            path = f"data/{config}/{split}-00000-of-00001.parquet"
            datasets.Dataset.from_list(rows).to_parquet(root / path)
            card += [f"  - split: {split}", f"    path: {path}"]
    (root / "README.md").write_text("\n".join([*card, "---", ""]))
    return root


def test_cli_json_on_a_release_file(tmp_path, model_folder, lm, capsys):
    source = tmp_path / "blm_release.json"
    source.write_text(json.dumps(RECORDS, ensure_ascii=False), encoding="utf-8")
    code = main(
        [
            "blm-eval",
            "--items",
            str(source),
            "--model",
            str(model_folder),
            "--device",
            "cpu",
            "--method",
            "candidates",
            "--json",
            "--no-progress",
        ]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    expected = evaluate_blm(RECORDS, lm, method="candidates", show_progress=False)
    assert printed["config"] == "blm_release"
    for key in ("accuracy", "macro_f1", "n", "by_label", "predictions", "method", "reduction"):
        assert printed[key] == expected[key]
    assert set(printed["predictions"][0]) == {"ID", "predicted", "correct", "label"}
    assert sum(entry["count"] for entry in printed["by_label"].values()) == 3


def test_cli_one_shot_on_a_dataset_folder(tmp_path, model_folder, lm, capsys):
    root = write_dataset_folder(tmp_path / "blm")
    [evaluation_set] = load_evaluation_sets(root, ["agr_ii"], one_shot=True)
    assert evaluation_set.example.id == "agr-1"
    assert [item.id for item in evaluation_set.items] == ["caus-7", "215"]
    assert answer_labels(evaluation_set.items[1])[LETTERS.index("B")] == "IR-trans"
    code = main(
        [
            "blm-eval",
            "--items",
            str(root),
            "--config",
            "agr_ii",
            "--shots",
            "1",
            "--language",
            "it",
            "--model",
            str(model_folder),
            "--device",
            "cpu",
            "--json",
            "--no-progress",
        ]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    expected = evaluate_blm(
        evaluation_set.items, lm, language="it", example=evaluation_set.example, show_progress=False
    )
    assert printed["predictions"] == expected["predictions"]
    assert (printed["shots"], printed["language"], printed["n"]) == (1, "it", 2)
    table = datasets.load_dataset(str(root), "agr_ii", split="test")
    assert evaluate_blm(table, lm, show_progress=False)["n"] == 2  # rows of a Dataset are records
    code = main(
        [
            "blm-eval",
            "--items",
            str(root),
            "--model",
            str(model_folder),
            "--device",
            "cpu",
            "--limit",
            "1",
            "--no-progress",
        ]
    )
    assert code == 0
    table = capsys.readouterr().out
    assert "method: prompt (0-shot, en)" in table and "agr_ii" in table and "Correct" in table


def test_cli_json_pools_several_configs(tmp_path, model_folder, lm, capsys):
    root = write_dataset_folder(tmp_path / "blm", configs=("agr_ii", "od_iii"))
    code = main(
        ["blm-eval", "--items", str(root), "--model", str(model_folder), "--device", "cpu"]
        + ["--method", "candidates", "--reduction", "mean", "--json", "--no-progress"]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert sorted(printed["by_config"]) == ["agr_ii", "od_iii"]
    assert printed["n"] == 4 and printed["reduction"] == "mean"
    assert [p["config"] for p in printed["predictions"]] == ["agr_ii"] * 2 + ["od_iii"] * 2
    one = printed["by_config"]["od_iii"]
    expected = evaluate_blm(
        load_evaluation_sets(root, ["od_iii"])[0].items,
        lm,
        method="candidates",
        reduction="mean",
        show_progress=False,
    )
    assert (one["accuracy"], one["macro_f1"], one["n"]) == (
        expected["accuracy"],
        expected["macro_f1"],
        2,
    )
    pooled = blm_results(
        [p["predicted"] for p in printed["predictions"]],
        [p["correct"] for p in printed["predictions"]],
    )
    assert printed["macro_f1"] == pytest.approx(pooled["macro_f1"])


def test_cli_errors(tmp_path, model_folder, capsys):
    root = write_dataset_folder(tmp_path / "blm")
    assert (
        main(["blm-eval", "--items", str(root), "--config", "od_iv", "--model", str(model_folder)])
        == 1
    )
    assert "unknown config 'od_iv'; choices: agr_ii" in capsys.readouterr().err
    source = tmp_path / "bad.json"
    source.write_text(json.dumps([RELEASE_ITEM, broken(Correct_option="Z")]))
    assert main(["blm-eval", "--items", str(source), "--model", str(model_folder)]) == 1
    assert "'agr-1'" in capsys.readouterr().err
    assert main(["blm-eval", "--items", str(source), "--method", "candidates", "--shots", "1"]) == 1
    assert "--shots 1 applies to --method prompt" in capsys.readouterr().err
    assert main(["blm-eval", "--items", str(tmp_path / "missing.json")]) == 1
    for option in ("--limit", "--batch-size"):
        with pytest.raises(SystemExit):
            main(["blm-eval", "--items", str(source), option, "0"])
        assert f"{option}: " in capsys.readouterr().err


def test_report_section(tmp_path, lm):
    root = write_dataset_folder(tmp_path / "blm")
    results = evaluate_configs(root, lm, show_progress=False)
    assert [(r["config"], r["method"], r["n"]) for r in results] == [
        ("agr_ii", "prompt", 2),
        ("agr_ii", "candidates", 2),
    ]
    one_shot = load_evaluation_sets(root, one_shot=True)
    [prompted] = evaluate_sets(one_shot, lm, settings=[{"method": "prompt"}], show_progress=False)
    expected = evaluate_blm(one_shot[0].items, lm, example=one_shot[0].example, show_progress=False)
    assert prompted == {"config": "agr_ii", **expected} and prompted["shots"] == 1
    section = blm_section(results)
    [table] = section.tables
    assert table.columns[:5] == ["config", "method", "n", "accuracy", "macro-F1"]
    assert [row[1] for row in table.rows] == ["prompt (0-shot, en)", "candidates (sum)"]
    assert table.rows[0][3] == results[0]["accuracy"]
    assert table.rows[1][4] == results[1]["macro_f1"]
    save_report(new_report("test"), tmp_path / "report")
    append_section(tmp_path / "report", "blm", section)
    markdown = render_markdown(load_report(tmp_path / "report"))
    assert "Blackbird Language Matrices" in markdown and "candidates (sum)" in markdown
