"""BLiMP (Warstadt et al. 2020) subject-verb agreement paradigms.

Varied determiners, be/have/do auxiliaries with contractions, transitive verbs with objects.
In ``*_1`` paradigms the verb varies; in ``*_2`` paradigms the subject noun varies (with "the")
and the verb is fixed. The distractor paradigms always put the attractor in the other number
than the head.
"""

from __future__ import annotations

from collections.abc import Sequence

from .agreement_pairs import LABEL_NAMES, other_number
from .lexicon import Noun
from .templates import (
    Family,
    PhraseInventory,
    Variant,
    VerbPhrase,
    noun_phrase,
    short_number,
    varied,
)


def _verb_varies(g: PhraseInventory, kinds: Sequence[tuple[Sequence[Noun], Sequence[VerbPhrase]]]):
    """``*_1``: determiner + noun + agreeing verb phrase; the verb varies."""

    def variant(n: str, nouns, phrases) -> Variant:
        def render(choice):
            # None rejects the draw (an object repeating the subject); the sampler oversamples
            determiner, subject, phrase = choice
            if phrase.object == subject:
                return None
            return varied(noun_phrase(determiner, subject.form(n)), phrase, n)

        slots = (g.lex.determiners(n), nouns, phrases)
        return Variant(f"{short_number(n)}_MS_MV", n, slots, render)

    return [variant(n, nouns, phrases) for n in LABEL_NAMES for nouns, phrases in kinds]


def _noun_varies(g: PhraseInventory, kinds: Sequence[tuple[Sequence[Noun], Sequence[VerbPhrase]]]):
    """``*_2``: "the" + noun + verb phrase agreeing with it; the bad one swaps the noun."""

    def variant(n: str, nouns, phrases) -> Variant:
        def render(choice):
            subject, phrase = choice
            if phrase.object == subject:
                return None
            tail = [phrase.agreeing(n), *phrase.rest]
            good = ["the", subject.form(n), *tail]
            bad = ["the", subject.form(other_number(n)), *tail]
            return good, bad

        return Variant(f"{short_number(n)}_MS_MV", n, (nouns, phrases), render)

    return [variant(n, nouns, phrases) for n in LABEL_NAMES for nouns, phrases in kinds]


def _regular_kinds(g: PhraseInventory):
    return [
        (g.lex.person_nouns, g.person_verb_phrases),
        (g.lex.work_nouns, g.thing_verb_phrases),
    ]


def _irregular_kinds(g: PhraseInventory):
    animate = g.lex.irregular_person_nouns + g.lex.irregular_animal_nouns
    return [
        (animate, g.person_verb_phrases),
        (g.lex.irregular_thing_nouns, g.thing_verb_phrases),
    ]


def _regular_plural_subject_verb_agreement_1(g: PhraseInventory):
    return _verb_varies(g, _regular_kinds(g))


def _regular_plural_subject_verb_agreement_2(g: PhraseInventory):
    return _noun_varies(g, _regular_kinds(g))


def _irregular_plural_subject_verb_agreement_1(g: PhraseInventory):
    return _verb_varies(g, _irregular_kinds(g))


def _irregular_plural_subject_verb_agreement_2(g: PhraseInventory):
    return _noun_varies(g, _irregular_kinds(g))


def _distractor_agreement_relational_noun(g: PhraseInventory):
    relatives = [(noun, "of") for noun in g.lex.relative_nouns]
    depictions = [(entry.noun, entry.preposition) for entry in g.lex.depiction_nouns]

    def variant(n: str, heads, phrases) -> Variant:
        m = other_number(n)

        def render(choice):
            determiner, (head, preposition), attractor_determiner, attractor, phrase = choice
            if phrase.object == attractor:
                return None
            prefix = [
                *noun_phrase(determiner, head.form(n)),
                preposition,
                *noun_phrase(attractor_determiner, attractor.form(m)),
            ]
            return varied(prefix, phrase, n)

        slots = (
            g.lex.determiners(n),
            heads,
            g.lex.determiners(m),
            g.lex.person_nouns,
            phrases,
        )
        return Variant(f"{short_number(n)}_MS_MV_{short_number(m)}_ES", n, slots, render)

    kinds = [(relatives, g.person_verb_phrases), (depictions, g.thing_verb_phrases)]
    return [variant(n, heads, phrases) for n in LABEL_NAMES for heads, phrases in kinds]


def _subject_relative(g: PhraseInventory, n: str) -> Variant:
    """The head, a subject relative clause ending in an attractor of the other number, then
    the verb phrase that agrees with the head ("the author who met the critics is ...")."""
    lex, m = g.lex, other_number(n)

    def render(choice):
        determiner, head, pronoun, verb, attractor_determiner, attractor, phrase = choice
        if head == attractor or phrase.object in (head, attractor):
            return None
        prefix = [
            *noun_phrase(determiner, head.form(n)),
            pronoun,
            verb.past,
            *noun_phrase(attractor_determiner, attractor.form(m)),
        ]
        return varied(prefix, phrase, n)

    slots = (
        lex.determiners(n),
        lex.person_nouns,
        ("who", "that"),
        lex.person_transitive_verbs,
        lex.determiners(m),
        lex.person_nouns,
        g.person_verb_phrases,
    )
    return Variant(f"{short_number(n)}_MS_EV_MV_{short_number(m)}_ES", n, slots, render)


def _object_relative(g: PhraseInventory, n: str, heads, verbs, phrases) -> Variant:
    """The head, an object relative clause whose subject (of the other number) agrees with
    its own verb, then the head's verb phrase ("the book that the critics praise is ...")."""
    lex, m = g.lex, other_number(n)

    def render(choice):
        determiner, head, attractor_determiner, attractor, verb, phrase = choice
        if head == attractor or phrase.object in (head, attractor):
            return None
        prefix = [
            *noun_phrase(determiner, head.form(n)),
            "that",
            *noun_phrase(attractor_determiner, attractor.form(m)),
            verb.agreeing(m),
        ]
        return varied(prefix, phrase, n)

    slots = (lex.determiners(n), heads, lex.determiners(m), lex.person_nouns, verbs, phrases)
    return Variant(f"{short_number(n)}_MS_MV_{short_number(m)}_ES_EV", n, slots, render)


def _distractor_agreement_relative_clause(g: PhraseInventory):
    lex = g.lex
    variants = []
    for n in LABEL_NAMES:
        variants.append(_subject_relative(g, n))
        variants.append(
            _object_relative(
                g, n, lex.person_nouns, lex.person_transitive_verbs, g.person_verb_phrases
            )
        )
        variants.append(
            _object_relative(g, n, lex.work_nouns, lex.work_transitive_verbs, g.thing_verb_phrases)
        )
    return variants


BLIMP: dict[str, Family] = {
    family.name: family
    for family in (
        Family(
            "regular_plural_subject_verb_agreement_1",
            "These bakers haven't slept. (verb varies)",
            _regular_plural_subject_verb_agreement_1,
        ),
        Family(
            "regular_plural_subject_verb_agreement_2",
            "The bakers sleep. / The baker sleep. (noun varies)",
            _regular_plural_subject_verb_agreement_2,
        ),
        Family(
            "irregular_plural_subject_verb_agreement_1",
            "Those cacti have grown. (verb varies)",
            _irregular_plural_subject_verb_agreement_1,
        ),
        Family(
            "irregular_plural_subject_verb_agreement_2",
            "The women wait. / The woman wait. (noun varies)",
            _irregular_plural_subject_verb_agreement_2,
        ),
        Family(
            "distractor_agreement_relational_noun",
            "The niece of these bakers has slept.",
            _distractor_agreement_relational_noun,
        ),
        Family(
            "distractor_agreement_relative_clause",
            "The nurse who praised these bakers has slept.",
            _distractor_agreement_relative_clause,
        ),
    )
}
