"""A built folder's card is parsed once per command into one object, and a malformed card gives
one line naming the card and the field, whichever command reads it (issue 38; issue 39: a card
that does not parse was left out of harness-tasks without a word, an absolute data_files path
gave NotImplementedError)."""

from __future__ import annotations

import builtins
import pathlib
from collections import Counter

import datasets
import pyarrow.parquet as pq
import pytest

from poetic_eval.cli import main
from poetic_eval.errors import CardError, DataFileError
from poetic_eval.files import BuiltCard, find_built_card, load_built_config, read_built_card
from poetic_eval.hub import ConfigData, HubDataset, plan_dataset_uploads, write_hub_dataset
from poetic_eval.hub.eval_yaml import benchmark_tasks
from poetic_eval.integrations.harness_tasks import dataset_tasks, write_harness_tasks
from poetic_eval.pairs.pair_tables import load_pair_tables

FEATURES = datasets.Features({"good": datasets.Value("string"), "bad": datasets.Value("string")})
LISTED = "path: data/pairs/test-00000-of-00001.parquet"


def built_folder(root, name="toy", n_rows=5, license="cc-by-4.0"):
    root.mkdir(parents=True, exist_ok=True)
    template = root / "card.md"
    template.write_text("A card.\n")
    rows = [{"good": f"good {i}", "bad": f"bad {i}"} for i in range(n_rows)]
    dataset = HubDataset(
        name=name,
        pretty_name=name,
        configs=[
            ConfigData("pairs", FEATURES, {"test": rows}),
            ConfigData("more", FEATURES, {"train": rows[:2], "test": rows[2:]}),
        ],
        seed=0,
        card_template=template,
        license=license,
    )
    return write_hub_dataset(dataset, root / "datasets" / name, build_command="test")


def damage(folder, old, new):
    card = folder / "README.md"
    text = card.read_text(encoding="utf-8")
    assert old in text, text
    card.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_card_object_holds_configs_files_counts_infos_and_license(tmp_path):
    folder = built_folder(tmp_path)
    card = read_built_card(folder)
    assert isinstance(card, BuiltCard) and card.folder == folder
    assert card.config_names == ["pairs", "more"]
    assert card.config("more").data_files == {
        "train": ("data/more/train-00000-of-00001.parquet",),
        "test": ("data/more/test-00000-of-00001.parquet",),
    }
    assert card.data_files("pairs") == {
        "test": [folder.resolve() / "data/pairs/test-00000-of-00001.parquet"]
    }
    assert card.counts("more") == {"train": 2, "test": 3}
    assert card.columns == {"pairs": {"good", "bad"}, "more": {"good", "bad"}}
    assert card.license == "cc-by-4.0"
    assert len(card.listed_paths) == 3
    loaded = load_built_config(card, "more")
    assert {split: len(table) for split, table in loaded.items()} == {"train": 2, "test": 3}


def test_short_forms_of_data_files_mean_split_train(tmp_path):
    folder = built_folder(tmp_path)
    damage(folder, "  - split: test\n    " + LISTED, "  - data/pairs/*.parquet")
    assert read_built_card(folder).config("pairs").data_files == {
        "train": ("data/pairs/*.parquet",)
    }


def test_a_card_that_is_not_utf8_is_named_a_readme_without_header_is_not_a_card(tmp_path):
    folder = built_folder(tmp_path)
    card = folder / "README.md"
    card.write_bytes(card.read_bytes().replace(b"A card.", b"A caf\xe9 card."))
    with pytest.raises(CardError, match=r"README\.md is not UTF-8 \(byte \d+\)"):
        find_built_card(folder)
    card.write_bytes(b"# caf\xe9: a plain README, no header\n")
    assert find_built_card(folder) is None


def test_a_folder_without_a_card_header_is_no_built_folder(tmp_path):
    (tmp_path / "README.md").write_text("# BLiMP\nplain readme, no YAML header\n")
    assert find_built_card(tmp_path) is None
    (tmp_path / "README.md").write_text("---\nlicense: mit\n---\nno configs\n")
    assert find_built_card(tmp_path) is None
    with pytest.raises(CardError, match=r"README\.md: no configs: header"):
        read_built_card(tmp_path)


MALFORMED = {
    "yaml": ("configs:", "configs: [\n", r"README\.md: the YAML header does not parse"),
    "configs not a list": (
        "configs:\n- config_name: pairs",
        "configs: {pairs: 1}\nx:\n- config_name: pairs",
        r"README\.md: configs must be a non-empty list, got a dict",
    ),
    "entry not a mapping": (
        "- config_name: pairs\n",
        "- just a string\n- config_name: pairs\n",
        r"README\.md: configs\[0\] must be a mapping",
    ),
    "no config_name": (
        "- config_name: pairs\n",
        "- config_nam: pairs\n",
        r"README\.md: configs\[0\]\.config_name must be a string, got None",
    ),
    "data_files a number": (
        "  data_files:\n  - split: test\n    " + LISTED,
        "  data_files: 3",
        r"README\.md: configs\[0\]\.data_files must be a path, a list of paths",
    ),
    "absolute path": (
        LISTED,
        "path: /etc/passwd",
        r"README\.md: configs\[0\]\.data_files: '/etc/passwd' is absolute",
    ),
    "dataset_info": (
        "dataset_info:\n",
        "dataset_info: 7\nx:\n",
        r"README\.md: dataset_info does not",
    ),
}


def readers(datasets_dir, folder, out):
    """Every reader of a built folder, as the commands call it."""
    return {
        "read_built_card": lambda: read_built_card(folder),
        "find_built_card": lambda: find_built_card(folder),
        "pair tables (score-pairs)": lambda: load_pair_tables(str(folder), None, None),
        "harness tasks": lambda: write_harness_tasks(datasets_dir, out),
        "publish plan": lambda: plan_dataset_uploads(datasets_dir, "org"),
    }


@pytest.mark.parametrize("case", MALFORMED)
def test_a_malformed_card_gives_one_message_naming_the_field_in_every_reader(tmp_path, case):
    folder = built_folder(tmp_path)
    old, new, message = MALFORMED[case]
    damage(folder, old, new)
    for name, read in readers(tmp_path / "datasets", folder, tmp_path / "tasks").items():
        with pytest.raises(CardError, match=message) as raised:
            read()
        assert "\n" not in str(raised.value), name
        assert isinstance(raised.value, ValueError)
    assert not (tmp_path / "tasks").exists()


def test_the_blm_item_sources_name_the_malformed_field_too(tmp_path):
    from poetic_eval.blm.item_sources import load_evaluation_sets

    folder = built_folder(tmp_path)
    damage(folder, "configs:", "configs: [\n")
    with pytest.raises(CardError, match=r"README\.md: the YAML header does not parse"):
        load_evaluation_sets(folder)


def test_harness_tasks_names_a_card_that_does_not_parse_instead_of_leaving_it_out(tmp_path, capsys):
    broken = built_folder(tmp_path, "broken")
    built_folder(tmp_path, "fine")
    damage(broken, "configs:", "configs: [\n")
    argv = ["harness-tasks", "--datasets", str(tmp_path / "datasets"), "--out", str(tmp_path / "t")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("poetic-eval harness-tasks: error: ") and err.count("\n") == 1
    assert f"{broken / 'README.md'}: the YAML header does not parse" in err
    assert not (tmp_path / "t").exists()


def test_an_absolute_data_file_path_is_one_line_not_a_traceback(tmp_path, capsys):
    folder = built_folder(tmp_path)
    absolute = f"path: {folder}/data/pairs/test-00000-of-00001.parquet"
    damage(folder, LISTED, absolute)
    argv = ["harness-tasks", "--datasets", str(tmp_path / "datasets"), "--out", str(tmp_path / "t")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "NotImplementedError" not in err
    assert "configs[0].data_files: " in err and "is absolute" in err


def test_score_pairs_on_a_card_that_does_not_parse_names_the_card(tmp_path):
    """It used to read the folder as a plain folder of files and score the parquet files."""
    folder = built_folder(tmp_path)
    damage(folder, "configs:", "configs: [\n")
    with pytest.raises(CardError, match="does not parse") as raised:
        load_pair_tables(str(folder), None, None)
    assert "no such file" not in str(raised.value)


@pytest.mark.parametrize("org", ["../my org", "a/b", "my org", "x-", "x--y", ""])
def test_harness_tasks_refuses_an_org_that_is_no_hub_name(tmp_path, capsys, org):
    built_folder(tmp_path)
    out = tmp_path / "t"
    argv = ["harness-tasks", "--datasets", str(tmp_path / "datasets"), "--out", str(out)]
    assert main([*argv, "--org", org]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"poetic-eval harness-tasks: error: org {org!r} is not a hub user")
    assert not out.exists()
    assert main([*argv, "--org", "my-org.2"]) == 0
    assert (
        "dataset_path: my-org.2/toy"
        in (out / "poetic_eval_toy/_minimal_pairs_template_yaml").read_text()
    )


@pytest.fixture()
def card_reads(monkeypatch):
    """Counts the opens of every README.md, by folder, through pathlib and open()."""
    counts: Counter = Counter()
    path_open, plain_open = pathlib.Path.open, builtins.open

    def counted_path_open(self, *args, **kwargs):
        if self.name == "README.md":
            counts[self.parent.resolve()] += 1
        return path_open(self, *args, **kwargs)

    def counted_open(file, *args, **kwargs):
        if isinstance(file, (str, pathlib.Path)) and pathlib.Path(file).name == "README.md":
            counts[pathlib.Path(file).parent.resolve()] += 1
        return plain_open(file, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "open", counted_path_open)
    monkeypatch.setattr(builtins, "open", counted_open)
    return counts


def test_each_command_reads_a_folder_card_once(tmp_path, card_reads, capsys):
    folders = [built_folder(tmp_path, name).resolve() for name in ("alpha", "beta")]
    datasets_dir = tmp_path / "datasets"

    def reads_of(run):
        card_reads.clear()
        run()
        return {folder.name: card_reads[folder] for folder in folders}

    once = {"alpha": 1, "beta": 1}
    argv = ["harness-tasks", "--datasets", str(datasets_dir), "--out", str(tmp_path / "t")]
    assert reads_of(lambda: main(argv)) == once
    dry_run = ["publish", "--datasets", str(datasets_dir), "--org", "o", "--dry-run"]
    assert reads_of(lambda: main(dry_run)) == once
    assert reads_of(lambda: load_pair_tables(str(folders[0]), None, None)) == {
        "alpha": 1,
        "beta": 0,
    }
    assert reads_of(lambda: load_pair_tables(str(folders[1]), ["more"], "train")) == {
        "alpha": 0,
        "beta": 1,
    }
    capsys.readouterr()


@pytest.fixture()
def footer_reads(monkeypatch):
    """Counts, by resolved file path, the parquet footers read through pyarrow.parquet's entry
    points (read_metadata, read_schema, ParquetFile), as the package calls them."""
    counts: Counter = Counter()

    def counted(read):
        def reading(source, *args, **kwargs):
            counts[pathlib.Path(source).resolve()] += 1
            return read(source, *args, **kwargs)

        return reading

    for name in ("read_metadata", "read_schema", "ParquetFile"):
        monkeypatch.setattr(pq, name, counted(getattr(pq, name)))
    return counts


def test_publish_planning_reads_each_parquet_footer_once(tmp_path, footer_reads, capsys):
    """The file check, the row count against the card and the eval.yaml's columns share one
    read (they were three)."""
    folder = built_folder(tmp_path).resolve()
    plans = plan_dataset_uploads(tmp_path / "datasets", "o")
    assert not plans[0].problems and any(f.path_in_repo == "eval.yaml" for f in plans[0].files)
    parquet = sorted(folder.rglob("*.parquet"))
    assert parquet and {path: footer_reads[path] for path in parquet} == dict.fromkeys(parquet, 1)


def test_a_config_without_files_is_refused_by_both_task_writers(tmp_path):
    """The harness tasks and the hub's eval.yaml read the configs through one function."""
    folder = built_folder(tmp_path)
    for path in folder.rglob("*.parquet"):
        path.unlink()
    card = read_built_card(folder)
    for tasks in (dataset_tasks, benchmark_tasks):
        with pytest.raises(DataFileError, match="config 'pairs' lists no existing parquet file"):
            tasks(card)
