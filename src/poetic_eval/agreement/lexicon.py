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


def _lexicon_from_dict(data: dict[str, Any], path: Path) -> AgreementLexicon:
    def field(key: str) -> Any:
        if key not in data:
            raise InvalidValueError(f"{path}: missing key {key!r}")
        return data[key]

    def nouns(key: str) -> tuple[Noun, ...]:
        return tuple(
            Noun(*_words(entry, 2, f"{path}: {key}[{i}]")) for i, entry in enumerate(field(key))
        )

    def verbs(key: str) -> tuple[Verb, ...]:
        return tuple(
            Verb(*_words(entry, len(VERB_FORMS), f"{path}: {key}[{i}]"))
            for i, entry in enumerate(field(key))
        )

    def words(key: str) -> tuple[str, ...]:
        return tuple(_words(field(key), len(field(key)), f"{path}: {key}"))

    determiners = field("determiners")
    if not isinstance(determiners, dict) or set(determiners) != set(LABEL_NAMES):
        raise InvalidValueError(f"{path}: determiners must map {LABEL_NAMES} to word lists")
    depictions = []
    for i, entry in enumerate(field("depiction_nouns")):
        singular, plural, preposition = _words(entry, 3, f"{path}: depiction_nouns[{i}]")
        depictions.append(Depiction(Noun(singular, plural), preposition))
    long_phrases = []
    for i, entry in enumerate(field("long_verb_phrases")):
        singular, plural, rest = _words(entry, 3, f"{path}: long_verb_phrases[{i}]")
        long_phrases.append(Predicate(singular, plural, tuple(rest.split())))
    auxiliaries = []
    for i, entry in enumerate(field("auxiliaries")):
        singular, plural, selects = _words(entry, 3, f"{path}: auxiliaries[{i}]")
        if selects not in VERB_FORMS:
            raise InvalidValueError(
                f"{path}: auxiliaries[{i}] selects {selects!r}, not one of {VERB_FORMS}"
            )
        auxiliaries.append(Auxiliary(singular, plural, selects))
    return AgreementLexicon(
        person_nouns=nouns("person_nouns"),
        irregular_person_nouns=nouns("irregular_person_nouns"),
        irregular_animal_nouns=nouns("irregular_animal_nouns"),
        work_nouns=nouns("work_nouns"),
        irregular_thing_nouns=nouns("irregular_thing_nouns"),
        relative_nouns=nouns("relative_nouns"),
        depiction_nouns=tuple(depictions),
        intransitive_verbs=verbs("intransitive_verbs"),
        person_adjectives=words("person_adjectives"),
        person_transitive_verbs=verbs("person_transitive_verbs"),
        work_transitive_verbs=verbs("work_transitive_verbs"),
        thing_intransitive_verbs=verbs("thing_intransitive_verbs"),
        thing_transitive_verbs=verbs("thing_transitive_verbs"),
        work_adjectives=words("work_adjectives"),
        generic_objects=words("generic_objects"),
        complement_verbs=words("complement_verbs"),
        long_verb_phrases=tuple(long_phrases),
        person_prepositions=words("person_prepositions"),
        work_prepositions=words("work_prepositions"),
        singular_determiners=tuple(_words(determiners["singular"], None, f"{path}: determiners")),
        plural_determiners=tuple(_words(determiners["plural"], None, f"{path}: determiners")),
        auxiliaries=tuple(auxiliaries),
        stative_verbs=frozenset(words("stative_verbs")),
    )


def _words(entry: Any, count: int | None, where: str) -> list[str]:
    if not isinstance(entry, list) or (count is not None and len(entry) != count):
        expected = f"a list of {count} strings" if count is not None else "a list of strings"
        raise InvalidValueError(f"{where}: expected {expected}, got {entry!r}")
    if not entry or not all(isinstance(word, str) and word.strip() for word in entry):
        raise InvalidValueError(f"{where}: every item must be a non-empty string, got {entry!r}")
    return entry
