"""BLM items of a built folder are read from disk, not from the ``datasets`` cache of an
earlier content of its files (issue 24, item 5)."""

from __future__ import annotations

import datasets
import pyarrow.parquet as pq
from blm_eval_items import AGREEMENT_ITEM, CAUSATIVE_ITEM, RELEASE_ITEM

from poetic_eval.blm.item_sources import load_evaluation_sets


def write_folder(root):
    card = ["---", "configs:", "- config_name: agr_ii", "  data_files:"]
    splits = {"train": [AGREEMENT_ITEM], "test": [CAUSATIVE_ITEM, RELEASE_ITEM]}
    (root / "data" / "agr_ii").mkdir(parents=True)
    for split, records in splits.items():
        rows = [{**r, "ID": str(r["ID"]), "Verb": r.get("Verb", "")} for r in records]
        path = f"data/agr_ii/{split}-00000-of-00001.parquet"
        datasets.Dataset.from_list(rows).to_parquet(root / path)
        card += [f"  - split: {split}", f"    path: {path}"]
    (root / "README.md").write_text("\n".join([*card, "---", ""]))
    return root


def test_blm_items_of_a_folder_are_read_from_disk(tmp_path):
    folder = write_folder(tmp_path / "blm")
    [first] = load_evaluation_sets(folder)
    assert len(first.items) == 2
    path = folder / "data/agr_ii/test-00000-of-00001.parquet"
    pq.write_table(pq.read_table(path).slice(0, 1), path)
    [second] = load_evaluation_sets(folder)
    assert [item.id for item in second.items] == [first.items[0].id]


def test_the_card_of_a_blm_folder_is_read_once(tmp_path, monkeypatch):
    """One parsed card per folder per command (issue 38): its configs and, for each config,
    the data files and counts come from one read."""
    import pathlib

    folder = write_folder(tmp_path / "blm")
    reads = []
    path_open = pathlib.Path.open

    def counted(self, *args, **kwargs):
        if self.name == "README.md":
            reads.append(self)
        return path_open(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "open", counted)
    [only] = load_evaluation_sets(folder, one_shot=True)
    assert only.example is not None and len(only.items) == 2
    assert len(reads) == 1
