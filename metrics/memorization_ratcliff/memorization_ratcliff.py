"""Memorization: shares of generated quatrains, couplets and verses nearly copying training ones."""

import datasets
import evaluate

from poetic_eval.diversity import memorization
from poetic_eval.evaluate_modules import PoemCorpusInputs

_DESCRIPTION = """
Memorization of the training corpus by a poetry generator, as in Evaluating Diversity in Automatic
Poetry Generation (after Belouadi & Eger 2023). A generated unit is memorized when some training
unit of the same level has a Ratcliff-Obershelp similarity (difflib.SequenceMatcher ratio, raw
characters, case-sensitive) at or above the level's threshold: quatrain 0.7, couplet 0.8, verse 0.9.
The score of a level is the share of generated units that are memorized (0 = no copying). Exact:
equal to a naive difflib scan over all pairs, made fast by an Indel (LCS) upper-bound prefilter.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): generated poems, lines separated by "\\n".
    references (list of str): the training corpus (human poems), any size, not row-aligned.
    levels (list of str): any of "quatrain" (all lines joined by a space), "couplet" (lines 1-2,
        3-4, ...; the last line of an odd-length poem is in no couplet), "verse" (each line);
        default all three.
    thresholds (dict): level -> threshold in (0, 1], overriding the defaults
        {"quatrain": 0.7, "couplet": 0.8, "verse": 0.9}.
    autojunk (bool): difflib's autojunk heuristic, default True (the reference code). It only
        matters for units of 200+ characters.
    return_matches (bool): also return, per level, each memorized generated unit with its best
        training match, default False.
    show_progress (bool): progress bars, default False.
    workers (int): threads of the prefilter (one rapidfuzz and one BLAS thread each) and
        processes of the difflib checks, default -1 (all cores).
Returns:
    memorization_quatrain, memorization_couplet, memorization_verse (float): share of generated
        units of that level that are memorized, in [0, 1], for the levels asked (NaN when the
        predictions have no unit of a level, e.g. couplets of one-line poems).
    matches (dict, with return_matches): level -> list of {"prediction", "unit", "text",
        "reference", "reference_unit", "reference_text", "ratio"}: indices of the generated poem
        and unit, then of the best-matching training poem and unit (highest ratio, first in corpus
        order on ties), its text and the ratio.
Examples:
    >>> import poetic_eval
    >>> metric = poetic_eval.load_metric("memorization_ratcliff")
    >>> training = ["The river runs beneath the hill\\nwhere all the summer light is still\\n"
    ...             "and I have walked there every day\\nuntil the light was worn away",
    ...             "A crow upon the frozen gate\\nhas learned the patience of the late"]
    >>> generated = ["The river runs beneath a hill\\nwhere all the summer light is still\\n"
    ...              "my window opens on the rain\\nthe kettle sings its song again"]
    >>> result = metric.compute(predictions=generated, references=training, return_matches=True)
    >>> [result[f"memorization_{level}"] for level in ("quatrain", "couplet", "verse")]
    [0.0, 0.5, 0.5]
    >>> [(m["unit"], m["reference"], m["reference_unit"], round(m["ratio"], 3))
    ...  for m in result["matches"]["verse"]]
    [(0, 0, 0, 0.933), (1, 0, 1, 1.0)]
"""

_CITATION = """@article{chen2024evaluating,
  title   = {Evaluating Diversity in Automatic Poetry Generation},
  author  = {Chen, Yanran and Gr{\\"o}ner, Hannes and Zarrie{\\ss}, Sina and Eger, Steffen},
  journal = {arXiv preprint arXiv:2406.15267},
  year    = {2024}
}
@inproceedings{belouadi2023bygpt5,
  title     = {{ByGPT5}: End-to-End Style-conditioned Poetry Generation with Token-free Language
               Models},
  author    = {Belouadi, Jonas and Eger, Steffen},
  booktitle = {Proceedings of the 61st Annual Meeting of the Association for Computational
               Linguistics (Volume 1: Long Papers)},
  pages     = {7364--7381},
  year      = {2023}
}
@article{ratcliff1988pattern,
  title   = {Pattern Matching: The Gestalt Approach},
  author  = {Ratcliff, John W. and Metzener, David E.},
  journal = {Dr. Dobb's Journal},
  volume  = {13},
  number  = {7},
  pages   = {46},
  year    = {1988}
}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class MemorizationRatcliff(PoemCorpusInputs, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string")}),
            reference_urls=["https://arxiv.org/abs/2406.15267"],
        )

    def _compute(self, predictions, reference_corpus=None, **options):
        return memorization(predictions, reference_corpus, **options)
