"""LM scoring: hand-computed log-probs, batched == unbatched, prefix-shared == separate, PLL."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
import torch
from tiny_language_models import (
    bigram_causal_lm,
    random_minimal_pairs,
    random_sentences,
    tiny_causal_lm,
    tiny_masked_lm,
    vocabulary_size,
)

from poetic_eval.lm import score_pairs, score_texts
from poetic_eval.lm.prefix_tree import ancestor_mask, pack_prefix_trees, pack_rows

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def causal_lm():
    return tiny_causal_lm(seed=0)


@pytest.fixture(scope="module")
def masked_lm():
    return tiny_masked_lm(seed=0)


def naive_causal_scores(lm, texts):
    """Independent reference: one full forward per text, log-softmax over all positions."""
    scores = []
    for text in texts:
        ids = [lm.tokenizer.bos_token_id, *lm.tokenizer(text, add_special_tokens=False).input_ids]
        ids = torch.tensor([ids])
        with torch.no_grad():
            log_probs = lm.model(ids).logits.log_softmax(-1)[0, :-1]
        scores.append(log_probs.gather(1, ids[0, 1:, None]).sum().item())
    return np.array(scores)


def naive_pll(lm, texts):
    """Independent reference: mask each token in turn, one forward per masked copy."""
    scores = []
    for text in texts:
        ids = lm.tokenizer(text).input_ids
        total = 0.0
        for position in range(1, len(ids) - 1):  # [CLS] ... [SEP]
            masked = list(ids)
            masked[position] = lm.tokenizer.mask_token_id
            with torch.no_grad():
                logits = lm.model(torch.tensor([masked])).logits[0, position]
            total += logits.log_softmax(-1)[ids[position]].item()
        scores.append(total)
    return np.array(scores)


def test_bigram_model_matches_hand_computed_log_probs():
    rng = np.random.default_rng(3)
    size = vocabulary_size()
    transitions = rng.normal(0, 2, size=(size, size))  # logits[next, previous]
    lm = bigram_causal_lm(transitions)
    vocab = lm.tokenizer.get_vocab()
    texts = ["the poet smiles", "there once was a man from peru", "tall"]
    expected = []
    for text in texts:
        ids = [vocab["[BOS]"]] + [vocab[word] for word in text.split()]
        total = 0.0
        for previous, current in itertools.pairwise(ids):
            column = transitions[:, previous]
            total += column[current] - np.log(np.exp(column - column.max()).sum()) - column.max()
        expected.append(total)
    expected = np.array(expected)
    for share in (False, True):
        got = score_texts(texts, lm, share_prefixes=share, show_progress=False)
        np.testing.assert_allclose(got, expected, atol=1e-4)
    mean = score_texts(texts, lm, reduction="mean", show_progress=False)
    np.testing.assert_allclose(mean, expected / np.array([3, 7, 1]), atol=1e-4)


def test_batched_equals_unbatched_and_naive(causal_lm):
    texts = random_sentences(60, seed=1, min_words=1, max_words=20)
    reference = naive_causal_scores(causal_lm, texts)
    single = score_texts(texts, causal_lm, batch_size=1, share_prefixes=False, show_progress=False)
    batched = score_texts(
        texts, causal_lm, batch_size=16, share_prefixes=False, show_progress=False
    )
    assert np.abs(single - reference).max() < 1e-4
    assert np.abs(batched - single).max() < 1e-4


@pytest.mark.parametrize("pack_tokens", [8, 40, 256])
def test_prefix_sharing_equals_separate_scoring(causal_lm, pack_tokens):
    good, bad = random_minimal_pairs(80, seed=pack_tokens)
    texts = good + bad + good[:5] + ["the", "the poet", "the poet smiles"]  # duplicates, prefixes
    separate = score_texts(texts, causal_lm, share_prefixes=False, show_progress=False)
    shared = score_texts(
        texts,
        causal_lm,
        share_prefixes=True,
        pack_tokens=pack_tokens,
        batch_size=4,
        show_progress=False,
    )
    assert np.abs(shared - separate).max() < 1e-4


def test_score_pairs_splits_good_and_bad(causal_lm):
    good, bad = random_minimal_pairs(30, seed=9)
    good_scores, bad_scores = score_pairs(good, bad, causal_lm, show_progress=False)
    assert good_scores.shape == bad_scores.shape == (30,)
    np.testing.assert_allclose(good_scores, naive_causal_scores(causal_lm, good), atol=1e-4)
    np.testing.assert_allclose(bad_scores, naive_causal_scores(causal_lm, bad), atol=1e-4)


def test_prefix_trees_store_each_distinct_prefix_once():
    rng = np.random.default_rng(0)
    sequences = [[0, *rng.integers(1, 4, size=int(rng.integers(1, 6)))] for _ in range(200)]
    packs = pack_prefix_trees(sequences, max_nodes=10**6)
    assert len(packs) == 1
    distinct = {tuple(seq[:end]) for seq in sequences for end in range(1, len(seq) + 1)}
    assert len(packs[0]) == len(distinct)
    small = pack_prefix_trees(sequences, max_nodes=12, max_sequences=7)
    seen = []
    for pack in small:
        assert len(pack) <= 12 and len(pack.sequence_ids) <= 7
        mask = ancestor_mask(pack.parents)
        for sequence_id, path in zip(pack.sequence_ids, pack.paths):
            assert [pack.tokens[node] for node in path] == list(sequences[sequence_id])
            assert [pack.depths[node] for node in path] == list(range(len(path)))
            assert mask[path[-1]].sum() == len(path)  # attends to exactly its own prefix
            seen.append(sequence_id)
    assert sorted(seen) == list(range(len(sequences)))


def test_packs_close_at_the_weakest_link_and_rows_keep_each_tree_apart():
    """Items with a long shared context each (a BLM item: context + 8 answers) are not split
    across packs when a boundary between items is available; rows lay packs side by side."""
    rng = np.random.default_rng(1)
    sequences, items = [], 6
    for item in range(items):
        context = [0, 100 + item, *rng.integers(1, 50, size=20)]
        for _ in range(8):
            sequences.append(context + list(rng.integers(50, 99, size=4)))
    packs = pack_prefix_trees(sequences, max_nodes=130)  # an item takes up to 22 + 32 nodes
    distinct = {tuple(seq[:end]) for seq in sequences for end in range(1, len(seq) + 1)}
    # only the start token (one node per pack beyond the first) is computed twice
    assert sum(len(pack) for pack in packs) == len(distinct) + len(packs) - 1
    pack_of_item = {}
    for number, pack in enumerate(packs):
        for index in pack.sequence_ids:  # every item's 8 sequences in one pack
            assert pack_of_item.setdefault(sequences[index][1], number) == number
    assert len(packs) > 1
    rows = pack_rows(packs, attention_balance=3000.0)
    assert sorted(index for row in rows for index in row.sequence_ids) == list(
        range(len(sequences))
    )
    assert sum(len(row) for row in rows) == sum(len(pack) for pack in packs)
    for row in rows:
        mask = ancestor_mask(row.parents)
        for sequence_id, path in zip(row.sequence_ids, row.paths):
            assert [row.tokens[node] for node in path] == list(sequences[sequence_id])
            assert [row.depths[node] for node in path] == list(range(len(path)))
            assert mask[path[-1]].sum() == len(path) and mask[path[-1], path].all()
    wide = pack_rows(packs, attention_balance=1e12)  # attention free: fewest padded positions
    assert len(wide) * max(len(row) for row in wide) <= len(rows) * max(len(row) for row in rows)


def test_masked_pll_matches_naive_loop(masked_lm):
    texts = random_sentences(12, seed=4, min_words=1, max_words=9)
    expected = naive_pll(masked_lm, texts)
    for batch_size in (1, 7, 64):
        got = score_texts(texts, masked_lm, batch_size=batch_size, show_progress=False)
        np.testing.assert_allclose(got, expected, atol=1e-4)
    counts = np.array([len(text.split()) for text in texts])
    mean = score_texts(texts, masked_lm, reduction="mean", show_progress=False)
    np.testing.assert_allclose(mean, expected / counts, atol=1e-4)


def test_masked_pll_workers_duplicates_and_pairs_match_naive_loop(masked_lm):
    """Repeated texts and minimal pairs (whose copies masking the differing word are the same
    input) are scored from shared copies; thread workers, one or several, give the same PLL."""
    import torch

    from poetic_eval.lm.masked import _batches, _Copies, pseudo_log_likelihoods

    good, bad = random_minimal_pairs(8, seed=6)
    texts = good + bad + good[:3]
    expected = naive_pll(masked_lm, texts)
    encoded = masked_lm.tokenizer(texts, return_special_tokens_mask=True)
    ids, special = encoded["input_ids"], encoded["special_tokens_mask"]
    copies = _Copies(ids, special, masked_lm.tokenizer.mask_token_id)
    maskable = sum(flags.count(0) for flags in special)
    assert len(copies.copy_of) == maskable
    # each pair shares at least the copy that masks its differing word; repeats share all
    assert len(copies.source) <= maskable - len(good) - sum(special[i].count(0) for i in range(3))
    threads = torch.get_num_threads()
    for workers, batch_size in ((1, None), (2, None), (3, 5), (2, 1)):
        got = pseudo_log_likelihoods(
            masked_lm, ids, special, workers=workers, batch_size=batch_size
        )
        np.testing.assert_allclose(got, expected, atol=1e-4)
        assert torch.get_num_threads() == threads
    batches = _batches(copies.length, 40, None, 4)
    assert sorted(u for batch in batches for u in batch) == list(range(len(copies.source)))
    for batch in batches:  # sorted by length, within the budget padding included
        widths = [copies.length[u] for u in batch]
        assert widths == sorted(widths)
        assert len(batch) * max(widths) <= 40 or len(batch) == 1
    assert any(len({copies.length[u] for u in batch}) > 1 for batch in batches)
    assert len(_batches([5, 5], 1000, None, 4)) == 2  # split so that workers have work


def test_masked_last_layer_runs_at_the_mask_only_when_the_probe_agrees(masked_lm):
    from unittest import mock

    from poetic_eval.lm import masked

    assert masked.last_layer_at_mask(masked_lm.model.bert) is not None
    texts = random_sentences(10, seed=9, min_words=1, max_words=8)
    with mock.patch.object(masked, "last_layer_at_mask", return_value=None):
        whole = score_texts(texts, masked_lm, show_progress=False)
    np.testing.assert_allclose(score_texts(texts, masked_lm, show_progress=False), whole, atol=1e-4)
    np.testing.assert_allclose(whole, naive_pll(masked_lm, texts), atol=1e-4)
    assert masked.last_layer_at_mask(torch.nn.Linear(2, 2)) is None  # no BERT-style layers


def test_masked_head_runs_only_at_the_mask_and_falls_back_when_unsplittable(masked_lm):
    """BERT's ``cls`` head is split off; a model whose forward alters the head's output is not."""
    from poetic_eval.lm.model_checks import split_head

    assert split_head(masked_lm.model) == (masked_lm.model.bert, masked_lm.model.cls)

    class ScaledLogits(type(masked_lm.model)):
        def forward(self, *args, **kwargs):
            output = super().forward(*args, **kwargs)
            output.logits = output.logits * 0.5
            return output

    scaled = tiny_masked_lm(seed=0)
    scaled.model.__class__ = ScaledLogits
    assert split_head(scaled.model) is None
    texts = random_sentences(6, seed=8, min_words=1, max_words=7)
    got = score_texts(texts, scaled, batch_size=5, show_progress=False)
    np.testing.assert_allclose(got, naive_pll(scaled, texts), atol=1e-4)
    assert not np.allclose(got, score_texts(texts, masked_lm, show_progress=False), atol=1e-2)


def test_bfloat16_is_opt_in_and_close():
    texts = random_sentences(10, seed=5)
    full = score_texts(texts, tiny_causal_lm(seed=1), show_progress=False)
    half_lm = tiny_causal_lm(seed=1)
    half = score_texts(texts, half_lm, dtype=torch.bfloat16, show_progress=False)
    assert next(half_lm.model.parameters()).dtype == torch.bfloat16
    assert half.dtype == np.float64
    assert not np.array_equal(half, full)
    token_counts = np.array([len(text.split()) for text in texts])
    assert np.all(np.abs(half - full) < 0.1 * token_counts)


def test_bad_inputs_raise_clear_errors(causal_lm, masked_lm):
    with pytest.raises(ValueError, match=r"texts\[1\] is empty"):
        score_texts(["the poet", "  "], causal_lm, show_progress=False)
    long_text = " ".join(["the"] * 70)
    with pytest.raises(ValueError, match=r"texts\[2\] has 70 tokens"):
        score_texts(["the", "a", long_text], causal_lm, show_progress=False)
    with pytest.raises(ValueError, match=r"texts\[0\] has 73 tokens"):
        score_texts([long_text + " a"], masked_lm, show_progress=False)
    with pytest.raises(ValueError, match="reduction"):
        score_texts(["the"], causal_lm, reduction="max", show_progress=False)
    with pytest.raises(ValueError, match="same length"):
        score_pairs(["the", "a"], ["the"], causal_lm, show_progress=False)
    with pytest.raises(ValueError, match=r"^bad\[1\] has 70 tokens"):
        score_pairs(["the poet", "a poet"], ["the poet", long_text], causal_lm, show_progress=False)
    with pytest.raises(ValueError, match=r"^good\[0\] has 73 tokens"):
        score_pairs([long_text + " a"], ["the poet"], masked_lm, show_progress=False)
    with pytest.raises(TypeError, match="texts must be a list of strings"):
        score_texts("the poet", causal_lm, show_progress=False)


def test_shards_are_those_of_datasets_contiguous_sharding():
    import datasets

    from poetic_eval.lm.distributed import shard_bounds

    for count in (0, 1, 7, 45, 100):
        table = datasets.Dataset.from_dict({"i": list(range(count))})
        for world_size in (1, 2, 3, 8):
            covered = []
            for rank in range(world_size):
                start, end = shard_bounds(count, rank, world_size)
                covered.extend(range(start, end))
                if count >= world_size:  # datasets refuses more shards than rows
                    assert (
                        list(range(start, end))
                        == table.shard(world_size, rank, contiguous=True)["i"]
                    )
            assert covered == list(range(count))


def test_models_that_ignore_tree_masks_fall_back_to_separate_scoring():
    """BLOOM derives ALiBi positions from a 2D mask: the self-check must catch it."""
    from tiny_language_models import word_tokenizer
    from transformers import BloomConfig, BloomForCausalLM, GPT2Config, GPT2LMHeadModel

    from poetic_eval.lm import load_language_model

    torch.manual_seed(0)
    size = vocabulary_size()
    good, bad = random_minimal_pairs(20, seed=11)
    bloom = BloomForCausalLM(BloomConfig(vocab_size=size, hidden_size=32, n_layer=2, n_head=4))
    gpt2 = GPT2LMHeadModel(
        GPT2Config(vocab_size=size, n_embd=32, n_layer=2, n_head=4, n_positions=64)
    )
    for network, falls_back in ((bloom, True), (gpt2, False)):
        lm = load_language_model((network, word_tokenizer()), device="cpu")
        reference = naive_causal_scores(lm, good + bad)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            shared = score_texts(good + bad, lm, show_progress=False)
        assert any("not honoured" in str(w.message) for w in caught) == falls_back
        assert np.abs(shared - reference).max() < 1e-4
