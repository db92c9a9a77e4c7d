"""The word lists of the agreement grammar (seed_data/agreement_lexicon.json), typed.

The lexicon stores every inflected form explicitly (irregular plurals such as "cacti", verb
forms such as "envies"), so the grammar never guesses morphology. Another vocabulary is a
JSON file with the same keys: ``load_lexicon(path)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InvalidTypeError, InvalidValueError
from ..resources import seed_path
from ..text import read_text_file
from .agreement_pairs import LABEL_NAMES, SINGULAR

DEFAULT_LEXICON = "agreement_lexicon.json"
VERB_FORMS = ("singular", "base", "ing", "past", "past_participle")


@dataclass(frozen=True)
class Noun:
    singular: str
    plural: str

    def form(self, number: str) -> str:
        return self.singular if number == SINGULAR else self.plural


@dataclass(frozen=True)
class Verb:
    """A verb's forms: 3rd-person singular present, base (= plural present), -ing, past, -en."""

    singular: str
    base: str
    ing: str
    past: str
    past_participle: str

    def agreeing(self, number: str) -> str:
        return self.singular if number == SINGULAR else self.base

    def form(self, name: str) -> str:
        return getattr(self, name)


@dataclass(frozen=True)
class Predicate:
    """An agreeing word (singular and plural present form) followed by fixed words."""

    singular: str
    plural: str
    rest: tuple[str, ...] = ()

    def agreeing(self, number: str) -> str:
        return self.singular if number == SINGULAR else self.plural


@dataclass(frozen=True)
class Depiction:
    """A noun that takes a complement about someone: "a portrait of", "a rumor about"."""

    noun: Noun
    preposition: str


@dataclass(frozen=True)
class Auxiliary:
    """An agreeing auxiliary and the verb form it selects ("ing", "past_participle", "base")."""

    singular: str
    plural: str
    selects: str


@dataclass(frozen=True)
class AgreementLexicon:
    person_nouns: tuple[Noun, ...]
    irregular_person_nouns: tuple[Noun, ...]
    irregular_animal_nouns: tuple[Noun, ...]
    work_nouns: tuple[Noun, ...]
    irregular_thing_nouns: tuple[Noun, ...]
    relative_nouns: tuple[Noun, ...]
    depiction_nouns: tuple[Depiction, ...]
    intransitive_verbs: tuple[Verb, ...]
    person_adjectives: tuple[str, ...]
    person_transitive_verbs: tuple[Verb, ...]
    work_transitive_verbs: tuple[Verb, ...]
    thing_intransitive_verbs: tuple[Verb, ...]
    thing_transitive_verbs: tuple[Verb, ...]
    work_adjectives: tuple[str, ...]
    generic_objects: tuple[str, ...]
    complement_verbs: tuple[str, ...]
    long_verb_phrases: tuple[Predicate, ...]
    person_prepositions: tuple[str, ...]
    work_prepositions: tuple[str, ...]
    singular_determiners: tuple[str, ...]
    plural_determiners: tuple[str, ...]
    auxiliaries: tuple[Auxiliary, ...]
    stative_verbs: frozenset[str]
    """Base forms of verbs that the grammar does not put in the progressive."""

    def determiners(self, number: str) -> tuple[str, ...]:
        return self.singular_determiners if number == SINGULAR else self.plural_determiners


def load_lexicon(path: str | Path | None = None) -> AgreementLexicon:
    """Read a lexicon JSON file (default: the bundled ``agreement_lexicon.json``)."""
    path = Path(path) if path is not None else seed_path(DEFAULT_LEXICON)
    try:
        data = json.loads(read_text_file(path))
    except json.JSONDecodeError as error:
        raise InvalidValueError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise InvalidTypeError(f"{path}: expected a JSON object of word lists")
    return _lexicon_from_dict(data, path)


class _LexiconReader:
    """Reads the lists of a lexicon file's object, each error naming the file and the key."""

    def __init__(self, data: dict[str, Any], path: Path) -> None:
        self.data, self.path = data, path

    def field(self, key: str) -> Any:
        if key not in self.data:
            raise InvalidValueError(f"{self.path}: missing key {key!r}")
        return self.data[key]

    def entries(self, key: str, count: int) -> list[list[str]]:
        """The ``count``-word entries listed under ``key``."""
        return [
            _words(entry, count, f"{self.path}: {key}[{i}]")
            for i, entry in enumerate(self.field(key))
        ]

    def nouns(self, key: str) -> tuple[Noun, ...]:
        return tuple(Noun(*entry) for entry in self.entries(key, 2))

    def verbs(self, key: str) -> tuple[Verb, ...]:
        return tuple(Verb(*entry) for entry in self.entries(key, len(VERB_FORMS)))

    def words(self, key: str) -> tuple[str, ...]:
        return tuple(_words(self.field(key), len(self.field(key)), f"{self.path}: {key}"))

    def determiners(self) -> dict[str, tuple[str, ...]]:
        determiners = self.field("determiners")
        if not isinstance(determiners, dict) or set(determiners) != set(LABEL_NAMES):
            raise InvalidValueError(
                f"{self.path}: determiners must map {LABEL_NAMES} to word lists"
            )
        where = f"{self.path}: determiners"
        return {n: tuple(_words(determiners[n], None, where)) for n in LABEL_NAMES}

    def depictions(self) -> tuple[Depiction, ...]:
        return tuple(
            Depiction(Noun(singular, plural), preposition)
            for singular, plural, preposition in self.entries("depiction_nouns", 3)
        )

    def long_phrases(self) -> tuple[Predicate, ...]:
        return tuple(
            # the rest is stored as one string ("is very tall") and kept as tokens, as sentences are
            Predicate(singular, plural, tuple(rest.split()))
            for singular, plural, rest in self.entries("long_verb_phrases", 3)
        )

    def auxiliaries(self) -> tuple[Auxiliary, ...]:
        auxiliaries = []
        for i, (singular, plural, selects) in enumerate(self.entries("auxiliaries", 3)):
            if selects not in VERB_FORMS:
                raise InvalidValueError(
                    f"{self.path}: auxiliaries[{i}] selects {selects!r}, not one of {VERB_FORMS}"
                )
            auxiliaries.append(Auxiliary(singular, plural, selects))
        return tuple(auxiliaries)


def _lexicon_from_dict(data: dict[str, Any], path: Path) -> AgreementLexicon:
    read = _LexiconReader(data, path)
    nouns, verbs, words = read.nouns, read.verbs, read.words
    determiners = read.determiners()
    return AgreementLexicon(
        person_nouns=nouns("person_nouns"),
        irregular_person_nouns=nouns("irregular_person_nouns"),
        irregular_animal_nouns=nouns("irregular_animal_nouns"),
        work_nouns=nouns("work_nouns"),
        irregular_thing_nouns=nouns("irregular_thing_nouns"),
        relative_nouns=nouns("relative_nouns"),
        depiction_nouns=read.depictions(),
        intransitive_verbs=verbs("intransitive_verbs"),
        person_adjectives=words("person_adjectives"),
        person_transitive_verbs=verbs("person_transitive_verbs"),
        work_transitive_verbs=verbs("work_transitive_verbs"),
        thing_intransitive_verbs=verbs("thing_intransitive_verbs"),
        thing_transitive_verbs=verbs("thing_transitive_verbs"),
        work_adjectives=words("work_adjectives"),
        generic_objects=words("generic_objects"),
        complement_verbs=words("complement_verbs"),
        long_verb_phrases=read.long_phrases(),
        person_prepositions=words("person_prepositions"),
        work_prepositions=words("work_prepositions"),
        singular_determiners=determiners["singular"],
        plural_determiners=determiners["plural"],
        auxiliaries=read.auxiliaries(),
        stative_verbs=frozenset(words("stative_verbs")),
    )


def _words(entry: Any, count: int | None, where: str) -> list[str]:
    if not isinstance(entry, list) or (count is not None and len(entry) != count):
        expected = f"a list of {count} strings" if count is not None else "a list of strings"
        raise InvalidValueError(f"{where}: expected {expected}, got {entry!r}")
    if not entry or not all(isinstance(word, str) and word.strip() for word in entry):
        raise InvalidValueError(f"{where}: every item must be a non-empty string, got {entry!r}")
    return entry
