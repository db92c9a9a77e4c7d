"""Benchmark: masked-LM pseudo-log-likelihood with poetic_eval.lm.scoring vs minicons, same model.

No masked LM ships offline, so the model is BERT-base-shaped (12 layers, hidden 768, vocabulary
30,522) with seeded random weights, saved to a temporary folder with a word-level tokenizer over
the benchmark's words. Scored, on the same sentences (agreement-style, bench/pair_texts.py):
- this project: ``score_texts`` (PLL: identical masked copies run once, copies batched by exact
  length with no padding, the LM head run only at the masked position, one worker thread per
  core on the CPU);
- this project with the head on every position (the split turned off), to show what that gains;
- this project with one worker (each batch's matrix products over all torch threads), to show
  what the workers gain (these two ablations not at ``--quick``, unless ``--ablations``);
- minicons: ``MaskedLMScorer.sequence_score`` (PLL_metric "original", sum reduction).
Each runs once on 8 texts first (warm-up); then the ways take turns on two slices of the pairs:
each first runs once per slice, untimed, with its FLOP counter open, then is called
``--repeats`` times in alternating order and its fastest clean call kept (bench/interleaved.py),
so load drifting during the run falls on all of them and no timed call runs the counters'
hooks. Prints texts/s
for each, the ratios, the largest score difference and the peak memory. The texts are the good
and the bad sides of minimal pairs: the scores must agree with minicons to 1e-4 nats and every
pair's decision must be identical (asserted). Target (issue 20): >= 3x minicons on 2 cores.
The speed-up comes with the FLOP ratio (bench/forward_flops.py): minicons' linear-layer FLOPs
over ours, about the speed-up that less work alone gives.

Usage: python bench/bench_masked_scoring.py [--quick | --full] [--texts N] [--batch-size N]
    [--threads N] [--repeats N] [--ablations]

``--quick`` (the default) scores 48 texts against minicons only, ``--full`` 1,000 with the two
ablations.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from functools import partial
from pathlib import Path
from unittest import mock

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
import torch
from forward_flops import ForwardFlops, floors
from interleaved import QUICK_REPEATS, best_of_interleaved
from pair_texts import agreement_pairs
from peak_memory import peak_memory
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import BertConfig, BertForMaskedLM, PreTrainedTokenizerFast

from poetic_eval.lm import load_language_model, score_texts
from poetic_eval.lm import masked as masked_module
from poetic_eval.lm.model_checks import split_head

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
VOCABULARY = 30_522
#: slices the ways take turns on (24 texts each at the quick size)
ROUNDS = 2


def word_tokenizer(texts: list[str]) -> PreTrainedTokenizerFast:
    words = sorted({word for text in texts for word in text.replace(".", " .").split()})
    filler = [f"[unused{i}]" for i in range(VOCABULARY - len(SPECIAL) - len(words))]
    vocab = {token: index for index, token in enumerate(SPECIAL + words + filler)}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    backend.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()]
    )
    backend.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
        sep_token="[SEP]", mask_token="[MASK]",
    )  # fmt: skip


class MiniconsTokenizer(PreTrainedTokenizerFast):
    """minicons 0.3 calls ``batch_encode_plus``, which transformers 5 removed; same as calling."""

    def batch_encode_plus(self, texts, **options):
        return self(texts, **options)


def save_model(folder: Path, texts: list[str]) -> None:
    torch.manual_seed(0)
    model = BertForMaskedLM(BertConfig(vocab_size=VOCABULARY))
    model.save_pretrained(folder)
    word_tokenizer(texts).save_pretrained(folder)


def encoded(lm, texts: list[str]):
    found = lm.tokenizer(texts, return_special_tokens_mask=True)
    return found["input_ids"], found["special_tokens_mask"]


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="the default: 48 texts")
    size.add_argument("--full", action="store_true", help="1,000 texts")
    parser.add_argument("--texts", type=int, default=None, help="texts (both sides of N/2 pairs)")
    parser.add_argument(
        "--batch-size", type=int, default=None, help="a cap on masked copies per forward pass"
    )
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument(
        "--ablations",
        action="store_true",
        help="also time the head everywhere and one worker (always with --full)",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=QUICK_REPEATS,
        help=f"interleaved calls per condition and slice, the fastest kept ({QUICK_REPEATS})",
    )
    args = parser.parse_args()
    if args.texts is None:
        args.texts = 1000 if args.full else 48
    args.ablations = args.ablations or args.full
    if args.threads:
        torch.set_num_threads(args.threads)
    return args


def conditions(lm, theirs_scorer, batch_size) -> dict:
    """The four ways to score a list of texts, by short name."""

    def ours_scores(part: list[str]) -> np.ndarray:
        return score_texts(part, lm, batch_size=batch_size, show_progress=False)

    def head_everywhere(part: list[str]) -> np.ndarray:
        with mock.patch("poetic_eval.lm.masked.split_head", return_value=None):
            return ours_scores(part)

    def one_worker(part: list[str]) -> np.ndarray:
        with mock.patch("poetic_eval.lm.masked.cpu_workers", return_value=1):
            return ours_scores(part)

    def minicons_scores(part: list[str]) -> np.ndarray:
        found = []
        for start in range(0, len(part), 16):
            found += theirs_scorer.sequence_score(
                part[start : start + 16], reduction=lambda x: x.sum(0).item()
            )
        return np.array(found)

    return {"ours": ours_scores, "full": head_everywhere, "one": one_worker,
            "theirs": minicons_scores}  # fmt: skip


def run_in_turns(ways: dict, texts: list[str], model, repeats: int):
    """Each way's scores, seconds and FLOP counter: the load on a shared machine drifts within
    a run, so the ways take turns on ``ROUNDS`` slices of the pairs (both sides of a pair in
    the same slice), the fastest of ``repeats`` interleaved calls kept (:mod:`interleaved`)."""
    seconds = dict.fromkeys(ways, 0.0)
    flops = {name: ForwardFlops(model) for name in ways}
    scores = {name: np.zeros(len(texts)) for name in ways}
    half = len(texts) // 2
    for chosen in np.array_split(np.arange(half), ROUNDS):
        rows = np.concatenate([chosen, chosen + half])
        part = [texts[row] for row in rows]
        calls = {name: partial(way, part) for name, way in ways.items()}
        found, best = best_of_interleaved(calls, repeats, flops)
        for name in ways:
            scores[name][rows] = found[name]
            seconds[name] += best[name]
    return scores, seconds, flops


def load_both(texts: list[str], folder: str):
    """The BERT-shaped model saved to ``folder``, loaded by poetic_eval and by minicons."""
    from minicons import scorer

    save_model(Path(folder), texts)
    lm = load_language_model(folder, device="cpu", dtype=torch.float32)
    peer_tokenizer = MiniconsTokenizer.from_pretrained(folder)
    theirs_scorer = scorer.MaskedLMScorer(lm.model, tokenizer=peer_tokenizer, device="cpu")
    return lm, theirs_scorer


def main() -> None:
    args = parse_arguments()
    print(f"{torch.get_num_threads()} torch threads, load average {os.getloadavg()}")
    pairs = agreement_pairs(args.texts // 2, seed=0)
    texts = [good for good, _ in pairs] + [bad for _, bad in pairs]
    with tempfile.TemporaryDirectory() as folder:
        lm, theirs_scorer = load_both(texts, folder)
    assert split_head(lm.model) is not None
    tokens = sum(len(lm.tokenizer(text).input_ids) - 2 for text in texts)
    distinct = len(masked_module._Copies(*encoded(lm, texts), lm.tokenizer.mask_token_id).source)
    print(
        f"{len(texts)} texts ({len(set(texts))} distinct), {tokens} masked copies ({distinct} "
        "distinct); BERT-base shape, random weights, float32, CPU"
    )
    score_texts(texts[:8], lm, show_progress=False)  # warm-up, each way
    theirs_scorer.sequence_score(texts[:8], reduction=lambda x: x.sum(0).item())
    ways = conditions(lm, theirs_scorer, args.batch_size)
    if not args.ablations:  # make bench's budget: the floor line needs only these two
        ways = {name: ways[name] for name in ("ours", "theirs")}
    scores, seconds, flops = run_in_turns(ways, texts, lm.model, args.repeats)
    report(texts, scores, seconds, flops)


def report(texts, scores, seconds, flops) -> None:
    """The speeds, ratios and differences; fails where a score or decision differs. The two
    ablations ("full": the head everywhere, "one": one worker) are reported where they ran."""
    half = len(texts) // 2
    ours, theirs = scores["ours"], scores["theirs"]
    ours_time, theirs_time = seconds["ours"], seconds["theirs"]
    labels = {"ours": "poetic_eval", "full": "poetic_eval, head everywhere",
              "one": "poetic_eval, one worker", "theirs": "minicons"}  # fmt: skip
    ablations = [name for name in ("full", "one") if name in scores]
    for name in ("ours", *ablations, "theirs"):
        took = seconds[name]
        print(f"{labels[name]:<30} {len(texts) / took:8.1f} texts/s  ({took:.1f} s, fastest calls)")
    against = "".join(
        f"; vs {labels[name].split(', ')[1]}: {seconds[name] / ours_time:.2f}x (FLOP ratio "
        f"{flops[name].gflop / flops['ours'].gflop:.2f}x)"
        for name in ablations
    )
    print(
        f"speed-up vs minicons: {theirs_time / ours_time:.2f}x "
        f"({floors(theirs_time / ours_time, flops['theirs'], flops['ours'])}){against}"
    )
    difference = float(np.abs(ours - theirs).max())
    others = "".join(
        f", vs {labels[name].split(', ')[1]} {np.abs(ours - scores[name]).max():.2e}"
        for name in ablations
    )
    print(f"largest score difference: vs minicons {difference:.2e} nats{others}")
    same = np.array_equal(ours[:half] > ours[half:], theirs[:half] > theirs[half:])
    ratio = theirs_time / ours_time
    print(
        f"same decisions on {half} pairs: {same} | target >= 3x minicons: "
        f"{'met' if ratio >= 3 else 'NOT met'} ({ratio:.2f}x) | load {os.getloadavg()[0]:.1f} | "
        f"{peak_memory()}"
    )
    assert difference < 1e-4, f"PLL differs from minicons by {difference:.2e} nats"
    assert same, "PLL decisions differ from minicons"


if __name__ == "__main__":
    main()
