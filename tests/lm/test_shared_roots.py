"""Prefixes shared across packs: found, computed once, and the numbers of scoring each text alone.

A BLM item fills most of a pack, so items that repeat their opening sentences (type II contexts,
a shared instruction) never meet in one pack; the engine computes such a shared prefix once and
feeds the packs after its KV cache. These tests build sequences whose shared prefixes span
packs, check which roots the engine takes, count the positions it feeds, and compare every score
with a plain forward per sequence.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from tiny_language_models import tiny_causal_lm

from poetic_eval.lm import causal, load_language_model, pack_forward, shared_root
from poetic_eval.lm.causal import sequence_log_probs
from poetic_eval.lm.prefix_tree import pack_prefix_trees
from poetic_eval.lm.shared_root import MIN_ROOT_SAVING, MIN_ROOT_TOKENS, RootRun, candidate_runs

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def alone(lm, sequences, starts) -> np.ndarray:
    """sum of log p(token k | tokens before k) for k >= starts[i], one plain forward each."""
    totals = []
    for sequence, start in zip(sequences, starts):
        ids = torch.tensor([list(sequence)])
        with torch.no_grad():
            log_probs = lm.model(ids).logits[0].double().log_softmax(-1)
        picked = log_probs[torch.arange(len(sequence) - 1), ids[0, 1:]]
        totals.append(picked[start - 1 :].sum().item())
    return np.array(totals)


def grouped_items(rng, *, groups, per_group, opening, own, answers, vocabulary):
    """Multiple-choice sequences: items in groups sharing an opening of ``opening`` tokens,
    each with ``own`` context tokens of its own and ``answers`` continuations of 2-4 tokens.
    Returns the sequences, their context lengths and the openings."""
    sequences, contexts, openings = [], [], []
    for _ in range(groups):
        shared = [0, *rng.integers(5, vocabulary, opening - 1)]
        openings.append(shared)
        for _ in range(per_group):
            context = shared + list(rng.integers(5, vocabulary, own))
            for _ in range(answers):
                sequences.append(context + list(rng.integers(5, vocabulary, rng.integers(2, 5))))
                contexts.append(len(context))
    return sequences, contexts, openings


def counted(monkeypatch):
    """Count the positions the engine feeds (packs and roots) and record each root computed."""
    seen = {"fed": 0, "roots": [], "calls": 0}
    feed, compute = pack_forward.pack_batch_log_probs, shared_root.compute_roots

    def feeding(lm, batch, **options):
        seen["fed"] += sum(pack.width for pack in batch)
        return feed(lm, batch, **options)

    def computing(lm, roots, *needs):
        seen["roots"] += [list(root) for root in roots]
        seen["calls"] += 1
        seen["fed"] += sum(len(root) for root in roots)
        return compute(lm, roots, *needs)

    monkeypatch.setattr(causal, "pack_batch_log_probs", feeding)
    monkeypatch.setattr(causal, "compute_roots", computing)
    return seen


def packs_of(lengths_and_shared: list[tuple[int, int]]) -> tuple[list, list]:
    """One sequence per pack: each ``(length, shared)`` shares its first ``shared`` tokens with
    the sequence before it, then diverges upwards (so the list stays in lexicographic order)."""
    sequences, previous = [], None
    for number, (length, shared) in enumerate(lengths_and_shared):
        head = previous[:shared] if previous is not None else []
        fresh = [1000 + number] + list(range(1, length - len(head)))
        sequences.append(head + fresh[: length - len(head)])
        previous = sequences[-1]
    return pack_prefix_trees(sequences, max_nodes=1), sequences


def test_a_run_ends_where_it_saves_most():
    # four packs share 40 tokens; a fifth shares only 20 with them: 3 x 40 beats 4 x 20
    packs, sequences = packs_of([(60, 0), (60, 40), (60, 40), (60, 40), (60, 20)])
    assert candidate_runs(packs, sequences) == [RootRun(0, 4, 40)]
    # here the longer run with the shorter root saves more: 5 x 20 against 2 x 25
    packs, sequences = packs_of([(60, 0), (60, 25), (60, 25), (60, 20), (60, 20), (60, 20)])
    assert candidate_runs(packs, sequences) == [RootRun(0, 6, 20)]
    # a pack sharing less than the minimum ends one run, and the next begins after it
    packs, sequences = packs_of([(60, 0), (60, 30), (60, 30), (60, 5), (60, 40), (60, 40)])
    assert candidate_runs(packs, sequences) == [RootRun(0, 3, 30), RootRun(3, 6, 40)]


def test_runs_need_the_minimum_length_and_saving():
    short = MIN_ROOT_TOKENS - 1
    packs, sequences = packs_of([(40, 0)] + [(40, short)] * 5)
    assert candidate_runs(packs, sequences) == []
    # two packs sharing the minimum save too little for a forward of their own; three do
    packs, sequences = packs_of([(40, 0), (40, MIN_ROOT_TOKENS)])
    assert (2 - 1) * MIN_ROOT_TOKENS < MIN_ROOT_SAVING
    assert candidate_runs(packs, sequences) == []
    packs, sequences = packs_of([(40, 0), (40, MIN_ROOT_TOKENS), (40, MIN_ROOT_TOKENS)])
    assert candidate_runs(packs, sequences) == [RootRun(0, 3, MIN_ROOT_TOKENS)]


def test_a_root_leaves_every_sequence_a_token_to_score():
    # all three share 31 tokens, but one sequence is those 31 tokens alone
    longest = list(range(1, 51))
    sequences = [longest[:31], longest, longest[:40] + [999] * 10]
    packs = pack_prefix_trees(sequences, max_nodes=1)
    assert candidate_runs(packs, sequences) == [RootRun(0, 3, 30)]


def test_items_repeating_their_openings_share_them_across_packs(monkeypatch):
    """Groups of multiple-choice items share a 30-token opening; each item alone fills a
    48-node pack, so without roots the opening is fed once per item."""
    lm = tiny_causal_lm(seed=3, max_positions=128)
    vocabulary = lm.model.config.vocab_size
    rng = np.random.default_rng(5)
    sequences, contexts, openings = grouped_items(
        rng, groups=3, per_group=5, opening=30, own=12, answers=4, vocabulary=vocabulary
    )
    assert causal.root_cache_works(lm)
    seen = counted(monkeypatch)
    found = sequence_log_probs(lm, sequences, pack_tokens=48, context_lengths=contexts)
    assert sorted(root[:30] for root in seen["roots"]) == sorted(openings)
    with_roots = seen["fed"]
    seen.update(fed=0, roots=[])
    with monkeypatch.context() as patch:
        patch.setattr(causal, "root_runs", lambda *_: [])
        without = sequence_log_probs(lm, sequences, pack_tokens=48, context_lengths=contexts)
    # each group of 5 items feeds its opening once instead of five times
    assert seen["fed"] - with_roots >= 3 * 4 * 29
    reference = alone(lm, sequences, contexts)
    assert np.abs(found - reference).max() < 1e-4
    assert np.abs(without - reference).max() < 1e-4
    per_item = found.reshape(-1, 4)
    assert np.array_equal(per_item.argmax(1), reference.reshape(-1, 4).argmax(1))


def test_rows_after_roots_of_different_lengths_share_a_forward(monkeypatch):
    """Every token summed (pair scoring): roots give their own tokens' log-probs too; rows after
    roots of 20 and 35 tokens run in one forward, rows of no run in their own, and all keep the
    numbers of scoring alone."""
    lm = tiny_causal_lm(seed=11, max_positions=128)
    vocabulary = lm.model.config.vocab_size
    rng = np.random.default_rng(12)
    sequences = []
    for opening in (20, 35):
        shared = [0, *rng.integers(5, vocabulary, opening - 1)]
        sequences += [shared + list(rng.integers(5, vocabulary, 8)) for _ in range(4)]
    sequences += [[0, *rng.integers(5, vocabulary, 12)] for _ in range(4)]
    batches = []
    feed = pack_forward.pack_batch_log_probs

    def recording(lm_, batch, **options):
        roots = options.get("roots") or []
        batches.append([None if root is None else root.length for root in roots])
        return feed(lm_, batch, **options)

    assert causal.root_cache_works(lm) and pack_forward.tree_mask_works(lm)
    monkeypatch.setattr(causal, "pack_batch_log_probs", recording)
    found = sequence_log_probs(lm, sequences, pack_tokens=20)
    lengths = {length for batch in batches for length in batch}
    assert {20, 35} <= lengths
    assert any(set(batch) == {20, 35} for batch in batches)
    assert any(batch == [] for batch in batches)  # the rows of no run
    starts = np.ones(len(sequences), dtype=np.int64)
    assert np.abs(found - alone(lm, sequences, starts)).max() < 1e-4


@pytest.mark.parametrize("budget", [64, 100, 4096])
def test_roots_are_held_a_window_at_a_time_and_keep_the_numbers(budget, monkeypatch):
    lm = load_language_model(tiny_causal_lm(seed=21, max_positions=128), token_budget=budget)
    vocabulary = lm.model.config.vocab_size
    rng = np.random.default_rng(budget)
    sequences, contexts, _ = grouped_items(
        rng, groups=6, per_group=3, opening=24, own=10, answers=3, vocabulary=vocabulary
    )
    assert causal.root_cache_works(lm)
    seen = counted(monkeypatch)
    found = sequence_log_probs(lm, sequences, pack_tokens=40, context_lengths=contexts)
    assert len(seen["roots"]) == 6
    lengths = [len(root) for root in seen["roots"]]
    windows = causal._root_windows([RootRun(0, 2, length) for length in lengths], budget)
    assert all(sum(run.length for run in window) <= max(budget, max(lengths)) for window in windows)
    # the roots are computed a window at a time: six 24-token roots take one budget of 4,096
    # tokens, but three windows of 64 and two of 100
    assert seen["calls"] == len(windows) == {64: 3, 100: 2, 4096: 1}[budget]
    assert np.abs(found - alone(lm, sequences, contexts)).max() < 1e-4
