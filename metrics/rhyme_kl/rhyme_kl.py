"""Rhyme-scheme entropy, KL divergence and cross-entropy of generated quatrains against human."""

import datasets
import evaluate

from poetic_eval.diversity import rhyme_divergence
from poetic_eval.evaluate_modules import PoemCorpusInputs

_DESCRIPTION = """
Rhyme diversity of generated poetry, after Evaluating Diversity in Automatic Poetry Generation.
Each quatrain gets one of the 15 rhyme schemes (AAAA ... ABCD) from an offline rhyme model
(CMU Pronouncing Dictionary with documented fallbacks): by default the most probable scheme
under graded rhyme scores and a prior over schemes learned from public-domain verse without
labels, so slant, eye and historical rhymes count as poets used them; method="perfect" gives the
transitive closure of pairwise perfect rhymes. The scheme distribution P of the generated sample
is compared with the distribution Q of the human corpus: entropy H(P), KL(P || Q) and cross-entropy
H(P, Q) = H(P) + KL(P || Q), in bits by default, plus the paper's shares of real rhymes and of
repetitions (rhymes of a word with itself). Lower KL = closer to human rhyming.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): generated poems, lines separated by "\\n".
    references (list of str): the human corpus, any size (not row-aligned).
    base (float): logarithm base, default 2 (bits).
    smoothing (float): added to each of the 15 probabilities of P and Q before renormalizing,
        default 1e-9; 0 gives inf KL when Q lacks a scheme that P has.
    non_quatrains (str): "skip" (default: poems without exactly 4 non-empty lines are left out
        and counted) or "error".
    method (str): "learned" (the default: joint scheme inference with the learned rhyme model)
        or "perfect" (perfect rhyme; the options below widen it and select it when method is
        not given).
    link_repetitions (bool): lines ending in the same word share a scheme letter, as in the
        paper's data (default True).
    weak (bool): method "perfect" only: also count weak (unstressed) rhymes such as "be" /
        "piety" (default False).
    near (bool): method "perfect" only: also count voicing-neutral ("gates" / "housemaids")
        and eye ("worm" / "storm") rhymes (default False).
    historical (bool): method "perfect" only: also count the older -y rhyme ("eye" /
        "symmetry"), default False.
    language (str): the poems' language, "en" (default: CMU Pronouncing Dictionary and the
        English rhyme model) or "de" (German rhyme read from the spelling: vowel length,
        diphthongs, umlauts, final devoicing, schwa endings, old spellings; and the rhyme model
        fitted to German verse). Both sides are read with the same rules.
    show_progress (bool): progress bars, default False.
Returns:
    rhyme_entropy (float): H(P), >= 0, at most log2(15) = 3.91 bits.
    reference_rhyme_entropy (float): H(Q).
    rhyme_kl (float): KL(P || Q), >= 0 (0 = identical distributions).
    rhyme_cross_entropy (float): H(P, Q) = H(P) + KL(P || Q).
    real_rhymes (float): 1 - P(ABCD) - P(repetition) of the predictions; repetitions (float):
        share of rhyming quatrains with a repeated line-final word; and reference_real_rhymes,
        reference_repetitions for the references.
    scheme_distribution, reference_scheme_distribution (dict): share of each of the 15 schemes.
    quatrain_predictions, quatrain_references, non_quatrain_predictions,
    non_quatrain_references (int): poems used and skipped on each side.
Examples:
    >>> import poetic_eval
    >>> metric = poetic_eval.load_metric("rhyme_kl")
    >>> generated = ["the sun went down\\nupon the town\\nthe birds were still\\nbeyond the hill",
    ...              "I walked along\\nthe river bank\\nand heard a song\\nof water sank"]
    >>> human = ["the sun went down\\nupon the town\\nthe birds were still\\nbeyond the hill",
    ...          "a quiet night\\nthe garden sleeps\\nthe moon is bright\\nthe willow weeps"]
    >>> result = metric.compute(predictions=generated, references=human)
    >>> result["scheme_distribution"]["AABB"], result["scheme_distribution"]["ABAB"]
    (0.5, 0.5)
    >>> round(result["rhyme_entropy"], 3), round(result["rhyme_kl"], 3)
    (1.0, 0.0)
    >>> german = ["Der Abend legt sich auf das Feld,\\ndie Krähen ziehen heim zum Wald;\\n"
    ...           "so still ist nun die weite Welt,\\nder Wind wird müd, die Luft wird kalt."]
    >>> result = metric.compute(predictions=german, references=german, language="de")
    >>> [scheme for scheme, share in result["scheme_distribution"].items() if share]
    ['ABAB']
"""

_CITATION = """@article{chen2024evaluating,
  title   = {Evaluating Diversity in Automatic Poetry Generation},
  author  = {Chen, Yanran and Gr{\\"o}ner, Hannes and Zarrie{\\ss}, Sina and Eger, Steffen},
  journal = {arXiv preprint arXiv:2406.15267},
  year    = {2024}
}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class RhymeKl(PoemCorpusInputs, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string")}),
            reference_urls=["https://arxiv.org/abs/2406.15267"],
        )

    def _compute(self, predictions, reference_corpus=None, **options):
        return rhyme_divergence(predictions, reference_corpus, **options)
