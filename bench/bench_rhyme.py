"""Rhyme-scheme throughput: poetic_eval.rhyme.rhyme_scheme vs the naive per-pair approach.

The peer is what rhyme-scheme code built on the `pronouncing` package usually does (and what the
paper's reference labelling does with its own classifier): for every pair of line-final words
call ``pronouncing.rhymes(a)`` (a list of all rhyming dictionary words) and test membership, then
label lines by the reference's sequential rule (pairs (0,1), (0,2), ... give j the letter of i).
Both run in this process on the same seeded quatrains built from CMUdict rhyme classes; the
script prints stanzas per second of each and the ratio, and their agreement. When
../shared/data/epg64_english_poetry is present it also prints both approaches' exact-scheme
accuracy on its gold 4-line stanzas.

Run from the repository root: ``python bench/bench_rhyme.py [--stanzas N]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

import pronouncing

from poetic_eval.rhyme import QUATRAIN_SCHEMES, end_words, rhyme_scheme

REPO_ROOT = Path(__file__).resolve().parent.parent
EPG64 = REPO_ROOT.parent / "shared" / "data" / "epg64_english_poetry"
FILLERS = ["and in the", "beneath the", "we saw a", "she kept the", "over the"]


def naive_scheme(poem: str) -> str:
    """Sequential labelling with pronouncing.rhymes per pair (the usual script)."""
    words = [w.lower() for w in end_words(poem)]
    labels = list(range(len(words)))
    for i, j in combinations(range(len(words)), 2):
        if words[j] in pronouncing.rhymes(words[i]):
            labels[j] = labels[i]
    letters: dict[int, str] = {}
    return "".join(letters.setdefault(label, chr(65 + len(letters))) for label in labels)


def generated_quatrains(count: int, seed: int = 0, *, by_frequency: bool = True) -> list[str]:
    """Seeded quatrains: a random scheme, each letter filled from one CMUdict rhyme class.

    ``by_frequency``: classes and words drawn by their English frequency (wordfreq), as in real
    verse, where "day" and "night" recur; otherwise uniformly (mostly rare, unique words).
    """
    from wordfreq import word_frequency

    rng = random.Random(seed)
    pronouncing.init_cmu()
    classes, weights = [], []
    for words in pronouncing.rhyme_lookup.values():
        words = sorted({w for w in words if w.isalpha()})
        frequencies = (
            [word_frequency(w, "en") for w in words] if by_frequency else [1.0] * len(words)
        )
        kept = [(w, f) for w, f in zip(words, frequencies) if f > 0]
        if len(kept) >= 4:
            classes.append(kept)
            weights.append(sum(f for _, f in kept))
    poems = []
    for _ in range(count):
        scheme = rng.choice(QUATRAIN_SCHEMES)
        words = {}
        for letter in sorted(set(scheme)):
            chosen = rng.choices(classes, weights=weights)[0]
            pool = [w for w, _ in chosen]
            words[letter] = rng.choices(
                pool, weights=[f for _, f in chosen], k=scheme.count(letter)
            )
            while len(set(words[letter])) < len(words[letter]):
                words[letter] = rng.sample(pool, scheme.count(letter))
        line_words = [words[letter].pop() for letter in scheme]
        poems.append("\n".join(f"{rng.choice(FILLERS)} {w}" for w in line_words))
    return poems


def rate(function, poems: list[str]) -> tuple[float, list[str]]:
    start = time.perf_counter()
    schemes = [function(poem) for poem in poems]
    return len(poems) / (time.perf_counter() - start), schemes


def gold_accuracy() -> None:
    if not EPG64.is_dir():
        print(f"(no {EPG64}: gold accuracy skipped)")
        return
    sys.path.insert(0, str(REPO_ROOT / "tests"))
    from test_rhyme import gold_stanzas

    quatrains = [(g, "\n".join(v)) for g, v in gold_stanzas(EPG64) if len(v) == 4]
    for name, function in (("poetic_eval", rhyme_scheme), ("naive", naive_scheme)):
        correct = sum(function(poem) == gold for gold, poem in quatrains)
        print(
            f"EPG64 gold 4-line stanzas, {name:>11}: {correct}/{len(quatrains)} "
            f"= {correct / len(quatrains):.3f} exact scheme"
        )


def compare(poems: list[str], label: str) -> None:
    """Time both approaches on ``poems`` with cold caches, and print rates, ratio, agreement."""
    from poetic_eval.rhyme import pronunciation
    from poetic_eval.rhyme import word_rhymes as rhyme

    for cached in (
        pronunciation.pronunciations,
        rhyme.rhyme_key,
        rhyme.rhyme_parts,
        rhyme.stressed_pronunciations,
        rhyme.rhyme_part_of_phones,
    ):
        cached.cache_clear()
    rhyme_scheme("warm up\nthe dictionary")
    ours, our_schemes = rate(rhyme_scheme, poems)
    peer, peer_schemes = rate(naive_scheme, poems)
    agreement = sum(a == b for a, b in zip(our_schemes, peer_schemes)) / len(poems)
    print(f"{len(poems)} generated quatrains, {label} (seed 0)")
    print(f"  poetic_eval rhyme_scheme:          {ours:>9,.0f} stanzas/s")
    print(f"  naive pronouncing.rhymes per pair: {peer:>9,.0f} stanzas/s")
    print(f"  speed ratio: {ours / peer:.1f}x; same scheme on {agreement:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stanzas", type=int, default=5000)
    args = parser.parse_args()
    for by_frequency in (True, False):
        poems = generated_quatrains(args.stanzas, by_frequency=by_frequency)
        compare(poems, "frequency-weighted words" if by_frequency else "uniformly drawn words")
    gold_accuracy()


if __name__ == "__main__":
    main()
