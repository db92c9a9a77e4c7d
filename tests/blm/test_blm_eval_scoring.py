"""BLM evaluation: items and prompts, shared-prefix scores against scoring every full text, and
the choices (see blm_eval_items.py for the items and models).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from blm_eval_items import (
    AGREEMENT_ITEM,
    CAUSATIVE_ITEM,
    RECORDS,
    RELEASE_ITEM,
    bigram_lm,
    full_text_scores,
)

from poetic_eval.blm import (
    LETTERS,
    as_items,
    choice_scores,
    evaluate_blm,
    prefixes_and_continuations,
    validate_blm_record,
)
from poetic_eval.blm.answer_labels import answer_labels
from poetic_eval.blm.evaluation import blm_prompt, candidate_continuations, running_context
from poetic_eval.lm import pack_forward
from poetic_eval.lm.causal import sequence_log_probs

pytestmark = pytest.mark.usefixtures("one_torch_thread")


# --- items and prompts ---------------------------------------------------------------------------


def test_records_with_and_without_prefixes_give_the_same_item():
    bare = copy.deepcopy(AGREEMENT_ITEM)
    bare["Context"] = [sentence.split("\t", 1)[1] for sentence in bare["Context"]]
    bare["Answer_set"] = [sentence.split("\t", 1)[1] for sentence in bare["Answer_set"]]
    plain, prefixed = as_items([bare, AGREEMENT_ITEM])
    assert (plain.context, plain.answers) == (prefixed.context, prefixed.answers)
    assert answer_labels(plain) == ("WNA", "AEV", "Correct", "Coord", "WN1", "WN2", "AEN1", "AEN2")
    item = validate_blm_record(RELEASE_ITEM)
    assert item.answers[0] == "la finestra si apre da un'ora"
    assert answer_labels(item) == ("Correct",) + ("unlabelled",) * 7
    assert answer_labels(validate_blm_record(CAUSATIVE_ITEM))[LETTERS.index("A")] == "IR-trans"


def test_prefixes_and_continuations_are_what_each_method_scores(items):
    example, rest = items[0], items[1:]
    prefixes, continuations = prefixes_and_continuations(rest, "prompt", "it", example)
    assert prefixes == [blm_prompt(item, "it", example) for item in rest]
    assert continuations == [list(LETTERS)] * len(rest)
    prefixes, continuations = prefixes_and_continuations(items, "candidates")
    assert prefixes == [running_context(item) for item in items]
    assert continuations == [candidate_continuations(item) for item in items]
    with pytest.raises(ValueError, match="unknown BLM method"):
        prefixes_and_continuations(items, "letters")


def test_prompt_structure(items):
    item, example = items[1], items[0]
    english = blm_prompt(item, "en")
    assert english.endswith("**Your answer**\n")
    order = [
        english.index(part)
        for part in (
            "# TASK",
            "# OUTPUT",
            "# PUZZLE",
            "\n**Context**\n",
            "\n**Answer set**\n",
            "**Your answer**",
        )
    ]
    assert order == sorted(order)
    assert "numbered from 1 to 7" in english and "**only** the letter" in english
    assert "1\til bambino rompe il vaso con un martello\n" in english
    assert "F\til vaso si rompe da pochi minuti\n" in english
    one_shot = blm_prompt(item, "it", example)
    assert one_shot.index("# ESEMPIO RISOLTO") < one_shot.index("# ROMPICAPO")
    assert "**Risposta corretta**\nC\n" in one_shot
    assert one_shot.count("\n**Contesto**\n") == 2
    assert one_shot.endswith("**La tua risposta**\n")
    with pytest.raises(ValueError, match="language"):
        blm_prompt(item, "fr")


def test_running_context_and_candidates(items):
    item = items[2]
    context = running_context(item)
    assert context.startswith("la ragazza apre la finestra in silenzio. la ragazza apre")
    assert context.endswith("la finestra si apre in silenzio.")
    assert candidate_continuations(item)[0] == " la finestra si apre da un'ora."


# --- shared prefix == separate scoring ---------------------------------------------------------


@pytest.mark.parametrize("method", ["prompt", "candidates"])
def test_shared_prefix_scores_equal_scoring_every_full_text(lm, items, method):
    shared = choice_scores(items, lm, method=method, show_progress=False)
    alone = choice_scores(items, lm, method=method, share_prefixes=False, show_progress=False)
    for row, item in enumerate(items):
        if method == "prompt":
            expected = full_text_scores(lm, blm_prompt(item), list(LETTERS))
        else:
            expected = full_text_scores(lm, running_context(item), candidate_continuations(item))
        np.testing.assert_allclose(shared[row], expected, atol=1e-4)
        np.testing.assert_allclose(alone[row], expected, atol=1e-4)
    assert shared.shape == (3, 8)
    assert np.ptp(shared, axis=1).min() > 1e-3  # the random model tells the answers apart


def test_one_shot_and_mean_scores_equal_scoring_every_full_text(lm, items):
    example, rest = items[0], items[1:]
    shared = choice_scores(rest, lm, language="it", example=example, show_progress=False)
    for row, item in enumerate(rest):
        expected = full_text_scores(lm, blm_prompt(item, "it", example), list(LETTERS))
        np.testing.assert_allclose(shared[row], expected, atol=1e-4)
    means = choice_scores(items, lm, method="candidates", reduction="mean", show_progress=False)
    sums = choice_scores(items, lm, method="candidates", show_progress=False)
    for row, item in enumerate(items):
        counts = [
            len(lm.tokenizer(text, add_special_tokens=False).input_ids)
            for text in candidate_continuations(item)
        ]
        np.testing.assert_allclose(means[row], sums[row] / np.array(counts), atol=1e-6)


def test_context_lengths_sum_only_the_continuations_and_skip_their_head_rows(lm, monkeypatch):
    """sequence_log_probs(context_lengths=...) == full sums minus context sums, and the LM head
    runs on fewer rows than without it."""
    rng = np.random.default_rng(5)
    size = len(lm.tokenizer)
    prefixes = [list(rng.integers(4, size, int(rng.integers(3, 30)))) for _ in range(4)]
    sequences, contexts = [], []
    for prefix in prefixes:
        for _ in range(int(rng.integers(1, 6))):
            sequences.append([2, *prefix, *rng.integers(4, size, int(rng.integers(1, 6)))])
            contexts.append(1 + len(prefix))
    rows = []
    head = pack_forward.chosen_log_probs  # the LM head, whole or on vocabulary slices

    def counted(states, *args, **kwargs):
        rows.append(states.shape[0])
        return head(states, *args, **kwargs)

    monkeypatch.setattr(pack_forward, "chosen_log_probs", counted)
    for share in (True, False):
        rows.clear()
        full = sequence_log_probs(lm, sequences, share_prefixes=share)
        full_rows = sum(rows)
        context = sequence_log_probs(
            lm, [seq[:n] for seq, n in zip(sequences, contexts)], share_prefixes=share
        )
        rows.clear()
        continuation = sequence_log_probs(
            lm, sequences, share_prefixes=share, context_lengths=contexts
        )
        np.testing.assert_allclose(continuation, full - context, atol=1e-4)
        # one head row per parent of a continuation token (fewer when shared in a tree)
        parents = sum(len(q) - n for q, n in zip(sequences, contexts))
        assert sum(rows) <= parents if share else sum(rows) == parents
        assert sum(rows) < full_rows


# --- choices -------------------------------------------------------------------------------------


def test_choices_are_the_highest_scores_and_predictions_name_the_labels(lm, items):
    for method in ("prompt", "candidates"):
        result = evaluate_blm(RECORDS, lm, method=method, show_progress=False)
        scores = choice_scores(items, lm, method=method, show_progress=False)
        chosen = [LETTERS[k] for k in scores.argmax(1)]
        assert [p["predicted"] for p in result["predictions"]] == chosen
        assert [p["ID"] for p in result["predictions"]] == ["agr-1", "caus-7", 215]
        assert [p["correct"] for p in result["predictions"]] == ["C", "F", "A"]
        assert [p["label"] for p in result["predictions"]] == [
            answer_labels(item)[LETTERS.index(letter)] for item, letter in zip(items, chosen)
        ]
        assert result["accuracy"] == np.mean([a == b for a, b in zip(chosen, ["C", "F", "A"])])
        assert result["n"] == 3 and result["method"] == method


def test_prompt_method_picks_the_letter_the_model_favours(items):
    result = evaluate_blm(items, bigram_lm({"F": 4.0}), show_progress=False)
    assert [p["predicted"] for p in result["predictions"]] == ["F", "F", "F"]
    assert [p["label"] for p in result["predictions"]] == ["WN2", "Correct", "unlabelled"]
    assert result["accuracy"] == pytest.approx(1 / 3)
    # letters A, C, F occur; only F is ever right: F1(F) = 2 * 1 / (2 * 1 + 2 + 0)
    assert result["macro_f1"] == pytest.approx((0.5 + 0 + 0) / 3)
    assert result["by_label"]["Correct"] == {"count": 1, "share": pytest.approx(1 / 3)}
    assert result["by_label"]["WN2"]["count"] == 1 and result["by_label"]["AEV"]["count"] == 0


CHEAP_WORDS = {
    "arriva": 3.0,
    "comuni": 3.0,
    "vaso": 3.0,
    "si": 3.0,
    "minuti": 3.0,
    "ragazza": 3.0,
    "un": 3.0,
}


def test_candidate_scores_and_choices_computed_by_hand(items):
    """Under a model whose next-token distribution ignores the context, a candidate's score is
    the sum over its tokens of (bonus - log Z); by the mean, the answer with the largest share
    of cheap words wins."""
    lm = bigram_lm(CHEAP_WORDS)
    size = len(lm.tokenizer)
    log_z = np.log(size - len(CHEAP_WORDS) + len(CHEAP_WORDS) * np.exp(3.0))
    scores = choice_scores(items, lm, method="candidates", show_progress=False)
    for row, item in enumerate(items):
        for column, text in enumerate(candidate_continuations(item)):
            tokens = lm.tokenizer.tokenize(text)
            expected = sum(CHEAP_WORDS.get(token, 0.0) - log_z for token in tokens)
            assert scores[row, column] == pytest.approx(expected, abs=1e-4)
    result = evaluate_blm(items, lm, method="candidates", reduction="mean", show_progress=False)
    assert [p["predicted"] for p in result["predictions"]] == ["H", "F", "F"]
    assert [p["label"] for p in result["predictions"]] == ["AEN2", "Correct", "unlabelled"]
    by_sum = evaluate_blm(items, lm, method="candidates", show_progress=False)
    by_hand = [None if (row == row.max()).sum() > 1 else LETTERS[row.argmax()] for row in scores]
    assert [p["predicted"] for p in by_sum["predictions"]] == by_hand  # a tie answers nothing
    assert by_sum["ties"] == by_hand.count(None) == 1
