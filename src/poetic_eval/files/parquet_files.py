"""Read the parquet files of a built dataset folder as they are on disk, checked and named.

``datasets.load_dataset(folder, config)`` answers from its cache, whose key does not change
when a data file is edited, truncated or emptied: it would go on serving the rows the file held
when it was first read. A built folder's config is therefore read here straight from the files
its card lists (:func:`load_built_config`, in memory, no cache), and each file is checked
against the row counts the card's ``dataset_info`` records, so a file changed after the build
is named rather than scored. A file that is not parquet (truncated, empty) is named too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import DataFileError
from .dataset_cards import BuiltCard

_REBUILD = "rebuild the folder (poetic-eval build ...) or restore the file"


def parquet_schema(path: str | Path) -> pa.Schema:
    """The schema of a parquet file; a file that is not parquet is named."""
    try:
        return pq.read_schema(path)
    except (pa.ArrowException, OSError) as error:
        raise DataFileError(f"{path}: not a readable parquet file ({error}); {_REBUILD}") from None


def read_parquet_table(path: str | Path) -> pa.Table:
    """A whole parquet file as an arrow table; a file that is not parquet is named."""
    try:
        return pq.read_table(path)
    except (pa.ArrowException, OSError) as error:
        raise DataFileError(f"{path}: not a readable parquet file ({error}); {_REBUILD}") from None


def load_built_config(card: BuiltCard, config: str) -> dict[str, Any]:
    """Split -> ``datasets.Dataset`` of ``config`` of a built folder (``card``: its card, read
    once by the caller), read from disk now.

    Raises:
        DataFileError: a listed file is missing, not parquet, or holds another number of rows
            than the card's ``dataset_info`` says (the file named).
    """
    import datasets
    from datasets.table import InMemoryTable

    folder = card.folder
    counts = card.counts(config)
    splits = {}
    for split, files in card.data_files(config).items():
        if not files:
            raise DataFileError(
                f"{folder}: config {config!r}, split {split!r}: the card lists no existing "
                f"data file; {_REBUILD}"
            )
        tables = [read_parquet_table(path) for path in files]
        _check_counts(folder, config, split, files, tables, counts.get(split))
        table = (
            pa.concat_tables(tables, promote_options="default") if len(tables) > 1 else tables[0]
        )
        splits[split] = datasets.Dataset(InMemoryTable(table))
    return splits


def _check_counts(
    folder: Path, config: str, split: str, files: list[Path], tables: list[pa.Table], expected
) -> None:
    found = sum(table.num_rows for table in tables)
    if expected is None or found == expected:
        return
    named = files[0] if len(files) == 1 else ", ".join(str(path) for path in files)
    raise DataFileError(
        f"{named}: holds {found} rows, but the card {folder / 'README.md'} records "
        f"{expected} for config {config!r}, split {split!r}: the file changed after the build; "
        f"{_REBUILD}"
    )
