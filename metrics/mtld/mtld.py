"""Lexical diversity of generated poems: ATTR, MATTR and MTLD."""

import datasets
import evaluate

from poetic_eval.diversity import lexical_diversity
from poetic_eval.evaluate_modules import PoemInputs

_DESCRIPTION = """
Lexical diversity of a sample of generated poems, as in Evaluating Diversity in Automatic Poetry
Generation. ATTR is the mean type-token ratio of each poem (local diversity); MATTR (Covington &
McFall 2010) the mean TTR of every window of `window` tokens of the concatenated sample; MTLD
(McCarthy & Jarvis 2010) the mean length of the stretches of the sample whose running TTR stays
above `threshold`, forward and backward. Tokens are lowercased, punctuation is deleted and text
is split on whitespace (no lemmatisation). Higher = more diverse.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): generated poems, lines separated by "\\n". The order matters for
        MATTR and MTLD (the poems are concatenated in order); add_batch keeps it.
    window (int): MATTR window in tokens, default 35 (the paper's code; lexicalrichness uses 100).
    threshold (float): MTLD factor threshold in (0, 1), default 0.72.
    min_segment (int): a factor closes only once its segment has this many tokens, default 10
        (the paper's code, via the lexical-diversity package); 0 = no minimum.
    strict (bool): a factor closes when the TTR is below (True, default) or at most (False)
        the threshold.
    lowercase (bool): lowercase before counting types, default True.
    remove_punctuation (bool): delete punctuation before splitting, default True.
    final_token_closes_factor (bool): False (default, the paper's code) scores the segment holding
        the last token as a partial factor; True (McCarthy & Jarvis, lexicalrichness) lets the
        last token close a full factor.
    language (str): token rules, "en" (default) or "de" (German: umlauts normalized to NFC,
        "ß" kept when lowercasing, dashes split words, the apostrophes "´" and "ʼ" deleted too).
Returns:
    attr (float): averaged type-token ratio, in (0, 1].
    mattr (float): moving-average type-token ratio, in (0, 1].
    mtld (float): measure of textual lexical diversity, in tokens (> 0).
Examples:
    >>> import poetic_eval
    >>> metric = poetic_eval.load_metric("mtld")
    >>> poems = ["The cat sat on the mat,\\nthe cat sat still.",
    ...          "A bird sang in the tree\\nand the tree was green."]
    >>> result = metric.compute(predictions=poems, window=5)
    >>> round(result["attr"], 3), round(result["mattr"], 3), round(result["mtld"], 2)
    (0.709, 0.906, 16.87)
"""

_CITATION = """@article{chen2024evaluating,
  title   = {Evaluating Diversity in Automatic Poetry Generation},
  author  = {Chen, Yanran and Gr{\\"o}ner, Hannes and Zarrie{\\ss}, Sina and Eger, Steffen},
  journal = {arXiv preprint arXiv:2406.15267},
  year    = {2024}
}
@article{mccarthy2010mtld,
  title   = {{MTLD}, vocd-{D}, and {HD-D}: A validation study of sophisticated approaches to
             lexical diversity assessment},
  author  = {McCarthy, Philip M. and Jarvis, Scott},
  journal = {Behavior Research Methods},
  volume  = {42},
  number  = {2},
  pages   = {381--392},
  year    = {2010}
}
@article{covington2010mattr,
  title   = {Cutting the {G}ordian Knot: The Moving-Average Type-Token Ratio ({MATTR})},
  author  = {Covington, Michael A. and McFall, Joe D.},
  journal = {Journal of Quantitative Linguistics},
  volume  = {17},
  number  = {2},
  pages   = {94--100},
  year    = {2010}
}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Mtld(PoemInputs, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string")}),
            reference_urls=["https://arxiv.org/abs/2406.15267"],
        )

    def _compute(self, predictions, **options):
        return lexical_diversity(predictions, **options)
