"""Names read from data never become paths outside their folder (issue 24, items 1 and 2): a
BLiMP / refining-tse ``UID``, a config or split name of a dataset, a card's ``config_name``."""

from __future__ import annotations

import json

import datasets
import pytest

from poetic_eval.cli import main as cli_main
from poetic_eval.files.names import UnsafeNameError, checked_name, inside
from poetic_eval.hub import ConfigData, HubDataset, write_hub_dataset

UNSAFE = ["../x", "../../bpomp/data/line_swap", "a/b", "a\\b", "..", ".hidden", "", "a\x00b", 3]


@pytest.mark.parametrize("name", UNSAFE)
def test_unsafe_names_are_refused_naming_the_source(name):
    with pytest.raises(UnsafeNameError, match=r"file\.jsonl, line 4: config name"):
        checked_name(name, "config name", "file.jsonl, line 4")


@pytest.mark.parametrize(
    "name", ["simple_agrmt", "regular_plural_subject_verb_agreement_1", "v1.2", "a-b+c"]
)
def test_safe_names_pass(name):
    assert checked_name(name, "config name", "here") == name


def test_inside_refuses_a_path_through_a_link_out_of_the_root(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "out").symlink_to(tmp_path)
    assert inside(root, "data/x.parquet") == root.resolve() / "data/x.parquet"
    with pytest.raises(UnsafeNameError, match="outside"):
        inside(root, "out/x.parquet")
    with pytest.raises(UnsafeNameError, match="outside"):
        inside(root, "../x.parquet")


def _blimp_line(uid: str) -> str:
    record = {
        "sentence_good": "The cat sings.",
        "sentence_bad": "The cat sing.",
        "UID": uid,
        "two_prefix_method": False,
    }
    return json.dumps(record) + "\n"


@pytest.mark.parametrize("uid", ["../../bpomp/data/line_swap", "../../../../x"])
def test_build_agreement_refuses_a_uid_that_is_a_path(tmp_path, uid, capsys):
    """A UID of ../../bpomp/data/line_swap overwrote another dataset's parquet (exit 0)."""
    datasets_dir = tmp_path / "datasets"
    victim = datasets_dir / "bpomp" / "data" / "line_swap"
    victim.mkdir(parents=True)
    (victim / "test-00000-of-00001.parquet").write_bytes(b"someone else's data")
    source = tmp_path / "blimp"
    source.mkdir()
    (source / "paradigm.jsonl").write_text(_blimp_line("fine_family") * 2 + _blimp_line(uid))
    code = cli_main(
        ["build", "agreement", "--source", str(source), "--out", str(datasets_dir / "agreement")]
    )
    assert code != 0
    err = capsys.readouterr().err
    assert "paradigm.jsonl, line 3" in err and repr(uid) in err
    assert (victim / "test-00000-of-00001.parquet").read_bytes() == b"someone else's data"
    assert not (datasets_dir / "agreement").exists()
    assert sorted(p.name for p in tmp_path.rglob("*.parquet")) == ["test-00000-of-00001.parquet"]


@pytest.mark.parametrize(
    "config, split", [("../evil", "test"), ("ok", "../../evil"), ("ok", "a/b")]
)
def test_the_dataset_writer_refuses_unsafe_config_and_split_names(tmp_path, config, split):
    card = tmp_path / "card.md"
    card.write_text("A card.\n")
    features = datasets.Features({"good": datasets.Value("string")})
    dataset = HubDataset(
        name="toy",
        pretty_name="Toy",
        configs=[ConfigData(config, features, {split: [{"good": "a"}]})],
        seed=0,
        card_template=card,
    )
    with pytest.raises(UnsafeNameError, match="dataset 'toy'"):
        write_hub_dataset(dataset, tmp_path / "out" / "toy", build_command="test")
    assert not (tmp_path / "out").exists() and not (tmp_path / "evil").exists()
