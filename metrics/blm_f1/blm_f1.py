"""BLM-It score: accuracy and macro-F1 over the answer letters A-H, and the labels chosen."""

import datasets
import evaluate

from poetic_eval.blm import blm_results
from poetic_eval.errors import InvalidValueError
from poetic_eval.evaluate_modules import ColumnInputs

_DESCRIPTION = """
Scores a model on Blackbird Language Matrices (BLM-AgrI, BLM-CausI, BLM-OdI): each item has 8
answers A-H, one correct; the model chooses one letter. The score of the BLM-It challenge is the
F1 over the letters, macro-averaged over the letters present in the references or predictions;
accuracy (= micro-F1) is reported too. With the label of each chosen answer (Correct, or the
distractor's label, i.e. the rule it breaks: AEV, WN1, IR-trans ...) it also counts which rules
the model's wrong answers break. `poetic_eval.blm.evaluate_blm` chooses the letters with a
causal LM (prompting, or the likelihood of each candidate sentence).
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (str): the letter (A-H) chosen for each item; None for no answer (a tie
        between the best-scored answers), counted wrong.
    references (str): the correct letter of each item.
    labels (str, optional): the label of each chosen answer ("Correct", "AEV", "WN1" ...),
        from the item's Answer_set_annotation; give it for every item or for none.
Returns:
    accuracy (float): share of items answered correctly, in [0, 1].
    macro_f1 (float): mean over letters of 2 tp / (2 tp + fp + fn), in [0, 1].
    n (int): number of items.
    ties (int): items with no answer (None), counted wrong.
    f1_by_letter (dict): {letter: {precision, recall, f1, support, predicted}}.
    by_label (dict): {label: {count, share}} of the chosen answers' labels, Correct first;
        empty without labels.
Examples:
    >>> import poetic_eval
    >>> metric = poetic_eval.load_metric("blm_f1")
    >>> result = metric.compute(
    ...     predictions=["A", "B", "C", "C"], references=["A", "B", "C", "D"],
    ...     labels=["Correct", "Correct", "Correct", "AEV"])
    >>> result["accuracy"], result["n"], round(result["macro_f1"], 4)
    (0.75, 4, 0.6667)
    >>> result["by_label"]["AEV"]
    {'count': 1, 'share': 0.25}
"""

_CITATION = """
@inproceedings{jiang-etal-2024-blm-it,
    title = "{BLM}-It {--} Blackbird Language Matrices for {I}talian: A {CALAMITA} Challenge",
    author = "Jiang, Chunyang and Samo, Giuseppe and Nastase, Vivi and Merlo, Paola",
    booktitle = "Proceedings of the Tenth Italian Conference on Computational Linguistics
        (CLiC-it 2024)",
    publisher = "CEUR-WS.org",
    year = "2024",
}
"""

_FEATURES = datasets.Features(
    {
        "predictions": datasets.Value("string"),
        "references": datasets.Value("string"),
        "labels": datasets.Value("string"),
    }
)


def _with_labels(predictions, labels):
    """Missing labels become "" (evaluate needs every declared feature in every batch)."""
    if labels is None and predictions is not None:
        return [""] * len(predictions)
    return labels


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class BlmF1(ColumnInputs, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
        )

    def prepare_columns(self, inputs, call):
        """Batches without labels get "" for each (evaluate needs every declared feature)."""
        if call != "add":
            inputs["labels"] = _with_labels(inputs.get("predictions"), inputs.get("labels"))
        return inputs

    def _compute(self, predictions, references, labels=None, **options):
        if labels is not None and all(label == "" for label in labels):
            labels = None
        elif labels is not None and any(label == "" for label in labels):
            raise InvalidValueError("labels: give a label for every item or for none")
        return blm_results(predictions, references, labels, **options)
