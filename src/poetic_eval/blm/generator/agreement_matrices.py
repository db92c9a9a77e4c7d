"""BLM-AgrI: subject-verb agreement across one or two attractor prepositional phrases.

A sentence is ``[Prefix] Subj P1 [P2] [ROC] V [Obj]``: a subject noun phrase, a prepositional
phrase with the first attractor N1 attached to it, optionally a second one with N2 attached to
N1, optionally a relative clause (*che i nonni ricordano*, tagged ``ROC_sg``/``ROC_pl`` by its
subject's number), and the predicate with, for a transitive verb, its object.

The 7 context sentences follow a 3-bit counter (:func:`counter_numbers`) from the item's
starting state (:class:`AgreementFrame`): the subject's number flips every sentence, N1's every
2 sentences, N2's every 4; in a ``late_n2`` item N2 is absent from the first four sentences
(``P2_None`` in the release) and keeps one number. The correct answer is step 8. The frame also
says whether every sentence has an introducing clause (Prefix), a relative clause, an object;
:func:`balanced_frames` draws the frames of a split so that the correct answer's numbers take
each of their 8 patterns equally often. The wrong answers (:func:`answer_numbers`) are defined
relative to the correct answer and break the rules of :data:`.labels.AGREEMENT_RULES`. In the
Coord answer N2 is coordinated with the subject (``[Subj P1] e N2``): a coordinated subject is
plural, so its verb is plural whatever the subject's number (*la cugina dei cuochi e queste zie
protestavano*; a singular verb there is ungrammatical) and a participle or adjective takes the
coordination's resolved gender (:func:`predicate_gender`).

Lexical variation: type II keeps the matrix's words and changes one of them (subject, N1, N2,
predicate, object or the relative clause's subject) in each sentence, the 8 answers included;
type III draws every word afresh for each sentence and each answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ...checks import require_choice
from .conjugation import finite_form
from .labels import AGREEMENT_LABELS
from .lexicon import Attachment, Lexicon, Noun, Predicate
from .matrices import LEXICAL_TYPES, Chunk, Matrix, Sentence, pick
from .noun_phrases import NounPhrase, capitalize_first
from .verb_groups import copula_group, verb_group

AGREEMENT_FRAMES = ("present", "imperfect", "future", "perfect")
#: essere + adjective reads as a state: not in the perfect (*è stato pesante* is odd)
COPULA_FRAMES = ("present", "imperfect", "future")
#: a punctual event (*cadere*) in the present or imperfect reads as a habit (*la chiave si
#: rompe*), and in the future as an accident foretold (*l'armadio si romperà*): only its perfect
PUNCTUAL_FRAMES = ("perfect",)
#: a permanent property (*bianco*) is not predicted: not in the future either
PERMANENT_FRAMES = ("present", "imperfect")
#: determiner families (drawn uniformly, so the definite article is the most common)
DETERMINER_FAMILIES = ("def", "def", "def", "indefinite", "dem", "that")
#: a demonstrative head + "di" + an indefinite reads as an epithet (*quell'asino di uno studente*)
DEMONSTRATIVES = ("dem", "that")
#: head classes whose nouns (animals) read as an insult after a demonstrative
EPITHET_HEADS = ("pet",)
NUMBERS = ("sg", "pl")
_MAX_DRAWS = 100


def flip(number: str) -> str:
    return "pl" if number == "sg" else "sg"


@dataclass(frozen=True)
class Numbers:
    """Grammatical numbers of one sentence; ``n2`` None: no second attractor."""

    subject: str
    n1: str
    n2: str | None
    verb: str
    coordinated: bool = False


@dataclass(frozen=True)
class AgreementFrame:
    """What an AgrI item keeps in all its sentences.

    ``start``: the numbers of subject, N1 and N2 in sentence 1; ``late_n2``: N2 only from
    sentence 5 (then in ``start[2]``); ``prefix``: an introducing clause; ``relative``: the
    number of the relative clause's subject (None: no relative clause); ``with_object``: a
    transitive predicate with its object.
    """

    start: tuple[str, str, str] = ("sg", "sg", "sg")
    late_n2: bool = True
    prefix: bool = False
    relative: str | None = None
    with_object: bool = False


def counter_numbers(step: int, frame: AgreementFrame = AgreementFrame()) -> Numbers:
    """Numbers of step ``step`` (0-7) of the counter; step 7 is the correct answer."""
    subject0, n1_0, n2_0 = frame.start
    subject = flip(subject0) if step & 1 else subject0
    n1 = flip(n1_0) if step & 2 else n1_0
    if frame.late_n2:
        n2 = n2_0 if step & 4 else None
    else:
        n2 = flip(n2_0) if step & 4 else n2_0
    return Numbers(subject, n1, n2, subject)


def answer_numbers(correct: Numbers) -> dict[str, Numbers]:
    """The numbers of every answer, from the correct answer's (subject S, N1 A, N2 B).

    Correct ``S A B V=S``; Coord ``S A B pl`` with N2 coordinated (a coordination is plural);
    WNA ``S A - S``; WN1 ``S ~A B S``;
    WN2 ``S A ~B S``; AEV ``S S S ~S`` (the verb agrees with no attractor); AEN1 ``S ~S S ~S``
    (only N1 agrees with the verb); AEN2 ``S S ~S ~S`` (only N2 does).
    """
    s, a, b = correct.subject, correct.n1, correct.n2
    if b is None:
        raise ValueError("the correct answer has both attractors")
    wrong = flip(s)
    numbers = {
        "Correct": Numbers(s, a, b, s),
        "Coord": Numbers(s, a, b, "pl", coordinated=True),
        "WNA": Numbers(s, a, None, s),
        "WN1": Numbers(s, flip(a), b, s),
        "WN2": Numbers(s, a, flip(b), s),
        "AEV": Numbers(s, s, s, wrong),
        "AEN1": Numbers(s, wrong, s, wrong),
        "AEN2": Numbers(s, s, wrong, wrong),
    }
    assert tuple(numbers) == AGREEMENT_LABELS
    return numbers


#: the answers of the default frame (the counter from all-singular with N2 from sentence 5)
ANSWER_NUMBERS = answer_numbers(counter_numbers(7))


def balanced_frames(n_items: int, rng: random.Random) -> list[AgreementFrame]:
    """``n_items`` frames whose correct answers take the 8 number patterns equally often
    (``n // 8`` or one more), the other variants drawn at random."""
    patterns = [(s, a, b) for s in NUMBERS for a in NUMBERS for b in NUMBERS]
    order = [patterns[i % len(patterns)] for i in range(n_items)]
    rng.shuffle(order)
    frames = []
    for subject, n1, n2 in order:
        late_n2 = rng.random() < 0.5
        # the correct answer is step 7: subject and N1 flipped, N2 flipped unless late
        start = (flip(subject), flip(n1), n2 if late_n2 else flip(n2))
        frames.append(
            AgreementFrame(
                start=start,
                late_n2=late_n2,
                prefix=rng.random() < 0.5,
                relative=pick(rng, (None, None, "sg", "pl")),
                with_object=rng.random() < 0.3,
            )
        )
    return frames


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
    obj: NounPhrase | None = None
    relative_subject: NounPhrase | None = None
    relative_verb: str | None = None


def determiner_kind(family: str, number: str) -> str:
    """The determiner of a family in a number: the indefinite is *un/una*, plural *alcuni*."""
    if family == "indefinite":
        return "indef" if number == "sg" else "some"
    return family


def draw_determiners(rng: random.Random, first: Attachment, second: Attachment):
    """Determiner families of subject, N1, N2, with no demonstrative + "di" + indefinite and
    no demonstrative before an owned animal: both read as an epithet (*quell'oca della zia*)."""
    head_avoid = list(DEMONSTRATIVES) if first.head in EPITHET_HEADS else []
    families = [pick(rng, DETERMINER_FAMILIES, avoid=head_avoid)]
    for attachment in (first, second):
        avoid = (
            ["indefinite"]
            if families[-1] in DEMONSTRATIVES and attachment.preposition == "di"
            else []
        )
        families.append(pick(rng, DETERMINER_FAMILIES, avoid=avoid))
    return tuple(families)


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
        # the counter pairs every number with every number: no exclusive attachment
        attachments = [a for a in lexicon.attachments if not a.exclusive]
        classes = {c for attachment in attachments for c in (attachment.head, attachment.dependent)}
        self._by_class = {c: [noun for noun in countable if c in noun.classes] for c in classes}
        self._predicates = {
            noun.lemma: [p for p in lexicon.predicates if set(p.subjects) & set(noun.classes)]
            for noun in countable
        }
        self._relative_subjects = [
            n for n in countable if set(n.classes) & set(lexicon.relative_subjects)
        ]
        self.chains = {
            with_object: [
                (first, second)
                for first in attachments
                for second in attachments
                if self._subjects(first, None, with_object)
                and self._n1s(first, second)
                and self._by_class[second.dependent]
            ]
            for with_object in (False, True)
        }
        if not all(self.chains.values()):
            raise ValueError("the lexicon's agreement templates make no subject-N1-N2 chain")

    def predicates_for(
        self, noun: Noun, frame: str | None = None, with_object: bool | None = None
    ) -> list[Predicate]:
        """The predicates ``noun`` can take (in ``frame``, transitive or not, when given)."""
        fitting = self._predicates[noun.lemma]
        if with_object is not None:
            fitting = [p for p in fitting if bool(p.objects) == with_object]
        if frame is None:
            return fitting
        return [p for p in fitting if frame in self.frames_of(p)]

    def frames_of(self, predicate: Predicate) -> tuple[str, ...]:
        if predicate.adjective is None:
            if self.lexicon.verb(predicate.verb).punctual:
                return PUNCTUAL_FRAMES
            return AGREEMENT_FRAMES
        if self.lexicon.adjectives[predicate.adjective].permanent:
            return PERMANENT_FRAMES
        return COPULA_FRAMES

    def _subjects(
        self, first: Attachment, predicate: Predicate | None, with_object: bool = False
    ) -> list[Noun]:
        nouns = [n for n in self._heads(first) if self.predicates_for(n, None, with_object)]
        if predicate is None:
            return nouns
        return [noun for noun in nouns if predicate in self._predicates[noun.lemma]]

    def _n1s(self, first: Attachment, second: Attachment) -> list[Noun]:
        heads = self._heads(second)
        return [noun for noun in self._by_class[first.dependent] if noun in heads]

    def _heads(self, attachment: Attachment) -> list[Noun]:
        """The nouns that can head ``attachment``: no ``personal`` noun, which is one owner's or
        one parent's only, since the counter gives a singular one several (*lo zaino delle
        zie*, *la figlia di quelle cameriere*)."""
        return [noun for noun in self._by_class[attachment.head] if not noun.personal]

    def fresh_words(self, rng: random.Random, frame: AgreementFrame) -> AgreementWords:
        """Words for one sentence of an item with ``frame``, all drawn afresh."""
        for _ in range(_MAX_DRAWS):
            first, second = pick(rng, self.chains[frame.with_object])
            n1 = pick(rng, self._n1s(first, second))
            subjects = [n for n in self._subjects(first, None, frame.with_object) if n != n1]
            n2s = [noun for noun in self._by_class[second.dependent] if noun != n1]
            if subjects and len(n2s) > 1:
                break
        else:
            raise ValueError("the agreement templates give no three distinct nouns")
        subject = pick(rng, subjects)
        n2 = pick(rng, n2s, avoid=[subject])
        predicate = pick(rng, self.predicates_for(subject, None, frame.with_object))
        prefix = pick(rng, self.lexicon.prefixes) if frame.prefix else ""
        # a fact told as known is no future one (not *È vero che il vaso cadrà*)
        certain = prefix in self.lexicon.certain_prefixes
        frames = [f for f in self.frames_of(predicate) if not (certain and f == "future")]
        words = AgreementWords(
            prefix=prefix,
            subject=subject,
            first=first,
            n1=n1,
            second=second,
            n2=n2,
            predicate=predicate,
            frame=pick(rng, frames),
            determiners=draw_determiners(rng, first, second),
        )
        if predicate.objects:
            words = replace(words, obj=self._object(predicate, rng))
        if frame.relative is not None:
            words = replace(
                words,
                relative_subject=self._relative_subject(words, frame.relative, rng),
                relative_verb=pick(rng, self.lexicon.relative_verbs),
            )
        return words

    def _object(
        self, predicate: Predicate, rng: random.Random, avoid=(), number: str | None = None
    ) -> NounPhrase:
        noun = self.lexicon.nouns[pick(rng, predicate.objects, avoid=avoid)]
        numbers = ("sg",) if predicate.singular_object else noun.numbers  # *aspetta alcuni treni*
        number = number or pick(rng, numbers)
        return NounPhrase(noun, number, determiner_kind(pick(rng, DETERMINER_FAMILIES), number))

    def _relative_subject(self, words: AgreementWords, number: str, rng) -> NounPhrase:
        taken = [words.subject, words.n1, words.n2]
        if words.relative_subject is not None:
            taken.append(words.relative_subject.noun)
        noun = pick(rng, self._relative_subjects, avoid=taken)
        return NounPhrase(noun, number, "def")

    def vary_one(self, words: AgreementWords, slots: tuple[str, ...], rng: random.Random):
        """``words`` with one of ``slots`` replaced by another fitting word."""
        nouns = [words.subject, words.n1, words.n2]
        if words.relative_subject is not None:  # no *l'amico ... che l'amico vede*
            nouns.append(words.relative_subject.noun)
        slots = slots + ("object",) * (words.obj is not None)
        slots += ("relative",) * (words.relative_subject is not None)
        for slot in rng.sample(slots, len(slots)):
            if slot == "object":
                if len(words.predicate.objects) > 1:
                    avoid = [words.obj.noun.lemma]
                    obj = self._object(words.predicate, rng, avoid, words.obj.number)
                    return replace(words, obj=obj)
                continue
            if slot == "relative":
                relative = self._relative_subject(words, words.relative_subject.number, rng)
                return replace(words, relative_subject=relative)
            if slot == "predicate":
                candidates = [
                    p
                    for p in self.predicates_for(words.subject, words.frame, words.obj is not None)
                    if not words.obj or words.obj.noun.lemma in p.objects
                ]
                avoid = [words.predicate]
            elif slot == "subject":
                candidates = self._subjects(words.first, words.predicate, words.obj is not None)
                avoid = nouns
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
        if words.relative_subject is not None:
            relative = words.relative_subject
            verb = finite_form(self.lexicon.verb(words.relative_verb), "present", relative.number)
            chunks.append(Chunk("ROC", f"che {relative.text()} {verb}"))
            tags.append(f"ROC_{relative.number}")
        gender = predicate_gender(phrases, numbers)
        chunks.append(Chunk("V", self._predicate(words, numbers.verb, gender)))
        tags.append(f"V_{numbers.verb}")
        if words.obj is not None:
            chunks.append(Chunk("Obj", words.obj.text()))
            tags.append(f"Obj_{words.obj.number}")
        text = capitalize_first(" ".join(chunk.text for chunk in chunks)) + "."
        return Sentence(" ".join(tags), tuple(chunks), text, words.predicate.lemma)

    def _phrase(self, noun: Noun, number: str, family: str) -> NounPhrase:
        kind = determiner_kind(family, number)
        if kind == "some" and noun.few:  # *alcune nonne di quell'infermiere*: le nonne
            kind = "def"
        return NounPhrase(noun, number, kind)

    def _predicate(self, words: AgreementWords, number: str, gender: str) -> str:
        predicate = words.predicate
        if predicate.adjective is not None:
            adjective = self.lexicon.adjectives[predicate.adjective]
            return copula_group(self.lexicon, adjective, words.frame, number, gender)
        verb = self.lexicon.verb(predicate.verb)
        return verb_group(self.lexicon, verb, words.frame, predicate.voice, number, gender)

    def matrix(
        self, rng: random.Random, lexical_type: str, frame: AgreementFrame = AgreementFrame()
    ) -> Matrix:
        """One AgrI matrix of ``lexical_type`` (II or III) with ``frame``."""
        require_choice(lexical_type, LEXICAL_TYPES, "lexical type")
        base = self.fresh_words(rng, frame)

        def words_for(numbers: Numbers) -> AgreementWords:
            if lexical_type == "III":
                return self.fresh_words(rng, frame)
            slots = ("subject", "n1", "predicate") + ("n2",) * (numbers.n2 is not None)
            return self.vary_one(base, slots, rng)

        context = []
        for step in range(7):
            numbers = counter_numbers(step, frame)
            context.append(self.sentence(words_for(numbers), numbers))
        answers = []
        for label, numbers in answer_numbers(counter_numbers(7, frame)).items():
            words = words_for(numbers)
            if label == "Correct":
                verb = words.predicate.lemma
            answers.append((label, self.sentence(words, numbers)))
        return Matrix(tuple(context), tuple(answers), verb=verb)
