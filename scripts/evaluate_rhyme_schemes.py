"""Recompute the accuracy figures of the rhyme_kl card: every rhyme setting on every gold set.

    python scripts/evaluate_rhyme_schemes.py [--data ../shared/data] [--part dev|held-out|all]
        [--language en|de] [--random 20000]

Gold sets (:mod:`poetic_eval.rhyme.rule_annotation`): EPG64's human annotations, and stanzas of
the public-domain poems annotated by form rules (sonnet quatrains and Petrarchan octaves,
couplet quatrains, stanzaic quatrains, limericks). ``--part`` picks the development authors
(used to learn and tune), the held-out authors (never used for either), or both. For each setting
it labels every stanza of a part once and prints exact-scheme accuracy and pairwise precision
/ recall per set (the sets overlap: "all quatrains" holds the others' quatrains), and the share of
20,000 seeded random pairs of line-final words from two different poems of that part that the
setting's pairwise test calls rhymes, and the share of 5,000 seeded random quatrains (4 lines of
4 different poems of the part) whose scheme is not ABCD; and that share over ``--random`` (default
20,000) quatrains of the same seed (the 5,000 are its first), with a 95 % Wilson interval, and
the share of them with a certain rhyme (a perfect rhyme of dictionary words or a repeated word),
which no setting that keeps perfect rhymes goes under.

``--language de``: the German gold stanzas (``german_rhyme_gold``), by 10-fold cross-validation
over poems for the learned method (:func:`poetic_eval.rhyme.cross_validation.cross_validate`,
seeds 0-2: every stanza labelled by a model fitted to the other folds' poems, random quatrains
drawn within the tested fold), and the German rules (``method="perfect"``), which nothing was
fitted to.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from poetic_eval.rhyme import rhyme_schemes
from poetic_eval.rhyme.corpora import read_corpora, read_german_gold
from poetic_eval.rhyme.cross_validation import cross_validate, random_quatrains
from poetic_eval.rhyme.evaluation import (
    SETTINGS,
    collection_scores,
    collections,
    random_word_pairs,
    score_schemes,
    setting_chance_rate,
)
from poetic_eval.rhyme.letters import end_words
from poetic_eval.rhyme.pair_model import default_model
from poetic_eval.rhyme.rule_annotation import gold_units

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data"
PARTS = {"dev": (False,), "held-out": (True,), "all": (False, True)}
FIRST_RANDOM = 5_000


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of the share ``hits / n``."""
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def report(poems, units, title: str, count: int = 20_000) -> None:
    sets = collections(units)
    pairs = random_word_pairs([p.lines for p in poems], count=20_000, seed=0)
    quatrains = ["\n".join(q) for q in random_quatrains(poems, max(count, FIRST_RANDOM), seed=1)]
    print(f"\n## {title}\n")
    print(
        "| setting | "
        + " | ".join(f"{name} (n={len(u)})" for name, u in sets.items())
        + f" | random pairs called rhymes | random quatrains called rhyming ({FIRST_RANDOM:,}) |"
        + f" the same, {len(quatrains):,} (95 % interval) |"
    )
    print("|" + " --- |" * (len(sets) + 4))
    for setting, options in SETTINGS.items():
        start = time.perf_counter()
        predicted = rhyme_schemes(["\n".join(u.lines) for u in units], **options)
        cells = [
            f"{acc.exact_share:.1%} ({acc.precision:.3f} / {acc.recall:.3f})"
            for acc in collection_scores(units, predicted).values()
        ]
        rate = setting_chance_rate(pairs, options)
        called = [s != "ABCD" for s in rhyme_schemes(quatrains, **options)]
        chance = sum(called[:FIRST_RANDOM]) / FIRST_RANDOM
        share, (low, high) = sum(called) / len(called), wilson(sum(called), len(called))
        print(f"| {setting} | " + " | ".join(cells) + f" | {rate:.2%} | {chance:.2%} | "
              f"{share:.2%} ({low:.2%}-{high:.2%}) |", flush=True)  # fmt: skip
        print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    print("\nCells: exact-scheme accuracy (pairwise precision / recall).")
    model = default_model("en")
    certain = [any(model.certain_pairs(end_words(q))) for q in quatrains]
    low, high = wilson(sum(certain), len(certain))
    first, share = sum(certain[:FIRST_RANDOM]) / FIRST_RANDOM, sum(certain) / len(certain)
    print(f"Random quatrains with a certain rhyme (the floor): {first:.2%} of {FIRST_RANDOM:,}, "
          f"{share:.2%} ({low:.2%}-{high:.2%}) of {len(certain):,}.")  # fmt: skip


def german_report(data: Path) -> int:
    poems = read_german_gold(data)
    if not poems:
        print(f"error: no German gold poems under {data}", file=sys.stderr)
        return 2
    print(f"\n## German gold stanzas ({len(poems)} poems)\n")
    print("| labelling | all stanzas | quatrains | random quatrains called rhyming |")
    print("| --- | --- | --- | --- |")
    for seed in range(3):
        cv = cross_validate(poems, seed=seed)
        cells = [cv.accuracy(), cv.accuracy(4)]
        row = " | ".join(
            f"{a.exact_share:.1%} of {a.units} ({a.precision:.3f} / {a.recall:.3f})" for a in cells
        )
        print(f"| learned, 10-fold CV over poems, seed {seed} | {row} | {cv.random_rhyming:.2%} |")
    stanzas, quatrains = list(cv.stanzas), ["\n".join(q) for q in cv.random_quatrains]
    found = rhyme_schemes(["\n".join(s) for s in stanzas], method="perfect", language="de")
    chance = rhyme_schemes(quatrains, method="perfect", language="de")
    accuracies = [score_schemes(list(cv.golds), found)]
    fours = [(g, p) for g, p in zip(cv.golds, found) if len(g) == 4]
    accuracies.append(score_schemes([g for g, _ in fours], [p for _, p in fours]))
    row = " | ".join(
        f"{a.exact_share:.1%} of {a.units} ({a.precision:.3f} / {a.recall:.3f})" for a in accuracies
    )
    share = sum(s != "ABCD" for s in chance) / len(chance)
    print(f"| perfect (German rules, nothing fitted) | {row} | {share:.2%} |")
    print("\nCells: exact-scheme accuracy (pairwise precision / recall).")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--part", choices=tuple(PARTS), default="dev")
    parser.add_argument("--language", choices=("en", "de"), default="en")
    parser.add_argument("--random", type=int, default=20_000)
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"error: no corpora folder at {args.data} (pass --data)", file=sys.stderr)
        return 2
    if args.language == "de":
        return german_report(args.data)
    poems = read_corpora(args.data)
    units = gold_units(poems)
    for held_out in PARTS[args.part]:
        name = "held-out authors" if held_out else "development authors"
        report([p for p in poems if p.held_out == held_out],
               [u for u in units if u.held_out == held_out], name, args.random)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
