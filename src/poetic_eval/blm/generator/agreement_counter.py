"""BLM-AgrI's numbers: the 3-bit counter of the context and the numbers of the 8 answers.

The 7 context sentences follow a 3-bit counter (:func:`counter_numbers`) from the item's
starting state (:class:`AgreementFrame`): the subject's number flips every sentence, N1's every
2 sentences, N2's every 4; in a ``late_n2`` item N2 is absent from the first four sentences
(``P2_None`` in the release) and keeps one number. The correct answer is step 8. The frame also
says whether every sentence has an introducing clause (Prefix), a relative clause, an object;
:func:`balanced_frames` draws the frames of a split so that the correct answer's numbers take
each of their 8 patterns equally often. The wrong answers (:func:`answer_numbers`) are defined
relative to the correct answer and break the rules of :data:`.labels.AGREEMENT_RULES`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .labels import AGREEMENT_LABELS
from .matrices import pick

NUMBERS = ("sg", "pl")


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
