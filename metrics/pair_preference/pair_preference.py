"""Minimal-pair accuracy: the share of pairs whose good text scores higher than the bad one."""

import datasets
import evaluate

from poetic_eval.errors import InvalidValueError
from poetic_eval.evaluate_modules import ColumnInputs, checked_columns
from poetic_eval.pairs.statistics import as_score_array, pair_preference, uncategorised_as_none

_DESCRIPTION = """
Accuracy of a language model on minimal pairs (BLiMP, Marvin & Linzen agreement, BPoMP limericks):
the share of pairs whose acceptable ("good") text gets a higher score (log-probability) than its
corrupted ("bad") counterpart. Ties count as wrong and are reported. A percentile bootstrap gives a
confidence interval, and an optional category column (task, template) gives per-category results.
Scores come from any model; `poetic_eval.lm.scoring.score_pairs` computes them from texts.
"""

_KWARGS_DESCRIPTION = """
Args:
    good_scores (float): score of each pair's good text (e.g. summed token log-probs). A list,
        numpy array or torch tensor on any device.
    bad_scores (float): score of each pair's bad text, same length.
    categories (str, optional): category of each pair, for `by_category`.
    n_bootstrap (int): bootstrap resamples for the intervals (default 1000).
    seed (int): seed of the bootstrap (default 0).
    confidence (float): coverage of the intervals (default 0.95).
Returns:
    accuracy (float): share of pairs with good_score > bad_score, in [0, 1].
    n (int): number of pairs. ties (int): pairs with good_score == bad_score (counted wrong).
    ci_low, ci_high (float): percentile bootstrap interval of the accuracy.
    by_category (dict): {category: {accuracy, n, ties, ci_low, ci_high}}; empty without categories.
Examples:
    >>> import poetic_eval
    >>> metric = poetic_eval.load_metric("pair_preference")
    >>> result = metric.compute(
    ...     good_scores=[-10.0, -12.5, -8.0, -20.0], bad_scores=[-11.0, -12.5, -9.5, -19.0],
    ...     categories=["rhyme", "rhyme", "agreement", "agreement"])
    >>> result["accuracy"], result["n"], result["ties"]
    (0.5, 4, 1)
    >>> result["by_category"]["rhyme"]["accuracy"], result["by_category"]["agreement"]["n"]
    (0.5, 2)
"""

_CITATION = """
@article{warstadt-etal-2020-blimp,
    title = "{BL}i{MP}: The Benchmark of Linguistic Minimal Pairs for {E}nglish",
    author = "Warstadt, Alex and Parrish, Alicia and Liu, Haokun and Mohananey, Anhad and
        Peng, Wei and Wang, Sheng-Fu and Bowman, Samuel R.",
    journal = "Transactions of the Association for Computational Linguistics",
    volume = "8",
    year = "2020",
    pages = "377--392",
}
@inproceedings{abdibayev-etal-2021-bpomp,
    title = "{BP}o{MP}: The Benchmark of Poetic Minimal Pairs {--} Limericks, Rhyme, and
        Narrative Coherence",
    author = "Abdibayev, Almas and Riddell, Allen and Rockmore, Daniel",
    booktitle = "Proceedings of the International Conference on Recent Advances in Natural
        Language Processing (RANLP 2021)",
    year = "2021",
    pages = "1--9",
}
"""

_FEATURES = datasets.Features(
    {
        "good_scores": datasets.Value("float64"),
        "bad_scores": datasets.Value("float64"),
        "categories": datasets.Value("string"),
    }
)


_COLUMNS = ("good_scores", "bad_scores", "categories")
_REQUIRED = ("good_scores", "bad_scores")


def _host_scores(inputs):
    """Scores as float64 numpy arrays (tensors leave their device once per batch; NaN/inf are
    reported with their rows before they reach the Arrow cache); missing categories become "".
    Both score columns must be given (or neither, when added before)."""
    inputs = checked_columns(inputs, _COLUMNS, _REQUIRED)
    for name in ("good_scores", "bad_scores"):
        if inputs.get(name) is not None:
            inputs[name] = as_score_array(inputs[name], name)
    if inputs.get("categories") is None and inputs.get("good_scores") is not None:
        inputs["categories"] = [""] * len(inputs["good_scores"])
    return inputs


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class PairPreference(ColumnInputs, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            reference_urls=["https://aclanthology.org/2021.ranlp-1.1"],
        )

    def prepare_columns(self, inputs, call):
        """One pair: both scores (a missing category is ""); a batch: float64 arrays, tensors
        moved to the CPU once."""
        if call == "add":
            inputs = checked_columns(inputs, (), _REQUIRED)
            if inputs.get("good_scores") is not None and inputs.get("categories") is None:
                inputs["categories"] = ""
            return inputs
        if call == "compute":
            return _host_scores(inputs)
        try:
            return _host_scores(inputs)
        except ValueError as error:
            raise InvalidValueError(f"{error} (rows counted within this add_batch call)") from None

    def _compute(self, good_scores, bad_scores, categories=None, **options):
        return pair_preference(
            good_scores, bad_scores, categories=uncategorised_as_none(categories), **options
        )
