"""Recompute the accuracy figures of the rhyme_kl card: every rhyme setting on every gold set.

    python scripts/evaluate_rhyme_schemes.py [--data ../shared/data] [--part dev|held-out|all]

Gold sets (:mod:`poetic_eval.rhyme.rule_annotation`): EPG64's human annotations, and stanzas of
the public-domain poems annotated by form rules (sonnet quatrains and Petrarchan octaves,
couplet quatrains, stanzaic quatrains, limericks). ``--part`` picks the development authors
(used to learn and tune), the held-out authors (never used for either), or both. For each setting
it labels every stanza of a part once and prints exact-scheme accuracy and pairwise precision
/ recall per set (the sets overlap: "all quatrains" holds the others' quatrains), and the share of
20,000 seeded random pairs of line-final words from two different poems of that part that the
setting's pairwise test calls rhymes.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from poetic_eval.rhyme import rhyme_schemes
from poetic_eval.rhyme.corpora import read_corpora
from poetic_eval.rhyme.evaluation import (
    SETTINGS,
    collection_scores,
    collections,
    random_word_pairs,
    setting_chance_rate,
)
from poetic_eval.rhyme.rule_annotation import gold_units

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data"
PARTS = {"dev": (False,), "held-out": (True,), "all": (False, True)}


def report(poems, units, title: str) -> None:
    sets = collections(units)
    pairs = random_word_pairs([p.lines for p in poems], count=20_000, seed=0)
    print(f"\n## {title}\n")
    print(
        "| setting | "
        + " | ".join(f"{name} (n={len(u)})" for name, u in sets.items())
        + " | random pairs called rhymes |"
    )
    print("|" + " --- |" * (len(sets) + 2))
    for setting, options in SETTINGS.items():
        start = time.perf_counter()
        predicted = rhyme_schemes(["\n".join(u.lines) for u in units], **options)
        cells = [
            f"{acc.exact_share:.1%} ({acc.precision:.3f} / {acc.recall:.3f})"
            for acc in collection_scores(units, predicted).values()
        ]
        rate = setting_chance_rate(pairs, options)
        print(f"| {setting} | " + " | ".join(cells) + f" | {rate:.2%} |", flush=True)
        print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    print("\nCells: exact-scheme accuracy (pairwise precision / recall).")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--part", choices=tuple(PARTS), default="dev")
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"error: no corpora folder at {args.data} (pass --data)", file=sys.stderr)
        return 2
    poems = read_corpora(args.data)
    units = gold_units(poems)
    for held_out in PARTS[args.part]:
        name = "held-out authors" if held_out else "development authors"
        report([p for p in poems if p.held_out == held_out],
               [u for u in units if u.held_out == held_out], name)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
