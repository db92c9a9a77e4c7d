"""Poem-length distribution of generated poems against human poems: histogram intersection."""

import datasets
import evaluate

from poetic_eval.diversity import length_comparison
from poetic_eval.evaluate_modules import PoemCorpusInputs

_DESCRIPTION = """
How well the length distribution of generated poems matches a human corpus, as in Evaluating
Diversity in Automatic Poetry Generation. The length of a poem is its number of whitespace
tokens once punctuation is deleted. Both length sets are binned into `bins` equal-width bins over
their common range [min, max]; each histogram is normalised to sum 1 and the histogram
intersection (Swain & Ballard 1991) is the sum over bins of the smaller share: 1 = the same
binned distribution, 0 = disjoint. Also returned: the 1-D Wasserstein distance (in tokens) and
the mean, median, std (ddof 0), min and max length of both sides.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): generated poems, lines separated by "\\n".
    references (list of str): the human corpus, any size (not row-aligned with predictions).
    bins (int): number of equal-width bins over the common range, default 30.
    remove_punctuation (bool): delete punctuation before counting tokens, default True (the
        paper; its public code counts whitespace tokens without removing punctuation).
Returns:
    histogram_intersection (float): in [0, 1], 1 = identical binned length distributions.
    wasserstein (float): 1-D earth mover's distance between the two length sets, in tokens.
    length_mean, length_median, length_std, length_min, length_max (float): of the predictions.
    reference_length_mean, ..., reference_length_max (float): the same for the references.
Examples:
    >>> import poetic_eval
    >>> metric = poetic_eval.load_metric("histogram_intersection")
    >>> generated = ["one two three\\nfour", "one two\\nthree four five six"]
    >>> human = ["one, two\\nthree four!", "one two three\\nfour five six", "a b c d e f g h"]
    >>> result = metric.compute(predictions=generated, references=human, bins=4)
    >>> round(result["histogram_intersection"], 3), round(result["wasserstein"], 3)
    (0.667, 1.0)
    >>> result["length_mean"], result["reference_length_max"]
    (5.0, 8.0)
"""

_CITATION = """@article{chen2024evaluating,
  title   = {Evaluating Diversity in Automatic Poetry Generation},
  author  = {Chen, Yanran and Gr{\\"o}ner, Hannes and Zarrie{\\ss}, Sina and Eger, Steffen},
  journal = {arXiv preprint arXiv:2406.15267},
  year    = {2024}
}
@article{swain1991color,
  title   = {Color indexing},
  author  = {Swain, Michael J. and Ballard, Dana H.},
  journal = {International Journal of Computer Vision},
  volume  = {7},
  number  = {1},
  pages   = {11--32},
  year    = {1991}
}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class HistogramIntersection(PoemCorpusInputs, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string")}),
            reference_urls=["https://arxiv.org/abs/2406.15267"],
        )

    def _compute(self, predictions, reference_corpus=None, **options):
        return length_comparison(predictions, reference_corpus, **options)
