"""Verb-slot pairs parsed from sentences (and the published reference pairs), and the
``verb_weighted_agreement`` evaluate module against the core."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from poetic_eval.pairs import verb_weighted_agreement
from poetic_eval.pairs.verb_agreement import verb_slot, verb_slots

# ---------------------------------------------------------------- preprocessing


def test_verb_slot_preprocessing():
    slot = verb_slot(
        "the authors that the guards like laugh", "the authors that the guards like laughs", -2
    )
    assert slot.left == ("The", "authors", "that", "the", "guards", "like")
    assert (slot.right, slot.correct, slot.incorrect) == ((), "laugh", "laughs")
    assert slot.masked_text("[MASK]") == "The authors that the guards like [MASK]."
    assert slot.visible_text("causal") == "The authors that the guards like"
    blimp = verb_slot(
        "A niece of most senators hasn't descended most slopes.",
        "A niece of most senators haven't descended most slopes.",
        -1,
    )
    assert (blimp.correct, blimp.incorrect) == ("hasn't", "haven't")
    assert blimp.masked_text("<mask>") == "A niece of most senators <mask> descended most slopes."
    assert verb_slot('"Dogs bark!"', '"Dogs barks!"', -2).masked_text("[MASK]") == "Dogs [MASK]."
    assert verb_slot("eBay sells", "eBay sell", -1).left == ("EBay",)
    assert verb_slot("the dog barks", "the dog bark", "singular").label == -1
    assert verb_slot("the dogs bark", "the dogs barks", "plural").label == -2


@pytest.mark.parametrize(
    "good, bad, label, message",
    [
        ("the dog barks", "the dog barks", -1, "differ in 0 tokens"),
        ("the dog barks loudly", "a dog bark loudly", -1, "differ in 2 tokens"),
        ("the dog barks", "the dog", -1, "3 and 2 tokens"),
        ("the dog barks", "the dog bark", 1, "label"),
    ],
)
def test_bad_pairs_name_the_row(good, bad, label, message):
    with pytest.raises(ValueError, match=message) as caught:
        verb_slots(["the dogs bark", good], ["the dogs barks", bad], [-2, label])
    assert "row 1" in str(caught.value)


def test_reference_pairs_parse_to_one_differing_word(shared_data):
    folder = shared_data / "refining_tse"
    if not folder.is_dir():
        pytest.skip("refining_tse data absent")
    total = lines = 0
    for path in sorted((folder / "ML").glob("*.jsonl")) + sorted(
        (folder / "blimp").glob("*.jsonl")
    ):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        slots = verb_slots(
            [r["sentence_good"] for r in rows],
            [r["sentence_bad"] for r in rows],
            [r["label"] for r in rows],
        )
        assert all(slot.correct != slot.incorrect and slot.left for slot in slots), path.name
        total += len(slots)
        lines += len(rows)
    assert total == lines > 100_000


# ---------------------------------------------------------------- the evaluate module


@pytest.fixture(scope="module")
def metric():
    import poetic_eval

    return poetic_eval.load_metric("verb_weighted_agreement")


def random_batch(seed, examples=10, vocab=120, lemmas=12):
    rng = np.random.default_rng(seed)
    logits = (rng.normal(size=(examples, vocab)) * 3).astype(np.float32)
    labels = rng.choice([-1, -2], size=examples)
    verbs = np.random.default_rng(99).permutation(vocab)[: 2 * lemmas].reshape(lemmas, 2)
    correct = np.where(labels == -1, verbs[0, 0], verbs[0, 1])
    incorrect = np.where(labels == -1, verbs[0, 1], verbs[0, 0])
    correct[0] = -1  # a pair whose own form is multi-token
    contexts = [f"context {i % 7}" for i in range(examples)]  # some duplicates
    return logits, labels, correct, incorrect, contexts, verbs


def test_metric_add_batch_equals_one_compute_and_the_core(metric):
    batches = [random_batch(seed) for seed in range(3)]
    verbs = batches[0][5]
    for logits, labels, correct, incorrect, contexts, _ in batches:
        metric.add_batch(
            logits=logits,
            labels=labels,
            correct_ids=correct,
            incorrect_ids=incorrect,
            contexts=contexts,
        )
    streamed = metric.compute(verb_token_ids=verbs)
    joined = [np.concatenate([b[i] for b in batches]) for i in range(4)]
    contexts = [c for b in batches for c in b[4]]
    once = metric.compute(
        logits=joined[0],
        labels=joined[1],
        correct_ids=joined[2],
        incorrect_ids=joined[3],
        contexts=contexts,
        verb_token_ids=verbs,
    )
    core = verb_weighted_agreement(*joined, verbs, contexts=contexts)
    assert set(streamed) == set(once) == set(core)
    for key in core:
        assert streamed[key] == pytest.approx(core[key], nan_ok=True), key
        assert once[key] == pytest.approx(core[key], nan_ok=True), key
    assert core["n"] == 30 and core["tse_invalid"] == 3
    assert core["n_unique"] == len(set(zip(contexts, joined[1].tolist()))) < 30


def test_metric_takes_torch_tensors_and_single_examples(metric):
    logits, labels, correct, incorrect, _, verbs = random_batch(5)
    expected = verb_weighted_agreement(logits, labels, correct, incorrect, verbs)
    metric.add_batch(
        logits=torch.from_numpy(logits)[:4],
        labels=torch.from_numpy(labels)[:4],
        correct_ids=torch.from_numpy(correct)[:4],
        incorrect_ids=torch.from_numpy(incorrect)[:4],
    )
    for row in range(4, 10):
        metric.add(
            logits=torch.from_numpy(logits[row]),
            labels=int(labels[row]),
            correct_ids=torch.tensor(correct[row]),
            incorrect_ids=int(incorrect[row]),
        )
    result = metric.compute(verb_token_ids=torch.from_numpy(verbs))
    for key in ("tse", "ew", "mw", "n_unique", "ew_top_0.9", "mw_bottom_0.1"):
        assert result[key] == pytest.approx(expected[key], nan_ok=True), key


def test_metric_details_and_missing_verbs(metric):
    logits, labels, correct, incorrect, contexts, verbs = random_batch(6)
    result = metric.compute(
        logits=logits,
        labels=labels,
        correct_ids=correct,
        incorrect_ids=incorrect,
        contexts=contexts,
        verb_token_ids=verbs,
        lemmas=[f"v{i}" for i in range(len(verbs))],
        return_details=True,
    )
    assert len(result["per_example"]["ew"]) == 10
    assert result["per_lemma"]["lemma"][0] == "v0"
    with pytest.raises(ValueError, match="verb_token_ids"):
        metric.compute(logits=logits, labels=labels, correct_ids=correct, incorrect_ids=incorrect)
