"""Learn the rhyme models shipped as poetic_eval/rhyme/rhyme_model*.json, from poems without labels.

    python scripts/learn_rhyme_model.py [--language en|de] [--data ../shared/data] [--out FILE]

English (``rhyme_model.json``):
Reads the verse corpora under ``--data`` (see :mod:`poetic_eval.rhyme.corpora`), keeps the poems
of development authors only (the held-out authors are never used to learn or tune), takes every
stanza's line-final words (no annotation is read), and runs
:func:`poetic_eval.rhyme.scheme_learning.learn_model` (Reddy & Knight's EM over stanzas, on
phonetic classes). The non-rhyme side comes from seeded random pairs of line-final words of
two different poems. Deterministic: the same corpora give the same file.

German (``--language de``, ``rhyme_model_de.json``): the same pair model and scheme priors,
fitted supervised to the gold schemes of every poem of ``german_rhyme_gold``
(:func:`poetic_eval.rhyme.cross_validation.fit_german_model`; words read by the German
spelling rules). Its accuracy is measured by cross-validation over poems
(``scripts/evaluate_rhyme_schemes.py --language de``), never on poems a model was fitted to.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from poetic_eval.rhyme.corpora import poems_of_part, read_corpora, read_german_gold
from poetic_eval.rhyme.cross_validation import fit_german_model
from poetic_eval.rhyme.evaluation import random_word_pairs
from poetic_eval.rhyme.letters import end_words
from poetic_eval.rhyme.pair_model import MODEL_FILES
from poetic_eval.rhyme.scheme_learning import learn_model, training_units

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data"
MODEL_FOLDER = REPO_ROOT / "src" / "poetic_eval" / "rhyme"
RANDOM_PAIRS = 100_000
#: English decoding costs (RhymeModel.link_cost, paid by each linked pair of lines that is not
#: a certain rhyme; RhymeModel.uncertain_scheme_cost, paid once by a scheme whose links are all
#: uncertain), chosen on the development authors only by scripts/select_rhyme_costs.py: its
#: grid (link cost 1-2.5 x scheme cost 0-8), each setting scored on the development gold
#: quatrains (exact) and on 20,000 random quatrains of 4 development poems (share called
#: rhyming), and its rule, stated before the held-out part was measured: maximise the smaller
#: of the margins to issue 41's two bounds (exact - 93 %, 6 % - random), each in standard
#: errors of its development estimate. Eligible settings keep the hand-made cases of the tests:
#: a link cost of at least 0.5 for tests/rhyme ("cat" / "dog" beside a repeated "sky" is read
#: ABAB with none, the prior of ABAB outweighing their -4.4), of at least 1 for tests/analyzers
#: (a couplet "fine" / "violin", -0.4, is AA at 0.5; the scheme cost applies from 3 lines on).
#: Some of the grid (exact / random on development): (1, 4), the setting before: 95.21 % /
#: 5.41 %; (1, 0): 95.95 % / 7.16 %; (1, 6), chosen: 94.94 % / 5.29 %; (1, 8): 94.51 % /
#: 5.25 %; (1.5, 3): 94.90 % / 5.42 %; (2, 2): 94.28 % / 5.49 %. Certain rhymes (perfect
#: rhymes of dictionary words, repeated words) alone are found in about 5.7-5.8 % of the first
#: 5,000 of those random quatrains (docs/benchmarks.md).
LINK_COST = 1.0
UNCERTAIN_SCHEME_COST = 6.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--language", choices=tuple(MODEL_FILES), default="en")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"error: no corpora folder at {args.data} (pass --data)", file=sys.stderr)
        return 2
    out = args.out or MODEL_FOLDER / MODEL_FILES[args.language]
    if args.language == "de":
        poems = read_german_gold(args.data)
        if not poems:
            print(f"error: no German gold poems under {args.data}", file=sys.stderr)
            return 2
        model = fit_german_model(poems, show_progress=True)
        out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out} ({out.stat().st_size:,} bytes) from {len(poems)} German poems")
        return 0
    poems = list(poems_of_part(read_corpora(args.data), held_out=False))
    if not poems:
        print(f"error: no poems found under {args.data}", file=sys.stderr)
        return 2
    stanzas = [end_words("\n".join(stanza)) for poem in poems for stanza in poem.stanzas]
    units = training_units(stanzas)
    pairs = random_word_pairs([poem.lines for poem in poems], count=RANDOM_PAIRS, seed=0)
    # learn_model takes the sequential prior from the stanzas longer than its tables
    model = learn_model(units, pairs, long_stanzas=stanzas, iterations=args.iterations)
    model.link_cost = LINK_COST
    model.uncertain_scheme_cost = UNCERTAIN_SCHEME_COST
    model.info.update({"poems": len(poems), "authors": "development part only"})
    out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    print(
        f"wrote {out} ({out.stat().st_size:,} bytes) from {len(poems)} poems, "
        f"{len(units)} units; log-likelihood {model.info['log_likelihood'][-3:]}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
