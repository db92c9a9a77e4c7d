"""Rhyme-scheme accuracy of poetic_eval beside its two peers, on the same gold stanzas.

Peers (the `bench` extra installs both; RhymeTagger also needs Debian's `espeak-ng`, which
``make setup`` installs when it may, ``scripts/install_espeak.sh``):

- **RhymeTagger** (Plecháč 2018; PyPI ``rhymetagger``) with its pretrained English and German
  models and eSpeak NG transcriptions. Its start-up asks nltk for the ``punkt`` tokenizer and
  downloads it when absent; this bench runs offline, so it replaces ``nltk.download`` with a
  no-op and nltk's ``word_tokenize`` with nltk's own Treebank-style word tokenizer (which needs
  no data; RhymeTagger only tokenizes single lines). Each gold set is tagged as one text whose
  stanzas are the units (its model limits rhymes to a stanza).
- **rhymediscovery** (PyPI; Reddy & Knight 2011's EM, the authors' code): unsupervised EM on
  the stanzas measured, all gold sets of a part at once (on one homogeneous set, such as only
  couplet quatrains, its learned prior collapses onto that set's one scheme and scores
  near 100 % for that reason alone), started from its orthographic similarity (as its command
  line does), 10 iterations. It only knows the schemes in its inventory (8 of the 15 quatrain
  schemes, no ABCD); a stanza length it lacks gets all-different letters.

Every method labels all the stanzas of a part in one run; each gold set is scored from that
run. Gold sets and the development / held-out split are those of
``scripts/evaluate_rhyme_schemes.py`` (:mod:`poetic_eval.rhyme.rule_annotation`). The last
column is the share of 5,000 seeded random quatrains (4 lines of 4 different poems of the part,
:func:`poetic_eval.rhyme.cross_validation.random_quatrains`) given a scheme other than ABCD.

``--quick`` (``make bench``; about a minute of CPU, most of it RhymeTagger's eSpeak
transcriptions at about 5 ms of CPU a line) keeps the tables' rows and columns at a smaller
size: the development authors only, a seeded third of each gold collection's units
(:func:`sample_units`, every method on the same ones), 500 random quatrains, and for German 50
random quatrains per fold. The figures of docs/benchmarks.md are the full size's.

**German** (``--language de``): the gold stanzas of ``german_rhyme_gold``. poetic_eval's
learned model is measured by 10-fold cross-validation over poems (each stanza labelled by a
model fitted to the other folds' poems, :mod:`poetic_eval.rhyme.cross_validation`; the shipped
model is fitted to all of them, so it is not measured here); its random quatrains are drawn
within each tested fold (1,000 per fold), and every method labels the
same ones. Beside it: the
German rules alone (``method="perfect"``), the English default on German text (what
``rhyme_scheme`` did before it had a language), and RhymeTagger's German model. A peer that
cannot run here is reported with the reason. Run from the repository root:

    python bench/bench_rhyme_peers.py [--data ../shared/data] [--part dev|held-out|all]
        [--language en|de|all]
"""

from __future__ import annotations

import argparse
import logging
import random
import shutil
import sys
import time
from pathlib import Path

from shared_data import SHARED_DATA

from poetic_eval.rhyme import end_words, rhyme_schemes
from poetic_eval.rhyme.corpora import read_corpora, read_german_gold
from poetic_eval.rhyme.corpora import restricted_growth as lettered
from poetic_eval.rhyme.cross_validation import cross_validate, random_quatrains
from poetic_eval.rhyme.evaluation import collection_scores, collections, score_schemes
from poetic_eval.rhyme.rule_annotation import gold_units

PARTS = {"dev": (False,), "held-out": (True,), "all": (False, True)}
LANGUAGES = {"en": ("en",), "de": ("de",), "all": ("en", "de")}
RANDOM_QUATRAINS = 5_000
#: ``--quick``: share of each gold collection's units kept, random quatrains (English), random
#: quatrains per fold (German; the full size has 1,000).
QUICK_SHARE = 1 / 3
QUICK_RANDOM = 500
QUICK_RANDOM_PER_FOLD = 50
#: RhymeTagger's pretrained model of each language (its package data).
TAGGER_MODELS = {"en": "en", "de": "de"}
#: Stanzas per RhymeTagger call (its labels are per call; the stanza limit keeps them apart).
TAGGER_CHUNK = 100


def offline_nltk() -> None:
    """Keep RhymeTagger's start-up offline (see the module docstring)."""
    import nltk
    from nltk.tokenize import NLTKWordTokenizer

    tokenizer = NLTKWordTokenizer()
    nltk.download = lambda *args, **kwargs: False
    nltk.tokenize.word_tokenize = lambda text, *args, **kwargs: tokenizer.tokenize(text)


def rhymetagger_schemes(stanzas: list[list[str]], language: str = "en") -> list[str]:
    from rhymetagger import RhymeTagger

    offline_nltk()
    tagger = RhymeTagger()
    tagger.load_model(TAGGER_MODELS[language], verbose=False)
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


def runnable(method):
    """(function, None) for a method that can run here, else (None, why not)."""
    if isinstance(method, tuple):
        problem = peer_problem(method[0])
        return (None, problem) if problem else (method[1], None)
    return method, None


def random_share(schemes: list[str]) -> str:
    return f"{sum(s != 'ABCD' for s in schemes) / len(schemes):.2%}"


def sample_units(units: list, share: float, seed: int = 0) -> list:
    """A seeded ``share`` of each collection's units (at least one of each), in their order."""
    rng = random.Random(seed)
    kept = set()
    for name in sorted({u.collection for u in units}):
        indices = [i for i, u in enumerate(units) if u.collection == name]
        kept.update(rng.sample(indices, max(1, round(len(indices) * share))))
    return [u for i, u in enumerate(units) if i in kept]


def report(poems, units, title: str, quatrain_count: int = RANDOM_QUATRAINS) -> None:
    sets = collections(units)
    quatrains = random_quatrains(poems, quatrain_count, seed=1)
    print(f"\n## {title}\n")
    print(
        "| method | "
        + " | ".join(f"{name} (n={len(u)})" for name, u in sets.items())
        + " | random quatrains called rhyming |"
    )
    print("|" + " --- |" * (len(sets) + 2))
    for name, method in methods().items():
        method, problem = runnable(method)
        if problem:
            print(f"| {name} | not run: {problem} |")
            continue
        start = time.perf_counter()
        predicted = method([list(u.lines) for u in units])
        cells = [
            f"{acc.exact_share:.1%} ({acc.precision:.3f} / {acc.recall:.3f})"
            for acc in collection_scores(units, predicted).values()
        ]
        # rhymediscovery learns its prior from the stanzas it labels: on random quatrains
        # alone it would learn theirs, so it is not given them
        chance = "n/a" if "rhymediscovery" in name else random_share(method(quatrains))
        print(f"| {name} | " + " | ".join(cells) + f" | {chance} |", flush=True)
        print(f"  ({name}: {time.perf_counter() - start:.0f} s)", file=sys.stderr)
    print("\nCells: exact-scheme accuracy (pairwise precision / recall).")


def german_methods(cv) -> dict:
    def texts(stanzas):
        return ["\n".join(x) for x in stanzas]

    return {
        "poetic_eval learned (10-fold CV over poems)": "cv",
        "poetic_eval perfect (German rules)": lambda s: rhyme_schemes(
            texts(s), method="perfect", language="de"
        ),
        "English rules on German (language='en', before issue 41)": lambda s: rhyme_schemes(
            texts(s)
        ),
        "rhymetagger 1.0.0 (de model, espeak-ng)": (
            "rhymetagger",
            lambda s: rhymetagger_schemes(s, "de"),
        ),
    }


def german_report(data: Path, quatrains_per_fold: int = 1_000) -> None:
    poems = read_german_gold(data)
    if not poems:
        print(f"\nno German gold poems under {data}: German part skipped")
        return
    cv = cross_validate(poems, quatrains_per_fold=quatrains_per_fold)
    golds = list(cv.golds)
    lengths = {"all stanzas": None, "quatrains": 4, "other lengths": -4}
    print(f"\n## German gold stanzas ({len(poems)} poems)\n")
    header = [f"{name} (n={sum(_kept(g, n) for g in golds)})" for name, n in lengths.items()]
    print("| method | " + " | ".join(header) + " | random quatrains called rhyming |")
    print("|" + " --- |" * (len(lengths) + 2))
    for name, method in german_methods(cv).items():
        if method == "cv":
            predicted, chance = list(cv.predicted), list(cv.random_schemes)
        else:
            method, problem = runnable(method)
            if problem:
                print(f"| {name} | not run: {problem} |")
                continue
            predicted = method([list(s) for s in cv.stanzas])
            chance = method([list(q) for q in cv.random_quatrains])
        cells = []
        for n in lengths.values():
            kept = [(g, p) for g, p in zip(golds, predicted) if _kept(g, n)]
            acc = score_schemes([g for g, _ in kept], [p for _, p in kept])
            cells.append(f"{acc.exact_share:.1%} ({acc.precision:.3f} / {acc.recall:.3f})")
        print(f"| {name} | " + " | ".join(cells) + f" | {random_share(chance)} |", flush=True)
    print("\nCells: exact-scheme accuracy (pairwise precision / recall).")


def _kept(gold: str, lines: int | None) -> bool:
    """Whether a stanza belongs to a column: None all, 4 quatrains, -4 all but quatrains."""
    return lines is None or (len(gold) == lines if lines > 0 else len(gold) != -lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED_DATA)
    parser.add_argument("--part", choices=tuple(PARTS), default="all")
    parser.add_argument("--language", choices=tuple(LANGUAGES), default="all")
    sizes = parser.add_mutually_exclusive_group()
    quick = "development authors, a third of the units, fewer random quatrains"
    sizes.add_argument("--quick", action="store_true", help=quick)
    sizes.add_argument("--full", action="store_true", help="the full size (the default)")
    args = parser.parse_args(argv)
    if args.quick:
        args.part = "dev"
    if not args.data.is_dir():
        print(f"no corpora folder at {args.data} (pass --data): peer accuracy skipped")
        return 0
    if "en" in LANGUAGES[args.language]:
        poems = read_corpora(args.data)
        units = gold_units(poems)
        for held_out in PARTS[args.part]:
            part = "held-out authors" if held_out else "development authors"
            part_units = [u for u in units if u.held_out == held_out]
            if args.quick:
                part_units = sample_units(part_units, QUICK_SHARE)
            report([p for p in poems if p.held_out == held_out], part_units, part,
                   QUICK_RANDOM if args.quick else RANDOM_QUATRAINS)  # fmt: skip
    if "de" in LANGUAGES[args.language]:
        german_report(args.data, QUICK_RANDOM_PER_FOLD if args.quick else 1_000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
