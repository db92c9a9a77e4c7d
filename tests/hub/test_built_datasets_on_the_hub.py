"""The folders `make build` writes are what `load_dataset("<org>/<name>", "<config>")` reads after
`make publish`: the hub repo receives exactly those bytes, and the folder follows the layout and
card conventions of `datasets` (`push_to_hub`) and of the hub (`huggingface_hub`'s card parser).
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
import yaml
from datasets.info import DatasetInfosDict
from datasets.naming import _split_re
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard, DatasetCardData

from poetic_eval.builders import BUILDERS
from poetic_eval.cli import main
from poetic_eval.hub import plan_dataset_uploads, publish
from poetic_eval.hub.cards import BUILT_MARKER

DATASETS = list(BUILDERS)
# the keys huggingface_hub's DatasetCardData knows, plus those `datasets` writes itself
# (`configs` by MetadataConfigs, `dataset_info` by DatasetInfosDict), the hub's `tags`, and
# `license_name` / `license_link`, which the hub's dataset-card spec (hub-docs datasetcard.md)
# asks for when `license` is `other`
KNOWN_KEYS = (set(inspect.signature(DatasetCardData.__init__).parameters) - {"self", "kwargs"}) | {
    "configs",
    "dataset_info",
    "tags",
    "license_name",
    "license_link",
}
# DatasetCardData's documented size_categories values
SIZE_CATEGORIES = {
    "n<1K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M", "10M<n<100M", "100M<n<1B",
    "1B<n<10B", "10B<n<100B", "100B<n<1T", "n>1T", "other",
}  # fmt: skip
# datasets' shard file name, `{split}-{index:05d}-of-{num_shards:05d}.parquet`, under data/<config>
DATA_FILE = re.compile(r"^data/(?P<config>[^/]+)/(?P<split>[^/]+)-(\d{5})-of-(\d{5})\.parquet$")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """`make build`: poetic-eval build all --out DIR --seed 0."""
    out = tmp_path_factory.mktemp("datasets")
    assert main(["build", "all", "--out", str(out), "--seed", "0", "--no-progress"]) == 0
    return out


@pytest.fixture(scope="module")
def cards(built):
    return {name: DatasetCard.load(built / name / "README.md") for name in DATASETS}


def data_files(folder: Path) -> list[str]:
    return sorted(
        p.relative_to(folder).as_posix() for p in (folder / "data").rglob("*") if p.is_file()
    )


@pytest.mark.parametrize("name", DATASETS)
def test_card_yaml_uses_only_keys_the_hub_knows(cards, name):
    card = cards[name]
    header = card.data.to_dict()
    assert set(header) <= KNOWN_KEYS, set(header) - KNOWN_KEYS
    assert set(header["size_categories"]) <= SIZE_CATEGORIES
    assert all(re.fullmatch(r"[a-z]{2,3}", code) for code in header["language"])
    assert isinstance(header["license"], str) and header["pretty_name"]
    if header["license"] == "other":
        assert header["license_name"] and header["license_link"]
    assert "\n## License\n" in card.text  # under which license the generated data is
    assert BUILT_MARKER in card.text  # an HTML comment in the body: not shown by the hub


@pytest.mark.parametrize("name", DATASETS)
def test_data_files_follow_push_to_hub_naming_and_configs_list_them_all(built, cards, name):
    folder = built / name
    configs = MetadataConfigs.from_dataset_card_data(cards[name].data)
    listed = []
    for config, metadata in configs.items():
        for entry in metadata["data_files"]:
            match = DATA_FILE.match(entry["path"])
            assert match, entry["path"]
            assert match["config"] == config and match["split"] == entry["split"]
            assert re.match(_split_re, entry["split"])
            listed.append(entry["path"])
    assert sorted(listed) == data_files(folder)  # every file listed, nothing else under data/
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "data"]


@pytest.mark.parametrize("name", DATASETS)
def test_dataset_info_matches_what_load_dataset_reads(built, cards, name):
    folder = built / name
    infos = DatasetInfosDict.from_dataset_card_data(cards[name].data)
    configs = MetadataConfigs.from_dataset_card_data(cards[name].data)
    assert list(infos) == list(configs)
    for config, info in infos.items():
        loaded = datasets.load_dataset(str(folder), config)
        assert list(loaded) == list(info.splits)
        for split, dataset in loaded.items():
            assert dataset.num_rows == info.splits[split].num_examples > 0
            assert dataset.features == info.features
            path = folder / next(
                e["path"] for e in configs[config]["data_files"] if e["split"] == split
            )
            stored = datasets.Features.from_arrow_schema(pq.read_schema(path))
            assert stored == info.features


def test_publishing_pushes_exactly_the_built_folders(built, fake_hub, tmp_path):
    """What the hub repo holds after `make publish` is the built folder, byte for byte, so
    load_dataset("<org>/<name>", config) reads the same card, configs and rows."""
    fake = fake_hub
    publish(plan_dataset_uploads(built, "my-org"), token="hf_test")
    for name in DATASETS:
        folder = built / name
        on_hub = fake.files("dataset", f"my-org/{name}")
        local = {p: (folder / p).read_bytes() for p in ["README.md", *data_files(folder)]}
        # and the eval.yaml publishing adds (tests/hub/test_eval_results.py checks it)
        assert yaml.safe_load(on_hub.pop("eval.yaml"))["tasks"]
        assert on_hub == local
        clone = tmp_path / name  # the repo as `git clone` or the hub's resolver sees it
        for path, content in on_hub.items():
            (clone / path).parent.mkdir(parents=True, exist_ok=True)
            (clone / path).write_bytes(content)
        config = next(
            iter(MetadataConfigs.from_dataset_card_data(DatasetCard.load(clone / "README.md").data))
        )
        assert (
            datasets.load_dataset(str(clone), config).num_rows
            == datasets.load_dataset(str(folder), config).num_rows
        )
    # a second publish of the same build changes nothing
    commits = len(fake.commits())
    publish(plan_dataset_uploads(built, "my-org"), token="hf_test")
    assert len(fake.commits()) == commits


def test_rebuilding_gives_the_same_bytes(built, tmp_path):
    """Unchanged sources and seed give unchanged files, so `make publish` commits nothing."""
    again = tmp_path / "again"
    assert main(["build", "all", "--out", str(again), "--no-progress"]) == 0
    for name in DATASETS:
        files = ["README.md", *data_files(built / name)]
        assert files == ["README.md", *data_files(again / name)]
        for path in files:
            assert (built / name / path).read_bytes() == (again / name / path).read_bytes(), path
