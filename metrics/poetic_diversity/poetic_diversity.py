"""Every diversity dimension of generated poetry against a human corpus, as one flat dict."""

import datasets
import evaluate

from poetic_eval.diversity import poetic_diversity
from poetic_eval.evaluate_modules import PoemCorpusInputs

_DESCRIPTION = """
The diversity profile of generated poetry from Evaluating Diversity in Automatic Poetry
Generation, in one call: memorization of the human corpus (Ratcliff-Obershelp at quatrain,
couplet and verse level), the length distribution (histogram intersection, Wasserstein
distance, statistics), rhyme schemes (entropy, KL, cross-entropy, real rhymes, repetitions),
lexical diversity (ATTR, MATTR, MTLD of both sides) and semantic similarity (mean maximum
cosine within the sample and across to the human corpus). `references` is the human corpus, of
any size; `dimensions` chooses what runs; options of a part are passed as `<dimension>_<option>`.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): generated poems, lines separated by "\\n".
    references (list of str): the human corpus (any size; not row-aligned). Required for
        memorization, length and rhyme; lexical and semantic also run without it.
    dimensions (list of str, optional): any of "memorization", "length", "rhyme", "lexical",
        "semantic" (default: all). "semantic" loads a sentence encoder. By default "rhyme" is
        left out, with a warning, when a side has no 4-line poem; named, that is an error.
    human_samples (int, optional): the paper's human protocol: reference-side statistics are
        averaged over this many seeded samples of len(predictions) human poems (paper: 10).
    seed (int): seed of those samples, default 0.
    show_progress (bool): progress bars, default False.
    language (str): the poems' language, "en" (default) or "de", for every dimension that reads
        words or sound: rhyme (German rhyme from the spelling and the German rhyme model),
        lexical and length (German token rules: umlauts normalized, "ß" kept, dashes split
        words, German apostrophes deleted) and semantic (with the English-only default encoder
        a warning names a multilingual model to pass as semantic_model). Memorization compares
        characters and is the same for both.
    <dimension>_<option>: an option of one part, e.g. memorization_thresholds={"quatrain": 0.7,
        "couplet": 0.8, "verse": 0.9}, memorization_levels, length_bins=30,
        length_remove_punctuation, rhyme_base=2, rhyme_smoothing=1e-9, rhyme_non_quatrains,
        lexical_window=35, lexical_threshold=0.72, semantic_model=None (all-MiniLM-L6-v2),
        semantic_batch_size=64, semantic_cache=True, semantic_reference_within=True. See the card.
Returns:
    One flat dict: memorization_{quatrain,couplet,verse}; length_histogram_intersection,
    length_wasserstein, length_{mean,median,std,min,max} and reference_length_*; rhyme_entropy,
    reference_rhyme_entropy, rhyme_kl, rhyme_cross_entropy, real_rhymes, repetitions (and
    reference_*), quatrain/non-quatrain counts, scheme_distribution_<SCHEME> and
    reference_scheme_distribution_<SCHEME>; attr, mattr, mtld and reference_*; within_max_sim,
    across_max_sim, reference_within_max_sim (each with _std, _min, _max).
Examples:
    >>> import poetic_eval
    >>> metric = poetic_eval.load_metric("poetic_diversity")
    >>> human = ["the night is long\\nthe stars are bright\\ni sing my song\\ninto the light",
    ...          "a river runs\\nbeneath the hill\\nthe morning suns\\nare warm and still"]
    >>> generated = ["the night is long\\nthe stars are bright\\ni sing a song\\ninto the night"]
    >>> result = metric.compute(predictions=generated, references=human,
    ...                         dimensions=["memorization", "rhyme", "length"])
    >>> result["memorization_quatrain"], round(result["rhyme_kl"], 6), result["length_mean"]
    (1.0, 0.0, 15.0)
    >>> sorted(k for k, v in result.items() if k.startswith("scheme_distribution_") and v)
    ['scheme_distribution_ABAB']
"""

_CITATION = """@article{chen2024evaluating,
  title   = {Evaluating Diversity in Automatic Poetry Generation},
  author  = {Chen, Yanran and Gr{\\"o}ner, Hannes and Zarrie{\\ss}, Sina and Eger, Steffen},
  journal = {arXiv preprint arXiv:2406.15267},
  year    = {2024}
}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class PoeticDiversity(PoemCorpusInputs, evaluate.Metric):
    references_required = False  # without a corpus: the scores within the sample

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string")}),
            reference_urls=["https://arxiv.org/abs/2406.15267"],
        )

    def _compute(self, predictions, reference_corpus=None, **options):
        return poetic_diversity(predictions, reference_corpus, **options)
