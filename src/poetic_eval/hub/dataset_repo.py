"""Write a complete, hub-ready dataset repository: parquet files plus a README.md card.

A builder returns a :class:`HubDataset` (name, card metadata, one :class:`ConfigData` per
config with its ``datasets.Features`` and rows per split); :func:`write_hub_dataset` turns it
into the folder that ``load_dataset(folder, config)`` reads offline and that ``make publish``
uploads as is::

    import datasets
    from .dataset_repo import ConfigData, HubDataset, write_hub_dataset

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
    write_hub_dataset(dataset, "datasets/agreement", build_command="python -m builders ...")

Layout written::

    <out>/README.md                                  card: YAML header + rendered text
    <out>/data/<config>/<split>-00000-of-00001.parquet

The card is ``cards/_layout.md`` with the per-dataset body ``cards/<name>.md`` rendered into
it (``string.Template`` ``$placeholders``, strict: a missing value is an error). The bytes are
deterministic: rows keep the builder's order, parquet options are fixed, the card has no
timestamps. The folder is written in a temporary sibling folder and swapped in only when
complete, so an interrupted or failing build leaves the previous folder (or none) untouched.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from string import Template
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import yaml
from datasets.features.features import encode_nested_example

from ..resources import cards_root
from .publish import declares_configs

LAYOUT_TEMPLATE = "_layout.md"
PARQUET_COMPRESSION = "snappy"
PARQUET_ROW_GROUP_SIZE = 10_000
# hub size_categories buckets: (upper bound exclusive, label)
_SIZE_CATEGORIES = (
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
)


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
    license: str = "cc-by-4.0"
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


def parquet_path(config: str, split: str) -> str:
    """Path of a split's parquet file inside the dataset repo (one shard per split)."""
    return f"data/{config}/{split}-00000-of-00001.parquet"


def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def size_category(n_rows: int) -> str:
    """The hub's ``size_categories`` label for a dataset of ``n_rows`` rows."""
    for bound, label in _SIZE_CATEGORIES:
        if n_rows < bound:
            return label
    return "n>10M"


def write_hub_dataset(
    dataset: HubDataset, out_dir: str | Path, *, build_command: str
) -> Path:
    """Write ``dataset`` as a hub dataset repo at ``out_dir`` (replaced atomically); return it.

    ``out_dir`` must be new, empty, or a dataset folder this writer made (a ``README.md`` card
    and ``data/``): anything else is refused rather than replaced.
    """
    _check_dataset(dataset)
    out_dir = Path(out_dir)
    check_replaceable(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.building-", dir=out_dir.parent))
    try:
        staging.chmod(0o755)  # mkdtemp creates it private
        split_sizes = {
            (config.name, split): _write_parquet(config, split, staging)
            for config in dataset.configs
            for split in config.splits
        }
        card = render_card(dataset, split_sizes, build_command=build_command)
        (staging / "README.md").write_text(card, encoding="utf-8")
        _swap_into_place(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out_dir


#: What a dataset folder written here holds; a folder with anything else is not replaced.
DATASET_FOLDER_ENTRIES = frozenset({"README.md", "data"})


def check_replaceable(out_dir: Path) -> None:
    """Raise ValueError unless ``out_dir`` is absent, empty, or a dataset folder built here."""
    if not out_dir.exists():
        return
    if not out_dir.is_dir():
        raise ValueError(f"{out_dir} exists and is not a folder; choose another output folder")
    entries = {entry.name for entry in out_dir.iterdir()}
    foreign = sorted(entries - DATASET_FOLDER_ENTRIES)
    if foreign or (entries and not declares_configs(out_dir)):
        shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "") if foreign else "no dataset card"
        raise ValueError(
            f"refusing to replace {out_dir}: it is not a dataset folder built here ({shown}). "
            "A single builder writes the dataset folder itself (--out datasets/bpomp); "
            "'all' takes the parent folder (--out datasets)."
        )


def _check_dataset(dataset: HubDataset) -> None:
    if not dataset.configs:
        raise ValueError(f"dataset {dataset.name!r} has no configs")
    names = dataset.config_names()
    if len(set(names)) != len(names):
        raise ValueError(f"dataset {dataset.name!r} has duplicate config names: {names}")
    for config in dataset.configs:
        if not config.splits:
            raise ValueError(f"config {config.name!r} of {dataset.name!r} has no splits")
        for split, rows in config.splits.items():
            if not rows:
                reasons = "; ".join(dataset.report) or "the source gave none"
                raise ValueError(
                    f"config {config.name!r} of {dataset.name!r}, split {split!r}, has no rows, "
                    f"and an empty config cannot be loaded from the hub ({reasons})"
                )


def _write_parquet(config: ConfigData, split: str, root: Path) -> tuple[int, int]:
    """Write one split; return (number of rows, arrow bytes)."""
    rows = config.splits[split]
    for index, row in enumerate(rows):
        if row.keys() != config.features.keys():
            raise ValueError(
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
        raise ValueError(
            f"config {config.name!r}, split {split!r}: rows do not fit the features: {error}"
        ) from None
    path = root / parquet_path(config.name, split)
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


def _swap_into_place(staging: Path, out_dir: Path) -> None:
    """Replace ``out_dir`` by ``staging``; the old folder is removed only after the swap."""
    if not out_dir.exists():
        os.replace(staging, out_dir)
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=out_dir.parent))
    os.replace(out_dir, retired / out_dir.name)
    try:
        os.replace(staging, out_dir)
    except BaseException:
        os.replace(retired / out_dir.name, out_dir)
        raise
    finally:
        shutil.rmtree(retired, ignore_errors=True)


def card_metadata(
    dataset: HubDataset, split_sizes: Mapping[tuple[str, str], tuple[int, int]]
) -> dict[str, Any]:
    """The card's YAML header: hub metadata, ``configs`` with data_files, ``dataset_info``."""
    total_rows = sum(n_rows for n_rows, _ in split_sizes.values())
    configs = [
        {
            "config_name": config.name,
            "data_files": [
                {"split": split, "path": parquet_path(config.name, split)}
                for split in config.splits
            ],
        }
        for config in dataset.configs
    ]
    infos = [
        {
            "config_name": config.name,
            "features": config.features._to_yaml_list(),
            "splits": [
                {
                    "name": split,
                    "num_bytes": split_sizes[(config.name, split)][1],
                    "num_examples": split_sizes[(config.name, split)][0],
                }
                for split in config.splits
            ],
        }
        for config in dataset.configs
    ]
    metadata: dict[str, Any] = {
        "pretty_name": dataset.pretty_name,
        "license": dataset.license,
        "language": list(dataset.language),
        "task_categories": list(dataset.task_categories),
        "size_categories": [size_category(total_rows)],
    }
    if dataset.tags:
        metadata["tags"] = list(dataset.tags)
    metadata["configs"] = configs
    metadata["dataset_info"] = infos
    return metadata


def render_card(
    dataset: HubDataset,
    split_sizes: Mapping[tuple[str, str], tuple[int, int]],
    *,
    build_command: str,
) -> str:
    """The README.md card: YAML header, the dataset's own text, configs, provenance."""
    header = yaml.safe_dump(
        card_metadata(dataset, split_sizes), sort_keys=False, allow_unicode=True, width=100
    )
    body_name = dataset.card_template or f"{dataset.name}.md"
    body = _render_template(body_name, dataset.card_values)
    first = dataset.configs[0]
    layout_values = {
        "yaml": header.rstrip("\n"),
        "pretty_name": dataset.pretty_name,
        "name": dataset.name,
        "body": body.strip("\n"),
        "config_table": _config_table(dataset, split_sizes),
        "first_config": first.name,
        "first_split": next(iter(first.splits)),
        "seed": str(dataset.seed),
        "sources": _sources_table(dataset.sources),
        "report": "\n".join(f"- {line}" for line in dataset.report) or "- nothing to report",
        "build_command": build_command,
    }
    return _render_template(LAYOUT_TEMPLATE, layout_values).rstrip("\n") + "\n"


def _render_template(name: str | Path, values: Mapping[str, str]) -> str:
    path = cards_root() / name  # an absolute ``name`` stays as it is
    if not path.is_file():
        raise FileNotFoundError(f"card template {path} not found")
    try:
        return Template(path.read_text(encoding="utf-8")).substitute(values)
    except KeyError as error:
        raise ValueError(
            f"card template {path} uses ${error.args[0]}, which the builder did not provide "
            f"(provided: {', '.join(sorted(values)) or 'nothing'})"
        ) from None


def _config_table(
    dataset: HubDataset, split_sizes: Mapping[tuple[str, str], tuple[int, int]]
) -> str:
    rows = ["| config | split | rows | description |", "|---|---|---:|---|"]
    for config in dataset.configs:
        for split in config.splits:
            n_rows = split_sizes[(config.name, split)][0]
            rows.append(f"| `{config.name}` | {split} | {n_rows:,} | {config.description} |")
    return "\n".join(rows)


def _sources_table(sources: Sequence[Path]) -> str:
    if not sources:
        return "No source files: the rows are generated by the builder."
    rows = ["| file | bytes | sha256 |", "|---|---:|---|"]
    for source in sources:
        source = Path(source)
        rows.append(f"| `{source.name}` | {source.stat().st_size:,} | `{file_sha256(source)}` |")
    return "\n".join(rows)
