"""Read the card of a built dataset folder (its ``README.md``) with the hub's card classes
(``huggingface_hub.DatasetCard``, ``SpaceCard`` ...): the configs it declares, their data
files, features and split sizes, as ``datasets.load_dataset`` reads them to find each config
without a loading script. The hub package writes these cards."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from datasets.info import DatasetInfo, DatasetInfosDict
from huggingface_hub import DatasetCard, RepoCard
from huggingface_hub.repocard import REGEX_YAML_BLOCK

C = TypeVar("C", bound=RepoCard)


def declares_configs(folder: str | Path) -> bool:
    """Whether ``folder`` has a ``README.md`` dataset card with a ``configs:`` header, as the
    builders write (what ``datasets.load_dataset`` reads to find each config's files)."""
    card = dataset_card(folder)
    return card is not None and bool(card.data.get("configs"))


def load_card(path: str | Path, card_class: type[C], *, what: str, fix: str = "") -> C:
    """The card at ``path`` read by the hub's card class (``DatasetCard``, ``SpaceCard`` ...);
    ValueError naming the file when it is not UTF-8 or has no YAML header mapping (``fix``:
    how else to repair it, added to the message)."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{path} is not UTF-8 (byte {error.start}): save the {what} as UTF-8{fix}"
        ) from None
    if not REGEX_YAML_BLOCK.search(text):
        raise ValueError(f"{path} has no YAML header (--- ... ---): not a {what} of poetic-eval")
    try:
        return card_class(text)
    except yaml.YAMLError as error:
        raise ValueError(f"{path}: the YAML header does not parse: {error}") from None
    except ValueError:  # the hub's card classes: "repo card metadata block should be a dict"
        raise ValueError(f"{path}: the YAML header is not a mapping of keys to values") from None


def dataset_card(folder: str | Path) -> DatasetCard | None:
    """``folder``'s README.md read as a ``DatasetCard``; None when it is absent or unreadable
    (not UTF-8, no YAML header mapping)."""
    path = Path(folder) / "README.md"
    if not path.is_file():
        return None
    try:
        return load_card(path, DatasetCard, what="dataset card")
    except (ValueError, OSError):
        return None


def config_entries(card: DatasetCard) -> list[dict[str, Any]]:
    """The ``configs:`` entries of a card's header, each with ``data_files`` as a list of
    ``{"split", "path"}`` (the short forms, a path or a list of paths, mean split ``train``);
    entries that are not mappings are left out."""
    configs = card.data.get("configs") or []
    entries = []
    for config in configs if isinstance(configs, list) else []:
        if not isinstance(config, dict):
            continue
        files = config.get("data_files")
        files = [files] if isinstance(files, str) else files if isinstance(files, list) else []
        files = [{"split": "train", "path": f} if isinstance(f, str) else f for f in files]
        entries.append({**config, "data_files": files})
    return entries


def card_data_files(folder: str | Path, card: DatasetCard | None = None) -> list[str]:
    """The data file paths the card's ``configs:`` header lists (relative to ``folder``), in
    card order, each once (``card``: the folder's card already read, else it is read)."""
    card = card if card is not None else dataset_card(folder)
    paths: dict[str, None] = {}
    for config in config_entries(card) if card is not None else []:
        for entry in config["data_files"]:
            path = entry.get("path") if isinstance(entry, dict) else None
            for one in path if isinstance(path, list) else [path]:
                if isinstance(one, str):
                    paths[one] = None
    return list(paths)


def card_infos(folder: str | Path, card: DatasetCard | None = None) -> dict[str, DatasetInfo]:
    """Each config's ``DatasetInfo`` (features, split sizes) from the card's ``dataset_info``,
    as ``datasets`` reads it ({} when the card has none or it does not parse); ``card`` as in
    :func:`card_data_files`."""
    card = card if card is not None else dataset_card(folder)
    if card is None or not card.data.get("dataset_info"):
        return {}
    try:
        return dict(DatasetInfosDict.from_dataset_card_data(card.data))
    except (TypeError, ValueError, KeyError, AttributeError):
        return {}


def config_columns(folder: str | Path) -> dict[str, set[str]]:
    """Each config's top-level column names, from the card's ``dataset_info`` (empty when the
    card does not list them)."""
    return {
        name: set(info.features)
        for name, info in card_infos(folder).items()
        if info.features is not None
    }


def card_config_names(folder: str | Path) -> list[str]:
    """The config names the card's ``configs:`` header lists, in card order."""
    card = dataset_card(folder)
    entries = config_entries(card) if card is not None else []
    return [entry["config_name"] for entry in entries if isinstance(entry.get("config_name"), str)]


def config_data_files(
    folder: str | Path, config: str, card: DatasetCard | None = None
) -> dict[str, list[Path]]:
    """Split -> the data files of ``config`` that the card lists (its patterns expanded,
    sorted), each checked to lie inside ``folder``.

    Raises:
        ValueError: the card does not list ``config``, or a split name or data file path that
            is not safe (one that would leave the folder).
    """
    from .names import checked_name, inside

    folder = Path(folder)
    path = folder / "README.md"
    card = card if card is not None else dataset_card(folder)
    entries = [e for e in config_entries(card) if e.get("config_name") == config] if card else []
    if not entries:
        raise ValueError(f"{path}: no config {config!r} in its configs: header")
    if not entries[0]["data_files"]:
        raise TypeError(f"{path}: config {config!r} has no data_files list")
    by_split: dict[str, list[Path]] = {}
    for item in entries[0]["data_files"]:
        if not isinstance(item, dict) or "path" not in item:
            raise TypeError(f"{path}: config {config!r}: data_files entry {item!r:.80}")
        split = checked_name(item.get("split", "train"), f"split of config {config!r}", path)
        patterns = item["path"] if isinstance(item["path"], list) else [item["path"]]
        found = [match for pattern in patterns for match in folder.glob(str(pattern))]
        by_split[split] = sorted(inside(folder, match.relative_to(folder)) for match in found)
    return by_split


def split_counts(
    folder: str | Path, config: str, card: DatasetCard | None = None
) -> dict[str, int]:
    """Split -> ``num_examples`` of ``config`` in the card's ``dataset_info`` (what the build
    wrote; empty when the card does not say)."""
    info = card_infos(folder, card).get(config)
    splits = info.splits if info is not None and info.splits else {}
    return {
        name: split.num_examples
        for name, split in splits.items()
        if isinstance(getattr(split, "num_examples", None), int)
    }
