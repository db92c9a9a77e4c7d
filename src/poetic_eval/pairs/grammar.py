"""Subject-verb agreement minimal pairs generated from the project's own grammar and lexicon.

Families (one dataset config each):

* Marvin & Linzen (2018) templates, same names and case notation as their release
  (``sing_MS_MV_plur_ES``: singular main subject and verb, plural embedded subject; ``IS``/``IV``
  mark an inanimate main subject and verb, ``BS`` the matrix subject of a sentential
  complement, ``ES``/``EV`` the embedded subject and verb, ``LMV`` a long VP). Definite "the"
  noun phrases, every number combination.
* BLiMP (Warstadt et al. 2020) subject-verb agreement paradigms: varied determiners, be/have/do
  auxiliaries with contractions, transitive verbs with objects. In ``*_1`` paradigms the verb
  varies; in ``*_2`` paradigms the subject noun varies (with "the") and the verb is fixed.
  The distractor paradigms always put the attractor in the other number than the head.

Every pair differs in exactly one token: the agreeing verb (the embedded verb in
``obj_rel_within_*``, where the label refers to the embedded subject) or, in ``*_2``, the
subject noun. The label is the number of the varied verb's form in the good sentence (in
``*_2``: of the fixed verb). Sentences are capitalised and end with a period.

Sampling: each (family, case, variant) has a fixed list of slots; the combinations form a
mixed-radix index space, from which distinct indices are drawn with ``random.Random`` seeded by
``"<seed>:<family>:<variant>"``, so one config's rows do not depend on which others are built.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from poetic_eval.text import require_positive_int

from .agreement_pairs import LABEL_NAMES, PLURAL, SINGULAR, AgreementPair, other_number
from .lexicon import (
    AgreementLexicon,
    Auxiliary,
    Noun,
    Predicate,
    Verb,
    load_lexicon,
)

DEFAULT_PAIRS_PER_FAMILY = 1000

MARVIN_LINZEN_FAMILIES = (
    "simple_agrmt",
    "sent_comp",
    "vp_coord",
    "long_vp_coord",
    "prep_anim",
    "prep_inanim",
    "subj_rel",
    "obj_rel_across_anim",
    "obj_rel_across_inanim",
    "obj_rel_no_comp_across_anim",
    "obj_rel_no_comp_across_inanim",
    "obj_rel_within_anim",
    "obj_rel_within_inanim",
    "obj_rel_no_comp_within_anim",
    "obj_rel_no_comp_within_inanim",
)
BLIMP_FAMILIES = (
    "regular_plural_subject_verb_agreement_1",
    "regular_plural_subject_verb_agreement_2",
    "irregular_plural_subject_verb_agreement_1",
    "irregular_plural_subject_verb_agreement_2",
    "distractor_agreement_relational_noun",
    "distractor_agreement_relative_clause",
)
FAMILIES = MARVIN_LINZEN_FAMILIES + BLIMP_FAMILIES

FAMILY_DESCRIPTIONS = {
    "simple_agrmt": "The poets sleep.",
    "sent_comp": "The baker said the poets sleep.",
    "vp_coord": "The poets sing and dance.",
    "long_vp_coord": "The poets own a house ... and write letters ...",
    "prep_anim": "The poets next to the baker sleep.",
    "prep_inanim": "The poems by the baker are famous.",
    "subj_rel": "The poets that admire the baker sleep.",
    "obj_rel_across_anim": "The poets that the baker admires sleep.",
    "obj_rel_across_inanim": "The poems that the baker admires are famous.",
    "obj_rel_no_comp_across_anim": "The poets the baker admires sleep.",
    "obj_rel_no_comp_across_inanim": "The poems the baker admires are famous.",
    "obj_rel_within_anim": "The poets that the baker admires sleep (embedded verb varies).",
    "obj_rel_within_inanim": "The poems that the baker admires are famous (embedded verb varies).",
    "obj_rel_no_comp_within_anim": "The poets the baker admires sleep (embedded verb varies).",
    "obj_rel_no_comp_within_inanim": (
        "The poems the baker admires are famous (embedded verb varies)."
    ),
    "regular_plural_subject_verb_agreement_1": "These bakers haven't slept. (verb varies)",
    "regular_plural_subject_verb_agreement_2": "The bakers sleep. / The baker sleep. (noun varies)",
    "irregular_plural_subject_verb_agreement_1": "Those cacti have grown. (verb varies)",
    "irregular_plural_subject_verb_agreement_2": "The women wait. / The woman wait. (noun varies)",
    "distractor_agreement_relational_noun": "The niece of these bakers has slept.",
    "distractor_agreement_relative_clause": "The nurse who praised these bakers has slept.",
}

Tokens = list[str]
Render = Callable[[tuple], "tuple[Tokens, Tokens] | None"]


@dataclass(frozen=True)
class _Variant:
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
        for slot in self.slots:
            index, digit = divmod(index, len(slot))
            values.append(slot[digit])
        return tuple(values)


@dataclass(frozen=True)
class _VerbPhrase:
    """An agreeing word plus the words after it; ``object`` is the object noun, if any."""

    singular: str
    plural: str
    rest: tuple[str, ...]
    object: Noun | None = None

    def agreeing(self, number: str) -> str:
        return self.singular if number == SINGULAR else self.plural


def generate_pairs(
    family: str,
    *,
    n_pairs: int = DEFAULT_PAIRS_PER_FAMILY,
    seed: int = 0,
    lexicon: AgreementLexicon | None = None,
) -> list[AgreementPair]:
    """``n_pairs`` distinct minimal pairs of one family: half per label, even over its cases.

    Fewer come back when the grammar cannot make that many distinct pairs for a case.
    Deterministic given (family, n_pairs, seed, lexicon). Rows are shuffled across cases.
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown agreement family {family!r}; available: {', '.join(FAMILIES)}")
    require_positive_int(n_pairs, "n_pairs")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    variants = _grammar(lexicon if lexicon is not None else load_lexicon()).variants(family)
    quotas = _quotas(variants, n_pairs)
    pairs: list[AgreementPair] = []
    for number, (variant, quota) in enumerate(zip(variants, quotas)):
        rng = random.Random(f"{seed}:{family}:{number}")
        pairs.extend(_sample_variant(variant, family, quota, rng))
    random.Random(f"{seed}:{family}:order").shuffle(pairs)
    return pairs


def generate_all_pairs(
    families: Sequence[str] = FAMILIES,
    *,
    n_pairs: int = DEFAULT_PAIRS_PER_FAMILY,
    seed: int = 0,
    lexicon: AgreementLexicon | None = None,
) -> dict[str, list[AgreementPair]]:
    """:func:`generate_pairs` for each family, by family name (in the order given)."""
    lexicon = lexicon if lexicon is not None else load_lexicon()
    return {
        family: generate_pairs(family, n_pairs=n_pairs, seed=seed, lexicon=lexicon)
        for family in families
    }


def family_capacity(family: str, lexicon: AgreementLexicon | None = None) -> int:
    """Upper bound on distinct pairs of a family: the size of its slot spaces summed."""
    if family not in FAMILIES:
        raise ValueError(f"unknown agreement family {family!r}; available: {', '.join(FAMILIES)}")
    grammar = _grammar(lexicon if lexicon is not None else load_lexicon())
    return sum(variant.size for variant in grammar.variants(family))


def sentence(tokens: Sequence[str]) -> str:
    """Join tokens, capitalise the first letter and end with a period."""
    text = " ".join(tokens)
    return text[:1].upper() + text[1:] + "."


def _split_evenly(total: int, parts: int) -> list[int]:
    share, extra = divmod(total, parts)
    return [share + (1 if index < extra else 0) for index in range(parts)]


def _quotas(variants: Sequence[_Variant], n_pairs: int) -> list[int]:
    """Half the pairs per label, then an even share per variant of that label."""
    per_label = dict(zip(LABEL_NAMES, _split_evenly(n_pairs, len(LABEL_NAMES))))
    quotas = [0] * len(variants)
    for label in LABEL_NAMES:
        indices = [i for i, variant in enumerate(variants) if variant.label == label]
        for index, quota in zip(indices, _split_evenly(per_label[label], len(indices))):
            quotas[index] = quota
    return quotas


def _sample_variant(
    variant: _Variant, family: str, quota: int, rng: random.Random
) -> list[AgreementPair]:
    pairs: list[AgreementPair] = []
    if quota <= 0:  # fewer pairs requested than the family has cases
        return pairs
    seen: set[tuple[str, str]] = set()
    for index in _distinct_indices(variant.size, quota, rng):
        rendered = variant.render(variant.choice(index))
        if rendered is None:
            continue
        good, bad = sentence(rendered[0]), sentence(rendered[1])
        if (good, bad) in seen:
            continue
        seen.add((good, bad))
        pairs.append(AgreementPair(good, bad, variant.label, family, variant.case))
        if len(pairs) == quota:
            break
    return pairs


def _distinct_indices(total: int, wanted: int, rng: random.Random) -> Iterator[int]:
    """Distinct random indices in range(total): all of them when the space is small."""
    if total <= 4 * wanted:
        order = list(range(total))
        rng.shuffle(order)
        yield from order
        return
    seen: set[int] = set()
    # some renders are rejected (a noun repeated in two slots); 4x oversampling covers it
    for _ in range(4 * wanted + 100):
        index = rng.randrange(total)
        if index not in seen:
            seen.add(index)
            yield index


def _noun_phrase(determiner: str, noun: str) -> Tokens:
    if determiner == "a" and noun[0] in "aeiou":
        determiner = "an"
    return [determiner, noun]


def _varied(prefix: Tokens, slot: Predicate | _VerbPhrase, number: str, tail: Tokens = ()):
    """Good and bad token lists that differ in the agreeing word of ``slot``."""
    rest = list(slot.rest) + list(tail)
    good = prefix + [slot.agreeing(number)] + rest
    bad = prefix + [slot.agreeing(other_number(number))] + rest
    return good, bad


def _numbers() -> list[tuple[str, str]]:
    return [(main, other) for main in LABEL_NAMES for other in LABEL_NAMES]


def _short(number: str) -> str:
    return "sing" if number == SINGULAR else "plur"


@lru_cache(maxsize=4)
def _grammar(lexicon: AgreementLexicon) -> _Grammar:
    # the verb-phrase lists are built once per lexicon
    return _Grammar(lexicon)


class _Grammar:
    """The families' sampling spaces over one lexicon."""

    def __init__(self, lexicon: AgreementLexicon) -> None:
        self.lex = lexicon

    def variants(self, family: str) -> list[_Variant]:
        return getattr(self, f"_{family}")()

    # --- predicates and verb phrases ----------------------------------------------------

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
    def person_verb_phrases(self) -> tuple[_VerbPhrase, ...]:
        return self._verb_phrases(self.lex.intransitive_verbs, self.lex.person_transitive_verbs)

    @cached_property
    def thing_verb_phrases(self) -> tuple[_VerbPhrase, ...]:
        return self._verb_phrases(
            self.lex.thing_intransitive_verbs, self.lex.thing_transitive_verbs
        )

    def _verb_phrases(
        self, intransitive: Sequence[Verb], transitive: Sequence[Verb]
    ) -> tuple[_VerbPhrase, ...]:
        """Present or auxiliary + participle forms; transitive ones with a "the" object."""
        objects = [
            (noun, noun.form(number)) for noun in self.lex.person_nouns for number in LABEL_NAMES
        ]
        phrases = []
        for verb in intransitive:
            phrases.append(_VerbPhrase(verb.singular, verb.base, ()))
            for aux in self._auxiliaries(verb):
                phrases.append(_VerbPhrase(aux.singular, aux.plural, (verb.form(aux.selects),)))
        for verb in transitive:
            for noun, word in objects:
                phrases.append(_VerbPhrase(verb.singular, verb.base, ("the", word), noun))
                for aux in self._auxiliaries(verb):
                    rest = (verb.form(aux.selects), "the", word)
                    phrases.append(_VerbPhrase(aux.singular, aux.plural, rest, noun))
        return tuple(phrases)

    def _auxiliaries(self, verb: Verb) -> list[Auxiliary]:
        """The auxiliaries ``verb`` combines with: no progressive for stative verbs."""
        if verb.base in self.lex.stative_verbs:
            return [aux for aux in self.lex.auxiliaries if aux.selects != "ing"]
        return list(self.lex.auxiliaries)

    # --- Marvin & Linzen families ---------------------------------------------------------

    def _simple_agrmt(self) -> list[_Variant]:
        def variant(n: str) -> _Variant:
            def render(choice):
                subject, predicate = choice
                return _varied(["the", subject.form(n)], predicate, n)

            return _Variant(
                f"{_short(n)}_MS_MV", n, (self.lex.person_nouns, self.person_predicates), render
            )

        return [variant(n) for n in LABEL_NAMES]

    def _sent_comp(self) -> list[_Variant]:
        def variant(n: str, m: str) -> _Variant:
            def render(choice):
                matrix, verb, subject, predicate = choice
                if matrix == subject:
                    return None
                prefix = ["the", matrix.form(m), verb, "the", subject.form(n)]
                return _varied(prefix, predicate, n)

            slots = (
                self.lex.person_nouns,
                self.lex.complement_verbs,
                self.lex.person_nouns,
                self.person_predicates,
            )
            return _Variant(f"{_short(n)}_MS_MV_{_short(m)}_BS", n, slots, render)

        return [variant(n, m) for n, m in _numbers()]

    def _vp_coord(self) -> list[_Variant]:
        def variant(n: str) -> _Variant:
            def render(choice):
                subject, first, second = choice
                if first == second:
                    return None
                prefix = ["the", subject.form(n), first.agreeing(n), "and"]
                return _varied(prefix, Predicate(second.singular, second.base), n)

            verbs = self.lex.intransitive_verbs
            return _Variant(
                f"{_short(n)}_MS_MV_MV", n, (self.lex.person_nouns, verbs, verbs), render
            )

        return [variant(n) for n in LABEL_NAMES]

    def _long_vp_coord(self) -> list[_Variant]:
        def variant(n: str) -> _Variant:
            def render(choice):
                subject, first, second = choice
                if first.rest == second.rest:
                    return None
                prefix = ["the", subject.form(n), first.agreeing(n), *first.rest, "and"]
                return _varied(prefix, second, n)

            phrases = self.lex.long_verb_phrases
            return _Variant(
                f"{_short(n)}_MS_LMV_LMV", n, (self.lex.person_nouns, phrases, phrases), render
            )

        return [variant(n) for n in LABEL_NAMES]

    def _prep(self, animate: bool) -> list[_Variant]:
        heads = self.lex.person_nouns if animate else self.lex.work_nouns
        prepositions = self.lex.person_prepositions if animate else self.lex.work_prepositions
        predicates = self.person_predicates if animate else self.work_predicates
        main = "MS_MV" if animate else "IS_IV"

        def variant(n: str, m: str) -> _Variant:
            def render(choice):
                head, preposition, attractor, predicate = choice
                if head == attractor:
                    return None
                prefix = ["the", head.form(n), *preposition.split(), "the", attractor.form(m)]
                return _varied(prefix, predicate, n)

            slots = (heads, prepositions, self.lex.person_nouns, predicates)
            return _Variant(f"{_short(n)}_{main}_{_short(m)}_ES", n, slots, render)

        return [variant(n, m) for n, m in _numbers()]

    def _prep_anim(self) -> list[_Variant]:
        return self._prep(animate=True)

    def _prep_inanim(self) -> list[_Variant]:
        return self._prep(animate=False)

    def _subj_rel(self) -> list[_Variant]:
        def variant(n: str, m: str) -> _Variant:
            def render(choice):
                head, verb, attractor, predicate = choice
                if head == attractor:
                    return None
                prefix = ["the", head.form(n), "that", verb.agreeing(n), "the", attractor.form(m)]
                return _varied(prefix, predicate, n)

            slots = (
                self.lex.person_nouns,
                self.lex.person_transitive_verbs,
                self.lex.person_nouns,
                self.person_predicates,
            )
            return _Variant(f"{_short(n)}_MS_EV_MV_{_short(m)}_ES", n, slots, render)

        return [variant(n, m) for n, m in _numbers()]

    def _obj_rel(self, animate: bool, complementizer: bool, within: bool) -> list[_Variant]:
        heads = self.lex.person_nouns if animate else self.lex.work_nouns
        verbs = self.lex.person_transitive_verbs if animate else self.lex.work_transitive_verbs
        predicates = self.person_predicates if animate else self.work_predicates
        main = "MS_MV" if animate else "IS_IV"
        that = ["that"] if complementizer else []

        def variant(n: str, m: str) -> _Variant:
            # n: number of the head noun, m: number of the embedded subject
            def render(choice):
                head, subject, verb, predicate = choice
                if head == subject:
                    return None
                start = ["the", head.form(n), *that, "the", subject.form(m)]
                if within:
                    return _varied(
                        start,
                        Predicate(verb.singular, verb.base),
                        m,
                        [predicate.agreeing(n), *predicate.rest],
                    )
                return _varied(start + [verb.agreeing(m)], predicate, n)

            slots = (heads, self.lex.person_nouns, verbs, predicates)
            if within:
                case = f"{_short(m)}_ES_EV_{_short(n)}_{main}"
                return _Variant(case, m, slots, render)
            return _Variant(f"{_short(n)}_{main}_{_short(m)}_ES_EV", n, slots, render)

        order = _numbers()
        if within:  # the embedded subject's number comes first, as in the M&L case names
            order = [(n, m) for m, n in _numbers()]
        return [variant(n, m) for n, m in order]

    def _obj_rel_across_anim(self):
        return self._obj_rel(animate=True, complementizer=True, within=False)

    def _obj_rel_across_inanim(self):
        return self._obj_rel(animate=False, complementizer=True, within=False)

    def _obj_rel_no_comp_across_anim(self):
        return self._obj_rel(animate=True, complementizer=False, within=False)

    def _obj_rel_no_comp_across_inanim(self):
        return self._obj_rel(animate=False, complementizer=False, within=False)

    def _obj_rel_within_anim(self):
        return self._obj_rel(animate=True, complementizer=True, within=True)

    def _obj_rel_within_inanim(self):
        return self._obj_rel(animate=False, complementizer=True, within=True)

    def _obj_rel_no_comp_within_anim(self):
        return self._obj_rel(animate=True, complementizer=False, within=True)

    def _obj_rel_no_comp_within_inanim(self):
        return self._obj_rel(animate=False, complementizer=False, within=True)

    # --- BLiMP paradigms ------------------------------------------------------------------

    def _verb_varies(self, kinds: Sequence[tuple[Sequence[Noun], Sequence[_VerbPhrase]]]):
        """``*_1``: determiner + noun + agreeing verb phrase; the verb varies."""

        def variant(n: str, nouns, phrases) -> _Variant:
            def render(choice):
                determiner, subject, phrase = choice
                if phrase.object == subject:
                    return None
                return _varied(_noun_phrase(determiner, subject.form(n)), phrase, n)

            slots = (self.lex.determiners(n), nouns, phrases)
            return _Variant(f"{_short(n)}_MS_MV", n, slots, render)

        return [variant(n, nouns, phrases) for n in LABEL_NAMES for nouns, phrases in kinds]

    def _noun_varies(self, kinds: Sequence[tuple[Sequence[Noun], Sequence[_VerbPhrase]]]):
        """``*_2``: "the" + noun + verb phrase agreeing with it; the bad one swaps the noun."""

        def variant(n: str, nouns, phrases) -> _Variant:
            def render(choice):
                subject, phrase = choice
                if phrase.object == subject:
                    return None
                tail = [phrase.agreeing(n), *phrase.rest]
                good = ["the", subject.form(n), *tail]
                bad = ["the", subject.form(other_number(n)), *tail]
                return good, bad

            return _Variant(f"{_short(n)}_MS_MV", n, (nouns, phrases), render)

        return [variant(n, nouns, phrases) for n in LABEL_NAMES for nouns, phrases in kinds]

    def _regular_kinds(self):
        return [
            (self.lex.person_nouns, self.person_verb_phrases),
            (self.lex.work_nouns, self.thing_verb_phrases),
        ]

    def _irregular_kinds(self):
        animate = self.lex.irregular_person_nouns + self.lex.irregular_animal_nouns
        return [
            (animate, self.person_verb_phrases),
            (self.lex.irregular_thing_nouns, self.thing_verb_phrases),
        ]

    def _regular_plural_subject_verb_agreement_1(self):
        return self._verb_varies(self._regular_kinds())

    def _regular_plural_subject_verb_agreement_2(self):
        return self._noun_varies(self._regular_kinds())

    def _irregular_plural_subject_verb_agreement_1(self):
        return self._verb_varies(self._irregular_kinds())

    def _irregular_plural_subject_verb_agreement_2(self):
        return self._noun_varies(self._irregular_kinds())

    def _distractor_agreement_relational_noun(self):
        relatives = [(noun, "of") for noun in self.lex.relative_nouns]
        depictions = [(entry.noun, entry.preposition) for entry in self.lex.depiction_nouns]

        def variant(n: str, heads, phrases) -> _Variant:
            m = other_number(n)

            def render(choice):
                determiner, (head, preposition), attractor_determiner, attractor, phrase = choice
                if phrase.object == attractor:
                    return None
                prefix = [
                    *_noun_phrase(determiner, head.form(n)),
                    preposition,
                    *_noun_phrase(attractor_determiner, attractor.form(m)),
                ]
                return _varied(prefix, phrase, n)

            slots = (
                self.lex.determiners(n),
                heads,
                self.lex.determiners(m),
                self.lex.person_nouns,
                phrases,
            )
            return _Variant(f"{_short(n)}_MS_MV_{_short(m)}_ES", n, slots, render)

        kinds = [(relatives, self.person_verb_phrases), (depictions, self.thing_verb_phrases)]
        return [variant(n, heads, phrases) for n in LABEL_NAMES for heads, phrases in kinds]

    def _distractor_agreement_relative_clause(self):
        lex = self.lex

        def subject_relative(n: str) -> _Variant:
            m = other_number(n)

            def render(choice):
                determiner, head, pronoun, verb, attractor_determiner, attractor, phrase = choice
                if head == attractor or phrase.object in (head, attractor):
                    return None
                prefix = [
                    *_noun_phrase(determiner, head.form(n)),
                    pronoun,
                    verb.past,
                    *_noun_phrase(attractor_determiner, attractor.form(m)),
                ]
                return _varied(prefix, phrase, n)

            slots = (
                lex.determiners(n),
                lex.person_nouns,
                ("who", "that"),
                lex.person_transitive_verbs,
                lex.determiners(m),
                lex.person_nouns,
                self.person_verb_phrases,
            )
            return _Variant(f"{_short(n)}_MS_EV_MV_{_short(m)}_ES", n, slots, render)

        def object_relative(n: str, heads, verbs, phrases) -> _Variant:
            m = other_number(n)

            def render(choice):
                determiner, head, attractor_determiner, attractor, verb, phrase = choice
                if head == attractor or phrase.object in (head, attractor):
                    return None
                prefix = [
                    *_noun_phrase(determiner, head.form(n)),
                    "that",
                    *_noun_phrase(attractor_determiner, attractor.form(m)),
                    verb.agreeing(m),
                ]
                return _varied(prefix, phrase, n)

            slots = (
                lex.determiners(n),
                heads,
                lex.determiners(m),
                lex.person_nouns,
                verbs,
                phrases,
            )
            return _Variant(f"{_short(n)}_MS_MV_{_short(m)}_ES_EV", n, slots, render)

        variants = []
        for n in LABEL_NAMES:
            variants.append(subject_relative(n))
            variants.append(
                object_relative(
                    n, lex.person_nouns, lex.person_transitive_verbs, self.person_verb_phrases
                )
            )
            variants.append(
                object_relative(
                    n, lex.work_nouns, lex.work_transitive_verbs, self.thing_verb_phrases
                )
            )
        return variants


__all__ = [
    "BLIMP_FAMILIES",
    "DEFAULT_PAIRS_PER_FAMILY",
    "FAMILIES",
    "FAMILY_DESCRIPTIONS",
    "MARVIN_LINZEN_FAMILIES",
    "PLURAL",
    "SINGULAR",
    "family_capacity",
    "generate_all_pairs",
    "generate_pairs",
    "sentence",
]
