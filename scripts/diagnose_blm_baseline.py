"""Print what the context-blind baseline reads in a BLM config's answers, on one split.

    PYTHONPATH=src python scripts/diagnose_blm_baseline.py od_ii --protocol verb_split

builds the config with ``--seed`` (default 0: the card's build), fits the baseline on the
training side of split ``--split-seed`` (0, 1 or 2 are the card's three splits) and prints its
held-out accuracy, which answers it picks, how often the correct answer scores above each
wrong one, the words it weighs most toward and against the correct answer, and its accuracy
per verb (:mod:`poetic_eval.blm.generator.baseline_diagnosis`).
"""

from __future__ import annotations

import argparse

from poetic_eval.blm import generate_config
from poetic_eval.blm.generator.baseline_diagnosis import diagnose_baseline, diagnosis_text
from poetic_eval.blm.generator.configs import CONFIGS
from poetic_eval.blm.generator.shortcut_baseline import PROTOCOLS


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", choices=list(CONFIGS))
    parser.add_argument("--protocol", choices=PROTOCOLS, default="random_half")
    parser.add_argument("--split-seed", type=int, default=0, help="seed of the split (default 0)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the build (default 0)")
    parser.add_argument("--top", type=int, default=15, help="words shown each way (default 15)")
    args = parser.parse_args(argv)
    rows = generate_config(args.config, seed=args.seed)["test"]
    print(f"# {args.config}, build seed {args.seed}")
    print(diagnosis_text(diagnose_baseline(rows, args.protocol, args.split_seed, args.top)))


if __name__ == "__main__":
    main()
