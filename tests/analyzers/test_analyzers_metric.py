"""The poem_analysis metric: the core's numbers inside evaluate, batches, options, bad input."""

from __future__ import annotations

import random

import pytest
from encoder_doubles import CountingEncoder

import poetic_eval
from poetic_eval.analyzers import analyze_collection, analyze_poem, poem_analysis
from poetic_eval.resources import seed_poems


@pytest.fixture(scope="module")
def metric():
    return poetic_eval.load_metric("poem_analysis")


@pytest.fixture(scope="module")
def limericks():
    return seed_poems("limericks.txt")[:12]


def test_summary_means_are_the_per_poem_values(limericks):
    result = poem_analysis(limericks, form="limerick", return_per_poem=True)
    values = [analyze_poem(poem) for poem in limericks]
    assert result["poems"] == 12
    assert result["rhyme_richness"] == pytest.approx(sum(v["rhyme_richness"] for v in values) / 12)
    all_lines = [s for v in values for s in v["syllables_per_line"]]
    assert result["syllables_per_line"] == pytest.approx(sum(all_lines) / len(all_lines))
    assert result["intra_novelty_rougeL"] == pytest.approx(
        sum(v["intra_novelty"]["rougeL"] for v in values) / 12
    )
    collection = analyze_collection(limericks)
    assert (
        result["inter_novelty_all_lines_rouge2"]
        == collection["inter_novelty"]["all_lines"]["rouge2"]
    )
    assert result["inter_novelty_pairs"] == 132
    assert result["form_pass_rate"] == 1.0 and result["form_rhyme_scheme_scheme_agreement"] == 1.0
    assert [p["form"]["passed"] for p in result["per_poem"]] == [True] * 12
    assert "rhyme_scheme" not in result and "stress_per_line" not in result  # not numbers


def test_metric_equals_the_core_and_batches_equal_one_compute(metric, limericks):
    options = {"form": "limerick", "rhyme_window": None, "sample_pairs": 40, "seed": 2}
    once = metric.compute(predictions=limericks, **options)
    assert once == poem_analysis(limericks, **options)
    for start in range(0, 12, 5):
        metric.add_batch(predictions=limericks[start : start + 5])
    assert metric.compute(**options) == once
    assert once["inter_novelty_pairs"] == 40


def test_metric_topics_and_analyzer_selection(metric, limericks):
    topics = ["baking" if i % 2 else "cats" for i in range(len(limericks))]
    result = metric.compute(
        predictions=limericks,
        topics=topics,
        model=CountingEncoder(),
        analyzers=["line_count", "topicality"],
    )
    assert set(result) == {
        "poems",
        "line_count",
        "topicality_macro_f1",
        "topicality_accuracy",
        "topicality_per_topic",
    }
    assert 0 <= result["topicality_macro_f1"] <= 1
    single_only = metric.compute(predictions=limericks[:1], analyzers=["stanza_count"])
    assert single_only == {"poems": 1, "stanza_count": 1.0}


def test_include_blank_lines_changes_intra_novelty_as_the_reference_would():
    rng = random.Random(0)
    words = ["sea", "moon", "night", "star", "wind"]
    poems = [
        "\n\n".join(
            "\n".join(" ".join(rng.choices(words, k=4)) for _ in range(2)) for _ in range(3)
        )
        for _ in range(4)
    ]
    without = poem_analysis(poems, analyzers=["intra_novelty"])
    with_blanks = poem_analysis(poems, analyzers=["intra_novelty"], include_blank_lines=True)
    # 6 lines -> 30 ordered pairs; 8 lines with the 2 blanks -> 56, the 26 new pairs score 0
    assert with_blanks["intra_novelty_rouge1"] == pytest.approx(
        without["intra_novelty_rouge1"] * 30 / 56
    )


@pytest.mark.parametrize(
    "predictions, error, match",
    [
        (["a poem", ""], ValueError, r"predictions\[1\] is empty"),
        (["a poem", "  \n\n "], ValueError, r"predictions\[1\] is empty"),
        ("one string", TypeError, "not a single string"),
    ],
)
def test_metric_bad_input(metric, predictions, error, match):
    with pytest.raises(error, match=match):
        metric.compute(predictions=predictions)


def test_metric_bad_options(metric):
    with pytest.raises(ValueError, match="unknown form"):
        metric.compute(predictions=["a b\nc d", "e f\ng h"], form="ballade")
    with pytest.raises(ValueError, match="rhyme_window"):
        metric.compute(predictions=["a b\nc d", "e f\ng h"], rhyme_window=-1)
    result = poem_analysis(["just one line"], analyzers=["intra_novelty"])
    assert result["intra_novelty_rouge1"] is None
