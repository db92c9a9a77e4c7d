"""Read the card of a built dataset folder (its ``README.md``): the YAML header, the configs
it declares, their columns and data files. What ``datasets.load_dataset`` reads to find each
config without a loading script; the hub package writes these cards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


def declares_configs(folder: str | Path) -> bool:
    """Whether ``folder`` has a ``README.md`` dataset card with a ``configs:`` header, as the
    builders write (what ``datasets.load_dataset`` reads to find each config's files)."""
    card = Path(folder) / "README.md"
    return card.is_file() and "configs:" in card.read_text(encoding="utf-8", errors="replace")


def card_header(folder: str | Path) -> dict[str, Any]:
    """The YAML header of ``folder``'s README.md card ({} when it has none)."""
    card = Path(folder) / "README.md"
    text = card.read_text(encoding="utf-8", errors="replace") if card.is_file() else ""
    if not text.startswith("---\n") or "\n---\n" not in text[4:]:
        return {}
    header = yaml.safe_load(text[4 : text.index("\n---\n", 4)])
    return header if isinstance(header, dict) else {}


def card_data_files(folder: str | Path) -> set[str]:
    """The data file paths the card's ``configs:`` header lists (relative to ``folder``)."""
    paths = set()
    for config in card_header(folder).get("configs") or []:
        files = config.get("data_files") if isinstance(config, dict) else None
        for entry in files if isinstance(files, list) else []:
            path = entry.get("path") if isinstance(entry, dict) else None
            if isinstance(path, str):
                paths.add(path)
    return paths


def config_columns(folder: str | Path) -> dict[str, set[str]]:
    """Each config's top-level column names, from the card's ``dataset_info`` (empty when the
    card does not list them)."""
    infos = card_header(folder).get("dataset_info") or []
    return {
        info["config_name"]: {feature["name"] for feature in info.get("features", [])}
        for info in infos
        if isinstance(info, dict) and "config_name" in info
    }


def card_config_names(folder: str | Path) -> list[str]:
    """The config names the card's ``configs:`` header lists, in card order."""
    return [
        config["config_name"]
        for config in card_header(folder).get("configs") or []
        if isinstance(config, dict) and isinstance(config.get("config_name"), str)
    ]


def config_data_files(folder: str | Path, config: str) -> dict[str, list[Path]]:
    """Split -> the data files of ``config`` that the card lists (its patterns expanded,
    sorted), each checked to lie inside ``folder``; the short form (one pattern) is split
    ``train``, as ``datasets`` reads it.

    Raises:
        ValueError: the card does not list ``config``, or a split name or data file path that
            is not safe (one that would leave the folder).
    """
    from .names import checked_name, inside

    folder = Path(folder)
    card = folder / "README.md"
    entries = [
        entry
        for entry in card_header(folder).get("configs") or []
        if isinstance(entry, dict) and entry.get("config_name") == config
    ]
    if not entries:
        raise ValueError(f"{card}: no config {config!r} in its configs: header")
    files = entries[0].get("data_files")
    if isinstance(files, str):
        files = [{"split": "train", "path": files}]
    if not isinstance(files, list):
        raise TypeError(f"{card}: config {config!r} has no data_files list")
    by_split: dict[str, list[Path]] = {}
    for item in files:
        if not isinstance(item, dict) or "path" not in item:
            raise TypeError(f"{card}: config {config!r}: data_files entry {item!r:.80}")
        split = checked_name(item.get("split", "train"), f"split of config {config!r}", card)
        patterns = item["path"] if isinstance(item["path"], list) else [item["path"]]
        found = [match for pattern in patterns for match in folder.glob(str(pattern))]
        by_split[split] = sorted(inside(folder, path.relative_to(folder)) for path in found)
    return by_split


def split_counts(folder: str | Path, config: str) -> dict[str, int]:
    """Split -> ``num_examples`` of ``config`` in the card's ``dataset_info`` (what the build
    wrote; empty when the card does not say)."""
    infos = card_header(folder).get("dataset_info") or []
    infos = [infos] if isinstance(infos, dict) else infos
    for info in infos if isinstance(infos, list) else []:
        if isinstance(info, dict) and info.get("config_name", "default") == config:
            return {
                split["name"]: split["num_examples"]
                for split in info.get("splits") or []
                if isinstance(split, dict) and isinstance(split.get("num_examples"), int)
            }
    return {}
