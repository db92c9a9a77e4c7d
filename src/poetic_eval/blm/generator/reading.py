"""Items of a generated config laid out for a native reader (no build folder needed).

    python -m poetic_eval.blm.generator.reading caus_ii --seed 0 --items 12 --sample-seed 2

prints ``--items`` ``test`` items of the config built with ``--seed`` (the same items as
``poetic-eval build blm --seed``), drawn with ``random.Random(sample_seed).sample`` as the
card's readings were: every context sentence and every answer, ``*`` on the correct one.
"""

from __future__ import annotations

import argparse
import random

from .configs import CONFIGS, BlmSizes, generate_config


def reading_text(
    config: str,
    seed: int = 0,
    items: int = 12,
    sample_seed: int = 2,
    sizes: BlmSizes | None = None,
) -> str:
    """``items`` test items of ``config`` (built with ``seed`` and ``sizes``, default those of
    the build) as plain text to read."""
    test = generate_config(config, seed, sizes)["test"]
    chosen = random.Random(sample_seed).sample(test, min(items, len(test)))
    lines = []
    for item in chosen:
        lines.append(f"## {config} item {item['ID']} ({item['Verb']})")
        lines += [f"  {line}" for line in item["Context"]]
        for line, annotation in zip(item["Answer_set"], item["Answer_set_annotation"]):
            mark = "*" if annotation["label"] == "Correct" else " "
            lines.append(f"{mark} {line}  [{annotation['label']}]")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", choices=list(CONFIGS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--items", type=int, default=12)
    parser.add_argument("--sample-seed", type=int, default=2)
    args = parser.parse_args(argv)
    print(reading_text(args.config, args.seed, args.items, args.sample_seed))


if __name__ == "__main__":
    main()
