"""The engine: every verb against a plain one-forward-per-text loop, on generated data.

Templated pairs repeat their openings across the whole batch and multiple-choice items repeat
their prefixes across items; the engine shares both and must give the numbers (1e-4 nats) and
the decisions of scoring every text alone. Token budgets from tiny to large give the same.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
import torch
from tiny_language_models import random_sentences, tiny_causal_lm, tiny_masked_lm

from poetic_eval.lm import (
    causal,
    document_start_token_id,
    load_language_model,
    pack_forward,
    score_pairs,
    score_texts,
)
from poetic_eval.lm.budget import (
    CPU_FORWARD_POSITIONS,
    CPU_MASKED_TOKEN_BUDGET,
    CPU_TOKEN_BUDGET,
    cuda_token_budget,
    forward_positions,
    token_budget,
)
from poetic_eval.lm.prefix_tree import least_cost_runs, pack_prefix_trees, token_budget_batches
from poetic_eval.lm.slots import slot_batches

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def one_forward_per_text(lm, texts):
    start = document_start_token_id(lm)
    scores = []
    for text in texts:
        ids = torch.tensor([[start, *lm.tokenizer(text, add_special_tokens=False).input_ids]])
        with torch.no_grad():
            log_probs = lm.model(ids).logits.double().log_softmax(-1)[0, :-1]
        scores.append(log_probs.gather(1, ids[0, 1:, None]).sum().item())
    return np.array(scores)


def templated_pairs(count: int, seed: int) -> tuple[list[str], list[str]]:
    """Pairs whose openings repeat across the batch (a few templates, many fillers)."""
    rng = np.random.default_rng(seed)
    words = random_sentences(40, seed, min_words=1, max_words=1)
    openings = random_sentences(5, seed + 1, min_words=3, max_words=7)
    good, bad = [], []
    for _ in range(count):
        opening = openings[rng.integers(len(openings))]
        middle, verb, wrong = (words[k] for k in rng.choice(len(words), 3, replace=False))
        good.append(f"{opening} {middle} {verb}")
        bad.append(f"{opening} {middle} {wrong}")
    return good, bad


@pytest.mark.parametrize("budget", [16, 97, 4096])
def test_pairs_across_the_batch_equal_one_forward_per_text(budget):
    lm = load_language_model(tiny_causal_lm(seed=2), token_budget=budget)
    good, bad = templated_pairs(120, seed=budget)
    good_scores, bad_scores = lm.score_pairs(good, bad)
    expected_good, expected_bad = one_forward_per_text(lm, good), one_forward_per_text(lm, bad)
    assert np.abs(good_scores - expected_good).max() < 1e-4
    assert np.abs(bad_scores - expected_bad).max() < 1e-4
    assert np.array_equal(good_scores > bad_scores, expected_good > expected_bad)
    convenience = score_pairs(good, bad, lm, show_progress=False)
    assert np.array_equal(convenience[0], good_scores)


def fed_positions(lm, run) -> tuple[object, int]:
    """``run()``'s result and the non-padding positions the model's body was fed."""
    fed = []

    def count(_module, args, kwargs):
        ids = kwargs.get("input_ids", args[0] if args else None)
        mask = kwargs.get("attention_mask")
        fed.append(ids.numel() if mask is None or mask.dim() == 4 else int(mask.sum()))

    handle = lm.model.model.register_forward_pre_hook(count, with_kwargs=True)
    try:
        return run(), sum(fed)
    finally:
        handle.remove()


@pytest.mark.parametrize("share", [True, False])
def test_leaves_are_never_fed_and_scores_stay_those_of_one_forward_per_text(share):
    """Each text's last token (a trie leaf) is scored from its parent's row and not fed: the
    body sees each internal trie node once (each text but its last token, unshared)."""
    lm = load_language_model(tiny_causal_lm(seed=6), token_budget=4096)
    good, bad = templated_pairs(60, seed=11)
    texts = good + bad + [good[0], good[1].split()[0]]  # a duplicate, a one-word text
    lm.score_texts(texts[:2], share_prefixes=share)  # the one-off tree-mask check, not counted
    scores, positions = fed_positions(lm, lambda: lm.score_texts(texts, share_prefixes=share))
    assert np.abs(scores - one_forward_per_text(lm, texts)).max() < 1e-4
    start = document_start_token_id(lm)
    sequences = [(start, *lm.tokenizer(t, add_special_tokens=False).input_ids) for t in texts]
    internal = {sequence[:end] for sequence in sequences for end in range(1, len(sequence))}
    if share:
        assert positions == len(internal)
        nodes = {sequence[:end] for sequence in sequences for end in range(1, len(sequence) + 1)}
        assert positions < len(nodes)
    else:
        assert positions == sum(len(sequence) - 1 for sequence in sequences)


@pytest.mark.parametrize("share", [True, False])
def test_start_token_alone_feeds_nothing_and_scores_zero(share):
    lm = load_language_model(tiny_causal_lm(seed=6))
    start = document_start_token_id(lm)
    assert lm.score_sequences([[start], [start]], share_prefixes=share).tolist() == [0.0, 0.0]
    mixed = lm.score_sequences([[start], [start, 5], [start, 5, 6]], share_prefixes=share)
    alone = [
        lm.score_sequences([row], share_prefixes=False)[0] for row in ([start, 5], [start, 5, 6])
    ]
    assert mixed[0] == 0.0 and np.abs(mixed[1:] - alone).max() < 1e-4


def test_fed_nodes_are_the_nodes_with_a_child():
    rng = np.random.default_rng(5)
    sequences = [[0, *rng.integers(1, 4, size=int(rng.integers(0, 6)))] for _ in range(300)]
    for pack in pack_prefix_trees(sequences, max_nodes=40):
        with_child = sorted({parent for parent in pack.parents if parent >= 0})
        assert pack.fed_nodes().tolist() == with_child and pack.width == len(with_child)


def test_choices_share_prefixes_across_items_and_equal_full_texts():
    lm = load_language_model(tiny_causal_lm(seed=4), token_budget=512)
    shared = random_sentences(2, 7, min_words=6, max_words=9)
    rng = np.random.default_rng(0)
    prefixes = [f"{shared[k % 2]} {word}" for k, word in enumerate(random_sentences(12, 8))]
    continuations = [random_sentences(8, int(seed)) for seed in rng.integers(0, 10**6, 12)]
    scores = lm.score_choices(prefixes, continuations)
    for prefix, answers, got in zip(prefixes, continuations, scores):
        full = one_forward_per_text(lm, [f"{prefix} {answer}" for answer in answers])
        alone = one_forward_per_text(lm, [prefix])
        assert np.abs(got - (full - alone)).max() < 1e-4
        assert np.argmax(got) == np.argmax(full - alone)


@pytest.mark.parametrize("kind", ["causal", "masked"])
def test_slot_distributions_equal_one_forward_per_row(kind):
    lm = tiny_causal_lm(seed=1) if kind == "causal" else tiny_masked_lm(seed=1)
    lm = load_language_model(lm, token_budget=40)
    texts = random_sentences(30, 3)
    if kind == "causal":
        rows = [
            [document_start_token_id(lm), *lm.tokenizer(t, add_special_tokens=False).input_ids]
            for t in texts
        ]
    else:
        rows = [lm.tokenizer(f"{t} {lm.tokenizer.mask_token}").input_ids for t in texts]
    batches = list(lm.slot_log_probs(rows))
    assert len(batches) > 1 and batches[0][0] == 0
    got = torch.cat([batch for _, batch in batches])
    for row, values in zip(rows, got):
        with torch.no_grad():
            logits = lm.model(torch.tensor([row])).logits[0]
        position = len(row) - 1 if kind == "causal" else row.index(lm.tokenizer.mask_token_id)
        expected = logits[position].float().log_softmax(-1)
        assert torch.allclose(values, expected, atol=1e-4)


def test_masked_scores_through_the_engine_equal_the_convenience():
    lm = load_language_model(tiny_masked_lm(seed=3), token_budget=64)
    texts = random_sentences(20, 5)
    assert np.array_equal(lm.score_texts(texts), score_texts(texts, lm, show_progress=False))
    # against the same model one text per pass, so the token-budget batching is what is checked
    assert np.allclose(lm.score_texts(texts), lm.score_texts(texts, batch_size=1), atol=1e-4)


def test_token_budget_batches_stay_within_the_budget_and_cover_every_row():
    rng = np.random.default_rng(1)
    lengths = rng.integers(1, 50, 300).tolist()
    batches = token_budget_batches(lengths, 200, max_rows=9)
    assert sorted(index for batch in batches for index in batch) == list(range(300))
    for batch in batches:
        longest = max(lengths[index] for index in batch)
        assert len(batch) <= 9 and (len(batch) * longest <= 200 or len(batch) == 1)
    in_order = slot_batches(lengths, 200)
    assert [index for batch in in_order for index in batch] == list(range(300))
    assert all(len(b) * max(lengths[i] for i in b) <= 200 or len(b) == 1 for b in in_order)


def brute_force_least_cost(lengths: list[int], per_forward: int) -> int:
    """Least cost over every way of cutting the sorted rows into consecutive runs."""
    count, best = len(lengths), None
    for mask in range(2 ** max(count - 1, 0)):
        cuts = [0] + [i + 1 for i in range(count - 1) if mask >> i & 1] + [count]
        cost = sum((b - a) * lengths[b - 1] + per_forward for a, b in itertools.pairwise(cuts))
        best = cost if best is None else min(best, cost)
    return best


@pytest.mark.parametrize("seed", range(40))
def test_least_cost_runs_match_every_cut_tried(seed):
    rng = np.random.default_rng(seed)
    lengths = sorted(rng.integers(1, 300, rng.integers(1, 11)).tolist())
    per_forward = int(rng.choice([0, 8, 32, 500]))
    runs = least_cost_runs(lengths, per_forward)
    assert runs[0][0] == 0 and runs[-1][1] == len(lengths)
    assert all(stop == start for (_, stop), (start, _) in itertools.pairwise(runs))
    cost = sum((stop - start) * lengths[stop - 1] + per_forward for start, stop in runs)
    assert cost == brute_force_least_cost(lengths, per_forward)


def test_batches_cut_where_padding_costs_more_than_a_forward():
    lengths = [200, 10, 11, 190, 12, 198]
    whole = token_budget_batches(lengths, 4096)
    assert [sorted(batch) for batch in whole] == [[0, 1, 2, 3, 4, 5]]
    cut = token_budget_batches(lengths, 4096, forward_positions=32)
    assert [sorted(batch) for batch in cut] == [[1, 2, 4], [0, 3, 5]]
    assert token_budget_batches(lengths, 4096, forward_positions=10**6) == whole
    on_cpu = tiny_causal_lm(seed=0)
    assert forward_positions(on_cpu) == CPU_FORWARD_POSITIONS
    assert forward_positions(dataclasses.replace(on_cpu, device=torch.device("cuda"))) is None


def test_cut_batches_keep_the_scores_of_one_forward_per_text(monkeypatch):
    lm = tiny_causal_lm(seed=2)
    texts = random_sentences(40, seed=1, min_words=1, max_words=60)
    score_texts(texts[:2], lm, show_progress=False)  # the one-off probes run here, not below
    widths = []
    run_batch = pack_forward.pack_batch_log_probs

    def counted(lm, batch, **options):
        widths.append([pack.width for pack in batch])
        return run_batch(lm, batch, **options)

    monkeypatch.setattr(causal, "pack_batch_log_probs", counted)
    cut = score_texts(texts, lm, show_progress=False)
    cut_batches, widths[:] = list(widths), []
    monkeypatch.setattr(causal, "forward_positions", lambda lm: None)
    whole = score_texts(texts, lm, show_progress=False)
    assert len(cut_batches) > len(widths) == 1
    assert sorted(itertools.chain.from_iterable(cut_batches)) == sorted(widths[0])
    reference = one_forward_per_text(lm, texts)
    assert np.allclose(cut, reference, atol=1e-4) and np.allclose(whole, reference, atol=1e-4)


def test_budget_on_cpu_is_fixed_and_cuda_sizing_follows_free_memory():
    lm = tiny_causal_lm(seed=0)
    assert token_budget(lm) == CPU_TOKEN_BUDGET == lm.tokens_per_forward
    assert token_budget(tiny_masked_lm()) == CPU_MASKED_TOKEN_BUDGET < CPU_TOKEN_BUDGET
    small, large = cuda_token_budget(2 * 1024**3, 50_000), cuda_token_budget(60 * 1024**3, 50_000)
    assert small < large and cuda_token_budget(0, 50_000) >= 1024
    with pytest.raises(ValueError, match="token_budget"):
        load_language_model(lm, token_budget=1)


def test_a_preamble_shared_by_every_text_is_computed_once_through_the_cache(monkeypatch):
    """Texts that all begin with a long preamble, in several packs: the preamble runs once
    (its KV cache feeds every pack) and the scores stay those of one forward per text."""
    from poetic_eval.lm import shared_root

    lm = load_language_model(tiny_causal_lm(seed=7), token_budget=256)
    preamble = random_sentences(1, 12, min_words=30, max_words=30)[0]
    texts = [f"{preamble} {text}" for text in random_sentences(40, 13, min_words=3)]
    roots = []
    compute = shared_root.compute_roots
    monkeypatch.setattr(
        causal, "compute_roots", lambda lm_, tokens, *needs: roots.extend(tokens) or compute(
            lm_, tokens, *needs
        ),
    )  # fmt: skip
    assert causal.root_cache_works(lm)
    roots.clear()
    scores = lm.score_texts(texts, pack_tokens=48)
    assert len(roots) == 1 and len(roots[0]) >= shared_root.MIN_ROOT_TOKENS
    assert np.abs(scores - one_forward_per_text(lm, texts)).max() < 1e-4
    start = document_start_token_id(lm)
    encode = lambda text: lm.tokenizer(text, add_special_tokens=False).input_ids
    sequences = [[start, *encode(text)] for text in texts]
    contexts = [len(sequence) - 2 for sequence in sequences]
    from poetic_eval.lm.causal import sequence_log_probs

    roots.clear()
    tails = sequence_log_probs(lm, sequences, pack_tokens=48, context_lengths=contexts)
    plain = sequence_log_probs(lm, sequences, share_prefixes=False, context_lengths=contexts)
    assert len(roots) == 1 and np.abs(tails - plain).max() < 1e-4
    # one pack: the trie shares the preamble already, no root forward
    roots.clear()
    lm.score_texts(texts[:3], pack_tokens=4096)
    assert roots == []


def test_a_model_failing_the_root_probe_warns_and_keeps_the_numbers(monkeypatch):

    lm = load_language_model(tiny_causal_lm(seed=8), token_budget=256)
    preamble = random_sentences(1, 15, min_words=30, max_words=30)[0]
    texts = [f"{preamble} {text}" for text in random_sentences(30, 16, min_words=3)]
    monkeypatch.setattr(causal, "_probe_root", lambda lm_: False)
    monkeypatch.setattr(causal, "compute_roots", lambda *_: pytest.fail("root computed"))
    with pytest.warns(UserWarning, match="cached shared prefix"):
        scores = lm.score_texts(texts, pack_tokens=48)
    assert np.abs(scores - one_forward_per_text(lm, texts)).max() < 1e-4


def test_each_verb_checks_its_boolean_and_number_options_by_type():
    """The type checks sit on the verbs (the public boundary), not the computations below."""
    lm = tiny_causal_lm()
    calls = {
        "score_texts": lambda **o: lm.score_texts(["a b"], **o),
        "score_pairs": lambda **o: lm.score_pairs(["a b"], ["a c"], **o),
        "score_sequences": lambda **o: lm.score_sequences([[1, 2, 3]], **o),
        "score_choices": lambda **o: lm.score_choices(["a"], [["b", "c"]], **o),
        "slot_log_probs": lambda **o: lm.slot_log_probs([[1, 2]], **o),
    }
    options = {"slot_log_probs": "show_progress"}
    for verb, call in calls.items():
        option = options.get(verb, "share_prefixes")
        with pytest.raises(TypeError, match=f"^{option} must be True or False, got str"):
            call(**{option: "no"})
    with pytest.raises(TypeError, match="^batch_size must be an integer or None, got float"):
        lm.score_texts(["a b"], batch_size=2.5)
