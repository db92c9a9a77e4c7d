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


def card_data_files(folder: str | Path) -> list[str]:
    """The data file paths the card's ``configs:`` header lists (relative to ``folder``), in
    card order, each once."""
    card = dataset_card(folder)
    paths: dict[str, None] = {}
    for config in config_entries(card) if card is not None else []:
        for entry in config["data_files"]:
            path = entry.get("path") if isinstance(entry, dict) else None
            for one in path if isinstance(path, list) else [path]:
                if isinstance(one, str):
                    paths[one] = None
    return list(paths)


def card_infos(folder: str | Path) -> dict[str, DatasetInfo]:
    """Each config's ``DatasetInfo`` (features, split sizes) from the card's ``dataset_info``,
    as ``datasets`` reads it ({} when the card has none or it does not parse)."""
    card = dataset_card(folder)
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
