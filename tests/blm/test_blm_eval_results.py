"""BLM evaluation: macro-F1 against independent implementations, the label table, the
``blm_f1`` metric over batches, and bad records and options.
"""

from __future__ import annotations

import numpy as np
import pytest
from blm_eval_items import AGREEMENT_ITEM, broken, italian_lm
from tiny_language_models import tiny_masked_lm

from poetic_eval.blm import LETTERS, as_items, blm_results, choice_scores, evaluate_blm
from poetic_eval.blm.evaluation import label_table

pytestmark = pytest.mark.usefixtures("one_torch_thread")


# --- scores --------------------------------------------------------------------------------------


def naive_macro_f1(predictions, references):
    classes = sorted(set(predictions) | set(references))
    confusion = np.zeros((len(classes), len(classes)))
    for p, r in zip(predictions, references):
        confusion[classes.index(r), classes.index(p)] += 1
    f1 = []
    for k in range(len(classes)):
        tp = confusion[k, k]
        precision = tp / confusion[:, k].sum() if confusion[:, k].sum() else 0.0
        recall = tp / confusion[k, :].sum() if confusion[k, :].sum() else 0.0
        f1.append(2 * precision * recall / (precision + recall) if precision + recall else 0.0)
    return float(np.mean(f1))


def test_macro_f1_against_independent_implementations():
    rng = np.random.default_rng(7)
    sklearn_metrics = None
    try:
        from sklearn import metrics as sklearn_metrics
    except ImportError:
        pass
    for trial in range(60):
        n = int(rng.integers(1, 40))
        letters = list(LETTERS[: int(rng.integers(1, 9))])
        references = list(rng.choice(letters, n))
        predictions = [r if rng.random() < 0.4 else str(rng.choice(LETTERS)) for r in references]
        result = blm_results(predictions, references)
        assert result["macro_f1"] == pytest.approx(naive_macro_f1(predictions, references))
        assert result["accuracy"] == pytest.approx(np.mean(np.array(predictions) == references))
        if sklearn_metrics is not None:
            expected = sklearn_metrics.f1_score(
                references, predictions, average="macro", zero_division=0
            )
            assert result["macro_f1"] == pytest.approx(expected)


def test_label_table_counts_order_and_inventory():
    table = label_table(["AEV", "Correct", "AEV", "WN1", "Correct", "AEV"], ["Coord", "AEV"])
    assert list(table) == ["Correct", "AEV", "WN1", "Coord"]
    assert table["AEV"] == {"count": 3, "share": 0.5}
    assert table["Coord"] == {"count": 0, "share": 0.0}
    result = blm_results(["A", "B", "C"], ["A", "C", "C"], ["Correct", "AEN1", "Correct"])
    assert result["by_label"] == {
        "Correct": {"count": 2, "share": 2 / 3},
        "AEN1": {"count": 1, "share": 1 / 3},
    }
    assert blm_results(["A"], ["A"])["by_label"] == {}


def test_metric_module_matches_the_core_over_batches():
    import poetic_eval

    metric = poetic_eval.load_metric("blm_f1")
    rng = np.random.default_rng(3)
    references = [str(x) for x in rng.choice(list(LETTERS), 30)]
    predictions = [r if rng.random() < 0.5 else "A" for r in references]
    labels = ["Correct" if p == r else "AEV" for p, r in zip(predictions, references)]
    for start in range(0, 30, 10):
        metric.add_batch(
            predictions=predictions[start : start + 10],
            references=references[start : start + 10],
            labels=labels[start : start + 10],
        )
    assert metric.compute() == blm_results(predictions, references, labels)
    assert metric.compute(predictions=predictions, references=references)["by_label"] == {}
    with pytest.raises(ValueError, match="every item or for none"):
        metric.compute(predictions=["A", "B"], references=["A", "A"], labels=["Correct", ""])


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            broken(Answer_set=AGREEMENT_ITEM["Answer_set"][:7]),
            "'agr-1'.*Answer_set has 7 sentences, expected 8",
        ),
        (broken(Correct_option="J"), "'agr-1'.*Correct_option.*'J'"),
        (broken(Context=[]), "'agr-1'.*Context has 0 sentences"),
        (
            broken(Answer_set_annotation=AGREEMENT_ITEM["Answer_set_annotation"][:6]),
            "'agr-1'.*annotation",
        ),
        (broken(Correct_option="A", Correct_answer=None), "'agr-1'.*Correct_option is A"),
        (
            broken(
                Answer_set_annotation=[
                    {"label": "Correct" if k == 0 else "WNA", "value": k == 2, "option": letter}
                    for k, letter in enumerate(LETTERS)
                ]
            ),
            "'agr-1': answer A is labelled 'Correct' but the correct option is C",
        ),
        ({"Context": ["una frase"]}, "position 0 \\(no ID\\).*'ID'"),
    ],
)
def test_bad_records_name_the_item(record, message):
    with pytest.raises(ValueError, match=message):
        as_items([record])


def test_context_too_short_for_the_one_shot_prompt_is_caught_before_scoring(items, monkeypatch):
    from poetic_eval.lm import choices  # the engine's multiple-choice scorer

    short = italian_lm(max_positions=300)
    zero_shot = choice_scores(items[1:], short, show_progress=False)  # fits
    assert zero_shot.shape == (2, 8)

    def never(*args, **kwargs):
        raise AssertionError("scored before checking the context length")

    monkeypatch.setattr(choices, "score_choices", never)
    with pytest.raises(
        ValueError, match="item 'caus-7': the one-shot prompt.*at most 300 positions"
    ):
        evaluate_blm(items[1:], short, example=items[0], show_progress=False)


def test_bad_options_fail_clearly(lm, items):
    with pytest.raises(ValueError, match="method"):
        evaluate_blm(items, lm, method="letters", show_progress=False)
    with pytest.raises(ValueError, match="one-shot example applies to the prompt"):
        evaluate_blm(items[1:], lm, method="candidates", example=items[0], show_progress=False)
    with pytest.raises(ValueError, match="reduction applies to the candidates"):
        evaluate_blm(items, lm, reduction="mean", show_progress=False)
    with pytest.raises(ValueError, match="example \\(ID 'agr-1'\\) is also an evaluated item"):
        evaluate_blm(items, lm, example=items[0], show_progress=False)
    with pytest.raises(ValueError, match="masked LM"):
        evaluate_blm(items, tiny_masked_lm(), show_progress=False)
    with pytest.raises(ValueError, match="items is empty"):
        evaluate_blm([], lm, show_progress=False)
    with pytest.raises(ValueError, match=r"predictions\[1\].*'Z'"):
        blm_results(["A", "Z"], ["A", "B"])
    with pytest.raises(ValueError, match=r"labels\[0\] is 'AEV' but the prediction A is right"):
        blm_results(["A"], ["A"], ["AEV"])
