"""The card of a built dataset folder (its ``README.md``), parsed once into a :class:`BuiltCard`.

A command reads a folder's card once (:func:`read_built_card`, or :func:`find_built_card` where a
folder may also be a plain folder of files) and hands the :class:`BuiltCard` to whatever needs
it: the configs and their data files per split (as ``datasets.load_dataset`` reads them to find
each config without a loading script), the row counts and features of ``dataset_info``, the
license. Publishing, the harness tasks, the pair tables, the BLM item sources and the parquet
reader all take it, so no reader parses the card again or differently.

Every field is checked when the card is parsed, with one behaviour for a malformed card: a
:class:`~poetic_eval.errors.CardError` (a ``ValueError``), one line naming the card, the field
(``configs[1].data_files``) and what was expected. A data file path must be relative (an
absolute path is refused at parsing, before any glob; one leaving the folder where it is used);
config
and split names must be safe as file names (:func:`~poetic_eval.files.names.checked_name`).
The cards are written by :mod:`poetic_eval.hub`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, TypeVar

import yaml
from datasets.info import DatasetInfo, DatasetInfosDict
from huggingface_hub import DatasetCard, RepoCard
from huggingface_hub.repocard import REGEX_YAML_BLOCK

from ..errors import CardError
from .names import checked_name, inside

C = TypeVar("C", bound=RepoCard)
CARD = "README.md"
#: The split of data files listed without one (``data_files: data/x.parquet``), as in datasets.
DEFAULT_SPLIT = "train"


def read_card_text(path: Path) -> str:
    """The text of a card file, UTF-8 with an optional byte-order mark. Every card read of
    this module goes through here (the tests count the reads per command)."""
    return path.read_bytes().decode("utf-8").removeprefix("\ufeff")


def load_card(path: str | Path, card_class: type[C], *, what: str, fix: str = "") -> C:
    """The card at ``path`` read by the hub's card class (``DatasetCard``, ``SpaceCard`` ...);
    :class:`CardError` naming the file when it is not UTF-8 or has no YAML header mapping
    (``fix``: how else to repair it, added to the message)."""
    path = Path(path)
    try:
        text = read_card_text(path)
    except UnicodeDecodeError as error:
        raise CardError(
            f"{path} is not UTF-8 (byte {error.start}): save the {what} as UTF-8{fix}"
        ) from None
    if not REGEX_YAML_BLOCK.search(text):
        raise CardError(f"{path} has no YAML header (--- ... ---): not a {what} of poetic-eval")
    return _parsed(path, text, card_class)


def _parsed(path: Path, text: str, card_class: type[C]) -> C:
    try:
        return card_class(text)
    except yaml.YAMLError as error:
        reason = " ".join(str(error).split())
        raise CardError(f"{path}: the YAML header does not parse: {reason}") from None
    except ValueError:  # the hub's card classes: "repo card metadata block should be a dict"
        raise CardError(f"{path}: the YAML header is not a mapping of keys to values") from None


@dataclass(frozen=True)
class CardConfig:
    """One entry of the card's ``configs:``: its name and, per split, the data file paths or
    glob patterns as listed (relative to the folder, in card order)."""

    name: str
    data_files: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class BuiltCard:
    """A built dataset folder's card, parsed and checked once (see the module docstring).

    Attributes:
        folder: the dataset folder.
        configs: the ``configs:`` entries, in card order.
        infos: config name -> ``DatasetInfo`` (features, split sizes) from ``dataset_info``, as
            ``datasets`` reads it ({} when the card has none).
        license: the card's ``license`` (a string, a list of them, or None).
        card: the hub's ``DatasetCard`` it was parsed from.
    """

    folder: Path
    configs: tuple[CardConfig, ...]
    infos: dict[str, DatasetInfo]
    license: str | list[str] | None
    card: DatasetCard = field(repr=False, compare=False)
    # Parquet footers read so far, by resolved path (see parquet_files.parquet_footer): one
    # command checks a file, its row count and its columns from a single read.
    footers: dict[Path, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def path(self) -> Path:
        return self.folder / CARD

    @property
    def config_names(self) -> list[str]:
        return [config.name for config in self.configs]

    def config(self, name: str) -> CardConfig:
        """The entry of config ``name``; :class:`CardError` when the card does not list it."""
        for config in self.configs:
            if config.name == name:
                return config
        raise CardError(f"{self.path}: no config {name!r} in its configs: header")

    @property
    def listed_paths(self) -> list[str]:
        """Every data file path or pattern the ``configs:`` lists, in card order, each once."""
        paths = (path for c in self.configs for paths in c.data_files.values() for path in paths)
        return list(dict.fromkeys(paths))

    def data_files(self, config: str) -> dict[str, list[Path]]:
        """Split -> the data files of ``config`` on disk (patterns expanded, sorted), each
        checked to resolve inside the folder (a link out of it is an ``UnsafeNameError``)."""
        by_split = {}
        for split, patterns in self.config(config).data_files.items():
            found = [match for pattern in patterns for match in self.folder.glob(pattern)]
            by_split[split] = sorted(
                inside(self.folder, match.relative_to(self.folder)) for match in found
            )
        return by_split

    def counts(self, config: str) -> dict[str, int]:
        """Split -> ``num_examples`` of ``config`` in ``dataset_info`` (what the build wrote;
        empty when the card does not say)."""
        info = self.infos.get(config)
        splits = info.splits if info is not None and info.splits else {}
        return {
            name: split.num_examples
            for name, split in splits.items()
            if isinstance(getattr(split, "num_examples", None), int)
        }

    @property
    def columns(self) -> dict[str, set[str]]:
        """Each config's top-level column names from ``dataset_info`` (configs it does not
        describe are absent)."""
        return {
            name: set(info.features)
            for name, info in self.infos.items()
            if info.features is not None
        }


def read_built_card(folder: str | Path) -> BuiltCard:
    """``folder``'s ``README.md`` parsed into a :class:`BuiltCard`.

    Raises:
        FileNotFoundError: the folder has no ``README.md``.
        CardError: the card is not UTF-8, has no YAML header mapping, no ``configs:``, or a
            malformed field (the message names it).
        UnsafeNameError: a config or split name that cannot be a file name.
    """
    folder = Path(folder)
    card = load_card(
        folder / CARD, DatasetCard, what="dataset card", fix=", or rebuild it (make build)"
    )
    if card.data.get("configs") is None:
        raise CardError(f"{folder / CARD}: no configs: header (not a dataset folder built here)")
    return _built_card(folder, card)


def find_built_card(folder: str | Path) -> BuiltCard | None:
    """The :class:`BuiltCard` of ``folder``, or None when the folder is not a built dataset
    folder: no ``README.md``, or one without a YAML header or without ``configs:`` (a folder of
    source files with its own README). A card that has a YAML header but does not parse, or
    whose ``configs:`` is malformed, is an error, never None."""
    folder = Path(folder)
    path = folder / CARD
    if not path.is_file():
        return None
    try:
        text = read_card_text(path)
    except UnicodeDecodeError as error:
        # a README with a YAML header that is not UTF-8 is a damaged card; without one, it is
        # some other README (of a folder of source files)
        loose = path.read_bytes().decode("utf-8", errors="replace")
        if not REGEX_YAML_BLOCK.search(loose.removeprefix("\ufeff")):
            return None
        raise CardError(
            f"{path} is not UTF-8 (byte {error.start}): save the dataset card as UTF-8, or "
            "rebuild it (make build)"
        ) from None
    if not REGEX_YAML_BLOCK.search(text):
        return None
    card = _parsed(path, text, DatasetCard)
    if card.data.get("configs") is None:
        return None
    return _built_card(folder, card)


def _built_card(folder: Path, card: DatasetCard) -> BuiltCard:
    path = folder / CARD
    configs = card.data.get("configs")
    if not isinstance(configs, list) or not configs:
        raise CardError(f"{path}: configs must be a non-empty list, got {_shown(configs)}")
    parsed = tuple(_config(path, index, entry) for index, entry in enumerate(configs))
    return BuiltCard(folder, parsed, _infos(path, card), card.data.get("license"), card)


def _config(path: Path, index: int, entry: Any) -> CardConfig:
    where = f"{path}: configs[{index}]"
    if not isinstance(entry, dict):
        raise CardError(f"{where} must be a mapping (config_name, data_files), got {_shown(entry)}")
    name = entry.get("config_name")
    if not isinstance(name, str):
        raise CardError(f"{where}.config_name must be a string, got {_shown(name)}")
    checked_name(name, "config_name", path)
    return CardConfig(name, _data_files(path, f"{where}.data_files", name, entry.get("data_files")))


def _data_files(path: Path, where: str, config: str, listed: Any) -> dict[str, tuple[str, ...]]:
    """``data_files`` in the forms datasets accepts: a path, a list of paths (both split
    ``train``), or a list of ``{split, path}`` whose path is a path or a list of them."""
    expected = "a path, a list of paths, or a list of {split, path} mappings"
    if isinstance(listed, str):
        listed = [listed]
    if not isinstance(listed, list) or not listed:
        raise CardError(f"{where} must be {expected}, got {_shown(listed)}")
    by_split: dict[str, list[str]] = {}
    for entry in listed:
        if isinstance(entry, str):
            entry = {"split": DEFAULT_SPLIT, "path": entry}
        if not isinstance(entry, dict) or "path" not in entry:
            raise CardError(f"{where} must be {expected}, got the entry {_shown(entry)}")
        split = entry.get("split", DEFAULT_SPLIT)
        split = checked_name(split, f"split of config {config!r}", path)
        paths = entry["path"] if isinstance(entry["path"], list) else [entry["path"]]
        for one in paths:
            by_split.setdefault(split, []).append(_relative_path(where, one))
    return {split: tuple(paths) for split, paths in by_split.items()}


def _relative_path(where: str, listed: Any) -> str:
    """A listed data file path, checked to be relative (a glob from the folder cannot take an
    absolute pattern). One that leaves the folder (``..``, a link) is refused where it is
    used: :meth:`BuiltCard.data_files` for readers, the upload plan for publishing (which
    lists it among the problems of the dry run)."""
    if not isinstance(listed, str) or not listed:
        raise CardError(f"{where}: a path must be a non-empty string, got {_shown(listed)}")
    if PurePosixPath(listed).is_absolute() or PureWindowsPath(listed).is_absolute():
        raise CardError(f"{where}: {listed!r} is absolute; paths are relative to the folder")
    return listed


def _infos(path: Path, card: DatasetCard) -> dict[str, DatasetInfo]:
    """``dataset_info``: a mapping (one config) or a list of mappings (one per config), as
    ``datasets`` writes it; anything else is named (``datasets`` would ignore it silently)."""
    info = card.data.get("dataset_info")
    if not info:
        return {}
    entries = info if isinstance(info, list) else [info]
    if not all(isinstance(entry, dict) for entry in entries):
        raise CardError(
            f"{path}: dataset_info does not parse: expected a mapping or a list of mappings, "
            f"got {_shown(info)}"
        )
    try:
        return dict(DatasetInfosDict.from_dataset_card_data(card.data))
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise CardError(f"{path}: dataset_info does not parse: {reason:.200}") from None


def _shown(value: Any) -> str:
    """A value read from a card, short, for a message (its type when it is not a scalar)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return f"{value!r:.80}"
    return f"a {type(value).__name__} ({value!r:.60})"
