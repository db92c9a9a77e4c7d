"""Dataset rows and features of the prepared quatrains and pseudo-sonnets.

Quatrain rows: ``id`` (``<language>-<source index>``, the same whatever the seed), ``text`` (the
4 lines joined by ``"\\n"``), ``lines``, ``language``, ``rhyme``, ``meter``, ``alliteration``
(as in the source; ``rhyme`` computed for a plain-text corpus), ``source_index`` (0-based
record number in the source file, counting every language; for a plain-text corpus the
number of the window among all windows) and ``source_line`` (1-based line of the file where
the record, or the window's first line, starts).

Sonnet rows: ``id``, ``text`` (14 lines joined by ``"\\n"``), ``lines``, ``language`` and
``parts``: 4 entries (3 quatrains, then the couplet) giving the source quatrain's ``id`` (a
row of the same split of the quatrain config), ``source_index``, ``span`` (``"1-4"``,
``"1-2"`` or ``"3-4"``: the lines of that quatrain used) and its ``rhyme``, ``meter`` and
``alliteration``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import datasets
from tqdm.auto import tqdm

from ..checks import typed_options
from .corpus import LABEL_FIELDS, QuatrainCorpus
from .pipeline import PreparedLanguage
from .sonnets import PseudoSonnets

_SPANS = ("1-2", "3-4")


def _label_feature(corpus: QuatrainCorpus, name: str) -> datasets.Value:
    # a plain-text corpus has no rhyme label: it is computed from the lines, as a scheme string
    if name == "rhyme" and corpus.rhyme_from_lines:
        return datasets.Value("string")
    kind = corpus.labels[name].kind
    return datasets.Value("float64" if kind == "number" else "string")


def quatrain_features(corpus: QuatrainCorpus) -> datasets.Features:
    labels = {name: _label_feature(corpus, name) for name in LABEL_FIELDS}
    return datasets.Features(
        {
            "id": datasets.Value("string"),
            "text": datasets.Value("string"),
            "lines": datasets.List(datasets.Value("string")),
            "language": datasets.Value("string"),
            **labels,
            "source_index": datasets.Value("int64"),
            "source_line": datasets.Value("int64"),
        }
    )


def sonnet_features(corpus: QuatrainCorpus) -> datasets.Features:
    labels = {name: _label_feature(corpus, name) for name in LABEL_FIELDS}
    part = {
        "quatrain_id": datasets.Value("string"),
        "source_index": datasets.Value("int64"),
        "span": datasets.Value("string"),
        **labels,
    }
    return datasets.Features(
        {
            "id": datasets.Value("string"),
            "text": datasets.Value("string"),
            "lines": datasets.List(datasets.Value("string")),
            "language": datasets.Value("string"),
            "parts": datasets.List(part),
        }
    )


def _id_width(corpus: QuatrainCorpus) -> int:
    # zero-padded so ids sort in source order as strings; at least 6 digits, more only for a
    # source of a million records or more
    return max(6, len(str(len(corpus) - 1)))


@typed_options
def quatrain_rows(
    corpus: QuatrainCorpus, prepared: PreparedLanguage, split: str, *, show_progress: bool = False
) -> list[dict[str, Any]]:
    """Rows of one split (``"train"`` or ``"dev"``) of the quatrains, in source order."""
    width = _id_width(corpus)
    language = prepared.language
    rows = []
    indices = prepared.split(split).tolist()
    for row in tqdm(indices, desc=f"rows ({language}, {split})", disable=not show_progress):
        lines = corpus.lines(row)
        labels: dict[str, Hashable] = {name: corpus.label(row, name) for name in LABEL_FIELDS}
        rows.append(
            {
                "id": f"{language}-{row:0{width}d}",
                "text": "\n".join(lines),
                "lines": lines,
                "language": language,
                **labels,
                "source_index": row,
                "source_line": int(corpus.source_lines[row]),
            }
        )
    return rows


def sonnet_rows(
    quatrains: list[dict[str, Any]], sonnets: PseudoSonnets, language: str, split: str
) -> list[dict[str, Any]]:
    """Rows of one split's sonnets from that split's quatrain rows (:func:`quatrain_rows`)."""
    width = max(5, len(str(len(sonnets))))
    rows = []
    for number, (whole, source, half) in enumerate(
        zip(
            sonnets.quatrains.tolist(),
            sonnets.couplet_sources.tolist(),
            sonnets.couplet_halves.tolist(),
        )
    ):
        parts = [_part(quatrains[position], "1-4") for position in whole]
        parts.append(_part(quatrains[source], _SPANS[half]))
        lines = [line for position in whole for line in quatrains[position]["lines"]]
        # the couplet: lines 1-2 (half 0) or 3-4 (half 1) of its source quatrain, as in _SPANS
        lines += quatrains[source]["lines"][2 * half : 2 * half + 2]
        rows.append(
            {
                "id": f"{language}-{split}-sonnet-{number:0{width}d}",
                "text": "\n".join(lines),
                "lines": lines,
                "language": language,
                "parts": parts,
            }
        )
    return rows


def _part(quatrain: dict[str, Any], span: str) -> dict[str, Any]:
    return {
        "quatrain_id": quatrain["id"],
        "source_index": quatrain["source_index"],
        "span": span,
        **{name: quatrain[name] for name in LABEL_FIELDS},
    }


def stage_counts_table(prepared: list[PreparedLanguage], records_in_source: int) -> str:
    """Markdown table of the counts after each stage, one row per language."""
    header = (
        "| language | p | records (of the language) | runs | after sequential pass | "
        "after overlap removal | iterations | train | validation | sonnets train | "
        "sonnets validation |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    lines = [header]
    for item in prepared:
        c = item.counts()
        lines.append(
            f"| {item.language} | {item.deduplication.p} | {c['records']:,} | {c['runs']:,} | "
            f"{c['after_sequential']:,} | {c['after_overlap_removal']:,} | {c['iterations']:,} | "
            f"{c['train']:,} | {c['dev']:,} | {c['sonnets_train']:,} | {c['sonnets_dev']:,} |"
        )
    lines.append("")
    lines.append(f"Records in the source, all languages: {records_in_source:,}.")
    return "\n".join(lines)
