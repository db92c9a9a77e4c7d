"""Print BLM items for an independent reading: N ``test`` items of each config, every sentence.

    PYTHONPATH=src python scripts/sample_blm_for_reading.py --sample-seed 4127 --items 12

builds each config with ``--seed`` (the seed of the build being read, default 0: the same items
as ``poetic-eval build blm --seed 0``), draws ``--items`` of its ``test`` items with
``random.Random(sample_seed).sample`` and prints each one: the 7 context sentences numbered,
the 8 answers lettered, ``*`` before the correct one and its label after each answer. Choose
the sample seed after the generator's last change, and give the reader no other seed's items.
The reader counts, per config: context sentences and correct answers that are odd (grammatical
but semantically odd), ungrammatical sentences, and wrong answers that read as natural Italian
although their label says they break Italian (AgrI AEV, AEN1, AEN2; CausI/OdI I-Int, E-WrBy,
IE-WrBy, and CausI R-trans and IER-pass, OdI IR-trans and ER-pass; see the card's "Read by a
reader" section).
"""

from __future__ import annotations

import argparse

from poetic_eval.blm.generator.configs import CONFIGS
from poetic_eval.blm.generator.reading import reading_text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample-seed", type=int, required=True, help="seed of the draw")
    parser.add_argument("--items", type=int, default=12, help="items per config (default 12)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the build (default 0)")
    parser.add_argument(
        "--configs",
        nargs="+",
        choices=list(CONFIGS),
        default=list(CONFIGS),
        metavar="CONFIG",
        help=f"configs to print (default all: {', '.join(CONFIGS)})",
    )
    args = parser.parse_args(argv)
    for config in args.configs:
        print(
            f"# {config}: {args.items} test items, build seed {args.seed}, "
            f"sample seed {args.sample_seed}\n"
        )
        print(reading_text(config, args.seed, args.items, args.sample_seed))
        print()


if __name__ == "__main__":
    main()
