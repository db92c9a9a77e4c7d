"""Reading the BLM generator's lexicon folder (``blm/generator/data/``) into a checked
:class:`~.lexicon.Lexicon`.

:func:`load_lexicon` reads the six JSON files (:data:`LEXICON_FILES`, described in
:mod:`.lexicon`), builds the entries, resolves every cross reference and runs
:func:`.lexicon_checks.check_lexicon`, naming the file and entry of any error. The entry types
live in :mod:`.lexicon`, which imports neither this module nor the checks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...checks import unknown_name_message
from ...text import read_text_file
from .lexicon import (
    Adjective,
    Attachment,
    CauseKind,
    Lexicon,
    LexiconError,
    Noun,
    NounModifier,
    PhraseSpec,
    Predicate,
    Verb,
)
from .lexicon_checks import check_lexicon
from .noun_phrases import NounPhrase

DATA_DIR = Path(__file__).resolve().parent / "data"
LEXICON_FILES = (
    "nouns.json",
    "adjectives.json",
    "verbs.json",
    "agreement_templates.json",
    "alternation_phrases.json",
    "noun_modifiers.json",
)
#: the keys of one modifier in ``noun_modifiers.json``, besides a "di" phrase's ``number`` and
#: ``determiner``
MODIFIER_KINDS = ("before", "after", "of")
#: the determiners of a "di" phrase's noun: none (*di vetro*) or the definite article (*della
#: cucina*)
OF_DETERMINERS = ("bare", "def")


def load_lexicon(folder: str | Path | None = None) -> Lexicon:
    """The lexicon in ``folder`` (default: the bundled one), checked; cached per folder."""
    return _load(Path(folder).resolve() if folder is not None else DATA_DIR)


@lru_cache(maxsize=4)
def _load(folder: Path) -> Lexicon:
    raw = {name: _read(folder / name) for name in LEXICON_FILES}
    nouns = _entries(raw, "nouns.json", "nouns", _noun)
    adjectives = _entries(raw, "adjectives.json", "adjectives", _adjective)
    nouns = _with_modifiers(raw["noun_modifiers.json"], nouns, {a.lemma: a for a in adjectives})
    verbs = _entries(raw, "verbs.json", "verbs", _verb)
    templates, phrases = raw["agreement_templates.json"], raw["alternation_phrases.json"]
    lexicon = Lexicon(
        nouns={n.lemma: n for n in nouns},
        adjectives={a.lemma: a for a in adjectives},
        verbs={v.lemma: v for v in verbs},
        attachments=tuple(
            _build(Attachment, e, "agreement_templates.json")
            for e in _list(templates, "attachments", "agreement_templates.json")
        ),
        predicates=tuple(
            _predicate(e) for e in _list(templates, "predicates", "agreement_templates.json")
        ),
        prefixes=tuple(_list(templates, "prefixes", "agreement_templates.json")),
        relative_verbs=tuple(_list(templates, "relative_verbs", "agreement_templates.json")),
        relative_subjects=tuple(_list(templates, "relative_subjects", "agreement_templates.json")),
        other_phrases=tuple(
            _phrase(e) for e in _list(phrases, "other_phrases", "alternation_phrases.json")
        ),
        da_phrases=tuple(
            _phrase(e) for e in _list(phrases, "da_phrases", "alternation_phrases.json")
        ),
        cause_kinds={
            name: CauseKind(
                tuple(kind.get("spans", ())),
                tuple(kind.get("frames", ())),
                bool(kind.get("keeps_time", False)),
                bool(kind.get("daylight", False)),
            )
            for name, kind in phrases.get("cause_kinds", {}).items()
        },
        habitual_spans=tuple(phrases.get("habitual_spans", ())),
        certain_prefixes=tuple(templates.get("certain_prefixes", ())),
        rumour_prefixes=tuple(templates.get("rumour_prefixes", ())),
        di_cui_verbs=tuple(
            (entry["verb"], entry.get("voice", "active"))
            for entry in templates.get("di_cui_verbs", ())
        ),
        files=tuple(folder / name for name in LEXICON_FILES),
    )
    check_lexicon(lexicon, nouns, adjectives, verbs)
    return lexicon


def _read(path: Path) -> Mapping[str, Any]:
    if not path.is_file():
        expected = ", ".join(LEXICON_FILES)
        raise FileNotFoundError(f"lexicon file {path} not found (a lexicon folder has {expected})")
    try:
        return json.loads(read_text_file(path))
    except json.JSONDecodeError as error:
        raise LexiconError(f"{path}: not valid JSON ({error})") from None


def _list(raw: Mapping[str, Any], key: str, name: str) -> list[Any]:
    value = raw.get(key)
    if not isinstance(value, list):
        raise LexiconError(f"{name}: expected a list under {key!r}")
    return value


def _entries(raw: Mapping[str, Mapping[str, Any]], name: str, key: str, make) -> list:
    entries = []
    for index, entry in enumerate(_list(raw[name], key, name)):
        try:
            entries.append(make(entry))
        except (KeyError, TypeError, ValueError) as error:
            raise LexiconError(f"{name}, {key}[{index}] ({entry!r:.60}): {error}") from None
    return entries


def _build(cls, entry: Mapping[str, Any], name: str):
    try:
        return cls(**entry)
    except TypeError as error:
        raise LexiconError(f"{name}: entry {entry!r:.60}: {error}") from None


def _noun(entry: Mapping[str, Any]) -> Noun:
    return Noun(**{**entry, "classes": tuple(entry["classes"])})


def _with_modifiers(
    raw: Mapping[str, Any], nouns: list[Noun], adjectives: Mapping[str, Adjective]
) -> list[Noun]:
    """``nouns``, each with its modifiers of ``noun_modifiers.json`` (:attr:`.Noun.modifiers`)."""
    where = "noun_modifiers.json"
    by_lemma = {noun.lemma: noun for noun in nouns}
    table = raw.get("modifiers")
    if not isinstance(table, Mapping):
        raise LexiconError(f"{where}: expected a mapping of noun lemmas under 'modifiers'")
    modifiers: dict[str, tuple[NounModifier, ...]] = {}
    for lemma, entries in table.items():
        if lemma not in by_lemma:
            raise LexiconError(f"{where}: " + unknown_name_message(lemma, list(by_lemma), "noun"))
        if by_lemma[lemma].cause_kind is not None:  # *il vento freddo piega i rami*
            raise LexiconError(f"{where}, {lemma!r}: a cause takes no modifier")
        modifiers[lemma] = tuple(
            _modifier(entry, f"{where}, {lemma!r}", by_lemma, adjectives) for entry in entries
        )
    return [replace(noun, modifiers=modifiers.get(noun.lemma, ())) for noun in nouns]


def _modifier(
    entry: Mapping[str, Any],
    where: str,
    nouns: Mapping[str, Noun],
    adjectives: Mapping[str, Adjective],
) -> NounModifier:
    kinds = [kind for kind in MODIFIER_KINDS if kind in entry]
    extra = set(entry) - {*MODIFIER_KINDS, "number", "determiner"}
    if len(kinds) != 1 or extra:
        raise LexiconError(f"{where}: {dict(entry)!r} needs one of {list(MODIFIER_KINDS)}")
    kind = kinds[0]
    if kind != "of":
        lemma = entry[kind]
        if lemma not in adjectives:
            message = unknown_name_message(lemma, list(adjectives), "adjective")
            raise LexiconError(f"{where}: {message} (add it to adjectives.json)")
        if not adjectives[lemma].permanent:  # a state the verb may change: *il pane duro*
            raise LexiconError(f"{where}: {lemma!r} is no lasting (permanent) adjective")
        return NounModifier(adjectives[lemma], before=kind == "before")
    lemma, number = entry["of"], entry.get("number", "sg")
    determiner = entry.get("determiner", "bare")
    if lemma not in nouns:
        message = unknown_name_message(lemma, list(nouns), "noun")
        raise LexiconError(f"{where}: {message} (add it at the beginning of nouns.json)")
    noun = nouns[lemma]
    if number not in noun.numbers or determiner not in OF_DETERMINERS:
        raise LexiconError(
            f"{where}: 'di {lemma}' takes a number of {list(noun.numbers)} and a determiner of "
            f"{list(OF_DETERMINERS)}"
        )
    if determiner == "bare":
        return NounModifier(tail="di " + noun.form(number), noun=lemma)  # di vetro, di mele
    tail = NounPhrase(noun, number, "def").text("di")
    return NounModifier(tail=tail, definite=True, noun=lemma)


def _adjective(entry: Mapping[str, Any]) -> Adjective:
    return Adjective(**entry)


def _verb(entry: Mapping[str, Any]) -> Verb:
    pairs = {
        key: tuple(entry[key])
        for key in ("present", "imperfect", "future", "remote")
        if key in entry
    }
    roles = (
        "agents",
        "patients",
        "reflexive_agents",
        "context_agents",
        "source_patients",
        "acting_patients",
        "da_spans",
        "p_phrases",
        "cause_patients",
        "small_patients",
        "patient_refuses",
    )
    lists = {key: tuple(entry.get(key, ())) for key in roles}
    lists["agents"] += lists["context_agents"]  # the contexts draw from all of them
    limits = {agent: tuple(p) for agent, p in entry.get("agent_patients", {}).items()}
    kinds = {agent: tuple(p) for agent, p in entry.get("specialists", {}).items()}
    owned = {agent: tuple(p) for agent, p in entry.get("owners", {}).items()}
    if "habitual_agents" in entry:
        lists["habitual_agents"] = tuple(entry["habitual_agents"])
    pairs_by_agent = {"agent_patients": limits, "specialists": kinds, "owners": owned}
    return Verb(**{**entry, **pairs, **lists, **pairs_by_agent})


def _predicate(entry: Mapping[str, Any]) -> Predicate:
    return _build(
        Predicate,
        {
            **entry,
            "subjects": tuple(entry.get("subjects", ())),
            "objects": tuple(entry.get("objects", ())),
        },
        "agreement_templates.json",
    )


def _phrase(entry: Mapping[str, Any] | str) -> PhraseSpec:
    if isinstance(entry, Mapping) and set(entry) == {"text"}:
        return entry["text"]
    tail = entry.get("tail")
    return _build(
        PhraseSpec, {**entry, "tail": _phrase(tail) if tail else None}, "alternation_phrases.json"
    )
