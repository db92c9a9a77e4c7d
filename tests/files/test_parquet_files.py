"""Data read from a built folder is the data on disk (issue 24, item 5): an edited, truncated or
emptied parquet is never answered from the ``datasets`` cache of its earlier content, and a
file that no longer matches the card's counts is named before anything is scored."""

from __future__ import annotations

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from poetic_eval.files.parquet_files import DataFileError
from poetic_eval.hub import ConfigData, HubDataset, write_hub_dataset
from poetic_eval.pairs import collect_pairs, load_pair_tables

FEATURES = datasets.Features({"good": datasets.Value("string"), "bad": datasets.Value("string")})
DATA = "data/pairs/test-00000-of-00001.parquet"


def pairs_folder(tmp_path, n=10):
    card = tmp_path / "card.md"
    card.write_text("A card.\n")
    rows = [{"good": f"good {i}", "bad": f"bad {i}"} for i in range(n)]
    dataset = HubDataset(
        name="toy",
        pretty_name="Toy",
        configs=[ConfigData("pairs", FEATURES, {"test": rows})],
        seed=0,
        card_template=card,
    )
    return write_hub_dataset(dataset, tmp_path / "toy", build_command="test")


def goods(folder):
    return [
        row["good"] for row in collect_pairs(load_pair_tables(str(folder), None, None), None, None)
    ]


def test_rows_edited_in_place_are_read_as_they_are_now(tmp_path):
    folder = pairs_folder(tmp_path)
    assert goods(folder) == [f"good {i}" for i in range(10)]
    edited = pa.table({"good": [f"edited {i}" for i in range(10)], "bad": ["b"] * 10})
    pq.write_table(edited, folder / DATA)
    assert goods(folder) == [f"edited {i}" for i in range(10)]


@pytest.mark.parametrize("damage", ["fewer rows", "no rows", "truncated", "empty file"])
def test_a_data_file_changed_after_the_build_is_named(tmp_path, damage):
    folder = pairs_folder(tmp_path)
    assert len(goods(folder)) == 10  # fills the datasets cache, which must not answer later
    path = folder / DATA
    if damage == "fewer rows":
        pq.write_table(pq.read_table(path).slice(0, 3), path)
    elif damage == "no rows":
        pq.write_table(pq.read_table(path).slice(0, 0), path)
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:100])
    else:
        path.write_bytes(b"")
    expected = "holds [03] rows, but the card" if "rows" in damage else "not a readable parquet"
    with pytest.raises(DataFileError, match=expected) as raised:
        load_pair_tables(str(folder), None, None)
    assert str(path) in str(raised.value)
