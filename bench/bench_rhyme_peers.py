"""Rhyme-scheme accuracy of poetic_eval beside its two peers, on the same gold stanzas.

Peers (the `bench` extra installs both; RhymeTagger also needs Debian's `espeak-ng`):

- **RhymeTagger** (Plecháč 2018; PyPI ``rhymetagger``) with its pretrained English model and
  eSpeak NG transcriptions. Its start-up asks nltk for the ``punkt`` tokenizer and downloads
  it when absent; this bench runs offline, so it replaces ``nltk.download`` with a no-op and
  nltk's ``word_tokenize`` with nltk's own Treebank-style word tokenizer (which needs no data;
  RhymeTagger only tokenizes single lines). Each gold set is tagged as one text whose stanzas
  are the units (its model limits rhymes to a stanza).
- **rhymediscovery** (PyPI; Reddy & Knight 2011's EM, the authors' code): unsupervised EM on
  the stanzas measured, all gold sets of a part at once (on one homogeneous set, such as only
  couplet quatrains, its learned prior collapses onto that set's one scheme and scores
  near 100 % for that reason alone), started from its orthographic similarity (as its command
  line does), 10 iterations. It only knows the schemes in its inventory (8 of the 15 quatrain
  schemes, no ABCD); a stanza length it lacks gets all-different letters.

Every method labels all the stanzas of a part in one run; each gold set is scored from that
run. Gold sets and the development / held-out split are those of
``scripts/evaluate_rhyme_schemes.py`` (:mod:`poetic_eval.rhyme.rule_annotation`). A peer that
cannot run here is reported with the reason. Run from the repository root:

    python bench/bench_rhyme_peers.py [--data ../shared/data] [--part dev|held-out|all]
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import time
from pathlib import Path

from shared_data import SHARED_DATA

from poetic_eval.rhyme import end_words, rhyme_schemes
from poetic_eval.rhyme.corpora import read_corpora
from poetic_eval.rhyme.corpora import restricted_growth as lettered
from poetic_eval.rhyme.evaluation import collection_scores, collections
from poetic_eval.rhyme.rule_annotation import gold_units

PARTS = {"dev": (False,), "held-out": (True,), "all": (False, True)}
#: Stanzas per RhymeTagger call (its labels are per call; the stanza limit keeps them apart).
TAGGER_CHUNK = 100


def offline_nltk() -> None:
    """Keep RhymeTagger's start-up offline (see the module docstring)."""
    import nltk
    from nltk.tokenize import NLTKWordTokenizer

    tokenizer = NLTKWordTokenizer()
    nltk.download = lambda *args, **kwargs: False
    nltk.tokenize.word_tokenize = lambda text, *args, **kwargs: tokenizer.tokenize(text)


def rhymetagger_schemes(stanzas: list[list[str]]) -> list[str]:
    from rhymetagger import RhymeTagger

    offline_nltk()
    tagger = RhymeTagger()
    tagger.load_model("en", verbose=False)
    labels = []
    for first in range(0, len(stanzas), TAGGER_CHUNK):  # eSpeak gets the text as an argument
        chunk = [list(s) for s in stanzas[first : first + TAGGER_CHUNK]]
        labels += tagger.tag(chunk, output_format=3)
    found, start = [], 0
    for stanza in stanzas:
        own = labels[start : start + len(stanza)]
        start += len(stanza)
        found.append(lettered([x if x is not None else ("single", i) for i, x in enumerate(own)]))
    return found


def rhymediscovery_schemes(stanzas: list[list[str]]) -> list[str]:
    from rhymediscovery import find_schemes

    logging.getLogger().setLevel(logging.ERROR)  # "EM did not converge" after its 10 steps

    words = [[(w or "-").lower() for w in end_words("\n".join(s))] for s in stanzas]
    results = find_schemes.find_schemes(words, find_schemes.init_basicortho_ttable, 10)
    found = []
    for stanza, (_, scheme) in zip(stanzas, results):
        fits = len(scheme) == len(stanza)
        found.append(lettered(scheme) if fits else lettered(range(len(stanza))))
    return found


def peer_problem(name: str) -> str | None:
    """Why a peer cannot run here, or None."""
    try:
        __import__(name)
    except ImportError as error:
        return f"not installed ({error}); pip install '.[bench]'"
    if name == "rhymetagger" and shutil.which("espeak-ng") is None:
        return "needs Debian's espeak-ng on PATH (apt-get install espeak-ng)"
    return None


def methods() -> dict:
    return {
        "poetic_eval learned (default)": lambda s: rhyme_schemes(["\n".join(x) for x in s]),
        "poetic_eval perfect": lambda s: rhyme_schemes(["\n".join(x) for x in s], method="perfect"),
        "rhymetagger 1.0.0 (en model, espeak-ng)": ("rhymetagger", rhymetagger_schemes),
        "rhymediscovery 0.2.1 (orthographic start)": ("rhymediscovery", rhymediscovery_schemes),
    }


def report(units, title: str) -> None:
    sets = collections(units)
    print(f"\n## {title}\n")
    print("| method | " + " | ".join(f"{name} (n={len(u)})" for name, u in sets.items()) + " |")
    print("|" + " --- |" * (len(sets) + 1))
    for name, method in methods().items():
        if isinstance(method, tuple):
            problem = peer_problem(method[0])
            if problem:
                print(f"| {name} | not run: {problem} |")
                continue
            method = method[1]
        start = time.perf_counter()
        predicted = method([list(u.lines) for u in units])
        cells = [
            f"{acc.exact_share:.1%} ({acc.precision:.3f} / {acc.recall:.3f})"
            for acc in collection_scores(units, predicted).values()
        ]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
        print(f"  ({name}: {time.perf_counter() - start:.0f} s)", file=sys.stderr)
    print("\nCells: exact-scheme accuracy (pairwise precision / recall).")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED_DATA)
    parser.add_argument("--part", choices=tuple(PARTS), default="all")
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="the development authors only")
    sizes.add_argument("--full", action="store_true", help="the full size (the default)")
    args = parser.parse_args(argv)
    if args.quick:
        args.part = "dev"
    if not args.data.is_dir():
        print(f"no corpora folder at {args.data} (pass --data): peer accuracy skipped")
        return 0
    units = gold_units(read_corpora(args.data))
    for held_out in PARTS[args.part]:
        part = "held-out authors" if held_out else "development authors"
        report([u for u in units if u.held_out == held_out], part)
    return 0


if __name__ == "__main__":
    sys.exit(main())
