"""Per-label scores and macro-F1 against scikit-learn on generated labels."""

from __future__ import annotations

import random

import pytest
from sklearn.metrics import f1_score, precision_recall_fscore_support

from poetic_eval.label_scores import macro_f1, per_label_scores


@pytest.mark.parametrize("seed", range(4))
def test_equal_scikit_learn_on_generated_labels(seed):
    rng = random.Random(seed)
    for _ in range(100):
        labels = rng.sample(list("ABCDEFGH"), rng.randint(1, 8))
        n = rng.randint(1, 30)
        true = [rng.choice(labels) for _ in range(n)]
        predicted = [rng.choice([*labels, "Z"]) for _ in range(n)]
        table = per_label_scores(true, predicted)
        assert list(table) == sorted(set(true) | set(predicted))
        expected = f1_score(true, predicted, average="macro", zero_division=0)
        assert macro_f1(table) == pytest.approx(expected, abs=1e-12)
        precision, recall, f1, support = precision_recall_fscore_support(
            true, predicted, labels=list(table), zero_division=0
        )
        for i, (label, scores) in enumerate(table.items()):
            assert (scores["precision"], scores["recall"], scores["f1"]) == pytest.approx(
                (precision[i], recall[i], f1[i]), abs=1e-12
            )
            assert scores["support"] == support[i]
            assert scores["predicted"] == predicted.count(label)


def test_unequal_lengths_are_refused_and_no_labels_score_zero():
    with pytest.raises(ValueError, match="3 true labels but 2 predicted"):
        per_label_scores(["a", "b", "c"], ["a", "b"])
    assert macro_f1(per_label_scores([], [])) == 0.0
