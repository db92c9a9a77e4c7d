"""What :class:`~poetic_eval.integrations.PoeticDiversityCallback` checks when it is built, so
that a bad option fails there, in one line, and not at the first logging step of a training
run: the dimensions and the names, types and values of their options (a dry run of each
dimension on a few tiny poems, the semantic one excepted: it would load the encoder, so its
values are checked one by one), the tokenizer, and the pairs, tokenized once for the model (a
pair longer than the model's context is named).
"""

from __future__ import annotations

from typing import Any

from ..checks import require_positive_int
from ..diversity import resolve_dimensions
from ..diversity.dimensions import DIMENSIONS
from ..diversity.poem_embeddings import check_encoding
from ..diversity.profile import split_part_options
from ..errors import InvalidTypeError, InvalidValueError
from ..lm import causal_sequences, load_language_model

_PROFILE_OPTIONS = ("human_samples", "seed")
# two 4-line poems of common rhyming words: every dimension but semantic can score them, so a
# dry run on them reaches each option's own checks in a few milliseconds
_TINY_POEMS = [
    "the cat sat down\nupon the mat\nthe dog ran round\nand then it sat",
    "a bird in flight\nabove the tree\nthe moon is bright\nupon the sea",
]


def checked_dimensions(dimensions, references, options) -> tuple[str, ...] | None:
    """The dimensions, checked at construction rather than at the first evaluation."""
    chosen = resolve_dimensions(dimensions)
    part_options = {k: v for k, v in (options or {}).items() if k not in _PROFILE_OPTIONS}
    split_part_options(part_options, chosen)
    if references is None:
        needing = [d for d in chosen if DIMENSIONS[d].needs_references]
        if dimensions is None:
            return tuple(d for d in chosen if d not in needing)
        if needing:
            raise InvalidValueError(
                f"references are required for the {', '.join(needing)} dimension(s); "
                "without them only lexical and semantic can run"
            )
    return None if dimensions is None else chosen


def check_diversity_values(
    dimensions: tuple[str, ...] | None, references: Any, options: dict[str, Any]
) -> None:
    """Run each chosen dimension (all when None) with its options on :data:`_TINY_POEMS`, so
    that a value its core function refuses (``length_bins=0``) fails now, named as the user
    gave it; the semantic dimension's values are checked without loading the encoder."""
    chosen = resolve_dimensions(dimensions)
    if references is None:
        chosen = tuple(d for d in chosen if not DIMENSIONS[d].needs_references)
    part_options = {k: v for k, v in options.items() if k not in _PROFILE_OPTIONS}
    by_dimension = split_part_options(part_options, chosen)
    if "human_samples" in options and options["human_samples"] is not None:
        require_positive_int(options["human_samples"], "diversity_options['human_samples']")
    for dimension in chosen:
        given = by_dimension[dimension]
        try:
            if dimension == "semantic":
                _check_semantic(given)
                continue
            refs = _TINY_POEMS if DIMENSIONS[dimension].needs_references else None
            DIMENSIONS[dimension].run(list(_TINY_POEMS), refs, given, [], False)
        except (InvalidValueError, InvalidTypeError) as error:
            kind = type(error)
            raise kind(f"diversity_options ({dimension}): {error}") from error


def _check_semantic(options: dict[str, Any]) -> None:
    for name in ("batch_size", "block_size"):
        if name in options:
            require_positive_int(options[name], f"semantic_{name}")
    if "encoding" in options:
        check_encoding(options["encoding"])


def trainer_tokenizer(trainer: Any) -> Any:
    """The trainer's ``processing_class``; an error when it has none."""
    tokenizer = getattr(trainer, "processing_class", None)
    if tokenizer is None:
        raise InvalidValueError(
            "the trainer has no processing_class: pass tokenizer= to the callback"
        )
    return tokenizer


def pair_sequences(
    model: Any, tokenizer: Any, pairs: tuple[list[str], list[str]] | None
) -> tuple[list[list[int]], int] | None:
    """The good then the bad texts as the token ids the scorer reads, and the number of pairs;
    a text longer than the model's context (or with no tokens) is named by its side and row."""
    if pairs is None:
        return None
    lm = load_language_model((model, tokenizer), device=model.device)
    sequences = []
    for side, texts in zip(("good", "bad"), pairs):
        try:
            sequences += causal_sequences(lm, texts)[0]
        except InvalidValueError as error:
            message = str(error).replace("texts[", f"pairs {side}[", 1)
            raise InvalidValueError(f"{message}: shorten or leave out that pair") from error
    return sequences, len(pairs[0])
