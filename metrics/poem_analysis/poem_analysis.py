"""Erato-style analysis of generated poems: form, meter, rhyme, novelty and topicality."""

import datasets
import evaluate

from poetic_eval.analyzers import poem_analysis
from poetic_eval.evaluate_modules import PoemInputs

_DESCRIPTION = """
Erato-style poem analyzers (Agirrezabal, Goncalo Oliveira & Ormazabal 2023) over a list of poems.
Per poem: stanza and line counts, syllables and stresses per line (CMUdict, else a spelling
syllabifier), rhyme scheme, rhyme chains and rhyme richness (lines up to `rhyme_window` apart),
intra-poem novelty (mean ROUGE-1/2/L F1 between the poem's lines, rouge-score numbers) and
type/token ratio; the metric reports their means over the poems. For the collection: inter-poem
novelty (mean ROUGE F1 over ordered pairs of poems, as single strings, line by line and over all
line pairs), the pooled type/token ratio and, given one topic per poem, topicality (macro-F1 of
retrieving each poem's topic with sentence embeddings). With `form`, each poem is checked against
a shipped form (sonnet, limerick, quatrain, haiku) or your own expectations, giving pass rates and
graded scores.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): poems, lines separated by "\\n", a blank line between stanzas.
    form (str or dict): "sonnet", "limerick", "quatrain" or "haiku", or {analyzer: expectation}
        with expectations {"equals": v}, {"range": [lo, hi]}, {"one_of": [...]}, {"each": E},
        {"items": [E, ...]} or {"keys": {...}}, each with an optional "tolerance". Default None.
    analyzers (list of str): analyzers to run (default all; a form's are always run).
    collection (bool): run the collection analyzers too (default True; needs 2 or more poems).
    topics (list of str): one topic per poem, in the order the poems were added; enables
        topicality. Default None.
    candidate_topics (list of str): extra topics the encoder may choose from.
    model (str or encoder): sentence encoder for topicality (default the bundled all-MiniLM-L6-v2).
    encoding (str): how topicality embeds a poem: "poem" (whole, the default), "lines" or
        "chunks" (for poems longer than the encoder reads).
    rhyme_window (int or None): lines at most this far apart can rhyme (default 5, as the
        reference); None: any two lines.
    rhyme_options (dict): passed to poetic_eval.rhyme.rhyme_scheme (e.g. {"near": True});
        default None keeps that function's defaults.
    include_blank_lines (bool): keep blank lines in the novelty line pairs (the reference code
        does; default False).
    rouge_types (list of str): default ["rouge1", "rouge2", "rougeL"]; use_stemmer (bool): False.
    line_by_line_divisor (str): inter-poem novelty line by line: "shorter" (the number of
        zipped line pairs, the default) or "first" (the first poem's lines, the reference code).
    sample_pairs (int): inter-poem novelty on this many sampled ordered pairs (default all pairs);
        seed (int): seed of the sample (default 0).
    unknown_stress (str): stress mark for syllables of words not in CMUdict (default "?").
    language (str): "en" (default) or "de": German rhyme, syllables and stresses from the
        spelling, German tokens for the type/token ratios.
    return_per_poem (bool): add "per_poem", each poem's values and form checks (default False).
    Every option goes to `poetic_eval.analyzers.poem_analysis`, which owns the defaults above
    and also takes show_progress and the other analyzers' options (lowercase,
    remove_punctuation, ...); an option no analyzer knows is a ValueError listing the valid ones.
Returns:
    poems (int); means over poems: stanza_count, line_count, lines_per_stanza,
    syllables_per_line, rhyme_chains, rhyme_richness, intra_novelty_rouge1/_rouge2/_rougeL,
    type_token_ratio; with a form: form_pass_rate and per check form_<analyzer>_pass_rate and
    form_<analyzer>_<score name>; collection: inter_novelty_<way>_<rouge type> (ways
    single_string, line_by_line, all_lines), inter_novelty_pairs, collection_type_token_ratio
    and, with topics, topicality_macro_f1, topicality_accuracy, topicality_per_topic.
Examples:
    >>> import poetic_eval
    >>> metric = poetic_eval.load_metric("poem_analysis")
    >>> poems = ["A baker who lived by the sea\\nWould bake only bread for his tea.\\n"
    ...          "He would knead all the dough\\nIn the dark, soft and slow,\\n"
    ...          "And would sing to the loaves on his knee.",
    ...          "There once was a cat in a hat\\nWho sat every day on the mat.\\n"
    ...          "When the dog wandered near\\nShe would flatten an ear\\n"
    ...          "And pretend to be terribly fat."]
    >>> result = metric.compute(predictions=poems, form="limerick")
    >>> result["form_pass_rate"], result["rhyme_richness"], result["syllables_per_line"]
    (1.0, 1.0, 7.5)
    >>> round(result["inter_novelty_single_string_rouge1"], 4)
    0.2727
"""

_CITATION = """@inproceedings{agirrezabal2023erato,
  title     = {Erato: Automatizing Poetry Evaluation},
  author    = {Agirrezabal, Manex and Gon{\\c{c}}alo Oliveira, Hugo and Ormazabal, Aitor},
  booktitle = {Progress in Artificial Intelligence (EPIA 2023)},
  year      = {2023},
  note      = {arXiv:2310.20326}
}
@inproceedings{lin2004rouge,
  title     = {{ROUGE}: A Package for Automatic Evaluation of Summaries},
  author    = {Lin, Chin-Yew},
  booktitle = {Text Summarization Branches Out},
  pages     = {74--81},
  year      = {2004}
}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class PoemAnalysis(PoemInputs, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string")}),
            reference_urls=["https://arxiv.org/abs/2310.20326"],
        )

    def _compute(self, predictions, **options):
        return poem_analysis(predictions, **options)
