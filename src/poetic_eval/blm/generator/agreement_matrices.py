"""BLM-AgrI: subject-verb agreement across one or two attractor prepositional phrases.

A sentence is ``[Prefix] Subj P1 [P2] [ROC] V [Obj]``: a subject noun phrase, a prepositional
phrase with the first attractor N1 attached to it, optionally a second one with N2 attached to
N1, optionally a relative clause (*che i nonni ricordano*, or with a verb that takes "di" *di
cui i nonni parlano*; tagged ``ROC_sg``/``ROC_pl`` by its subject's number), and the predicate
with, for a transitive verb, its object. *di* is weighted to about 77 % of the attractor
phrases, as in the BLM-It release (:data:`NON_DI_WEIGHT`). An unplanned predicate is told in
the future only as hearsay (``rumour_prefixes``: *Si dice che le oche scapperanno*), a planned
one after any prefix (*Sappiamo che le zie partiranno*).

The 7 context sentences follow the 3-bit counter of :mod:`.agreement_counter`, and the wrong
answers break the rules of :data:`.labels.AGREEMENT_RULES` (numbers there too). In the Coord
answer N2 is coordinated with the subject (``[Subj P1] e N2``): a coordinated subject is
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
from .agreement_counter import AgreementFrame, Numbers, answer_numbers, counter_numbers
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
#: the weight of a chain (a pair of attachments) is this to the power of its attachments that
#: are not *di* ones, so that *di* is about 77 % of the attractors as in the BLM-It release
#: (drawn uniformly, the chains of the templates gave *di* 70-71 %)
NON_DI_WEIGHT = 0.5
#: the share of relative clauses that are *di cui* ones (*di cui i nonni parlano*), where the
#: lexicon has *di cui* verbs; the others are *che* ones (*che i nonni ricordano*)
DI_CUI_SHARE = 0.15
_MAX_DRAWS = 100
#: the counter from all-singular, N2 from sentence 5, no prefix, relative or object
DEFAULT_FRAME = AgreementFrame()


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
    relative_pronoun: str = "che"  # or "di cui" (*di cui i nonni parlano*)
    relative_voice: str = "active"  # or "si" (*di cui le zie si ricordano*)


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
        self._chain_weights = {
            with_object: [
                NON_DI_WEIGHT ** sum(a.preposition != "di" for a in chain) for chain in chains
            ]
            for with_object, chains in self.chains.items()
        }
        self._relative_clauses = [("che", lemma, "active") for lemma in lexicon.relative_verbs]
        self._di_cui_clauses = [("di cui", lemma, voice) for lemma, voice in lexicon.di_cui_verbs]

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

    def _tellable(self, predicate: Predicate, frame: str, prefix: str) -> bool:
        """An unplanned future is hearsay, never a known fact or a bare forecast (not *È vero
        che le oche scapperanno*, *Le oche scapperanno*; *Si dice che le oche scapperanno*)."""
        return frame != "future" or predicate.planned or prefix in self.lexicon.rumour_prefixes

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
        chains, weights = self.chains[frame.with_object], self._chain_weights[frame.with_object]
        for _ in range(_MAX_DRAWS):
            first, second = rng.choices(chains, weights)[0]
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
        frames = [f for f in self.frames_of(predicate) if self._tellable(predicate, f, prefix)]
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
            di_cui = self._di_cui_clauses and rng.random() < DI_CUI_SHARE
            clauses = self._di_cui_clauses if di_cui else self._relative_clauses
            # not the predicate's verb again: *di cui le cugine parlano parlano*
            pronoun, lemma, voice = pick(
                rng, [c for c in clauses if c[1] != predicate.verb] or clauses
            )
            words = replace(
                words,
                relative_subject=self._relative_subject(words, frame.relative, rng),
                relative_verb=lemma,
                relative_pronoun=pronoun,
                relative_voice=voice,
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
                    if (not words.obj or words.obj.noun.lemma in p.objects)
                    and self._tellable(p, words.frame, words.prefix)
                    and (p.verb is None or p.verb != words.relative_verb)
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
            relative, verb = words.relative_subject, self.lexicon.verb(words.relative_verb)
            group = verb_group(
                self.lexicon, verb, "present", words.relative_voice, relative.number, "m"
            )
            chunks.append(Chunk("ROC", f"{words.relative_pronoun} {relative.text()} {group}"))
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
        self, rng: random.Random, lexical_type: str, frame: AgreementFrame = DEFAULT_FRAME
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
