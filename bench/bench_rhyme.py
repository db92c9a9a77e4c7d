"""Rhyme-scheme throughput: poetic_eval.rhyme's methods vs the naive per-pair approach.

1. **Perfect rhyme vs the naive peer.** The peer is what rhyme-scheme code built on the
   `pronouncing` package usually does (and what the paper's reference labelling does with its
   own classifier): for every pair of line-final words call ``pronouncing.rhymes(a)`` (a list of
   all rhyming dictionary words) and test membership, then label lines by the reference's
   sequential rule (pairs (0,1), (0,2), ... give j the letter of i). Both run in this process on
   the same seeded quatrains built from CMUdict rhyme classes; the script prints stanzas per
   second of each and the ratio, and their agreement.
2. **Bulk: the learned default vs perfect rhyme (today's method before it).** Schemes of
   ``--bulk`` (default 200,000) seeded quatrains with ``rhyme_schemes``, each method from cold
   caches, in one process: seconds of each, the ratio, and whether the learned method stays
   under the 60 s target.
3. When ../shared/data is present, exact-scheme accuracy of every method on EPG64's gold 4-line
   stanzas.

Run from the repository root: ``python bench/bench_rhyme.py [--stanzas N] [--bulk N]``.
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import accumulate, combinations

import pronouncing
from peak_memory import peak_memory
from shared_data import SHARED_DATA

from poetic_eval.rhyme import QUATRAIN_SCHEMES, end_words, rhyme_scheme, rhyme_schemes
from poetic_eval.rhyme.letters import letters_by_first_occurrence

EPG64 = SHARED_DATA / "epg64_english_poetry"
TARGET_SECONDS = 60
FILLERS = ["and in the", "beneath the", "we saw a", "she kept the", "over the"]


def naive_scheme(poem: str) -> str:
    """Sequential labelling with pronouncing.rhymes per pair (the usual script)."""
    words = [w.lower() for w in end_words(poem)]
    labels = list(range(len(words)))
    for i, j in combinations(range(len(words)), 2):
        if words[j] in pronouncing.rhymes(words[i]):
            labels[j] = labels[i]
    return letters_by_first_occurrence(labels)


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
    cumulative = list(accumulate(weights))
    poems = []
    for _ in range(count):
        scheme = rng.choice(QUATRAIN_SCHEMES)
        words = {}
        for letter in sorted(set(scheme)):
            chosen = rng.choices(classes, cum_weights=cumulative)[0]
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
    from poetic_eval.rhyme.corpora import read_epg64
    from poetic_eval.rhyme.rule_annotation import epg64_units

    units = [u for p in read_epg64(EPG64) for u in epg64_units(p) if len(u.lines) == 4]
    methods = {
        "learned": lambda poem: rhyme_scheme(poem, method="learned"),
        "perfect": lambda poem: rhyme_scheme(poem, method="perfect"),
        "naive": naive_scheme,
    }
    for name, function in methods.items():
        correct = sum(function("\n".join(u.lines)) == u.gold for u in units)
        print(
            f"EPG64 gold 4-line stanzas, {name:>8}: {correct}/{len(units)} "
            f"= {correct / len(units):.3f} exact scheme"
        )


def clear_caches() -> None:
    """Empty every rhyme cache, so each timing starts cold (the dictionary stays loaded)."""
    from poetic_eval.rhyme import pair_model, phonetics, pronunciation, word_forms
    from poetic_eval.rhyme import word_rhymes as rhyme

    for cached in (
        pronunciation.pronunciations,
        pronunciation.known_pronunciations,
        rhyme.rhyme_key,
        rhyme.rhyme_parts,
        rhyme.stressed_pronunciations,
        rhyme.rhyme_part_of_phones,
        word_forms.word_forms,
        word_forms.dictionary_pronunciations,
        word_forms.word_pronunciations,
        word_forms._form_of_tail,
        phonetics.coda_relation,
        phonetics.rest_relation,
        pair_model._shipped_model,
    ):
        cached.cache_clear()
    rhyme_scheme("warm up\nthe dictionary", method="perfect")


def bulk(count: int) -> None:
    """Time the learned default and perfect rhyme on ``count`` quatrains, cold caches each."""
    start = time.perf_counter()
    poems = generated_quatrains(count)
    print(f"{count:,} generated quatrains (frequency-weighted words, seed 0; "
          f"{time.perf_counter() - start:.0f} s to generate)")  # fmt: skip
    seconds = {}
    for method in ("perfect", "learned"):
        clear_caches()
        start = time.perf_counter()
        rhyme_schemes(poems, method=method)
        seconds[method] = time.perf_counter() - start
        print(f"  rhyme_schemes(method={method!r}): {seconds[method]:6.1f} s "
              f"({count / seconds[method]:,.0f} stanzas/s)", flush=True)  # fmt: skip
    verdict = "under" if seconds["learned"] < TARGET_SECONDS else "OVER"
    print(f"  learned / perfect time: {seconds['learned'] / seconds['perfect']:.2f}x; learned "
          f"{verdict} the {TARGET_SECONDS} s target for {count:,} quatrains")  # fmt: skip


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
    rhyme_scheme("warm up\nthe dictionary", method="perfect")
    ours, our_schemes = rate(lambda poem: rhyme_scheme(poem, method="perfect"), poems)
    peer, peer_schemes = rate(naive_scheme, poems)
    agreement = sum(a == b for a, b in zip(our_schemes, peer_schemes)) / len(poems)
    print(f"{len(poems)} generated quatrains, {label} (seed 0)")
    print(f"  poetic_eval perfect rhyme_scheme:  {ours:>9,.0f} stanzas/s")
    print(f"  naive pronouncing.rhymes per pair: {peer:>9,.0f} stanzas/s")
    print(f"  speed ratio: {ours / peer:.1f}x; same scheme on {agreement:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stanzas", type=int, default=5000)
    parser.add_argument("--bulk", type=int, default=200_000,
                        help="quatrains of the bulk timing (0 skips it)")  # fmt: skip
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="1,000 stanzas, bulk 20,000")
    sizes.add_argument("--full", action="store_true", help="the full size (the default)")
    args = parser.parse_args()
    if args.quick:
        args.stanzas, args.bulk = 1000, 20_000
    for by_frequency in (True, False):
        poems = generated_quatrains(args.stanzas, by_frequency=by_frequency)
        compare(poems, "frequency-weighted words" if by_frequency else "uniformly drawn words")
    if args.bulk:
        bulk(args.bulk)
    gold_accuracy()
    print(peak_memory())


if __name__ == "__main__":
    main()
