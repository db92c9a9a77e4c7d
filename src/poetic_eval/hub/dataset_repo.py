"""Write a complete, hub-ready dataset repository: parquet files plus a README.md card.

A builder returns a :class:`HubDataset` (name, card metadata, one :class:`ConfigData` per
config with its ``datasets.Features`` and rows per split); :func:`write_hub_dataset` turns it
into the folder that ``load_dataset(folder, config)`` reads offline and that ``make publish``
uploads as is::

    import datasets
    from poetic_eval.hub import ConfigData, HubDataset, write_hub_dataset

    features = datasets.Features({
        "sentence_good": datasets.Value("string"),
        "sentence_bad": datasets.Value("string"),
        "label": datasets.ClassLabel(names=["singular", "plural"]),
    })
    dataset = HubDataset(
        name="agreement",                      # folder name and hub repo name
        pretty_name="Subject-verb agreement minimal pairs",
        configs=[ConfigData("simple", features, {"test": rows}, description="...")],
        seed=0,
        sources=[],                            # files read; their sha256 goes in the card
        task_categories=["text-classification"],
        card_values={"grammar_size": "120 nouns"},   # $placeholders of cards/agreement.md
        report=["dropped 3 rows: ..."],        # build report: printed and written in the card
    )
    write_hub_dataset(dataset, "datasets/agreement", build_command="poetic-eval build ...")

Layout written::

    <out>/README.md                                  card: YAML header + rendered text
    <out>/data/<config>/<split>-00000-of-00001.parquet

The card comes from :mod:`poetic_eval.hub.cards`. The bytes are deterministic: rows keep the
builder's order, parquet options are fixed, the card has no timestamps. The folder is written
in a staging folder and swapped in only when complete (:func:`poetic_eval.files.atomic_folder`),
so an interrupted or failing build leaves the previous folder (or none) untouched. Only a
folder this project built (its card holds :data:`~poetic_eval.hub.cards.BUILT_MARKER`) and
holding nothing but that card and the data files it lists is ever replaced: a file someone
added to a built folder stops the rebuild rather than being deleted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
from datasets.features.features import encode_nested_example

from ..errors import InvalidValueError
from ..files import (
    OutputLocationError,
    atomic_folder,
    check_not_current,
    check_output_folder,
    files_not_listed,
    recover_folder,
    shown_names,
)
from ..files.dataset_cards import read_built_card
from ..files.names import checked_name, inside
from .cards import built_here, parquet_path, render_card

PARQUET_COMPRESSION = "snappy"
PARQUET_ROW_GROUP_SIZE = 10_000


@dataclass(frozen=True)
class ConfigData:
    """One dataset config: its features and its rows per split (rows in publication order)."""

    name: str
    features: datasets.Features
    splits: Mapping[str, Sequence[Mapping[str, Any]]]
    description: str = ""


@dataclass(frozen=True)
class HubDataset:
    """Everything :func:`write_hub_dataset` needs: configs, card metadata, provenance."""

    name: str
    pretty_name: str
    configs: Sequence[ConfigData]
    seed: int
    sources: Sequence[Path] = ()
    license: str = "cc-by-4.0"  # a hub license id, or "other" with the two fields below
    license_name: str = ""  # for "other": a slug naming the license, e.g. "my-corpus-terms"
    license_link: str = ""  # for "other": a URL, or a file of the dataset repo
    language: Sequence[str] = ("en",)
    task_categories: Sequence[str] = ("text-classification",)
    tags: Sequence[str] = ()
    card_template: str | Path | None = None  # a file name in cards/ or a path; "<name>.md"
    card_values: Mapping[str, str] = field(default_factory=dict)
    report: Sequence[str] = ()

    def config_names(self) -> list[str]:
        return [config.name for config in self.configs]

    def without_empty_configs(self) -> HubDataset:
        """This dataset less the configs with an empty split, each named in the report (an
        empty config cannot be loaded from the hub, so it is not published)."""
        kept = [c for c in self.configs if all(len(rows) for rows in c.splits.values())]
        if len(kept) == len(self.configs):
            return self
        dropped = [c.name for c in self.configs if c not in kept]
        note = f"left out, no rows: {', '.join(dropped)}"
        return replace(self, configs=kept, report=[*self.report, note])


def write_hub_dataset(dataset: HubDataset, out_dir: str | Path, *, build_command: str) -> Path:
    """Write ``dataset`` as a hub dataset repo at ``out_dir`` (replaced atomically); return it.

    ``out_dir`` must be new, empty, or a dataset folder built here (its card holds the
    marker, and it has nothing but the card and the data files that card lists): anything
    else is refused before any work is done, rather than replaced.
    """
    _check_dataset(dataset)
    out_dir = Path(out_dir)
    check_replaceable(out_dir)
    with atomic_folder(out_dir) as staging:
        split_sizes = {
            (config.name, split): _write_parquet(config, split, staging)
            for config in dataset.configs
            for split in config.splits
        }
        card = render_card(dataset, split_sizes, build_command=build_command)
        (staging / "README.md").write_text(card, encoding="utf-8")
    return out_dir


#: What a dataset folder written here holds; a folder with anything else is not replaced.
DATASET_FOLDER_ENTRIES = frozenset({"README.md", "data"})


def check_replaceable(out_dir: str | Path, argument: str = "out_dir") -> None:
    """Raise unless ``out_dir`` can be written: absent, empty, or a dataset folder built here,
    in a writable place (checked before any work; creates nothing).

    Raises:
        OutputLocationError (a ValueError): the folder is not ours, or cannot be written.
    """
    out_dir = check_output_folder(out_dir, argument)
    check_not_current(out_dir, argument)  # swapping it out would fail after the build
    recover_folder(out_dir)  # a swap killed half-way leaves the previous copy aside
    if not out_dir.exists():
        return
    entries = {entry.name for entry in out_dir.iterdir()}
    if not entries:
        return
    foreign = sorted(entries - DATASET_FOLDER_ENTRIES)
    ours = built_here(out_dir)
    if not foreign and ours:
        foreign = files_not_listed(out_dir, "data", set(read_built_card(out_dir).listed_paths))
        reason = f"its data/ holds {shown_names(foreign)}, which its card does not list"
    elif foreign:
        reason = f"it holds {shown_names(foreign)}"
    else:
        reason = "its card was not written by poetic-eval"
    if foreign or not ours:
        raise OutputLocationError(
            f"refusing to replace {out_dir}: it is not a dataset folder built here, or holds "
            f"files poetic-eval did not write ({reason}); nothing was changed. Give a new or "
            "empty folder. A single builder writes the dataset folder itself (--out "
            "datasets/bpomp); 'all' takes the parent folder (--out datasets)."
        )


def _check_dataset(dataset: HubDataset) -> None:
    if not dataset.configs:
        raise InvalidValueError(f"dataset {dataset.name!r} has no configs")
    for config in dataset.configs:  # names from data become folder and file names
        checked_name(config.name, "config name", f"dataset {dataset.name!r}")
        for split in config.splits:
            checked_name(
                split, f"split name of config {config.name!r}", f"dataset {dataset.name!r}"
            )
    names = dataset.config_names()
    if len(set(names)) != len(names):
        raise InvalidValueError(f"dataset {dataset.name!r} has duplicate config names: {names}")
    for config in dataset.configs:
        if not config.splits:
            raise InvalidValueError(f"config {config.name!r} of {dataset.name!r} has no splits")
        for split, rows in config.splits.items():
            if not rows:
                reasons = "; ".join(dataset.report) or "the source gave none"
                raise InvalidValueError(
                    f"config {config.name!r} of {dataset.name!r}, split {split!r}, has no rows, "
                    f"and an empty config cannot be loaded from the hub ({reasons})"
                )


def _write_parquet(config: ConfigData, split: str, root: Path) -> tuple[int, int]:
    """Write one split; return (number of rows, arrow bytes)."""
    rows = config.splits[split]
    for index, row in enumerate(rows):
        if row.keys() != config.features.keys():
            raise InvalidValueError(
                f"config {config.name!r}, split {split!r}, row {index}: fields {sorted(row)} "
                f"do not match the features {sorted(config.features)}"
            )
    columns = {}
    for name, feature in config.features.items():
        values = [row[name] for row in rows]
        if _needs_encoding(feature):  # e.g. ClassLabel names -> integers
            values = [encode_nested_example(feature, value) for value in values]
        columns[name] = values
    try:
        table = pa.Table.from_pydict(columns, schema=config.features.arrow_schema)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
        raise InvalidValueError(
            f"config {config.name!r}, split {split!r}: rows do not fit the features: {error}"
        ) from None
    path = inside(root, parquet_path(config.name, split))
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(
        table,
        path,
        compression=PARQUET_COMPRESSION,
        row_group_size=PARQUET_ROW_GROUP_SIZE,
    )
    return len(rows), table.nbytes


def _needs_encoding(feature: Any) -> bool:
    """Whether values of ``feature`` differ from their arrow storage (plain values do not)."""
    if isinstance(feature, datasets.Value):
        return False
    if isinstance(feature, dict):
        return any(_needs_encoding(child) for child in feature.values())
    if isinstance(feature, (datasets.List, datasets.LargeList)):
        return _needs_encoding(feature.feature)
    return True
