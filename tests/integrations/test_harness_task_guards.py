"""harness-tasks on crafted and damaged dataset folders (issue 24, items 2, 18 and 22): a card's
``config_name`` never becomes a path outside ``--out``, a truncated parquet is named, and the
printed command is shell-quoted."""

from __future__ import annotations

import shlex

import datasets
import pytest

from poetic_eval.cli import main
from poetic_eval.files.names import UnsafeNameError
from poetic_eval.hub import ConfigData, HubDataset, write_hub_dataset
from poetic_eval.integrations.harness_tasks import write_harness_tasks

FEATURES = datasets.Features({"good": datasets.Value("string"), "bad": datasets.Value("string")})


def built_folder(root, name="toy"):
    root.mkdir(parents=True, exist_ok=True)
    card = root / "card.md"
    card.write_text("A card.\n")
    rows = [{"good": f"good {i}", "bad": f"bad {i}"} for i in range(5)]
    dataset = HubDataset(
        name=name,
        pretty_name=name,
        configs=[ConfigData("pairs", FEATURES, {"test": rows})],
        seed=0,
        card_template=card,
    )
    return write_hub_dataset(dataset, root / "datasets" / name, build_command="test")


def test_a_card_config_name_that_is_a_path_writes_nothing(tmp_path):
    folder = built_folder(tmp_path)
    card = folder / "README.md"
    card.write_text(card.read_text().replace("config_name: pairs", "config_name: ../../../x"))
    out = tmp_path / "deep" / "er" / "tasks"
    with pytest.raises(UnsafeNameError, match=r"README\.md: config_name '\.\./\.\./\.\./x'"):
        write_harness_tasks(tmp_path / "datasets", out)
    assert not list(tmp_path.rglob("x.yaml")) and not out.exists()


def test_a_data_file_path_leaving_the_folder_is_refused(tmp_path):
    folder = built_folder(tmp_path)
    (tmp_path / "outside.parquet").write_bytes(
        (folder / "data/pairs/test-00000-of-00001.parquet").read_bytes()
    )
    card = folder / "README.md"
    listed = "path: data/pairs/test-00000-of-00001.parquet"
    card.write_text(card.read_text().replace(listed, "path: ../../outside.parquet"))
    with pytest.raises(UnsafeNameError, match="outside"):
        write_harness_tasks(tmp_path / "datasets", tmp_path / "tasks")


@pytest.mark.parametrize("damage", ["truncated", "empty"])
def test_a_damaged_parquet_is_named(tmp_path, damage, capsys):
    folder = built_folder(tmp_path)
    data = folder / "data/pairs/test-00000-of-00001.parquet"
    content = data.read_bytes()
    data.write_bytes(content[: len(content) // 2] if damage == "truncated" else b"")
    code = main(
        [
            "harness-tasks",
            "--datasets",
            str(tmp_path / "datasets"),
            "--out",
            str(tmp_path / "tasks"),
        ]
    )
    assert code != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(data) in err[0] and "not a readable parquet file" in err[0]


def test_the_printed_command_is_shell_quoted(tmp_path, capsys):
    built_folder(tmp_path / "with space")
    out = tmp_path / "task configs; rm -rf x"
    code = main(
        [
            "harness-tasks",
            "--datasets",
            str(tmp_path / "with space" / "datasets"),
            "--out",
            str(out),
        ]
    )
    assert code == 0
    line = next(l for l in capsys.readouterr().out.splitlines() if l.strip().startswith("lm_eval"))
    words = shlex.split(line)
    assert words[words.index("--include_path") + 1] == str(out.resolve())
    assert words[words.index("--tasks") + 1] == "poetic_eval_toy"
