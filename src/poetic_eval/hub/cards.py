"""Dataset cards as the builders write them: the README.md of a built dataset folder, its
YAML header and its marker (reading cards: :mod:`poetic_eval.files.dataset_cards`).

The card is ``cards/_layout.md`` with the per-dataset body ``cards/<name>.md`` rendered into
it (``string.Template`` ``$placeholders``, strict: a missing value is an error). Its YAML
header carries the hub metadata, ``configs`` (the data files of each config and split, which
``load_dataset`` reads without a loading script) and ``dataset_info``. The layout also writes
:data:`BUILT_MARKER`, by which a folder this project built is told from anyone else's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING

from datasets.info import DatasetInfo, DatasetInfosDict
from datasets.splits import SplitDict, SplitInfo
from huggingface_hub import DatasetCardData

from ..errors import InvalidValueError
from ..files.digests import file_sha256
from ..files.names import checked_name
from ..resources import cards_root

if TYPE_CHECKING:
    from .dataset_repo import HubDataset

LAYOUT_TEMPLATE = "_layout.md"
#: Written into every card by the layout; only folders whose card holds it are replaced.
BUILT_MARKER = "<!-- poetic-eval built dataset folder: rebuilding replaces this whole folder -->"
#: license_link of a card whose license is "other" when the build was not told one: the card's
#: own License section, which says so and how to set it
LICENSE_SECTION_LINK = "README.md#license"
#: license_name in that case
UNSTATED_LICENSE_NAME = "license-of-the-source"
# the hub's license ids the cards name in words (any other id is written as it is)
_LICENSE_NAMES = {
    "cc-by-4.0": (
        "Creative Commons Attribution 4.0 International",
        "https://creativecommons.org/licenses/by/4.0/",
    ),
}
_LICENSE_SLUG = re.compile(r"[a-z0-9][a-z0-9.-]*")
# hub size_categories buckets: (upper bound exclusive, label)
_SIZE_CATEGORIES = (
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
)
#: The card header's keys in the order the card shows them.
HEADER_ORDER = (
    "pretty_name",
    "license",
    "license_name",
    "license_link",
    "language",
    "task_categories",
    "size_categories",
    "tags",
    "configs",
    "dataset_info",
)


def parquet_path(config: str, split: str) -> str:
    """Path of a split's parquet file inside the dataset repo (one shard per split); the
    config and split names must be safe folder and file names (they may come from data)."""
    checked_name(config, "config name", "dataset")
    checked_name(split, f"split name of config {config!r}", "dataset")
    return f"data/{config}/{split}-00000-of-00001.parquet"


def built_here(folder: str | Path) -> bool:
    """Whether ``folder``'s card was written by this project's builders (it holds the marker)."""
    card = Path(folder) / "README.md"
    if not card.is_file():
        return False
    text = card.read_text(encoding="utf-8", errors="replace")
    return text.startswith("---\n") and BUILT_MARKER in text


def size_category(n_rows: int) -> str:
    """The hub's ``size_categories`` label for a dataset of ``n_rows`` rows."""
    for bound, label in _SIZE_CATEGORIES:
        if n_rows < bound:
            return label
    return "n>10M"


def card_data(
    dataset: HubDataset, split_sizes: Mapping[tuple[str, str], tuple[int, int]]
) -> DatasetCardData:
    """The card's header: hub metadata, ``configs`` with data_files, and ``dataset_info`` as
    ``datasets`` writes it (``DatasetInfosDict.to_dataset_card_data``, as ``push_to_hub``)."""
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
    data = DatasetCardData(
        pretty_name=dataset.pretty_name,
        **license_metadata(dataset),
        language=list(dataset.language),
        task_categories=list(dataset.task_categories),
        size_categories=[size_category(total_rows)],
        tags=list(dataset.tags) or None,
        configs=configs,
    )
    infos = {}
    for config in dataset.configs:
        splits = SplitDict()
        for split in config.splits:
            n_rows, n_bytes = split_sizes[(config.name, split)]
            splits.add(SplitInfo(name=split, num_bytes=n_bytes, num_examples=n_rows))
        infos[config.name] = DatasetInfo(features=config.features, splits=splits)
    DatasetInfosDict(infos).to_dataset_card_data(data)
    # datasets writes one config as a mapping and several sorted by name: always a list in the
    # configs' order, as this project's cards always had (datasets reads both forms)
    written = data["dataset_info"]
    if isinstance(written, dict):
        rest = {key: value for key, value in written.items() if key != "config_name"}
        written = [{"config_name": dataset.configs[0].name, **rest}]
    order = list(infos)
    data["dataset_info"] = sorted(written, key=lambda info: order.index(info["config_name"]))
    return data


def license_metadata(dataset: HubDataset) -> dict[str, str]:
    """The card's ``license`` keys: the hub id, and for ``other`` the ``license_name`` and
    ``license_link`` the hub's dataset-card spec asks for (the card's License section when the
    build was not given them)."""
    if dataset.license != "other":
        if dataset.license_name or dataset.license_link:
            raise InvalidValueError(
                f"license {dataset.license!r} is a hub license id: license_name and "
                "license_link are only for license 'other' (--license other)"
            )
        return {"license": dataset.license}
    name = dataset.license_name or UNSTATED_LICENSE_NAME
    if not _LICENSE_SLUG.fullmatch(name):
        raise InvalidValueError(
            f"license_name {name!r} must be an id of lower-case letters, digits, '-' and '.' "
            "(e.g. my-corpus-terms-1.0)"
        )
    return {
        "license": "other",
        "license_name": name,
        "license_link": dataset.license_link or LICENSE_SECTION_LINK,
    }


def license_statement(dataset: HubDataset) -> str:
    """The card's License section: under which license the generated data is."""
    code = "poetic-eval's own code is under Apache-2.0; that license does not extend to the data."
    if dataset.license in _LICENSE_NAMES:
        title, url = _LICENSE_NAMES[dataset.license]
        return (
            f"The data of this build is under the {title} license ([{dataset.license}]({url})). "
            + code
        )
    if dataset.license != "other":
        return (
            f"The data of this build is under the license with the hub id `{dataset.license}` "
            f"(https://huggingface.co/docs/hub/repositories-licenses). {code}"
        )
    if dataset.license_name and dataset.license_link:
        return (
            "The rows are derived from the sources listed under *Provenance* and are under "
            f"their license, `{dataset.license_name}`: {dataset.license_link}. {code}"
        )
    return (
        "The rows are derived from the sources listed under *Provenance*, which were given to "
        "the build, and are under those sources' license, which the build was not told. "
        "Before publishing, rebuild with `--license ID` (a hub license id, such as cc-by-4.0) "
        "or with `--license-name NAME --license-link URL` for a license the hub does not list. "
        + code
    )


def render_card(
    dataset: HubDataset,
    split_sizes: Mapping[tuple[str, str], tuple[int, int]],
    *,
    build_command: str,
) -> str:
    """The README.md card: YAML header, the dataset's own text, configs, provenance."""
    header = card_data(dataset, split_sizes).to_yaml(original_order=list(HEADER_ORDER))
    body_name = dataset.card_template or f"{dataset.name}.md"
    body = _render_template(body_name, dataset.card_values)
    first = dataset.configs[0]
    layout_values = {
        "yaml": header,
        "marker": BUILT_MARKER,
        "pretty_name": dataset.pretty_name,
        "name": dataset.name,
        "body": body.strip("\n"),
        "config_table": _config_table(dataset, split_sizes),
        "first_config": first.name,
        "first_split": next(iter(first.splits)),
        "seed": str(dataset.seed),
        "sources": _sources_table(dataset.sources),
        "report": "\n".join(f"- {line}" for line in dataset.report) or "- nothing to report",
        "license": license_statement(dataset),
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
        raise InvalidValueError(
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
