"""Learn the rhyme model shipped as poetic_eval/rhyme/rhyme_model.json, from poems without labels.

    python scripts/learn_rhyme_model.py [--data ../shared/data] \
        [--out src/poetic_eval/rhyme/rhyme_model.json]

Reads the verse corpora under ``--data`` (see :mod:`poetic_eval.rhyme.corpora`), keeps the poems
of development authors only (the held-out authors are never used to learn or tune), takes every
stanza's line-final words (no annotation is read), and runs
:func:`poetic_eval.rhyme.scheme_learning.learn_model` (Reddy & Knight's EM over stanzas, on
phonetic classes). The non-rhyme side comes from seeded random pairs of line-final words of
two different poems. Deterministic: the same corpora give the same file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from poetic_eval.rhyme.corpora import poems_of_part, read_corpora
from poetic_eval.rhyme.evaluation import random_word_pairs
from poetic_eval.rhyme.letters import end_words
from poetic_eval.rhyme.pair_model import MODEL_FILE
from poetic_eval.rhyme.scheme_learning import learn_model, training_units

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data"
DEFAULT_OUT = REPO_ROOT / "src" / "poetic_eval" / "rhyme" / MODEL_FILE
RANDOM_PAIRS = 100_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"error: no corpora folder at {args.data} (pass --data)", file=sys.stderr)
        return 2
    poems = list(poems_of_part(read_corpora(args.data), held_out=False))
    if not poems:
        print(f"error: no poems found under {args.data}", file=sys.stderr)
        return 2
    stanzas = [end_words("\n".join(stanza)) for poem in poems for stanza in poem.stanzas]
    units = training_units(stanzas)
    pairs = random_word_pairs([poem.lines for poem in poems], count=RANDOM_PAIRS, seed=0)
    # learn_model takes the sequential prior from the stanzas longer than its tables
    model = learn_model(units, pairs, long_stanzas=stanzas, iterations=args.iterations)
    model.info.update({"poems": len(poems), "authors": "development part only"})
    args.out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    print(
        f"wrote {args.out} ({args.out.stat().st_size:,} bytes) from {len(poems)} poems, "
        f"{len(units)} units; log-likelihood {model.info['log_likelihood'][-3:]}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
