"""The hub dataset writer: layout, card YAML, offline loading, determinism, atomic builds."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
import yaml

from poetic_eval.builders import BUILDERS, RegisteredBuilder, builder_module
from poetic_eval.builders.options import BuildConfig, declared_options, option, recorded_command
from poetic_eval.files.dataset_cards import read_built_card
from poetic_eval.hub import ConfigData, HubDataset, write_hub_dataset
from poetic_eval.hub.cards import parquet_path, size_category

FEATURES = datasets.Features(
    {
        "sentence": datasets.Value("string"),
        "label": datasets.ClassLabel(names=["singular", "plural"]),
        "detail": {
            "positions": datasets.List(datasets.Value("int32")),
            "note": datasets.Value("string"),
        },
    }
)


def random_rows(rng: random.Random, n: int) -> list[dict]:
    words = ["cat", "dogs", "sing", "sings", "é", "naïve", "  spaced  ", ""]
    return [
        {
            "sentence": " ".join(rng.choice(words) for _ in range(rng.randint(0, 6))),
            "label": rng.choice(["singular", "plural", 0, 1]),
            "detail": {
                "positions": [rng.randint(0, 9) for _ in range(rng.randint(0, 3))],
                "note": rng.choice(["", "x", "a\nb"]),
            },
        }
        for _ in range(n)
    ]


@pytest.fixture()
def card_template(tmp_path):
    path = tmp_path / "card.md"
    path.write_text("A test dataset about $topic.\n", encoding="utf-8")
    return path


def make_dataset(card_template, seed: int = 0, sources=()) -> HubDataset:
    rng = random.Random(seed)
    return HubDataset(
        name="toy",
        pretty_name="Toy pairs",
        configs=[
            ConfigData("first", FEATURES, {"test": random_rows(rng, 40)}, "first config"),
            ConfigData(
                "second",
                FEATURES,
                {"train": random_rows(rng, 7), "test": random_rows(rng, 25)},
            ),
        ],
        seed=seed,
        sources=list(sources),
        card_template=card_template,
        card_values={"topic": "agreement"},
        report=["dropped 2 rows: too short"],
    )


def read_card(folder):
    text = (folder / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    header, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(header), body


def test_layout_card_and_offline_loading(tmp_path, card_template):
    source = tmp_path / "source.txt"
    source.write_text("some source\n", encoding="utf-8")
    dataset = make_dataset(card_template, sources=[source])
    folder = write_hub_dataset(dataset, tmp_path / "out" / "toy", build_command="make it")

    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert files == [
        "README.md",
        parquet_path("first", "test"),
        parquet_path("second", "test"),
        parquet_path("second", "train"),
    ]
    metadata, body = read_card(folder)
    assert metadata["pretty_name"] == "Toy pairs"
    assert metadata["license"] == "cc-by-4.0"
    assert metadata["language"] == ["en"]
    assert metadata["task_categories"] == ["text-classification"]
    assert metadata["size_categories"] == ["n<1K"]
    assert [c["config_name"] for c in metadata["configs"]] == ["first", "second"]
    assert metadata["configs"][1]["data_files"] == [
        {"split": "train", "path": "data/second/train-00000-of-00001.parquet"},
        {"split": "test", "path": "data/second/test-00000-of-00001.parquet"},
    ]
    info = {c["config_name"]: c for c in metadata["dataset_info"]}
    assert datasets.Features._from_yaml_list(info["first"]["features"]) == FEATURES
    assert {s["name"]: s["num_examples"] for s in info["second"]["splits"]} == {
        "train": 7,
        "test": 25,
    }
    assert "A test dataset about agreement." in body
    assert "make it" in body and "dropped 2 rows: too short" in body
    assert hashlib.sha256(source.read_bytes()).hexdigest() in body

    for config in dataset.configs:
        loaded = datasets.load_dataset(str(folder), config.name)
        assert list(loaded) == list(config.splits)
        for split, rows in config.splits.items():
            assert loaded[split].features == FEATURES
            expected = [FEATURES.encode_example(row) for row in rows]
            assert loaded[split].to_list() == expected


def test_a_single_config_card_has_the_same_shape_and_is_read_back(tmp_path, card_template):
    """One config: dataset_info stays a list (datasets alone would write a mapping), and the
    card readers and load_dataset agree on it."""
    dataset = make_dataset(card_template)
    single = HubDataset(**{**dataset.__dict__, "configs": dataset.configs[1:]})
    folder = write_hub_dataset(single, tmp_path / "solo", build_command="x")
    metadata, _ = read_card(folder)
    assert [info["config_name"] for info in metadata["dataset_info"]] == ["second"]
    assert list(metadata["dataset_info"][0])[:2] == ["config_name", "features"]
    card = read_built_card(folder)
    assert card.columns == {"second": set(FEATURES)}
    assert card.listed_paths == [
        "data/second/train-00000-of-00001.parquet",
        "data/second/test-00000-of-00001.parquet",
    ]
    assert datasets.load_dataset(str(folder), "second")["train"].num_rows == 7


def test_wrong_config_name_lists_the_valid_ones(tmp_path, card_template):
    folder = write_hub_dataset(make_dataset(card_template), tmp_path / "toy", build_command="x")
    with pytest.raises(ValueError, match=r"'nope' not found.*'first', 'second'"):
        datasets.load_dataset(str(folder), "nope")
    with pytest.raises(ValueError, match=r"(?s)Config name is missing.*'first', 'second'"):
        datasets.load_dataset(str(folder))


def test_same_input_gives_identical_bytes(tmp_path, card_template):
    one = write_hub_dataset(
        make_dataset(card_template, 3), tmp_path / "a" / "toy", build_command="x"
    )
    two = write_hub_dataset(
        make_dataset(card_template, 3), tmp_path / "b" / "toy", build_command="x"
    )
    three = write_hub_dataset(
        make_dataset(card_template, 4), tmp_path / "c" / "toy", build_command="x"
    )
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    for relative in files:
        assert (one / relative).read_bytes() == (two / relative).read_bytes(), relative
    assert (one / parquet_path("first", "test")).read_bytes() != (
        three / parquet_path("first", "test")
    ).read_bytes()
    table = pq.read_table(one / parquet_path("first", "test"))
    assert table.num_rows == 40


def bad_dataset(card_template) -> HubDataset:
    good = make_dataset(card_template)
    broken = ConfigData("broken", FEATURES, {"test": [{"sentence": "missing fields"}]})
    return HubDataset(**{**good.__dict__, "configs": [*good.configs, broken]})


def test_failed_build_leaves_no_folder(tmp_path, card_template):
    with pytest.raises(ValueError, match=r"config 'broken', split 'test', row 0: fields"):
        write_hub_dataset(bad_dataset(card_template), tmp_path / "toy", build_command="x")
    assert list(tmp_path.iterdir()) == [card_template]


def test_failed_rebuild_keeps_the_previous_build(tmp_path, card_template):
    folder = write_hub_dataset(make_dataset(card_template), tmp_path / "toy", build_command="x")
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    with pytest.raises(ValueError):
        write_hub_dataset(bad_dataset(card_template), folder, build_command="x")
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["card.md", "toy"]


def test_rebuild_replaces_the_folder(tmp_path, card_template):
    folder = tmp_path / "toy"
    write_hub_dataset(make_dataset(card_template), folder, build_command="x")
    (folder / "data" / "stale").mkdir()
    smaller = make_dataset(card_template)
    smaller = HubDataset(**{**smaller.__dict__, "configs": smaller.configs[:1]})
    write_hub_dataset(smaller, folder, build_command="x")
    assert sorted(p.name for p in (folder / "data").iterdir()) == ["first"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["card.md", "toy"]


def test_missing_card_value_is_an_error(tmp_path, card_template):
    dataset = HubDataset(**{**make_dataset(card_template).__dict__, "card_values": {}})
    with pytest.raises(ValueError, match=r"uses \$topic"):
        write_hub_dataset(dataset, tmp_path / "toy", build_command="x")
    assert not (tmp_path / "toy").exists()


def test_duplicate_or_empty_configs_are_rejected(tmp_path, card_template):
    good = make_dataset(card_template)
    twice = HubDataset(**{**good.__dict__, "configs": [good.configs[0], good.configs[0]]})
    with pytest.raises(ValueError, match="duplicate config names"):
        write_hub_dataset(twice, tmp_path / "toy", build_command="x")
    with pytest.raises(ValueError, match="has no configs"):
        write_hub_dataset(
            HubDataset(**{**good.__dict__, "configs": []}), tmp_path / "toy", build_command="x"
        )


def test_a_folder_that_is_not_a_built_dataset_is_never_replaced(tmp_path, card_template):
    victim = tmp_path / "datasets"
    (victim / "agreement").mkdir(parents=True)
    (victim / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"refusing to replace .*datasets: .*agreement, notes\.txt"
    ):
        write_hub_dataset(make_dataset(card_template), victim, build_command="x")
    assert (victim / "notes.txt").read_text(encoding="utf-8") == "mine"
    cardless = tmp_path / "cardless"
    (cardless / "data").mkdir(parents=True)
    with pytest.raises(ValueError, match="card was not written by poetic-eval"):
        write_hub_dataset(make_dataset(card_template), cardless, build_command="x")
    # a user's own hub dataset folder: a card with configs: and data files of the same shape
    own = tmp_path / "own"
    (own / "data" / "mine").mkdir(parents=True)
    (own / "data" / "mine" / "train.csv").write_text("text\nhello\n", encoding="utf-8")
    (own / "README.md").write_text(
        "---\nconfigs:\n- config_name: mine\n  data_files: data/mine/train.csv\n---\n# Mine\n",
        encoding="utf-8",
    )
    before = {path: path.read_bytes() for path in own.rglob("*") if path.is_file()}
    with pytest.raises(ValueError, match="card was not written by poetic-eval"):
        write_hub_dataset(make_dataset(card_template), own, build_command="x")
    assert {path: path.read_bytes() for path in own.rglob("*") if path.is_file()} == before
    empty = tmp_path / "empty"
    empty.mkdir()
    assert write_hub_dataset(make_dataset(card_template), empty, build_command="x") == empty
    assert (empty / "README.md").is_file()


def test_a_users_file_inside_a_built_folder_stops_the_rebuild(tmp_path, card_template):
    """A folder we built, into whose data/ someone put their own files: refused, nothing
    deleted; the same folder without them is rebuilt."""
    folder = write_hub_dataset(make_dataset(card_template), tmp_path / "toy", build_command="x")
    for extra in ("data/mine/train.csv", "data/first/notes.txt"):
        path = folder / extra
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("mine\n", encoding="utf-8")
        before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
        with pytest.raises(ValueError, match=rf"its data/ holds {extra}, which its card does"):
            write_hub_dataset(make_dataset(card_template), folder, build_command="x")
        assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
        path.unlink()
    link = folder / "data" / "elsewhere"
    link.symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(ValueError, match="data/elsewhere"):
        write_hub_dataset(make_dataset(card_template), folder, build_command="x")
    link.unlink()
    assert write_hub_dataset(make_dataset(card_template), folder, build_command="y") == folder


def test_empty_configs_are_left_out_and_reported(tmp_path, card_template):
    good = make_dataset(card_template)
    hollow = ConfigData("hollow", FEATURES, {"test": []})
    dataset = HubDataset(**{**good.__dict__, "configs": [*good.configs, hollow]})
    with pytest.raises(ValueError, match="'hollow' of 'toy', split 'test', has no rows"):
        write_hub_dataset(dataset, tmp_path / "toy", build_command="x")
    trimmed = dataset.without_empty_configs()
    assert trimmed.config_names() == ["first", "second"]
    assert trimmed.report[-1] == "left out, no rows: hollow"
    assert good.without_empty_configs() is good
    folder = write_hub_dataset(trimmed, tmp_path / "toy", build_command="x")
    assert "left out, no rows: hollow" in (folder / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("rows", "label"),
    [(0, "n<1K"), (999, "n<1K"), (1_000, "1K<n<10K"), (30_000, "10K<n<100K"), (10**8, "n>10M")],
)
def test_size_category(rows, label):
    assert size_category(rows) == label


@dataclass(frozen=True)
class ToyConfig(BuildConfig):
    size: int | None = option(None, help="rows", in_all=True)
    lexicon: Path | None = option(None, help="a file")
    shuffle: bool = option(False, help="a switch")
    rule: str = option("split", choices=("split", "first"), help="a choice")


def test_registry_and_recorded_command():
    assert isinstance(BUILDERS["bpomp"], RegisteredBuilder)
    bpomp_options = {spec.name: spec for spec in declared_options(builder_module("bpomp").Config)}
    assert bpomp_options["n_pairs"].in_all and bpomp_options["n_pairs"].flag == "--n-pairs"
    assert not bpomp_options["show_progress"].recorded
    with pytest.raises(ValueError, match="unknown builder 'bpmop'; did you mean 'bpomp'"):
        builder_module("bpmop")
    config = ToyConfig(source=Path("/home/alice/my file.json"), seed=3, show_progress=False)
    # paths by name only: the card is published, so no folders or user names in it; display
    # options and options left at None are not recorded, other defaults are
    assert recorded_command("toy", config, Path("/a/b/toy")) == (
        "poetic-eval build toy --source 'my file.json' --out toy --seed 3 --rule split"
    )
    config = ToyConfig(size=5, lexicon=Path("/x/lex.json"), shuffle=True, license="mit")
    assert recorded_command("toy", config, Path("toy")) == (
        "poetic-eval build toy --license mit --out toy --seed 0 --size 5 --lexicon lex.json "
        "--shuffle --rule split"
    )
    with pytest.raises(ValueError, match="unknown --rule 'frist'; did you mean 'first'"):
        ToyConfig(rule="frist")


# --- the license: header keys and the card's License section -------------------------------


def license_section(body: str) -> str:
    return body.split("## License\n", 1)[1].split("\n## ", 1)[0]


def test_a_hub_license_id_is_written_alone_and_named_in_the_license_section(
    tmp_path, card_template
):
    folder = write_hub_dataset(make_dataset(card_template), tmp_path / "toy", build_command="x")
    metadata, body = read_card(folder)
    assert metadata["license"] == "cc-by-4.0"
    assert "license_name" not in metadata and "license_link" not in metadata
    section = license_section(body)
    assert "Creative Commons Attribution 4.0 International" in section
    assert "https://creativecommons.org/licenses/by/4.0/" in section
    assert "Apache-2.0" in section  # the code's license, said not to cover the data


def test_license_other_with_its_name_and_link(tmp_path, card_template):
    dataset = replace(
        make_dataset(card_template),
        license="other",
        license_name="my-corpus-terms-1.0",
        license_link="https://example.org/terms",
    )
    folder = write_hub_dataset(dataset, tmp_path / "toy", build_command="x")
    metadata, body = read_card(folder)
    keys = list(metadata)
    assert keys[keys.index("license") : keys.index("license") + 3] == [
        "license",
        "license_name",
        "license_link",
    ]
    assert (metadata["license"], metadata["license_name"], metadata["license_link"]) == (
        "other",
        "my-corpus-terms-1.0",
        "https://example.org/terms",
    )
    section = license_section(body)
    assert "`my-corpus-terms-1.0`" in section and "https://example.org/terms" in section


def test_license_other_unstated_links_the_license_section_that_says_what_to_do(
    tmp_path, card_template
):
    dataset = replace(make_dataset(card_template), license="other")
    folder = write_hub_dataset(dataset, tmp_path / "toy", build_command="x")
    metadata, body = read_card(folder)
    assert metadata["license_name"] == "license-of-the-source"
    assert metadata["license_link"] == "README.md#license"  # the section below, in this repo
    section = license_section(body)
    assert "was not told" in section
    assert "--license ID" in section and "--license-name NAME --license-link URL" in section


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"license_name": "x", "license_link": "https://e.org"}, "only for license 'other'"),
        ({"license": "other", "license_name": "My Terms"}, "license_name 'My Terms' must be"),
    ],
)
def test_license_fields_that_the_hub_would_not_read_are_refused(
    tmp_path, card_template, changes, message
):
    dataset = replace(make_dataset(card_template), **changes)
    with pytest.raises(ValueError, match=message):
        write_hub_dataset(dataset, tmp_path / "toy", build_command="x")
    assert not (tmp_path / "toy").exists()
