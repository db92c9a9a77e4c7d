"""Convert published subject-verb agreement minimal pairs into :class:`AgreementPair` rows.

Formats read (a file, or a folder searched recursively):

* refining-tse (Newman et al. 2021) ``data/ML/*.jsonl`` and ``data/blimp/*.jsonl``: records with
  ``sentence_good``, ``sentence_bad`` and ``label`` (-1 singular, -2 plural). The family is the
  BLiMP ``UID`` when present, otherwise the file name without the ``_all`` suffix
  (``simple_agrmt_all.jsonl`` -> ``simple_agrmt``); the case is not recorded there ("").
* BLiMP (Warstadt et al. 2020) ``data/<paradigm>.jsonl`` without a ``label``: the label is
  derived from the varied words. In paradigms with ``two_prefix_method`` (``*_2``) the subject
  noun varies and the label is the number of the good sentence's noun; otherwise the verb
  varies and the label is the number of the good verb form.
* Marvin & Linzen (2018) LM_syneval templates: the released ``*.pickle`` files (a dict
  case -> list of (grammatical, ungrammatical) tuples, read with an unpickler that refuses
  every class, so a pickle cannot run code) and JSON-lines conversions of them with
  ``template``, ``case``, ``sentence_good``, ``sentence_bad``. The label is the case's first
  word (``sing_...`` / ``plur_...``, the number of the agreeing subject). Only the agreement
  templates are read; reflexive and NPI templates are skipped and reported.

Sentences are kept verbatim (Marvin & Linzen's are lower-case without a period). A malformed
file or record is an error naming the file and line; a well-formed pair that does not differ in
exactly one token, or whose label cannot be derived (BLiMP has a few, e.g. "sing"/"singing"), is
dropped and listed in :attr:`ConvertedSource.dropped`.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from ..checks import typed_options
from ..errors import InvalidTypeError, InvalidValueError
from ..files.names import checked_name
from ..text import read_text_file, refuse_special_file
from .agreement_pairs import (
    PLURAL,
    SINGULAR,
    AgreementPair,
    label_from_tse,
    single_token_difference,
)
from .grammar import MARVIN_LINZEN_FAMILIES
from .grammatical_number import noun_pair_number, verb_pair_number

PICKLE_SUFFIXES = (".pickle", ".pkl")
_CASE_NUMBERS = {"sing": SINGULAR, "plur": PLURAL}


@dataclass
class ConvertedSource:
    """Rows by config (= family), the files they came from, and what was left out and why.

    ``skipped`` lists files not read (other formats, non-agreement templates); ``dropped``
    lists pairs left out of a file that was read ("<file>, line <n>: <reason>").
    """

    configs: dict[str, list[AgreementPair]] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)


@typed_options
def convert_source(path: str | Path, *, show_progress: bool = False) -> ConvertedSource:
    """Convert a published file, or every recognised file under a folder (sorted paths).

    ``show_progress`` shows a tqdm bar over the files.

    Raises FileNotFoundError for a missing path, ValueError for a file that is not one of
    the formats, a malformed record (naming file and line), no agreement pairs at all, or
    two files giving the same family.
    """
    path = Path(path)
    if not path.is_dir():
        refuse_special_file(path, "agreement source")
    if not path.exists():
        raise FileNotFoundError(f"agreement source {path} does not exist")
    result = ConvertedSource()
    origins: dict[str, Path] = {}
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in tqdm(files, desc="agreement sources", unit="file", disable=not show_progress):
        # a file named on its own must be an agreement file; inside a folder, other files (a README,
        # the scripts) are skipped and listed instead
        converted = _convert_file(file, result, strict=not path.is_dir())
        for family, pairs in converted.items():
            if family in origins:
                raise InvalidValueError(
                    f"family {family!r} comes from both {origins[family]} and {file}; "
                    "convert them separately"
                )
            origins[family] = file
            result.configs[family] = pairs
        if converted:
            result.files.append(file)
    if not result.configs:
        raise InvalidValueError(
            f"{path}: no subject-verb agreement pairs found ({len(files)} files)"
        )
    return result


def _convert_file(
    path: Path, result: ConvertedSource, *, strict: bool
) -> dict[str, list[AgreementPair]]:
    if path.suffix in PICKLE_SUFFIXES:
        cases = _read_template_pickle(path)
        return _marvin_linzen_pairs(path.stem, _pickle_records(path, cases), path, result)
    if path.suffix != ".jsonl":
        if strict:
            raise InvalidValueError(f"{path}: not a .jsonl or .pickle agreement file")
        result.skipped.append(f"{path.name}: not a .jsonl or .pickle file")
        return {}
    records = list(_read_jsonl(path))
    if not records:
        raise InvalidValueError(f"{path}: no records")
    # the first record decides the format; "label" is tested before "UID" because
    # refining-tse's BLiMP files carry both (and their label is the one to keep)
    first = records[0][1]
    if "template" in first and "case" in first:
        return _marvin_linzen_pairs(first["template"], records, path, result)
    if "label" in first:
        return _refining_tse_pairs(records, path, result)
    if "UID" in first:
        return _blimp_pairs(records, path, result)
    raise InvalidValueError(
        f"{path}: line 1 has fields {sorted(first)}; expected refining-tse (sentence_good, "
        "sentence_bad, label), BLiMP (UID, ...) or Marvin & Linzen (template, case, ...)"
    )


def _read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(read_text_file(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise InvalidValueError(f"{path}, line {number}: not valid JSON ({error})") from None
        if not isinstance(record, dict):
            raise InvalidTypeError(f"{path}, line {number}: expected a JSON object")
        yield number, record


def _sentences(record: dict[str, Any], path: Path, line: int) -> tuple[str, str]:
    values = []
    for key in ("sentence_good", "sentence_bad"):
        value = record.get(key)
        if not isinstance(value, str) or not value.strip():
            raise InvalidValueError(
                f"{path}, line {line}: field {key!r} must be a non-empty string"
            )
        values.append(value)
    return values[0], values[1]


def _varied_words(
    good: str, bad: str, path: Path, line: int, result: ConvertedSource
) -> tuple[str, str] | None:
    """The differing words, or None (and the pair listed as dropped) when not exactly one."""
    try:
        _, good_word, bad_word = single_token_difference(good, bad)
    except ValueError as error:
        result.dropped.append(f"{path.name}, line {line}: {error}")
        return None
    return good_word, bad_word


def _refining_tse_pairs(records, path: Path, result: ConvertedSource):
    pairs: dict[str, list[AgreementPair]] = {}
    default_family = path.stem.removesuffix("_all")
    for line, record in records:
        good, bad = _sentences(record, path, line)
        if _varied_words(good, bad, path, line, result) is None:
            continue
        try:
            label = label_from_tse(record.get("label"))
        except ValueError as error:
            raise InvalidValueError(f"{path}, line {line}: {error}") from None
        family = _config_name(record.get("UID", default_family), path, line)
        pairs.setdefault(family, []).append(AgreementPair(good, bad, label, family, ""))
    return pairs


def _config_name(family: object, path: Path, line: int) -> str:
    """A record's family, which becomes a config name and so a folder name of the dataset."""
    return checked_name(
        family, "family (the config name, from UID or the file name)", f"{path}, line {line}"
    )


def _blimp_pairs(records, path: Path, result: ConvertedSource):
    pairs: dict[str, list[AgreementPair]] = {}
    for line, record in records:
        good, bad = _sentences(record, path, line)
        words = _varied_words(good, bad, path, line, result)
        if words is None:
            continue
        number = noun_pair_number if record.get("two_prefix_method") else verb_pair_number
        try:
            label = number(*words)
        except ValueError as error:
            result.dropped.append(f"{path.name}, line {line}: {error}")
            continue
        if "UID" not in record:
            raise InvalidValueError(f"{path}, line {line}: BLiMP record without a 'UID' field")
        family = _config_name(record["UID"], path, line)
        pairs.setdefault(family, []).append(AgreementPair(good, bad, label, family, ""))
    return pairs


def _marvin_linzen_pairs(
    family: str, records: Iterable[tuple[int, dict[str, Any]]], path: Path, result: ConvertedSource
) -> dict[str, list[AgreementPair]]:
    if family not in MARVIN_LINZEN_FAMILIES:
        result.skipped.append(
            f"{path.name}: template {family!r} is not a subject-verb agreement template"
        )
        return {}
    pairs = []
    for line, record in records:
        good, bad = _sentences(record, path, line)
        if _varied_words(good, bad, path, line, result) is None:
            continue
        case = record.get("case")
        label = _CASE_NUMBERS.get(str(case).split("_")[0])
        if label is None:
            raise InvalidValueError(
                f"{path}, record {line}: case {case!r} does not start with sing_ or plur_"
            )
        pairs.append(AgreementPair(good, bad, label, family, case))
    return {family: pairs}


class _PlainDataUnpickler(pickle.Unpickler):
    """Loads only built-in containers and strings: any class or function is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(
            f"refusing to load {module}.{name}: template pickles hold only dicts, lists, "
            "tuples and strings"
        )


def _read_template_pickle(path: Path) -> dict[str, list]:
    with open(path, "rb") as stream:
        try:
            # ``encoding`` applies only to pickles written by Python 2 (their byte strings)
            data = _PlainDataUnpickler(stream, encoding="utf-8").load()
        except (pickle.UnpicklingError, EOFError, ValueError) as error:
            raise InvalidValueError(
                f"{path}: not a Marvin & Linzen template pickle ({error})"
            ) from None
    if not isinstance(data, dict):
        raise InvalidTypeError(f"{path}: expected a dict case -> list of sentence tuples")
    return data


def _pickle_records(path: Path, cases: dict[str, list]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Records in the JSON-lines shape; the 'line' is the running record number."""
    number = 0
    for case, tuples in cases.items():
        for entry in tuples:
            number += 1
            if not isinstance(entry, (tuple, list)) or len(entry) < 2:
                raise InvalidValueError(
                    f"{path}, case {case!r}: expected (good, bad) tuples, got {entry!r:.80}"
                )
            yield number, {"case": case, "sentence_good": entry[0], "sentence_bad": entry[1]}
