"""Accuracy of rhyme schemes against gold: exact scheme, pairwise links, chance rhymes.

- **Exact scheme**: share of units whose predicted scheme equals the gold one.
- **Pairwise precision / recall**: over every pair of lines of every unit, a *link* is two lines
  with the same letter; precision = gold links predicted / links predicted, recall = gold links
  predicted / gold links.
- **Random pairs called rhymes**: seeded pairs of line-final words from two different poems
  (almost never meant to rhyme); the share a pairwise rhyme test accepts bounds the false links
  it adds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..text import final_word
from .methods import rhymes
from .rule_annotation import GoldUnit
from .schemes import rhyme_schemes

#: Rhyme settings compared in the rhyme_kl card: name -> options of rhyme_scheme / rhymes.
SETTINGS: dict[str, dict] = {
    "learned (default)": {"method": "learned"},
    "perfect": {"method": "perfect"},
    "perfect + weak": {"method": "perfect", "weak": True},
    "perfect + weak + near": {"method": "perfect", "weak": True, "near": True},
    "perfect + weak + near + historical": {
        "method": "perfect", "weak": True, "near": True, "historical": True,
    },
}  # fmt: skip

#: Gold sets reported in the card: name -> test on a unit.
COLLECTIONS: dict[str, Callable[[GoldUnit], bool]] = {
    "EPG64 quatrains (human gold)": lambda u: u.collection == "epg64" and len(u.lines) == 4,
    "EPG64 all stanzas (human gold)": lambda u: u.collection == "epg64",
    "sonnet quatrains (rule)": lambda u: u.collection == "sonnets" and len(u.lines) == 4,
    "Petrarchan octaves (rule)": lambda u: u.collection == "sonnets" and len(u.lines) == 8,
    "couplet quatrains (rule)": lambda u: u.collection == "couplets",
    "stanzaic quatrains (rule)": lambda u: u.collection == "stanzaic",
    "limericks (rule)": lambda u: u.collection == "limericks",
    "all quatrains": lambda u: len(u.lines) == 4,
}


@dataclass(frozen=True)
class SchemeAccuracy:
    """Exact-scheme and pairwise agreement of predictions with gold."""

    units: int
    exact: int
    true_links: int
    predicted_links: int
    gold_links: int

    @property
    def exact_share(self) -> float:
        return self.exact / self.units if self.units else float("nan")

    @property
    def precision(self) -> float:
        return self.true_links / self.predicted_links if self.predicted_links else float("nan")

    @property
    def recall(self) -> float:
        return self.true_links / self.gold_links if self.gold_links else float("nan")

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def links(scheme: str) -> set[tuple[int, int]]:
    """Pairs of line indices that share a letter."""
    return {(i, j) for i, j in combinations(range(len(scheme)), 2) if scheme[i] == scheme[j]}


def score_schemes(golds: Sequence[str], predicted: Sequence[str]) -> SchemeAccuracy:
    """Compare predicted schemes with gold ones (same order, same lengths)."""
    exact = true = n_predicted = n_gold = 0
    for gold, guess in zip(golds, predicted, strict=True):
        if len(gold) != len(guess):
            raise ValueError(f"scheme {guess!r} has {len(guess)} lines, gold {gold!r} {len(gold)}")
        exact += gold == guess
        gold_links, guess_links = links(gold), links(guess)
        true += len(gold_links & guess_links)
        n_predicted += len(guess_links)
        n_gold += len(gold_links)
    return SchemeAccuracy(len(golds), exact, true, n_predicted, n_gold)


def evaluate(
    units: Sequence[GoldUnit], predict: Callable[[list[str]], list[str]]
) -> SchemeAccuracy:
    """Score ``predict`` (a list of stanza texts -> their schemes) on ``units``."""
    predicted = predict(["\n".join(unit.lines) for unit in units])
    return score_schemes([unit.gold for unit in units], predicted)


def collections(units: Sequence[GoldUnit]) -> dict[str, list[GoldUnit]]:
    """The units of each of :data:`COLLECTIONS` (empty collections left out)."""
    found = {name: [u for u in units if test(u)] for name, test in COLLECTIONS.items()}
    return {name: members for name, members in found.items() if members}


def collection_scores(
    units: Sequence[GoldUnit], predicted: Sequence[str]
) -> dict[str, SchemeAccuracy]:
    """:func:`score_schemes` of each of :func:`collections` of ``units``, from one labelling
    ``predicted`` of all ``units`` (same order): overlapping gold sets are labelled once."""
    scheme_of = dict(zip(map(id, units), predicted, strict=True))
    return {
        name: score_schemes([u.gold for u in members], [scheme_of[id(u)] for u in members])
        for name, members in collections(units).items()
    }


def setting_accuracy(units: Sequence[GoldUnit], options: dict) -> SchemeAccuracy:
    """Accuracy of :func:`poetic_eval.rhyme.rhyme_schemes` with ``options`` on ``units``."""
    return evaluate(units, lambda poems: rhyme_schemes(poems, **options))


def setting_chance_rate(pairs: Sequence[tuple[str, str]], options: dict) -> float:
    """Share of random pairs :func:`poetic_eval.rhyme.rhymes` with ``options`` accepts."""
    return chance_rhyme_rate(pairs, lambda a, b: rhymes(a, b, **options))


def random_word_pairs(
    poems: Sequence[Sequence[str]], count: int = 20_000, seed: int = 0
) -> list[tuple[str, str]]:
    """``count`` seeded pairs of line-final words of two different poems (lists of lines)."""
    rng = random.Random(seed)
    ends = [[w for w in (final_word(line) for line in poem) if w] for poem in poems]
    ends = [words for words in ends if words]
    if len(ends) < 2:
        raise ValueError("random word pairs need at least 2 poems with line-final words")
    pairs = []
    while len(pairs) < count:
        a, b = rng.sample(range(len(ends)), 2)
        pairs.append((rng.choice(ends[a]), rng.choice(ends[b])))
    return pairs


def chance_rhyme_rate(
    pairs: Sequence[tuple[str, str]], rhymes: Callable[[str, str], bool]
) -> float:
    """Share of ``pairs`` that ``rhymes`` accepts."""
    return sum(bool(rhymes(a, b)) for a, b in pairs) / len(pairs)
