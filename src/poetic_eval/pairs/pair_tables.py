"""Read minimal-pair tables: built dataset folders, single files, or folders of pair files.

A dataset folder built here (``datasets/<name>``, a card with ``configs:``) gives one table per
config that has pair columns; a parquet / jsonl / json / csv file gives one table; a plain
folder of such files (BLiMP, refining-tse) gives one table per file, named by its stem. Pair
columns are detected: ``good``/``bad`` (BPoMP) or ``sentence_good``/``sentence_bad``
(agreement, BLiMP).
"""

from __future__ import annotations

from pathlib import Path

from ..checks import require_positive_int, typed_options, unknown_name_message
from ..errors import InvalidValueError
from ..files import describe_error
from ..files.dataset_cards import BuiltCard, find_built_card
from ..files.parquet_files import load_built_config
from ..text import refuse_special_file
from ..text.text_files import conversion_hint, wide_encoding

PAIR_COLUMNS = (("good", "bad"), ("sentence_good", "sentence_bad"))
FILE_BUILDERS = {".parquet": "parquet", ".jsonl": "json", ".json": "json", ".csv": "csv"}


def pair_columns(column_names: list[str]) -> tuple[str, str]:
    """The (good, bad) column names of a minimal-pair table."""
    for good, bad in PAIR_COLUMNS:
        if good in column_names and bad in column_names:
            return good, bad
    raise InvalidValueError(
        f"no minimal-pair columns found: expected one of {PAIR_COLUMNS}, got {column_names}"
    )


def load_pair_tables(dataset: str, configs: list[str] | None, split: str | None):
    """``[(default category, datasets.Dataset)]`` for a dataset folder or a single file."""
    path = Path(dataset)
    if path.is_file():
        builder = FILE_BUILDERS.get("".join(path.suffixes[-1:]).lower())
        if builder is None:
            raise InvalidValueError(
                f"dataset {dataset}: expected a folder or a {sorted(FILE_BUILDERS)} file"
            )
        return [(path.stem, _load_file(builder, path))]
    if not path.is_dir():
        refuse_special_file(path, "dataset")
        raise FileNotFoundError(f"dataset {dataset}: no such folder or file")
    card = find_built_card(path)  # read once, handed to every reader below
    if card is None:
        return _file_tables(path, configs)
    available = card.config_names
    for name in configs or []:
        if name not in available:
            raise InvalidValueError(
                f"{dataset}: " + unknown_name_message(name, available, "config")
            )
    names = configs or _pair_config_names(card)
    tables = []
    for name in names:
        loaded = load_built_config(card, name)  # the files as on disk, not a cached copy
        if split is not None and split not in loaded:
            raise InvalidValueError(
                f"split {split!r} is not in config {name!r} of dataset {dataset}; its splits: "
                f"{', '.join(loaded)}"
            )
        chosen = split or ("test" if "test" in loaded else next(iter(loaded)))
        table = loaded[chosen]
        try:
            pair_columns(table.column_names)
        except ValueError:
            if configs:  # asked for explicitly: say why it cannot be scored
                raise
            continue  # e.g. the agreement dataset's verb list
        tables.append((name, table))
    if not tables:
        raise InvalidValueError(f"dataset {dataset}: no config with minimal-pair columns")
    return tables


def _load_file(builder: str, path: Path):
    """One pair file as a table; an unreadable file (not UTF-8, malformed) is named."""
    import datasets
    from datasets.exceptions import DatasetGenerationError

    with open(path, "rb") as stream:
        head = stream.read(1 << 16)
    if not head.strip() and path.stat().st_size <= 1 << 16:  # datasets: StopIteration
        raise InvalidValueError(f"dataset {path}: the file is empty (no rows to score)")
    if builder != "parquet" and wide_encoding(head) is not None:  # datasets: a JSON error
        raise InvalidValueError(f"dataset {path}: not UTF-8 text; {conversion_hint(head)}")
    try:
        return datasets.load_dataset(builder, data_files=str(path), split="train")
    except DatasetGenerationError as error:
        cause = error.__cause__ or error.__context__ or error
        if isinstance(cause, UnicodeDecodeError):
            hint = conversion_hint(head[:4096])
            reason = f"not UTF-8 text (byte at offset {cause.start}); {hint}"
        else:
            reason = describe_error(cause)
        raise InvalidValueError(f"dataset {path}: cannot be read as {builder}: {reason}") from error


def _pair_config_names(card: BuiltCard) -> list[str]:
    """Of a dataset folder's configs, those that can hold pairs: by the card's features when it
    lists them (a dataset without pair configs is not loaded at all), else all of them."""
    names = card.config_names
    columns = card.columns
    if not columns:
        return names
    return [name for name in names if _has_pair_columns(columns.get(name, set()))]


def _has_pair_columns(names: set[str]) -> bool:
    return any(good in names and bad in names for good, bad in PAIR_COLUMNS)


def _file_tables(folder: Path, configs: list[str] | None):
    """A plain folder of pair files (BLiMP, refining-tse, Marvin & Linzen): one table per file,
    named by its stem, files with minimal-pair columns only unless asked for by name."""
    files = sorted(
        f for f in folder.rglob("*") if f.is_file() and f.suffix.lower() in FILE_BUILDERS
    )
    if configs:
        by_name = {f.stem: f for f in files}
        missing = [name for name in configs if name not in by_name]
        if missing:
            raise InvalidValueError(
                f"config {', '.join(missing)}: no such file in {folder}; have {sorted(by_name)}"
            )
        files = [by_name[name] for name in configs]
    tables = []
    for file in files:
        [(name, table)] = load_pair_tables(str(file), None, None)
        try:
            pair_columns(table.column_names)
        except ValueError as error:
            if configs:
                raise InvalidValueError(f"{file}: {error}") from None
            continue
        tables.append((name, table))
    if not tables:
        raise InvalidValueError(f"dataset {folder}: no file with minimal-pair columns")
    return tables


@typed_options
def collect_pairs(tables, limit: int | None, category_column: str | None) -> list[dict]:
    """One row per pair: config, row, category, good, bad (``limit`` first pairs per table).

    Raises ValueError when ``limit`` is below 1 or no table has a pair.
    """
    if limit is not None:
        require_positive_int(limit, "limit")
    tables = list(tables)
    rows = []
    for default_category, table in tables:
        if limit is not None:
            table = table.select(range(min(limit, len(table))))
        good_column, bad_column = pair_columns(table.column_names)
        if category_column and category_column not in table.column_names:
            raise InvalidValueError(
                f"category column {category_column!r} is not a column of {default_category}"
            )
        has_category = "category" in table.column_names
        for index, record in enumerate(table):
            category = str(record["category"]) if has_category else default_category
            if category_column:
                category = f"{category}/{record[category_column]}"
            rows.append(
                {
                    "config": default_category,
                    "row": index,
                    "category": category,
                    "good": record[good_column],
                    "bad": record[bad_column],
                }
            )
    if not rows:
        names = ", ".join(name for name, _ in tables) or "none"
        raise InvalidValueError(f"no pairs to score: the tables ({names}) have no rows")
    return rows
