"""The engine's verbs check their inputs at the door and refuse a model's NaN (issue 39).

Through the public API only (``load_language_model`` and the ``LanguageModel`` verbs) on tiny
in-memory models: unequal lists, strings for lists, token ids that are floats or outside the
vocabulary, empty sequences, rows and continuation lists, a None prefix, a lone surrogate, and
a model whose scores are NaN or infinite.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from tiny_language_models import tiny_causal_lm, tiny_masked_lm, vocabulary_size, word_tokenizer

from poetic_eval.lm import document_start_token_id, load_language_model, score_texts

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def lm():
    return tiny_causal_lm(seed=3)


# --- multiple choice: lists paired row by row ---------------------------------------------


@pytest.mark.parametrize(
    "prefixes, continuations, item_ids, message",
    [
        (["the", "a", "some"], [["poet"], ["man"]], None, "prefixes 3, continuations 2"),
        (["the", "a"], [["poet"], ["man"]], ["only-one"], "item_ids 1"),
        (["the"], [["poet"], ["man"]], None, "prefixes 1, continuations 2"),
    ],
)
def test_unequal_choice_lists_are_refused(lm, prefixes, continuations, item_ids, message):
    with pytest.raises(ValueError, match=f"must have the same length, got .*{message}"):
        lm.score_choices(prefixes, continuations, item_ids=item_ids)


@pytest.mark.parametrize(
    "prefixes, continuations, error, message",
    [
        ("the poet", [["is"]], TypeError, "prefixes must be a list of strings, not a str"),
        (["the"], "is", TypeError, "continuations must be a list of lists of strings, not a str"),
        (["the"], ["is"], TypeError, r"continuations\[0\] must be a list of strings, not a str"),
        (["the", None], [["is"], ["is"]], TypeError, r"prefixes\[1\] must be a string"),
        (None, [["is"]], ValueError, "prefixes is required"),
        (["the", "a"], [["is"], []], ValueError, r"continuations\[1\] is empty"),
        (["the"], [["is", ""]], ValueError, r"continuations\[0\]\[1\] is empty"),
        (["the"], [["is", 3]], TypeError, r"continuations\[0\]\[1\] must be a string"),
        (["the", "a \udc80"], [["is"], ["is"]], ValueError, r"prefixes\[1\] holds a lone surr"),
        (["the"], [["is \ud800"]], ValueError, r"continuations\[0\]\[0\] holds a lone surr"),
    ],
)
def test_malformed_choice_items_are_named(lm, prefixes, continuations, error, message):
    with pytest.raises(error, match=message):
        lm.score_choices(prefixes, continuations)


def test_well_formed_choices_still_score(lm):
    scores = lm.score_choices(["the", "a"], [["poet", "man"], ["guard"]], item_ids=["x", "y"])
    assert [len(item) for item in scores] == [2, 1]
    assert all(np.isfinite(item).all() for item in scores)


# --- token-id sequences ---------------------------------------------------------------------


def test_an_out_of_vocabulary_id_is_refused_not_read_from_unfilled_memory(lm):
    size = vocabulary_size()
    start = document_start_token_id(lm)
    for sequence, position in (
        ([start, 10, size], 2),
        ([start, size + 7, 10], 1),
        ([start, -1], 1),
    ):
        with pytest.raises(
            ValueError,
            match=rf"sequences\[1\] holds token id -?\d+ \(position {position}\), outside "
            rf".* vocabulary of {size} ids",
        ):
            lm.score_sequences([[start, 10], sequence])


@pytest.mark.parametrize(
    "bad, kind",
    [
        (1.5, "float"),
        (np.float32(2.0), "float32"),
        (True, "bool"),
        ("5", "str"),
        (None, "NoneType"),
    ],
)
def test_a_token_id_that_is_not_an_integer_is_refused(lm, bad, kind):
    start = document_start_token_id(lm)
    with pytest.raises(
        TypeError, match=rf"sequences\[0\]\[2\] must be an integer token id, got {kind}"
    ):
        lm.score_sequences([[start, 10, bad]])


def test_numpy_and_torch_integer_ids_score_as_python_ints(lm):
    start = document_start_token_id(lm)
    plain = lm.score_sequences([[start, 10, 11], [start, 12]])
    numpy_ids = lm.score_sequences([np.array([start, 10, 11]), [np.int32(start), np.int64(12)]])
    torch_ids = lm.score_sequences([torch.tensor([start, 10, 11]), [torch.tensor(start), 12]])
    assert np.array_equal(plain, numpy_ids) and np.array_equal(plain, torch_ids)


def test_float_arrays_and_empty_or_string_sequences_are_refused(lm):
    start = document_start_token_id(lm)
    with pytest.raises(TypeError, match=r"sequences\[0\]\[0\] must be an integer token id"):
        lm.score_sequences([np.array([start, 1.5])])
    with pytest.raises(ValueError, match=r"sequences\[1\] is empty"):
        lm.score_sequences([[start, 10], []])
    with pytest.raises(TypeError, match="sequences must be a list of token-id sequences"):
        lm.score_sequences("0 5 6")
    with pytest.raises(TypeError, match=r"sequences\[0\] must be a list of token ids, not a str"):
        lm.score_sequences(["0 5 6"])


def test_a_token_the_tokenizer_added_but_the_model_lacks_is_named():
    tokenizer = word_tokenizer()
    tokenizer.add_tokens(["sonnet"])  # the model was not resized for it
    lm = tiny_causal_lm(seed=3, tokenizer=word_tokenizer())
    lm = load_language_model((lm.model, tokenizer), device="cpu")
    added = tokenizer.convert_tokens_to_ids("sonnet")
    with pytest.raises(ValueError, match=rf"texts\[1\] holds token id {added} .*resize_token_emb"):
        lm.score_texts(["the poet", "the sonnet"])
    with pytest.raises(ValueError, match=rf"bad\[0\] holds token id {added}"):
        lm.score_pairs(["the poet"], ["the sonnet"])
    with pytest.raises(ValueError, match=rf"item 0: continuation 1 holds token id {added}"):
        lm.score_choices(["the"], [["poet", "sonnet"]])


def test_a_lone_surrogate_in_a_text_is_named(lm):
    with pytest.raises(ValueError, match=r"texts\[1\] holds a lone surrogate \(U\+DC80"):
        lm.score_texts(["the poet", "the \udc80 poet"])
    with pytest.raises(ValueError, match=r"good\[0\] holds a lone surrogate"):
        lm.score_pairs(["the \ud800"], ["the poet"])


# --- slot rows ------------------------------------------------------------------------------


def test_slot_rows_are_checked_when_the_verb_is_called(lm):
    start = document_start_token_id(lm)
    with pytest.raises(ValueError, match=r"rows\[1\] is empty"):
        lm.slot_log_probs([[start, 10], []])  # raised at the call, not at the first batch
    with pytest.raises(ValueError, match=r"rows\[0\] holds token id 999"):
        lm.slot_log_probs([[start, 999]])
    with pytest.raises(TypeError, match=r"rows\[0\]\[1\] must be an integer token id"):
        lm.slot_log_probs([[start, 2.0]])


def test_a_masked_slot_row_needs_exactly_one_mask():
    masked = tiny_masked_lm(seed=1)
    tokenizer = masked.tokenizer
    one = tokenizer(f"the poet {tokenizer.mask_token}").input_ids
    none = tokenizer("the poet").input_ids
    assert len(list(masked.slot_log_probs([one]))) == 1
    with pytest.raises(ValueError, match=r"rows\[1\] holds 0 mask tokens"):
        masked.slot_log_probs([one, none])


# --- a model that gives NaN or inf ----------------------------------------------------------


def _broken(value: float):
    lm = tiny_causal_lm(seed=3)
    with torch.no_grad():
        lm.model.lm_head.weight.fill_(value)
    return lm


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_every_scorer_refuses_a_model_that_gives_nan_or_inf(value):
    lm = _broken(value)
    start = document_start_token_id(lm)
    refused = "the model .* gave NaN or infinite scores for"
    with pytest.raises(ValueError, match=rf"{refused} 2 of 2 texts \(first: texts\[0\]"):
        lm.score_texts(["the poet", "a man"])
    with pytest.raises(ValueError, match=rf"{refused} 2 of 2 texts \(first: good\[0\]"):
        lm.score_pairs(["the poet"], ["a man"])
    with pytest.raises(ValueError, match=rf"{refused} 1 of 1 sequences"):
        lm.score_sequences([[start, 10]])
    with pytest.raises(ValueError, match=rf"{refused} 3 of 3 continuations \(first: item 'x'"):
        lm.score_choices(["the", "a"], [["poet", "man"], ["guard"]], item_ids=["x", "y"])
    with pytest.raises(ValueError, match=refused):
        score_texts(["the poet"], model=lm, show_progress=False)
