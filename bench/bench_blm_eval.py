"""Benchmark: BLM evaluation with the shared prefix computed once vs every candidate scored alone.

Items: BLM-AgrI-style items from ``bench/blm_items.py`` (our own Italian word lists), or the first
items of a built BLM config (``--dataset datasets/blm --config agr_ii``); the default
model (SmolLM2-135M-Instruct, float32, CPU). For each method (``candidates``: the 8 answer
sentences after the running context; ``prompt``: the 8 letters after the zero-shot English
prompt) the same items are scored by
- poetic_eval: :func:`poetic_eval.blm.choice_scores` (prompt/context once per item, the 8
  continuations on top, through the project's prefix trees);
- plain transformers: one forward pass per full text (prompt or context + one continuation),
  on the very same token ids, log-probs summed over the continuation's tokens;
- minicons: ``IncrementalLMScorer.conditional_score`` (the prefix and each continuation, the
  8 of an item in one padded batch), given the same document-start token as its BOS.
Conditions take turns on chunks of 4 items: each condition first runs once per chunk, untimed,
with its FLOP counter open, then is called ``--repeats`` times in alternating order and its
fastest clean call kept (bench/interleaved.py), so load from other processes on a shared machine
falls on all alike and no timed call runs the counters' hooks. The choices of poetic_eval and plain
transformers must be identical and their scores equal to 1e-4 nats (asserted); minicons
tokenizes the joined text itself, so its agreement is printed. Targets (issue 20): candidates
>= 10x minicons' conditional_score and under 0.5 s per item for the default model on 2 cores.
Each ratio comes with the FLOP ratio (bench/forward_flops.py): the other condition's
linear-layer FLOPs over ours.

Usage: python bench/bench_blm_eval.py [--quick | --full] [--items N]
    [--methods candidates prompt] [--threads N] [--no-minicons] [--dataset FOLDER --config NAME]
    [--shared-openings SENTENCES]

``--shared-openings K`` makes the items of each chunk of 4 begin with the same K context
sentences (those of the chunk's first item), as type II BLM-It items repeat their openings
across items (issue 20): the engine computes such a shared opening once per call
(``poetic_eval.lm.shared_root``); the peers compute it for every candidate.

``--quick`` (the default) runs 4 items (one chunk) with the candidates method and 1 with the prompt
method (whose peers take about 12 s per item on 2 cores), ``--full`` 48 of each.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
import torch
from blm_items import agreement_items, with_shared_openings
from forward_flops import ForwardFlops, floors
from interleaved import QUICK_REPEATS, best_of_interleaved
from minicons_peer import minicons_scorer
from peak_memory import peak_memory

from poetic_eval.blm import LETTERS, as_items, choice_scores, prefixes_and_continuations
from poetic_eval.blm.item_sources import load_evaluation_sets
from poetic_eval.lm import load_language_model
from poetic_eval.lm.choices import encode_choices

#: what minicons puts between prefix and continuation: the candidates begin with a space
SEPARATORS = {"prompt": "", "candidates": " "}
TARGET_MINICONS = 10.0
TARGET_SECONDS_PER_ITEM = 0.5


def plain_scores(lm, items, method) -> np.ndarray:
    """One forward per full text, on the token ids poetic_eval scores."""
    prefixes, continuations = prefixes_and_continuations(items, method)
    encoded = encode_choices(lm, prefixes, continuations, [item.id for item in items])
    scores = np.zeros((len(items), len(LETTERS)))
    with torch.inference_mode():
        for row, item in enumerate(encoded):
            for column, ids in enumerate(item.continuations):
                tokens = torch.tensor([item.prefix + ids], device=lm.device)
                positions = torch.arange(
                    len(item.prefix) - 1, tokens.shape[1] - 1, device=lm.device
                )
                # normalised in float64, row by row: only the rows read (the same numbers)
                logits = lm.model(input_ids=tokens).logits[0, positions]
                log_probs = logits.double().log_softmax(-1)
                targets = tokens[0, positions + 1]
                rows = torch.arange(len(positions), device=lm.device)
                scores[row, column] = log_probs[rows, targets].sum().item()
    return scores


def minicons_scores(scorer, items, method) -> np.ndarray:
    prefixes, continuations = prefixes_and_continuations(items, method)
    separator = SEPARATORS[method]
    rows = []
    for prefix, texts in zip(prefixes, continuations):
        stimuli = [text[len(separator) :] for text in texts]  # minicons adds the separator
        rows.append(
            scorer.conditional_score(
                [prefix] * len(texts),
                stimuli,
                separator=separator,
                reduction=lambda x: x.sum(0).item(),
                bos_token=True,
            )
        )
    return np.array(rows)


def ours_scores(lm, items, method) -> np.ndarray:
    return choice_scores(items, lm, method=method, show_progress=False)


#: items per call: the conditions take turns on chunks this size, so that load from other
#: processes on a shared machine falls on all of them alike
CHUNK_ITEMS = 4


def compare(method, conditions, items, model, repeats) -> dict:
    """Each condition on the same chunks in turn, the fastest of ``repeats`` interleaved calls
    per chunk (:mod:`interleaved`): speeds, ratios to poetic_eval, and the FLOP ratios
    (:mod:`forward_flops`, counted on ``model``, which every condition runs)."""
    chunks = [items[start : start + CHUNK_ITEMS] for start in range(0, len(items), CHUNK_ITEMS)]
    scores = {name: [] for name in conditions}
    seconds = dict.fromkeys(conditions, 0.0)
    flops = {name: ForwardFlops(model) for name in conditions}
    for chunk in chunks:
        calls = {
            name: functools.partial(function, chunk, method)
            for name, function in conditions.items()
        }
        found, best = best_of_interleaved(calls, repeats, flops)
        for name in conditions:
            scores[name].append(found[name])
            seconds[name] += best[name]
    scores = {name: np.concatenate(parts) for name, parts in scores.items()}
    ours, plain = scores["poetic_eval"], scores["transformers"]
    same = np.array_equal(ours.argmax(1), plain.argmax(1))
    difference = float(np.abs(ours - plain).max())
    ours_rate = len(items) / seconds["poetic_eval"]
    ours_flops = flops["poetic_eval"]
    plain_rate = len(items) / seconds["transformers"]
    print(
        f"{method:<10} {len(items):>3} items | poetic_eval {ours_rate:6.2f} items/s | "
        f"transformers, one forward per text {plain_rate:6.2f} items/s | "
        f"ratio {seconds['transformers'] / seconds['poetic_eval']:5.2f}x | "
        f"{floors(ours_rate / plain_rate, flops['transformers'], ours_flops)} | "
        f"max |diff| {difference:.1e} nats | same choices {same} | "
        f"{seconds['poetic_eval'] / len(items):.3f} s per item | {peak_memory()}"
    )
    result = {"ratio": seconds["transformers"] / seconds["poetic_eval"], "same": same}
    result["per_item"] = seconds["poetic_eval"] / len(items)
    if "minicons" in scores:
        agreement = np.mean(ours.argmax(1) == scores["minicons"].argmax(1))
        print(
            f"{'':<10} {'':>3}       | minicons conditional_score "
            f"{len(items) / seconds['minicons']:6.2f} items/s | ratio "
            f"{seconds['minicons'] / seconds['poetic_eval']:5.2f}x | "
            f"{floors(seconds['minicons'] / seconds['poetic_eval'], flops['minicons'], ours_flops)}"
            " | max |diff| "
            f"{np.abs(ours - scores['minicons']).max():.1e} nats | same choices {agreement:.3f}"
        )
        result["minicons"] = seconds["minicons"] / seconds["poetic_eval"]
    assert same, f"{method}: poetic_eval and one-forward-per-text transformers chose differently"
    assert difference < 1e-4, f"{method}: scores differ by {difference:.1e} nats"
    return result


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--quick", action="store_true", help="the default: 4 items (1 with the prompt method)"
    )
    size.add_argument("--full", action="store_true", help="48 items per method")
    parser.add_argument("--items", type=int, default=None, help="BLM items per method")
    parser.add_argument(
        "--methods", nargs="+", default=["candidates", "prompt"], choices=["candidates", "prompt"]
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--repeats",
        type=int,
        default=QUICK_REPEATS,
        help=f"interleaved calls per condition and chunk, the fastest kept ({QUICK_REPEATS})",
    )
    parser.add_argument(
        "--threads", type=int, default=None, help="torch threads (default: torch's)"
    )
    parser.add_argument("--no-minicons", action="store_true", help="skip the minicons condition")
    parser.add_argument("--dataset", default=None, help="a built BLM folder to take items from")
    parser.add_argument("--config", default="agr_ii", help="its config (agr_ii)")
    parser.add_argument(
        "--shared-openings",
        type=int,
        default=0,
        metavar="SENTENCES",
        help="items in fours (one call each) begin with the same SENTENCES context sentences "
        "(default 0: as generated)",
    )
    args = parser.parse_args()
    args.items_given = args.items is not None
    if args.items is None:
        args.items = 48 if args.full else 4
    if args.threads:
        torch.set_num_threads(args.threads)
    return args


def bench_items(args) -> list:
    """The items the bench scores: generated, or the first of a built BLM config."""
    if args.dataset:
        [chosen] = load_evaluation_sets(args.dataset, [args.config], limit=args.items)
        items = chosen.items
        print(f"items: the first {len(items)} test items of {args.dataset} config {args.config}")
    else:
        items = as_items(agreement_items(args.items, args.seed))
        print(f"items: {len(items)} BLM-AgrI-style items of bench/blm_items.py (seed {args.seed})")
    if args.shared_openings:
        items = with_shared_openings(items, args.shared_openings, CHUNK_ITEMS)
        print(f"items in fours share their first {args.shared_openings} context sentences")
    return items


def report_targets(found: dict) -> None:
    if "minicons" in found:
        verdict = "met" if found["minicons"] >= TARGET_MINICONS else "NOT met"
        print(
            f"target candidates >= {TARGET_MINICONS:.0f}x minicons: {verdict} "
            f"({found['minicons']:.2f}x)"
        )
    verdict = "met" if found["per_item"] < TARGET_SECONDS_PER_ITEM else "NOT met"
    print(
        f"target candidates < {TARGET_SECONDS_PER_ITEM} s per item: {verdict} "
        f"({found['per_item']:.3f} s; load average {os.getloadavg()[0]:.1f})"
    )


def main() -> int:
    args = parse_arguments()
    print(
        f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
        f"load average {os.getloadavg()}"
    )
    lm = load_language_model(device="cpu")
    items = bench_items(args)
    conditions = {
        "poetic_eval": lambda part, method: ours_scores(lm, part, method),
        "transformers": lambda part, method: plain_scores(lm, part, method),
    }
    if not args.no_minicons:
        scorer = minicons_scorer(lm)
        conditions["minicons"] = lambda part, method: minicons_scores(scorer, part, method)
    # warm-up: poetic_eval's one-off self-checks, on a whole chunk: its shared-root probe runs
    # only in a call whose packs share a root (0.4 s, once per model), and would otherwise fall
    # in a counted call. Each condition's first-call costs on a chunk fall in its untimed
    # counting call (interleaved.py), so the peers need no warm-up of their own.
    for method in args.methods:
        conditions["poetic_eval"](items[:CHUNK_ITEMS], method)
    prompt_items = items if args.full or args.items_given else items[:1]
    results = {
        method: compare(
            method,
            conditions,
            prompt_items if method == "prompt" else items,
            lm.model,
            args.repeats,
        )
        for method in args.methods
    }
    if "candidates" in results:
        report_targets(results["candidates"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
