"""A QuaTrain-style corpus held in columns: integer line ids, label codes, provenance.

QuaTrain (Belouadi & Eger 2023) has about 2.7 million English records, and consecutive
records share three of their four lines. Holding each record as a dict of Python strings would
take several GB; here every distinct line is stored once (``line_texts``, interned by exact
string while reading) and a record is a row of four ``int32`` line ids, so the de-duplication
stages work on numpy arrays and two records share a line exactly when they share its id.

Labels (``rhyme``, ``meter``, ``alliteration``) are coded the same way: a small table of the
distinct values and one ``int32`` code per record.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InvalidValueError

#: The label fields of a QuaTrain record, in the release's order.
LABEL_FIELDS = ("rhyme", "meter", "alliteration")
#: Lines per record.
QUATRAIN_LINES = 4


@dataclass(frozen=True)
class LabelColumn:
    """One label field: the distinct values (code -> value; ``None`` is a value) and codes.

    ``kind`` is ``"string"`` or ``"number"`` (the type of every non-null value; a field whose
    values are all null is ``"string"`` for rhyme and meter, ``"number"`` for alliteration).
    """

    values: list[Hashable]
    codes: np.ndarray
    kind: str


@dataclass
class QuatrainCorpus:
    """The records of one source, in source order (record ``i`` is row ``i`` of each array).

    - ``line_ids``: ``(n, 4)`` int32, ids into ``line_texts`` (equal ids = identical strings);
    - ``languages``: ``(n,)`` codes into ``language_names``;
    - ``labels``: one :class:`LabelColumn` per name of :data:`LABEL_FIELDS`;
    - ``source_lines``: ``(n,)`` 1-based line of the file where the record (for a plain-text
      corpus: the window's first line) starts;
    - ``rhyme_from_lines``: True for a plain-text corpus, whose rhyme labels are computed from
      the lines with :func:`poetic_eval.rhyme.rhyme_scheme` when rows are made
      (:meth:`label`), so that only the records that are kept pay for it.
    """

    path: Path | None
    kind: str
    line_texts: list[str]
    line_ids: np.ndarray
    languages: np.ndarray
    language_names: list[str]
    labels: dict[str, LabelColumn]
    source_lines: np.ndarray
    rhyme_from_lines: bool = False

    def __len__(self) -> int:
        return int(self.line_ids.shape[0])

    def language_counts(self) -> dict[str, int]:
        """Records per language, in order of first appearance."""
        counts = np.bincount(self.languages, minlength=len(self.language_names))
        return {name: int(count) for name, count in zip(self.language_names, counts)}

    def records_of(self, language: str) -> np.ndarray:
        """Row indices (ascending) of the records of ``language``.

        ValueError when there are none, listing the languages present."""
        if language not in self.language_names:
            present = ", ".join(
                f"{name} ({count:,} records)" for name, count in self.language_counts().items()
            )
            raise InvalidValueError(
                f"{self.where()}: no records in language {language!r}; the source has {present}"
            )
        return np.flatnonzero(self.languages == self.language_names.index(language))

    def where(self) -> str:
        return str(self.path) if self.path is not None else "corpus"

    def lines(self, row: int) -> list[str]:
        """The four lines of record ``row``."""
        return [self.line_texts[i] for i in self.line_ids[row]]

    def label(self, row: int, name: str) -> Hashable:
        """The value of label ``name`` for record ``row`` (computed for a plain-text rhyme)."""
        if name == "rhyme" and self.rhyme_from_lines:
            from poetic_eval.rhyme import rhyme_scheme

            language = self.language_names[self.languages[row]]
            return rhyme_scheme("\n".join(self.lines(row)), language=language)
        column = self.labels[name]
        return column.values[column.codes[row]]


class _LabelCoder:
    """Builds a :class:`LabelColumn` while records are read, checking one type per field."""

    def __init__(self, name: str):
        self.name = name
        self.index: dict[tuple[type, Hashable], int] = {}
        self.values: list[Hashable] = []
        self.codes = array("i")
        self.kind: str | None = None
        self.kind_where = ""

    def add(self, value: object, where: str) -> None:
        try:
            code = self.index.get((type(value), value))  # 1, 1.0 and True stay apart
        except TypeError:  # unhashable (a list, an object): reported by _new_value
            code = None
        if code is None:
            code = self._new_value(value, where)
        self.codes.append(code)

    def _new_value(self, value: object, where: str) -> int:
        if value is None:
            kind = None
        elif isinstance(value, str):
            kind = "string"
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            if isinstance(value, float) and not math.isfinite(value):
                raise InvalidValueError(f"{where}: {self.name!r} must be finite, got {value!r}")
            kind = "number"
        else:
            raise InvalidValueError(
                f"{where}: {self.name!r} must be a string, a number or null, "
                f"got {type(value).__name__}: {value!r:.60}"
            )
        if kind is not None and kind != self.kind:
            if self.kind is not None:
                raise InvalidValueError(
                    f"{where}: {self.name!r} is a {kind} ({value!r:.40}) but earlier records "
                    f"have {self.kind}s (first at {self.kind_where}); one type per field"
                )
            self.kind, self.kind_where = kind, where
        code = self.index[(type(value), value)] = len(self.values)
        self.values.append(float(value) if kind == "number" else value)
        return code

    def column(self) -> LabelColumn:
        default_kind = "number" if self.name == "alliteration" else "string"
        # frombuffer shares the array's memory: the copy owns its own, whatever happens to the coder
        codes = np.frombuffer(self.codes, dtype=np.int32).copy()
        return LabelColumn(list(self.values), codes, self.kind or default_kind)


@dataclass
class CorpusBuilder:
    """Accumulates records (interning lines and labels) and makes a :class:`QuatrainCorpus`."""

    path: Path | None
    kind: str
    rhyme_from_lines: bool = False
    line_index: dict[str, int] = field(default_factory=dict)
    # typed arrays, not lists, while reading millions of records: 4 bytes per id (2 per language
    # code) instead of a pointer to an int object each
    ids: array = field(default_factory=lambda: array("i"))
    languages: array = field(default_factory=lambda: array("h"))
    language_index: dict[str, int] = field(default_factory=dict)
    source_lines: array = field(default_factory=lambda: array("q"))
    coders: dict[str, _LabelCoder] = field(
        default_factory=lambda: {name: _LabelCoder(name) for name in LABEL_FIELDS}
    )

    def add(
        self,
        lines: Sequence[str],
        language: str,
        labels: Sequence[object],
        *,
        source_line: int,
        where: str,
    ) -> None:
        """One record: its 4 lines (checked by the caller), language, labels in field order."""
        index = self.line_index
        for line in lines:
            line_id = index.get(line)
            if line_id is None:
                line_id = index[line] = len(index)
            self.ids.append(line_id)
        code = self.language_index.get(language)
        if code is None:
            code = self.language_index[language] = len(self.language_index)
        self.languages.append(code)
        for name, value in zip(LABEL_FIELDS, labels):
            self.coders[name].add(value, where)
        self.source_lines.append(source_line)

    def __len__(self) -> int:
        return len(self.languages)

    def corpus(self) -> QuatrainCorpus:
        if not len(self):
            json_file = self.kind in ("json", "jsonl")
            what = "the JSON file holds no records" if json_file else "no records"
            raise InvalidValueError(f"{self.path or 'corpus'}: {what}")
        line_ids = np.frombuffer(self.ids, dtype=np.int32).reshape(-1, QUATRAIN_LINES).copy()
        return QuatrainCorpus(
            path=self.path,
            kind=self.kind,
            line_texts=list(self.line_index),
            line_ids=line_ids,
            languages=np.frombuffer(self.languages, dtype=np.int16).copy(),
            language_names=list(self.language_index),
            labels={name: coder.column() for name, coder in self.coders.items()},
            source_lines=np.frombuffer(self.source_lines, dtype=np.int64).copy(),
            rhyme_from_lines=self.rhyme_from_lines,
        )
