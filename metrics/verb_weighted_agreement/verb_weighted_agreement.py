"""Subject-verb agreement over a whole verb list (TSE, EW, MW; Newman et al., NAACL 2021)."""

import datasets
import evaluate

from poetic_eval.errors import InvalidValueError
from poetic_eval.evaluate_modules import ColumnInputs, checked_columns
from poetic_eval.pairs import verb_weighted_agreement
from poetic_eval.pairs.verb_agreement.model_outputs import whole_numbers

_DESCRIPTION = """
Scores a language model's distribution over its vocabulary at the verb slot of subject-verb
agreement minimal pairs. TSE is the share of pairs whose correct verb beats the incorrect one;
EW is, per pair, the share of the verb list's lemmas whose agreeing form is more likely than the
other form; MW is the probability mass on agreeing forms over the mass on both forms. EW and MW
are also given on the top and bottom parts of the distribution (mass cutoffs, linearly
interpolated). The headline EW / MW are at top cutoff 1.0 (the whole vocabulary).
"""

_KWARGS_DESCRIPTION = """
Args:
    logits (list of float lists, numpy array or torch tensor, any device): one row per pair, the
        logits or log-probabilities over the whole vocabulary at the verb slot (masked LM: at the
        [MASK] of "left [MASK] right."; causal LM: the next token after the left context).
        `poetic_eval.pairs.verb_agreement.distributions.verb_slot_log_probs` computes them.
    labels (int): -1 when the singular form is correct, -2 when the plural form is.
    correct_ids, incorrect_ids (int): token id of the pair's own correct / incorrect verb form,
        -1 when that form is not a single token (the pair is then invalid for TSE).
    contexts (str, optional): the model-visible string of each pair; EW and MW skip pairs whose
        (context, label) was already seen. Without it, pairs with bit-identical logits and label
        are the duplicates.
    verb_token_ids (list of [singular id, plural id]): the verb list's single-token lemmas, once
        per compute (`verb_slot_distributions.verb_vocabulary(tokenizer).token_ids`).
    top_cutoffs (list of float): default 0.1 .. 0.9, 0.95, 0.97, 1.0 (must include 1.0).
    bottom_cutoffs (list of float): default 0.5, 0.1, 1e-2 .. 1e-6.
    lemmas (list of str, optional): names of the verb_token_ids rows, for per-lemma details.
    return_details (bool): add per-example scores (and per-lemma figures with `lemmas`).
Returns:
    tse, ew, mw (float): means over valid pairs (EW / MW at top cutoff 1.0, after deduplication).
    n, n_unique, n_lemmas (int); tse_invalid, ew_invalid, mw_invalid (int): pairs left out.
    ew_top_{c}, mw_top_{c}, invalid_top_{c}, mass_top_{c} for every top cutoff c, and the same
        with bottom (c written as format(c, "g"), e.g. ew_top_0.9, mw_bottom_1e-06).
Examples:
    >>> import math
    >>> import poetic_eval
    >>> metric = poetic_eval.load_metric("verb_weighted_agreement")
    >>> probs = [0.4, 0.1, 0.05, 0.25, 0.15, 0.05]
    >>> result = metric.compute(
    ...     logits=[[math.log(p) for p in probs]], labels=[-1], correct_ids=[0], incorrect_ids=[1],
    ...     verb_token_ids=[[0, 1], [2, 3]])
    >>> result["tse"], result["ew"], round(result["mw"], 4)
    (1.0, 0.5, 0.5625)
    >>> round(result["ew_top_0.5"], 4), round(result["mw_top_0.5"], 4)
    (0.8, 0.8462)
"""

_CITATION = """
@inproceedings{newman-etal-2021-refining,
    title = "Refining Targeted Syntactic Evaluation of Language Models",
    author = "Newman, Benjamin and Ang, Kai-Siang and Gong, Julia and Hewitt, John",
    booktitle = "Proceedings of the 2021 Conference of the North American Chapter of the
        Association for Computational Linguistics: Human Language Technologies",
    year = "2021",
}
"""

_FEATURES = datasets.Features(
    {
        "logits": datasets.Sequence(datasets.Value("float32")),
        "labels": datasets.Value("int32"),
        "correct_ids": datasets.Value("int64"),
        "incorrect_ids": datasets.Value("int64"),
        "contexts": datasets.Value("string"),
    }
)


_COLUMNS = ("logits", "labels", "correct_ids", "incorrect_ids", "contexts")
_REQUIRED = ("logits", "labels", "correct_ids", "incorrect_ids")
_INTEGERS = ("labels", "correct_ids", "incorrect_ids")


def _whole(inputs):
    """The integer columns checked before evaluate casts them (which truncates 2.7 to 2)."""
    for name in _INTEGERS:
        if inputs.get(name) is not None:
            inputs[name] = whole_numbers(inputs[name], name).tolist()
    return inputs


def _host_batch(inputs):
    """Move tensors to the CPU once per batch; rows as 1-D float32 arrays (Arrow ingests those
    without going through Python floats); contexts default to "" (unknown). The four
    required columns come together (or none, when added before)."""
    inputs = checked_columns(inputs, _COLUMNS, _REQUIRED)
    for name, value in inputs.items():
        if hasattr(value, "detach"):
            value = value.detach()
            if name == "logits":
                value = value.float()
            inputs[name] = value.cpu().numpy()
    logits = inputs.get("logits")
    if logits is not None:
        if hasattr(logits, "ndim") and logits.ndim == 2:
            inputs["logits"] = list(logits.astype("float32", copy=False))
        if inputs.get("contexts") is None:
            inputs["contexts"] = [""] * len(logits)
    return inputs


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class VerbWeightedAgreement(ColumnInputs, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            reference_urls=["https://github.com/bnewm0609/refining-tse"],
        )

    def prepare_columns(self, inputs, call):
        """One pair: tensors as numpy values, ``contexts`` "" (unknown) by default; a batch:
        tensors moved to the CPU once (:func:`_host_batch`)."""
        if call == "add":
            inputs = checked_columns(inputs, (), _REQUIRED)
            for name, value in inputs.items():
                if hasattr(value, "detach"):
                    inputs[name] = (
                        value.detach().float().cpu().numpy() if name == "logits" else value.item()
                    )
            inputs.setdefault("contexts", "")
            return _whole(inputs)
        if call == "compute" and all(inputs.get(name) is None for name in _COLUMNS):
            return inputs
        return _whole(_host_batch(inputs))

    def _compute(
        self, logits, labels, correct_ids, incorrect_ids, contexts, verb_token_ids=None, **options
    ):
        if verb_token_ids is None:
            raise InvalidValueError(
                "verb_token_ids is required: the [singular id, plural id] of each lemma"
            )
        return verb_weighted_agreement(
            logits, labels, correct_ids, incorrect_ids, verb_token_ids, contexts=contexts, **options
        )
