"""BLM-AgrI: subject-verb agreement across one or two attractor prepositional phrases.

A sentence is ``[Prefix] Subj P1 [P2] V``: a subject noun phrase, a prepositional phrase with
the first attractor N1 attached to it, optionally a second one with N2 attached to N1, and the
predicate. The 7 context sentences follow a 3-bit counter (:func:`counter_numbers`): the
subject's number flips every sentence, N1's every 2 sentences, and N2 (singular) appears from
sentence 5; the correct answer is step 8. The wrong answers (:data:`ANSWER_NUMBERS`) break the
rules of :data:`.labels.AGREEMENT_RULES`. In the Coord answer N2 is coordinated
with the subject (``[Subj P1] e N2``), so its predicate takes the coordination's resolved gender
(:func:`predicate_gender`).

Lexical variation: type II keeps the matrix's words and changes one of them (subject, N1, N2
or predicate) in each sentence; type III draws every word afresh for each sentence. The 8
answers of a matrix share one choice of words, so they differ only by the rule they break.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ...checks import require_choice
from .labels import AGREEMENT_LABELS
from .lexicon import Attachment, Lexicon, Noun, Predicate
from .matrices import LEXICAL_TYPES, Chunk, Matrix, Sentence, pick
from .noun_phrases import NounPhrase, capitalize_first
from .verb_groups import copula_group, verb_group

AGREEMENT_FRAMES = ("present", "imperfect", "future", "perfect")
#: essere + adjective reads as a state: not in the perfect (*è stato pesante* is odd)
COPULA_FRAMES = ("present", "imperfect", "future")
#: determiner families (drawn uniformly, so the definite article is the most common)
DETERMINER_FAMILIES = ("def", "def", "def", "indefinite", "dem", "that")
_VARIED_SLOTS = ("subject", "n1", "n2", "predicate")
_MAX_DRAWS = 100


@dataclass(frozen=True)
class Numbers:
    """Grammatical numbers of one sentence; ``n2`` None: no second attractor."""

    subject: str
    n1: str
    n2: str | None
    verb: str
    coordinated: bool = False


def counter_numbers(step: int) -> Numbers:
    """Numbers of step ``step`` (0-7) of the counter; step 7 is the correct answer."""
    subject = "pl" if step & 1 else "sg"
    return Numbers(subject, "pl" if step & 2 else "sg", "sg" if step & 4 else None, subject)


ANSWER_NUMBERS = {
    "Correct": Numbers("pl", "pl", "sg", "pl"),
    "Coord": Numbers("pl", "pl", "sg", "pl", coordinated=True),
    "WNA": Numbers("pl", "pl", None, "pl"),
    "WN1": Numbers("pl", "sg", "sg", "pl"),
    "WN2": Numbers("pl", "pl", "pl", "pl"),
    "AEV": Numbers("pl", "pl", "pl", "sg"),
    "AEN1": Numbers("pl", "sg", "pl", "sg"),
    "AEN2": Numbers("pl", "pl", "sg", "sg"),
}
assert tuple(ANSWER_NUMBERS) == AGREEMENT_LABELS


@dataclass(frozen=True)
class AgreementWords:
    """The words of one sentence: prefix, nouns with their attachments, predicate, frame."""

    prefix: str
    subject: Noun
    first: Attachment
    n1: Noun
    second: Attachment
    n2: Noun
    predicate: Predicate
    frame: str
    determiners: tuple[str, str, str]  # families of subject, N1, N2


def determiner_kind(family: str, number: str) -> str:
    """The determiner of a family in a number: the indefinite is *un/una*, plural *alcuni*."""
    if family == "indefinite":
        return "indef" if number == "sg" else "some"
    return family


def predicate_gender(phrases: list[NounPhrase], numbers: Numbers) -> str:
    """The gender a participle or adjective predicate takes in a sentence of ``numbers``.

    ``phrases`` are the subject, N1 and (if any) N2. In a Coord answer the subject is the
    coordination ``[Subj P1] e [N2]``: a plural predicate takes its resolved gender, masculine
    if either conjunct is (*le borse delle zie e lo zio erano sporchi*), feminine only if both
    are. Otherwise the predicate agrees with what the verb agrees with: the first noun phrase of
    the verb's number (the subject, or the attractor an agreement error agrees with).
    """
    if numbers.coordinated and numbers.verb == "pl" and len(phrases) == 3:
        conjuncts = (phrases[0], phrases[2])
        return "m" if any(phrase.gender == "m" for phrase in conjuncts) else "f"
    return next((p for p in phrases if p.number == numbers.verb), phrases[0]).gender


class AgreementGenerator:
    """Draws AgrI words and matrices from a lexicon."""

    def __init__(self, lexicon: Lexicon):
        self.lexicon = lexicon
        countable = [noun for noun in lexicon.nouns.values() if noun.numbers == ("sg", "pl")]
        classes = {
            c for attachment in lexicon.attachments for c in (attachment.head, attachment.dependent)
        }
        self._by_class = {c: [noun for noun in countable if c in noun.classes] for c in classes}
        self._predicates = {
            noun.lemma: [p for p in lexicon.predicates if set(p.subjects) & set(noun.classes)]
            for noun in countable
        }
        self._subject_pool = {
            c: [noun for noun in self._by_class[c] if self._predicates[noun.lemma]] for c in classes
        }
        self.chains = [
            (first, second)
            for first in lexicon.attachments
            for second in lexicon.attachments
            if self._subjects(first, None)
            and self._n1s(first, second)
            and self._by_class[second.dependent]
        ]
        if not self.chains:
            raise ValueError("the lexicon's agreement templates make no subject-N1-N2 chain")

    def predicates_for(self, noun: Noun, frame: str | None = None) -> list[Predicate]:
        """The predicates ``noun`` can take (in ``frame``, when given)."""
        fitting = self._predicates[noun.lemma]
        if frame is None or frame in COPULA_FRAMES:
            return fitting
        return [predicate for predicate in fitting if predicate.adjective is None]

    def _subjects(self, first: Attachment, predicate: Predicate | None) -> list[Noun]:
        nouns = self._subject_pool[first.head]
        if predicate is None:
            return nouns
        return [noun for noun in nouns if predicate in self._predicates[noun.lemma]]

    def _n1s(self, first: Attachment, second: Attachment) -> list[Noun]:
        return [noun for noun in self._by_class[first.dependent] if second.head in noun.classes]

    def fresh_words(self, rng: random.Random) -> AgreementWords:
        for _ in range(_MAX_DRAWS):
            first, second = pick(rng, self.chains)
            n1 = pick(rng, self._n1s(first, second))
            subjects = [noun for noun in self._subjects(first, None) if noun != n1]
            n2s = [noun for noun in self._by_class[second.dependent] if noun != n1]
            if subjects and len(n2s) > 1:
                break
        else:
            raise ValueError("the agreement templates give no three distinct nouns")
        subject = pick(rng, subjects)
        n2 = pick(rng, n2s, avoid=[subject])
        predicate = pick(rng, self.predicates_for(subject))
        frames = COPULA_FRAMES if predicate.adjective is not None else AGREEMENT_FRAMES
        return AgreementWords(
            prefix=pick(rng, self.lexicon.prefixes),
            subject=subject,
            first=first,
            n1=n1,
            second=second,
            n2=n2,
            predicate=predicate,
            frame=pick(rng, frames),
            determiners=tuple(pick(rng, DETERMINER_FAMILIES) for _ in range(3)),
        )

    def vary_one(self, words: AgreementWords, slots: tuple[str, ...], rng: random.Random):
        """``words`` with one of ``slots`` replaced by another fitting word."""
        nouns = [words.subject, words.n1, words.n2]
        for slot in rng.sample(slots, len(slots)):
            if slot == "predicate":
                candidates = self.predicates_for(words.subject, words.frame)
                avoid = [words.predicate]
            elif slot == "subject":
                candidates, avoid = self._subjects(words.first, words.predicate), nouns
            elif slot == "n1":
                candidates, avoid = self._n1s(words.first, words.second), nouns
            else:
                candidates, avoid = self._by_class[words.second.dependent], nouns
            if any(candidate not in avoid for candidate in candidates):
                return replace(words, **{slot: pick(rng, candidates, avoid=avoid)})
        raise ValueError(f"no slot of {slots} has another word for {words}")

    def sentence(self, words: AgreementWords, numbers: Numbers) -> Sentence:
        """The sentence of ``words`` in ``numbers``, annotated."""
        chunks = [Chunk("Prefix", words.prefix)] if words.prefix else []
        tags = ["Prefix"] if words.prefix else []
        phrases = [self._phrase(words.subject, numbers.subject, words.determiners[0])]
        chunks.append(Chunk("Subj", phrases[0].text()))
        phrases.append(self._phrase(words.n1, numbers.n1, words.determiners[1]))
        chunks.append(Chunk("P1", phrases[1].text(words.first.preposition)))
        tags += [f"Subj_{numbers.subject}", f"P1_{numbers.n1}"]
        if numbers.n2 is not None:
            phrases.append(self._phrase(words.n2, numbers.n2, words.determiners[2]))
            if numbers.coordinated:
                chunks.append(Chunk("Coord", "e " + phrases[2].text()))
                tags.append(f"Coord_{numbers.n2}")
            else:
                chunks.append(Chunk("P2", phrases[2].text(words.second.preposition)))
                tags.append(f"P2_{numbers.n2}")
        gender = predicate_gender(phrases, numbers)
        chunks.append(Chunk("V", self._predicate(words, numbers.verb, gender)))
        tags.append(f"V_{numbers.verb}")
        text = capitalize_first(" ".join(chunk.text for chunk in chunks)) + "."
        return Sentence(" ".join(tags), tuple(chunks), text)

    def _phrase(self, noun: Noun, number: str, family: str) -> NounPhrase:
        return NounPhrase(noun, number, determiner_kind(family, number))

    def _predicate(self, words: AgreementWords, number: str, gender: str) -> str:
        predicate = words.predicate
        if predicate.adjective is not None:
            adjective = self.lexicon.adjectives[predicate.adjective]
            return copula_group(self.lexicon, adjective, words.frame, number, gender)
        verb = self.lexicon.verb(predicate.verb)
        return verb_group(self.lexicon, verb, words.frame, predicate.voice, number, gender)

    def matrix(self, rng: random.Random, lexical_type: str) -> Matrix:
        """One AgrI matrix of ``lexical_type`` (II or III)."""
        require_choice(lexical_type, LEXICAL_TYPES, "lexical type")
        base = self.fresh_words(rng)
        context = []
        for step in range(7):
            numbers = counter_numbers(step)
            slots = _VARIED_SLOTS if numbers.n2 is not None else _VARIED_SLOTS[:2] + ("predicate",)
            words = (
                self.vary_one(base, slots, rng) if lexical_type == "II" else self.fresh_words(rng)
            )
            context.append(self.sentence(words, numbers))
        answer_words = (
            self.vary_one(base, _VARIED_SLOTS, rng)
            if lexical_type == "II"
            else self.fresh_words(rng)
        )
        answers = tuple(
            (label, self.sentence(answer_words, ANSWER_NUMBERS[label]))
            for label in AGREEMENT_LABELS
        )
        return Matrix(tuple(context), answers, verb=answer_words.predicate.lemma)
