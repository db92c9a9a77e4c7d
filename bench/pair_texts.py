"""Minimal pairs for the scoring benchmark: Marvin & Linzen's released templates where
../shared/data holds them, and sets generated from this project's own templates and lines.

Templated pairs are Marvin & Linzen's (2018) agreement templates as the project converts them
(:func:`poetic_eval.agreement.sources.convert_source`, what ``make build AGREEMENT_SOURCE=...``
publishes): from each of the 15 families a run of consecutive rows at a seeded offset, in the
release's order, as a user scoring that dataset meets them. The release enumerates every
combination of its small vocabulary, so consecutive rows repeat their openings.

Random-fill agreement pairs follow the shapes of Marvin & Linzen's templates (simple,
sentential complement, prepositional phrase, subject and object relative clauses, VP
coordination) with our own vocabulary, every slot drawn at random, so few openings repeat.
Limerick pairs are AABBA poems assembled from original lines written for this benchmark,
corrupted as in BPoMP: two rhyming end words swapped, two rhyming lines swapped, or an end
word replaced by a non-rhyming synonym.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from shared_data import SHARED_DATA

MARVIN_LINZEN = SHARED_DATA / "marvin_linzen_2018"

NOUNS = [
    ("author", "authors"),
    ("pilot", "pilots"),
    ("surgeon", "surgeons"),
    ("farmer", "farmers"),
    ("manager", "managers"),
    ("customer", "customers"),
    ("officer", "officers"),
    ("teacher", "teachers"),
    ("senator", "senators"),
    ("dancer", "dancers"),
]
INTRANSITIVE = [
    ("laughs", "laugh"),
    ("swims", "swim"),
    ("smiles", "smile"),
    ("is tall", "are tall"),
    ("is young", "are young"),
    ("writes", "write"),
    ("sleeps", "sleep"),
    ("has left", "have left"),
]
TRANSITIVE = [("likes", "like"), ("admires", "admire"), ("hates", "hate"), ("knows", "know")]
TEMPLATES = [
    "The {n1} {v}.",
    "The mechanic said the {n1} {v}.",
    "The {n1} next to the {n2} {v}.",
    "The {n1} that the {n2} {t2} {v}.",
    "The {n1} that {t1} the {n2} {v}.",
    "The {n1} {v0} and {v}.",
]

LIMERICK_GROUPS = {
    "ay": (
        [
            "A baker who lived by the bay",
            "There once was a clerk from Bombay",
            "A fiddler who fiddled all day",
        ],
        [
            "would whistle his worries away",
            "kept a goat that would not go astray",
            "wore a hat made of feathers and clay",
        ],
        [
            "and that was the end of the day.",
            "so he traded his boots for some hay.",
            "and the neighbours all begged him to stay.",
        ],
    ),
    "ee": (
        [
            "A poet who lived by the sea",
            "There once was a lad from Dundee",
            "An old man who sat in a tree",
        ],
        [
            "was as bored as a fellow could be",
            "drank a bucket of cold minty tea",
            "kept a wasp and a very small bee",
        ],
        [
            "and he never again could be free.",
            "so he swam to the shore for his tea.",
            "now he lives on a boat with a flea.",
        ],
    ),
    "ight": (
        [
            "A dancer who danced every night",
            "There once was a knight who was bright",
            "A girl with a kite made of light",
        ],
        [
            "was afraid of the dark and of height",
            "held a candle that flickered so white",
            "kept on spinning from left to right",
        ],
        [
            "till the morning arrived with its light.",
            "and she flew far away out of sight.",
            "so he hid in a hole out of fright.",
        ],
    ),
    "ane": (
        [
            "A lady who travelled by train",
            "There once was a farmer from Maine",
            "A fellow who lived in the rain",
        ],
        [
            "had a hat that was shaped like a crane",
            "kept on singing the same old refrain",
            "found his cat on the roof of a plane",
        ],
        [
            "so he never went out in the rain.",
            "and she never was seen there again.",
            "then he walked all the way home to Spain.",
        ],
    ),
}
COUPLETS = [
    ("He sat on a chair", "and combed out his hair"),
    ("She laughed at a cat", "who sat on her hat"),
    ("He tried to be wise", "but baked only pies"),
    ("She fished in a pond", "with a magical wand"),
    ("He went for a walk", "with a duck and a hawk"),
    ("She sang to the moon", "in the middle of June"),
]
SYNONYMS = {
    "bay": "harbour",
    "day": "morning",
    "away": "off",
    "hay": "straw",
    "stay": "remain",
    "sea": "ocean",
    "tree": "oak",
    "tea": "brew",
    "free": "loose",
    "be": "exist",
    "night": "evening",
    "light": "glow",
    "bright": "clever",
    "sight": "view",
    "fright": "fear",
    "rain": "drizzle",
    "train": "railway",
    "again": "once more",
    "plane": "jet",
    "hair": "locks",
    "hat": "cap",
    "pies": "tarts",
    "pond": "lake",
    "hawk": "falcon",
    "moon": "satellite",
    "June": "summer",
}


def templated_pairs(
    per_family: int, seed: int, source: Path = MARVIN_LINZEN
) -> list[tuple[str, str]]:
    """:func:`templated_runs` of the release at ``source`` as the project converts it
    (:func:`poetic_eval.agreement.sources.convert_source`). FileNotFoundError when ``source``
    is absent."""
    if not source.is_dir():
        raise FileNotFoundError(f"no Marvin & Linzen release at {source}")
    from poetic_eval.agreement.sources import convert_source

    return templated_runs(convert_source(source).configs, per_family, seed)


def templated_runs(
    configs: Mapping[str, Sequence], per_family: int, seed: int
) -> list[tuple[str, str]]:
    """``per_family`` consecutive rows (``sentence_good``, ``sentence_bad``) of each config
    (all of a smaller one), starting at an offset drawn with ``seed``, configs in their order."""
    rng = random.Random(f"{seed}:templated")
    pairs: list[tuple[str, str]] = []
    for rows in configs.values():
        start = rng.randrange(max(len(rows) - per_family, 0) + 1)
        pairs.extend(
            (row.sentence_good, row.sentence_bad) for row in rows[start : start + per_family]
        )
    return pairs


def agreement_pairs(count: int, seed: int) -> list[tuple[str, str]]:
    rng = np.random.default_rng(seed)
    pairs = []
    for _ in range(count):
        number, other = int(rng.integers(2)), int(rng.integers(2))
        verb = INTRANSITIVE[int(rng.integers(len(INTRANSITIVE)))]
        fill = {
            "n1": NOUNS[int(rng.integers(len(NOUNS)))][number],
            "n2": NOUNS[int(rng.integers(len(NOUNS)))][other],
            "t1": TRANSITIVE[int(rng.integers(len(TRANSITIVE)))][number],
            "t2": TRANSITIVE[int(rng.integers(len(TRANSITIVE)))][other],
            "v0": INTRANSITIVE[int(rng.integers(len(INTRANSITIVE)))][number],
        }
        template = TEMPLATES[int(rng.integers(len(TEMPLATES)))]
        good = template.format(v=verb[number], **fill)
        bad = template.format(v=verb[1 - number], **fill)
        pairs.append((good, bad))
    return pairs


def _limerick(rng) -> list[str]:
    openers, seconds, closers = LIMERICK_GROUPS[
        list(LIMERICK_GROUPS)[int(rng.integers(len(LIMERICK_GROUPS)))]
    ]
    couplet = COUPLETS[int(rng.integers(len(COUPLETS)))]
    return [
        openers[int(rng.integers(3))],
        seconds[int(rng.integers(3))] + ",",
        couplet[0],
        couplet[1] + ",",
        closers[int(rng.integers(3))],
    ]


def _split_end(line: str) -> tuple[str, str, str]:
    stripped = line.rstrip(".,")
    head, _, word = stripped.rpartition(" ")
    return head, word, line[len(stripped) :]


def _corrupt(lines: list[str], kind: int, rng) -> list[str]:
    bad = list(lines)
    if kind == 0:  # swap the end words of two A lines
        first, second = sorted(rng.choice([0, 1, 4], size=2, replace=False))
        head_a, word_a, tail_a = _split_end(bad[first])
        head_b, word_b, tail_b = _split_end(bad[second])
        bad[first], bad[second] = f"{head_a} {word_b}{tail_a}", f"{head_b} {word_a}{tail_b}"
    elif kind == 1:  # swap two rhyming lines (punctuation stays with the position)
        first, second = [(0, 1), (1, 4), (2, 3)][int(rng.integers(3))]
        body = [_split_end(line) for line in bad]
        words = [f"{head} {word}".strip() for head, word, _ in body]
        bad[first] = words[second] + body[first][2]
        bad[second] = words[first] + body[second][2]
    else:  # replace an end word by a non-rhyming synonym
        candidates = [i for i, line in enumerate(bad) if _split_end(line)[1] in SYNONYMS]
        index = candidates[int(rng.integers(len(candidates)))]
        head, word, tail = _split_end(bad[index])
        bad[index] = f"{head} {SYNONYMS[word]}{tail}"
    return bad


def limerick_pairs(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` pairs, two corruptions per limerick (the good text recurs, as in BPoMP)."""
    rng = np.random.default_rng(seed)
    pairs: list[tuple[str, str]] = []
    while len(pairs) < count:
        lines = _limerick(rng)
        for kind in rng.choice(3, size=2, replace=False):
            bad = _corrupt(lines, int(kind), rng)
            if bad != lines and len(pairs) < count:
                pairs.append(("\n".join(lines), "\n".join(bad)))
    return pairs
