"""The building blocks of the agreement grammar: sampling spaces, phrases and family records.

A family (one dataset config) is a list of :class:`Variant` sampling spaces, one per case and
label, built from a :class:`PhraseInventory` over the lexicon. The families themselves are in
:mod:`.marvin_linzen` and :mod:`.blimp`; :mod:`.grammar` samples pairs from them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from .agreement_pairs import LABEL_NAMES, SINGULAR, other_number
from .lexicon import AgreementLexicon, Auxiliary, Noun, Predicate, Verb

Tokens = list[str]
Render = Callable[[tuple], "tuple[Tokens, Tokens] | None"]


@dataclass(frozen=True)
class Variant:
    """One sampling space: a case, its label, its slots and how to render a choice."""

    case: str
    label: str
    slots: tuple[Sequence, ...]
    render: Render

    @property
    def size(self) -> int:
        return math.prod(len(slot) for slot in self.slots)

    def choice(self, index: int) -> tuple:
        values = []
        # ``index`` read as a mixed-radix number, one digit per slot: the sampler draws distinct
        # indices below ``size`` without building the product of the slots
        for slot in self.slots:
            index, digit = divmod(index, len(slot))
            values.append(slot[digit])
        return tuple(values)


@dataclass(frozen=True)
class VerbPhrase:
    """An agreeing word plus the words after it; ``object`` is the object noun, if any."""

    singular: str
    plural: str
    rest: tuple[str, ...]
    object: Noun | None = None

    def agreeing(self, number: str) -> str:
        return self.singular if number == SINGULAR else self.plural


@dataclass(frozen=True)
class Family:
    """A template family or paradigm: its config name, an example sentence, its variants."""

    name: str
    description: str
    variants: Callable[[PhraseInventory], list[Variant]]


def noun_phrase(determiner: str, noun: str) -> Tokens:
    """Determiner + noun, with "a" -> "an" before a vowel letter."""
    # by spelling, not sound: a noun such as "hour" or "university" would come out wrong
    if determiner == "a" and noun[0] in "aeiou":
        determiner = "an"
    return [determiner, noun]


def varied(prefix: Tokens, slot: Predicate | VerbPhrase, number: str, tail: Tokens = ()):
    """Good and bad token lists that differ in the agreeing word of ``slot``."""
    rest = list(slot.rest) + list(tail)
    good = prefix + [slot.agreeing(number)] + rest
    bad = prefix + [slot.agreeing(other_number(number))] + rest
    return good, bad


def number_pairs() -> list[tuple[str, str]]:
    """Every (head number, other number) combination, singular first."""
    return [(main, other) for main in LABEL_NAMES for other in LABEL_NAMES]


def short_number(number: str) -> str:
    """Marvin & Linzen's case notation: "sing" or "plur"."""
    return "sing" if number == SINGULAR else "plur"


class PhraseInventory:
    """The noun, predicate and verb-phrase lists the families draw from, built once per lexicon."""

    def __init__(self, lexicon: AgreementLexicon) -> None:
        self.lex = lexicon

    @cached_property
    def person_predicates(self) -> tuple[Predicate, ...]:
        verbs = [Predicate(verb.singular, verb.base) for verb in self.lex.intransitive_verbs]
        adjectives = [Predicate("is", "are", (adj,)) for adj in self.lex.person_adjectives]
        return tuple(verbs + adjectives)

    @cached_property
    def work_predicates(self) -> tuple[Predicate, ...]:
        adjectives = [Predicate("is", "are", (adj,)) for adj in self.lex.work_adjectives]
        verbs = [
            Predicate(verb.singular, verb.base, (obj,))
            for verb in self.lex.thing_transitive_verbs
            for obj in self.lex.generic_objects
        ]
        return tuple(adjectives + verbs)

    @cached_property
    def person_verb_phrases(self) -> tuple[VerbPhrase, ...]:
        return self._verb_phrases(self.lex.intransitive_verbs, self.lex.person_transitive_verbs)

    @cached_property
    def thing_verb_phrases(self) -> tuple[VerbPhrase, ...]:
        return self._verb_phrases(
            self.lex.thing_intransitive_verbs, self.lex.thing_transitive_verbs
        )

    def _verb_phrases(
        self, intransitive: Sequence[Verb], transitive: Sequence[Verb]
    ) -> tuple[VerbPhrase, ...]:
        """Present or auxiliary + participle forms; transitive ones with a "the" object."""
        objects = [
            (noun, noun.form(number)) for noun in self.lex.person_nouns for number in LABEL_NAMES
        ]
        phrases = []
        for verb in intransitive:
            phrases.append(VerbPhrase(verb.singular, verb.base, ()))
            for aux in self._auxiliaries(verb):
                phrases.append(VerbPhrase(aux.singular, aux.plural, (verb.form(aux.selects),)))
        for verb in transitive:
            for noun, word in objects:
                phrases.append(VerbPhrase(verb.singular, verb.base, ("the", word), noun))
                for aux in self._auxiliaries(verb):
                    rest = (verb.form(aux.selects), "the", word)
                    phrases.append(VerbPhrase(aux.singular, aux.plural, rest, noun))
        return tuple(phrases)

    def _auxiliaries(self, verb: Verb) -> list[Auxiliary]:
        """The auxiliaries ``verb`` combines with: no progressive for stative verbs."""
        if verb.base in self.lex.stative_verbs:
            return [aux for aux in self.lex.auxiliaries if aux.selects != "ing"]
        return list(self.lex.auxiliaries)
