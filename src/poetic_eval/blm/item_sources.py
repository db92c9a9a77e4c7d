"""Where BLM items come from: a built dataset folder (one set per config) or a release JSON file.

The one-shot example of a dataset config is the first item of its ``train`` split (the few-shot
split); the one-shot example of a file is its first record, which is then not evaluated.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..checks import require_positive_int, unknown_name_message
from ..errors import InvalidValueError
from ..files.dataset_cards import BuiltCard, find_built_card
from ..files.parquet_files import load_built_config
from ..text import refuse_special_file
from .records import BlmItem, read_blm_items, validate_blm_record

EXAMPLE_SPLIT = "train"


@dataclass(frozen=True)
class EvaluationSet:
    """Items to evaluate together: a dataset config's split, or a file.

    Attributes:
        name: the config name, or the file's stem.
        items: the items evaluated.
        example: the one-shot example (None for zero-shot).
    """

    name: str
    items: list[BlmItem]
    example: BlmItem | None = None


def load_evaluation_sets(
    source: str | Path,
    configs: list[str] | None = None,
    *,
    split: str = "test",
    one_shot: bool = False,
    limit: int | None = None,
) -> list[EvaluationSet]:
    """The BLM items of ``source``: a dataset folder (``configs``, default all) or a JSON file.

    Args:
        source: a hub dataset folder (``datasets/blm`` after ``make build``: parquet + card),
            or a file in the original release's format (a JSON list of records, a
            ``{"data": [...]}`` object, or JSON Lines; read by :func:`~.records.read_blm_items`,
            which warns about inconsistent records it can still read).
        configs: configs of a folder to read (default: all); not allowed with a file.
        split: the split evaluated (folders).
        one_shot: also pick the one-shot example (first ``train`` item; a file's first record).
        limit: evaluate only the first ``limit`` items of each set (after the example).

    Raises:
        FileNotFoundError: no such file or folder.
        ValueError: an unknown config or split (the available ones are listed), a config without
            a ``train`` split for one-shot, a file with one record for one-shot, a bad record.
    """
    path = Path(source)
    if limit is not None:
        require_positive_int(limit, "limit")
    if path.is_file():
        if configs:
            raise InvalidValueError(
                f"configs {configs} were given, but {path} is a file, not a dataset folder"
            )
        return [_file_set(path, one_shot, limit)]
    if not path.is_dir():
        refuse_special_file(path, "BLM source")
        raise FileNotFoundError(f"{path}: no such BLM dataset folder or file")
    card = _card(path)  # read once, handed to each config's reader
    return [_config_set(card, name, split, one_shot, limit) for name in _configs(card, configs)]


def _file_set(path: Path, one_shot: bool, limit: int | None) -> EvaluationSet:
    items = read_blm_items(path)
    example = None
    if one_shot:
        if len(items) < 2:
            raise InvalidValueError(
                f"{path}: one-shot needs at least 2 records (the first is the example)"
            )
        example, items = items[0], items[1:]
    return EvaluationSet(path.stem, items[:limit], example)


def _card(folder: Path) -> BuiltCard:
    card = find_built_card(folder)
    if card is None:
        raise InvalidValueError(
            f"{folder}: no dataset card listing configs (README.md with configs:); give a "
            "folder written by `poetic-eval build blm`, or a BLM release JSON file"
        )
    return card


def _configs(card: BuiltCard, configs: list[str] | None) -> list[str]:
    folder, available = card.folder, card.config_names
    if not configs:
        return list(available)
    for name in configs:
        if name not in available:
            raise InvalidValueError(f"{folder}: " + unknown_name_message(name, available, "config"))
    return list(configs)


def _config_set(
    card: BuiltCard, name: str, split: str, one_shot: bool, limit: int | None
) -> EvaluationSet:
    folder = card.folder
    loaded = load_built_config(card, name)  # the files as on disk, not a cached copy
    if split not in loaded:
        raise InvalidValueError(
            f"{folder} config {name}: " + unknown_name_message(split, list(loaded), "split")
        )
    example = None
    if one_shot:
        if EXAMPLE_SPLIT not in loaded or len(loaded[EXAMPLE_SPLIT]) == 0:
            raise InvalidValueError(
                f"{folder} config {name}: one-shot needs a {EXAMPLE_SPLIT!r} split to take the "
                f"example from; available: {list(loaded)}"
            )
        example = _items(loaded[EXAMPLE_SPLIT].select(range(1)), folder, name)[0]
    table = loaded[split]
    # one extra row in case the example is among them (split == train)
    take = len(table) if limit is None else min(len(table), limit + 1)
    items = [item for item in _items(table.select(range(take)), folder, name) if item != example]
    return EvaluationSet(name, items[:limit], example)


def _items(table, folder: Path, name: str) -> list[BlmItem]:
    source = f"{folder} config {name}"
    return [
        validate_blm_record(row, position=position, source=source)
        for position, row in enumerate(table)
    ]
