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
