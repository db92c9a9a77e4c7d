"""``generate`` options checked against the model before any sampling, with "did you mean".

``model.generate(**options)`` sorts its options the way this check does: the ones that name a
field of the model's ``GenerationConfig`` set it (and the config's own validation refuses bad
values), the named parameters of ``generate`` are taken as such, and what remains must be an
input of the model's forward pass (``generate`` raises "model_kwargs are not used by the model"
otherwise, at the first call: in a training run, the first evaluation).

``GenerationConfig.validate`` leaves some values to the logits processors that ``generate``
builds at each call (a ``temperature`` of -1, a ``top_p`` above 1) or to the search itself
(``num_beams=0`` divides by zero): those are checked here by building the same public
processors from the options given (:func:`_check_sampling_values`).
"""

from __future__ import annotations

import copy
import difflib
import inspect
from collections.abc import Mapping
from typing import Any

from ..errors import InvalidTypeError, InvalidValueError

# set by generate_poems itself on every call
_SET_BY_THE_SAMPLER = ("input_ids", "attention_mask", "inputs", "pad_token_id")
# taken out of **kwargs by generate before the model inputs are checked
_GENERATE_KWARGS = ("tokenizer", "assistant_tokenizer", "trust_remote_code")


def check_generation_kwargs(model: Any, options: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` naming an option ``model.generate`` would refuse or ignore."""
    from transformers import GenerationConfig

    given = ", ".join(repr(key) for key in options if key in _SET_BY_THE_SAMPLER)
    if given:
        raise InvalidValueError(
            f"generation_kwargs: {given}: the poem sampler sets these; leave them out"
        )
    config = copy.deepcopy(getattr(model, "generation_config", None) or GenerationConfig())
    try:
        unused = config.update(**options)
        config.validate(strict=False)
        _check_sampling_values(config, options)
    except (ValueError, TypeError) as error:
        raise InvalidValueError(f"generation_kwargs: {error}") from error
    if not hasattr(model, "prepare_inputs_for_generation"):
        return  # not a transformers generation model: generate's own checks apply
    known = _generate_parameters(model) | _model_inputs(model)
    for key in unused:
        if key not in known:
            names = set(GenerationConfig().to_dict()) | known
            close = difflib.get_close_matches(key, sorted(names), n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InvalidValueError(
                f"generation_kwargs: {key!r} is neither a GenerationConfig field, an argument "
                f"of generate nor an input of {type(model).__name__}{hint}"
            )


# option -> the public processor generate builds from it, whose constructor checks the value
# (the first seven only when sampling: generate builds them only with do_sample)
_PROCESSORS = {
    "temperature": "TemperatureLogitsWarper",
    "top_k": "TopKLogitsWarper",
    "top_p": "TopPLogitsWarper",
    "min_p": "MinPLogitsWarper",
    "typical_p": "TypicalLogitsWarper",
    "epsilon_cutoff": "EpsilonLogitsWarper",
    "eta_cutoff": "EtaLogitsWarper",
    "repetition_penalty": "RepetitionPenaltyLogitsProcessor",
    "no_repeat_ngram_size": "NoRepeatNGramLogitsProcessor",
}
# counts generate divides by or loops over: at least 1
_COUNTS = ("num_beams", "num_beam_groups", "num_return_sequences")


def _check_sampling_values(config: Any, options: Mapping[str, Any]) -> None:
    """ValueError for a value of ``options`` that ``generate`` would refuse only at its call:
    each option of :data:`_PROCESSORS` given (not None) that ``generate`` would use builds its
    processor, as ``generate`` does; the counts of :data:`_COUNTS` must be integers >= 1."""
    from transformers import generation

    used = _PROCESSORS if config.do_sample else dict(list(_PROCESSORS.items())[7:])
    for name, processor in used.items():
        value = options.get(name)
        if value is not None and not isinstance(value, bool):
            try:
                getattr(generation, processor)(value)
            except ValueError as error:  # its message may name its own parameter ("penalty")
                raise InvalidValueError(f"{name}={value!r}: {error}") from None
        elif isinstance(value, bool):
            raise InvalidTypeError(f"{name} must be a number, got {value!r}")
    for name in _COUNTS:
        value = getattr(config, name, None)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < 1
        ):
            raise InvalidValueError(f"{name} must be an integer >= 1, got {value!r}")


def _generate_parameters(model: Any) -> set[str]:
    parameters = inspect.signature(model.generate).parameters
    variadic = (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
    named = {name for name, parameter in parameters.items() if parameter.kind not in variadic}
    return named | set(_GENERATE_KWARGS)


def _model_inputs(model: Any) -> set[str]:
    """What generate passes on to the model: as in ``GenerationMixin._validate_model_kwargs``."""
    from transformers.utils import TransformersKwargs

    names = set(inspect.signature(model.prepare_inputs_for_generation).parameters)
    if "kwargs" in names or "model_kwargs" in names:
        names |= set(inspect.signature(model.forward).parameters)
    names -= {"kwargs", "model_kwargs", "args", "self"}
    return names | set(TransformersKwargs.__optional_keys__)
