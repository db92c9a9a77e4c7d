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


def parquet_footer(card: BuiltCard, path: str | Path) -> pq.FileMetaData:
    """The footer (schema, row count) of one of ``card``'s data files, read once per parsed
    card. Raises what pyarrow raises for a file that is not parquet (the caller words it).

    Keyed by the resolved path: the card's own listing (``folder / path``) and
    :meth:`BuiltCard.data_files` (paths checked to resolve inside the folder) name the same file
    differently."""
    key = Path(path).resolve()
    if key not in card.footers:
        card.footers[key] = pq.read_metadata(key)
    return card.footers[key]


def config_columns(card: BuiltCard) -> list[tuple[str, dict[str, list[Path]], list[str]]]:
    """(config, split -> its data files, the column names of its first file) of every config of
    ``card``, in card order: what the harness tasks and the hub's eval.yaml read to find each
    config's kind.

    Raises:
        DataFileError: a config none of whose listed files exists, or whose first file is not
            parquet (a card that lists nothing on disk is a broken build, not a config to drop).
    """
    found = []
    for config in card.configs:
        splits = card.data_files(config.name)
        files = [path for paths in splits.values() for path in paths]
        if not files:
            listed = [path for paths in config.data_files.values() for path in paths]
            raise DataFileError(
                f"{card.folder}: config {config.name!r} lists no existing parquet file "
                f"({', '.join(listed)}); {_REBUILD}"
            )
        try:
            columns = parquet_footer(card, files[0]).schema.to_arrow_schema().names
        except (pa.ArrowException, OSError) as error:
            raise DataFileError(
                f"{files[0]}: not a readable parquet file ({error}); {_REBUILD}"
            ) from None
        found.append((config.name, splits, columns))
    return found


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
