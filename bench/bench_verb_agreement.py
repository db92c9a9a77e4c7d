"""Verb agreement: the verb-slot distributions of the engine against a per-sentence loop, and
EW / MW over a verb list at every cutoff: the vectorised core against a per-lemma loop.

Part 1 (the model): the distinct left contexts of generated agreement pairs
(``bench/pair_texts.py``) are run through the default model (SmolLM2-135M-Instruct, float32,
CPU) by :func:`poetic_eval.pairs.verb_slot_log_probs` (the engine's slot verb: rows batched by
the token budget, the LM head at the slot only) and by a per-sentence loop (one forward per
context, the full logits, log-softmax at the last position), on the same token ids. The
log-probabilities must agree to 1e-4 and every TSE decision (correct form above the incorrect
one) must be identical; the ratio and the peak memory are printed. Each side runs once, untimed,
with its FLOP counter open, then once timed without it (bench/interleaved.py).

Part 2 (the arithmetic):
The loop is written here in the style of the public refining-tse code (its MainMetricComputer):
sort each distribution once, then for every lemma look up the ranks and probabilities of its two
forms and update running sums for all examples and cutoffs, interpolating between the token sets
just below and just above each cutoff. Both run on the same synthetic verb-slot logits (the
SmolLM2 vocabulary size, a Zipf-like head, the verb list's size) in one process.

    python bench/bench_verb_agreement.py [--quick | --full] [--examples 64] [--lemmas 1233]
        [--vocab 49152] [--pairs N] [--threads N]

``--quick`` (the default) runs 120 pairs in part 1, ``--full`` 1,000.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
import torch
from forward_flops import ForwardFlops, floor_verdict
from interleaved import best_of_interleaved
from pair_texts import INTRANSITIVE, agreement_pairs
from peak_memory import peak_memory

from poetic_eval.pairs import (
    DEFAULT_BOTTOM_CUTOFFS,
    DEFAULT_TOP_CUTOFFS,
    score_verb_slots,
    verb_slot_log_probs,
)
from poetic_eval.pairs.verb_agreement.distributions import DistinctViews, _encode, as_verb_slots

TARGET_SLOTS = 3.0


def per_sentence_slots(lm, slots) -> torch.Tensor:
    """One forward per distinct left context: full logits, log-softmax at the last position."""
    rows = _encode(slots, lm)
    values = []
    with torch.inference_mode():
        for row in rows:
            logits = lm.model(input_ids=torch.tensor([row])).logits[0, -1]
            values.append(logits.float().log_softmax(-1))
    return torch.stack(values)


def _verdict(ratio: float, target: float) -> str:
    return "met" if ratio >= target else "NOT met"


def slot_distributions(pairs: int, seed: int) -> bool:
    """Part 1; True when the results agree."""
    from poetic_eval.lm import load_language_model

    lm = load_language_model(device="cpu")
    good_bad = agreement_pairs(pairs, seed)
    singular = {forms[0].split()[0] for forms in INTRANSITIVE}
    labels = []
    for good, bad in good_bad:
        (verb,) = [g for g, b in zip(good.split(), bad.split()) if g != b]
        labels.append(-1 if verb.strip(".") in singular else -2)
    table = {
        "sentence_good": [good for good, _ in good_bad],
        "sentence_bad": [bad for _, bad in good_bad],
        "label": labels,
    }
    slots = as_verb_slots(table)
    views = DistinctViews(slots, lm)
    verb_slot_log_probs(table, lm, show_progress=False)  # warm-up, one-off checks
    ours_flops, loop_flops = ForwardFlops(lm.model), ForwardFlops(lm.model)
    calls = {
        "ours": lambda: verb_slot_log_probs(table, lm, show_progress=False),
        "loop": lambda: per_sentence_slots(lm, views.representatives),
    }
    # each counted once, untimed, then timed once, clean (bench/interleaved.py)
    found, best = best_of_interleaved(calls, 1, {"ours": ours_flops, "loop": loop_flops})
    ours, ours_seconds, loop_seconds = found["ours"], best["ours"], best["loop"]
    loop = found["loop"][torch.as_tensor(views.of_example)]
    flop_ratio = loop_flops.gflop / ours_flops.gflop
    difference = float((ours.log_probs - loop).abs().max())
    rows = np.arange(len(slots))
    valid = (ours.correct_ids >= 0) & (ours.incorrect_ids >= 0)
    correct, incorrect = np.maximum(ours.correct_ids, 0), np.maximum(ours.incorrect_ids, 0)

    def decide(values):
        return (values[rows, correct] > values[rows, incorrect]).numpy()

    same = bool(np.array_equal(decide(ours.log_probs)[valid], decide(loop)[valid]))
    ratio = loop_seconds / ours_seconds
    print(
        f"verb slots: {len(views.representatives)} distinct contexts of {len(slots)} pairs | "
        f"engine {ours_seconds:.2f} s | per-sentence loop {loop_seconds:.2f} s | ratio "
        f"{ratio:.2f}x (target >= {TARGET_SLOTS:.0f}x: {_verdict(ratio, TARGET_SLOTS)})"
        f" | FLOP ratio {flop_ratio:.2f}x, {floor_verdict(ratio, flop_ratio)}"
        f" | max |diff| {difference:.1e} | same TSE decisions {same} | {peak_memory()}"
    )
    return difference < 1e-4 and same


def synthetic_batch(examples: int, vocab: int, lemmas: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    # Zipf-like logits: a few likely tokens, a long tail, like an LM's next-token distribution
    base = -1.1 * np.log(np.arange(1, vocab + 1))
    logits = np.stack([rng.permutation(base) + rng.normal(0, 1.5, vocab) for _ in range(examples)])
    verbs = rng.permutation(vocab)[: 2 * lemmas].reshape(lemmas, 2)
    labels = rng.choice([-1, -2], size=examples)
    return logits.astype(np.float32), labels, verbs


def loop_scores(logits, labels, verbs, cutoffs, bottom):
    """Per-lemma loop over (examples, cutoffs) arrays, interpolating as the reference does."""
    z = logits.astype(np.float64)
    probs = np.exp(z - z.max(1, keepdims=True))
    probs /= probs.sum(1, keepdims=True)
    order = np.argsort(-probs, axis=1, kind="stable")
    if bottom:
        order = order[:, ::-1]
    rows = np.arange(len(z))[:, None]
    sorted_probs = probs[rows, order]
    cumulative = np.cumsum(sorted_probs, axis=1)
    cumulative /= cumulative[:, -1:]
    rank = np.empty_like(order)
    rank[rows, order] = np.arange(z.shape[1])
    cut = np.asarray(cutoffs)
    last = np.stack([np.searchsorted(c, cut) for c in cumulative]).clip(max=z.shape[1] - 1)
    last[:, cut >= 1] = z.shape[1] - 1
    mass_post = np.take_along_axis(cumulative, last, 1)
    mass_post[:, cut >= 1] = 1.0
    mass_pre = np.where(last > 0, np.take_along_axis(cumulative, np.maximum(last - 1, 0), 1), 0.0)
    sums = {key: np.zeros((2,) + last.shape) for key in ("count", "right_count", "right", "wrong")}
    plural = labels == -2
    for singular, plural_form in verbs:  # the per-lemma loop
        c = np.where(plural, plural_form, singular)
        w = np.where(plural, singular, plural_form)
        pc, pw = probs[np.arange(len(z)), c][:, None], probs[np.arange(len(z)), w][:, None]
        rc, rw = rank[np.arange(len(z)), c][:, None], rank[np.arange(len(z)), w][:, None]
        for side, inclusive in enumerate((False, True)):
            in_c = rc <= last if inclusive else rc < last
            in_w = rw <= last if inclusive else rw < last
            counted = (in_c & in_w) if bottom else (in_c | in_w)
            sums["count"][side] += counted
            sums["right_count"][side] += counted & (pc > pw)
            sums["right"][side] += pc * (counted if bottom else in_c)
            sums["wrong"][side] += pw * (counted if bottom else in_w)
    with np.errstate(invalid="ignore", divide="ignore"):
        ew = sums["right_count"] / sums["count"]
        mw = sums["right"] / (sums["right"] + sums["wrong"])
        span = mass_post - mass_pre
        alpha = np.clip(
            np.where(span > 0, (cut - mass_pre) / np.where(span > 0, span, 1), 1.0), 0, 1
        )
    out = []
    for metric in (ew, mw):
        pre = np.where(np.isnan(metric[0]), metric[1], metric[0])
        post = np.where(np.isnan(metric[1]), metric[0], metric[1])
        out.append((1 - alpha) * pre + alpha * post)
    return out


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=64)
    parser.add_argument(
        "--lemmas", type=int, default=1233, help="SmolLM2 keeps 1233 of the default list"
    )
    parser.add_argument("--vocab", type=int, default=49152, help="SmolLM2's vocabulary size")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="the default: 120 pairs in part 1")
    size.add_argument("--full", action="store_true", help="1,000 pairs in part 1")
    parser.add_argument("--pairs", type=int, default=None, help="pairs in part 1 (0: skip it)")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    return args


def main() -> int:
    args = parse_arguments()
    print(f"{torch.get_num_threads()} torch threads, load average {os.getloadavg()}")
    pairs = args.pairs if args.pairs is not None else (1000 if args.full else 120)
    if pairs and not slot_distributions(pairs, seed=0):
        print("VERB-SLOT DISTRIBUTIONS DISAGREE")
        return 1
    logits, labels, verbs = synthetic_batch(args.examples, args.vocab, args.lemmas)
    print(
        f"{args.examples} examples, vocabulary {args.vocab}, {args.lemmas} lemmas, "
        f"{len(DEFAULT_TOP_CUTOFFS)} top + {len(DEFAULT_BOTTOM_CUTOFFS)} bottom cutoffs"
    )

    start = time.perf_counter()
    ours = score_verb_slots(
        logits, labels, np.full(len(labels), -1), np.full(len(labels), -1), verbs
    )
    ours_seconds = time.perf_counter() - start

    start = time.perf_counter()
    loop_top = loop_scores(logits, labels, verbs, DEFAULT_TOP_CUTOFFS, bottom=False)
    loop_bottom = loop_scores(logits, labels, verbs, DEFAULT_BOTTOM_CUTOFFS, bottom=True)
    loop_seconds = time.perf_counter() - start

    pairs = [
        (ours.ew_top, loop_top[0]),
        (ours.mw_top, loop_top[1]),
        (ours.ew_bottom, loop_bottom[0]),
        (ours.mw_bottom, loop_bottom[1]),
    ]
    difference = max(
        float(np.nanmax(np.abs(a - b))) if not np.isnan(a).all() else 0.0 for a, b in pairs
    )
    same_nans = all(np.array_equal(np.isnan(a), np.isnan(b)) for a, b in pairs)
    print(
        f"poetic-eval (vectorised): {ours_seconds:8.3f} s  "
        f"({args.examples / ours_seconds:8.1f} examples/s)"
    )
    print(
        f"per-lemma loop          : {loop_seconds:8.3f} s  "
        f"({args.examples / loop_seconds:8.1f} examples/s)"
    )
    print(f"speed-up: {loop_seconds / ours_seconds:.1f}x")
    print(
        f"largest EW/MW difference over all examples and cutoffs: {difference:.2e}; "
        f"same invalid cells: {same_nans}"
    )
    if difference > 1e-9 or not same_nans:
        print("RESULTS DISAGREE")
        return 1
    print("results agree")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
