"""The poem metric modules check their inputs before ``evaluate`` converts them."""

from __future__ import annotations

import numpy as np
import pytest

import poetic_eval
from poetic_eval.checks import require_fraction, require_positive_int

POEMS = [
    "the cat sat on the mat\nand looked at me\nthe rain is grey\nit fell all day",
    "a dog ran far\nover the hill and back\nbeneath a star\nalong the track",
]
# Every poem module, with options that keep it fast; semantic_max_sim and poetic_diversity's
# semantic dimension would load a sentence model, so they are left to their own tests.
MODULES = {
    "mtld": {},
    "histogram_intersection": {"references": POEMS},
    "memorization_ratcliff": {"references": POEMS},
    "rhyme_kl": {"references": POEMS},
    "poetic_diversity": {"references": POEMS, "dimensions": ["length", "lexical"]},
}


@pytest.fixture(scope="module", params=sorted(MODULES))
def module(request):
    return request.param, poetic_eval.load_metric(request.param), MODULES[request.param]


@pytest.mark.parametrize(
    "predictions, error, message",
    [
        ("a single poem", TypeError, "predictions must be a list of strings, not a single string"),
        (["fine poem", 3], TypeError, r"predictions\[1\] must be a string, got int"),
        (["fine poem", 2.5], TypeError, r"predictions\[1\] must be a string, got float"),
        (["fine poem", None], TypeError, r"predictions\[1\] must be a string, got NoneType"),
        (["fine poem", "   "], ValueError, r"predictions\[1\] is empty or only whitespace"),
        ([], ValueError, "predictions is empty"),
        (["fine poem", "bad \udc80 poem"], ValueError, r"predictions\[1\] holds a lone surrog"),
    ],
)
def test_bad_predictions_are_named_before_evaluate_converts_them(
    module, predictions, error, message
):
    _, metric, options = module
    with pytest.raises(error, match=message):
        metric.compute(predictions=predictions, **options)
    with pytest.raises(error, match=message):
        metric.add_batch(predictions=predictions)


def test_add_checks_one_poem(module):
    _, metric, _ = module
    with pytest.raises(TypeError, match="prediction must be a string, got int"):
        metric.add(prediction=7)
    with pytest.raises(ValueError, match="prediction is empty"):
        metric.add(prediction=" ")
    with pytest.raises(ValueError, match=r"prediction holds a lone surrogate \(U\+D800"):
        metric.add(prediction="a poem \ud800")


def test_bad_reference_corpus_is_named(module):
    name, metric, options = module
    if "references" not in options:
        pytest.skip(f"{name} takes no references")
    with pytest.raises(
        TypeError, match="references must be a list of strings, not a single string"
    ):
        metric.compute(predictions=POEMS, **{**options, "references": "one human poem"})
    with pytest.raises(ValueError, match=r"references\[1\] holds a lone surrogate"):
        metric.compute(predictions=POEMS, **{**options, "references": [POEMS[0], "x \udcff"]})


def test_good_inputs_still_flow_through_batches(module):
    name, metric, options = module
    whole = metric.compute(predictions=POEMS, **options)
    for poem in POEMS:
        metric.add(prediction=poem)
    assert metric.compute(**options) == whole, name  # same poems, same order: same floats


def test_numpy_numbers_are_accepted_as_options():
    assert (
        require_positive_int(np.int64(30), "bins") == 30
        and type(require_positive_int(np.int64(3), "x")) is int
    )
    assert require_fraction(np.float32(0.5), "threshold") == 0.5
    hi = poetic_eval.load_metric("histogram_intersection")
    assert (
        hi.compute(predictions=POEMS, references=POEMS, bins=np.int64(5))["histogram_intersection"]
        == 1.0
    )
    with pytest.raises(TypeError, match="bins must be an integer"):
        hi.compute(predictions=POEMS, references=POEMS, bins=5.0)


def test_a_dict_of_poems_is_named_and_a_generator_is_read(module):
    name, metric, options = module
    with pytest.raises(TypeError, match=r"^predictions must be a list of strings, got dict"):
        metric.compute(predictions=dict(enumerate(POEMS)), **options)
    with pytest.raises(TypeError, match=r"^predictions must be a list of strings, got dict"):
        metric.add_batch(predictions={"a": POEMS[0]})
    whole = metric.compute(predictions=POEMS, **options)
    assert metric.compute(predictions=(poem for poem in POEMS), **options) == whole, name
    metric.add_batch(predictions=iter(POEMS))
    assert metric.compute(**options) == whole, name
    if "references" in options:
        from_generator = metric.compute(
            predictions=POEMS, **{**options, "references": iter(options["references"])}
        )
        assert from_generator == whole


SCORE_MODULES = {
    "pair_preference": (
        {"good_scores": [-1.0, -2.0, -3.0], "bad_scores": [-2.0, -1.0, -4.0]},
        ("good_scores", "bad_scores"),
    ),
    "verb_weighted_agreement": (
        {
            "logits": [[0.0, 2.0, 1.0, 0.5]] * 2,
            "labels": [-1, -2],
            "correct_ids": [1, 2],
            "incorrect_ids": [2, 1],
            "contexts": ["", ""],
            "verb_token_ids": [[1, 2]],
        },
        ("logits", "labels", "correct_ids", "incorrect_ids"),
    ),
}


@pytest.mark.parametrize("name", sorted(SCORE_MODULES))
def test_score_columns_come_together_and_as_lists(name):
    metric = poetic_eval.load_metric(name)
    inputs, required = SCORE_MODULES[name]
    whole = metric.compute(**inputs)
    for column in required:
        partial = {key: value for key, value in inputs.items() if key != column}
        with pytest.raises(ValueError, match=rf"^{column} is missing: .* are given together"):
            metric.compute(**partial)
        with pytest.raises(ValueError, match=rf"^{column} is missing"):
            metric.add_batch(**{k: v for k, v in partial.items() if k != "verb_token_ids"})
    column = required[0]
    with pytest.raises(TypeError, match=rf"^{column} must be a list with one value per row"):
        metric.compute(**{**inputs, column: dict(enumerate(inputs[column]))})
    generators = {k: iter(v) if k in required else v for k, v in inputs.items()}
    assert str(metric.compute(**generators)) == str(whole)  # str: nan == nan


def test_one_pair_added_without_its_bad_score_is_named():
    metric = poetic_eval.load_metric("pair_preference")
    with pytest.raises(ValueError, match="^bad_scores is missing"):
        metric.add(good_scores=-1.0)
    metric.add(good_scores=-1.0, bad_scores=-2.0)
    metric.add(good_scores=-3.0, bad_scores=-2.0)
    assert metric.compute()["accuracy"] == 0.5


def test_a_lone_surrogate_in_a_column_is_named():
    metric = poetic_eval.load_metric("blm_f1")
    with pytest.raises(ValueError, match=r"labels\[1\] holds a lone surrogate \(U\+DC80"):
        metric.compute(predictions=["A", "B"], references=["A", "B"], labels=["Correct", "\udc80"])
    with pytest.raises(ValueError, match=r"references holds a lone surrogate"):
        metric.add(predictions="A", references="\ud800")
