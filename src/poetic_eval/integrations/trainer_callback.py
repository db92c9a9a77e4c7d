"""PoeticDiversityCallback: the diversity of a poetry model's samples, logged while it trains.

Every ``every_n_steps`` optimizer steps the callback samples ``num_poems`` poems from the
prompts with the model being trained (seeded, in eval mode, its training mode and the training
run's random state restored afterwards), computes
:func:`poetic_eval.diversity.poetic_diversity` against the reference corpus and, when given a
minimal-pair set, the accuracy :func:`poetic_eval.pairs.pair_preference` of
:func:`poetic_eval.lm.score_pairs`, and logs one flat dict through ``trainer.log`` with keys
``poetic/<metric>`` (``poetic/mtld``, ``poetic/memorization_verse``, ``poetic/pairs_accuracy``
...). ``trainer.log`` records it in ``trainer.state.log_history`` and hands it to every reporter
(TensorBoard, W&B, ...); a callback that adds keys to ``logs`` in ``on_log`` reaches nobody,
because the Trainer has recorded and reported them by then.

At every evaluation of the Trainer (``eval_strategy``) the callback also adds the same numbers to
the evaluation metrics as ``eval_poetic/<metric>``, in ``on_evaluate``: ``Trainer.evaluate``
hands its ``metrics`` dict to the callbacks and then returns that same dict to the training
loop, which reads ``metric_for_best_model`` from it (``_determine_best_metric``) before it
saves the checkpoint; so ``metric_for_best_model="eval_poetic/mtld"``,
``load_best_model_at_end`` and ``EarlyStoppingCallback`` select on them. The Trainer has logged
its evaluation dict before ``on_evaluate``, so the callback logs its additions itself.

Work done once: the references become a :class:`poetic_eval.text.PoemCorpus`, which keeps their
memorization units, lengths, rhyme schemes, lexical scores and sentence embeddings after the
first evaluation; the pairs are tokenized once (:func:`poetic_eval.lm.causal_sequences`).

Several processes (torchrun, accelerate; DDP): each process samples its share of the poems and
scores its shard of the pairs; the poems and scores are gathered, the metrics are computed once,
and the main process logs them (what the Trainer's reporters do with every log). The numbers
equal a one-process run. Setups that shard the parameters themselves (FSDP, DeepSpeed ZeRO-3)
are not supported.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from transformers import TrainerCallback

from ..checks import require_positive_int, typed_options
from ..diversity import diversity_profile, resolve_dimensions
from ..diversity.dimensions import DIMENSIONS
from ..diversity.profile import split_part_options
from ..errors import InvalidTypeError, InvalidValueError
from ..lm import causal_sequences, load_language_model
from ..lm.distributed import shard_bounds
from ..pairs import pair_columns, pair_preference
from ..text import PoemCorpus, require_texts
from .generation_options import check_generation_kwargs
from .poem_generation import DEFAULT_GENERATION_KWARGS, generate_poems

_PROFILE_OPTIONS = ("human_samples", "seed")


class PoeticDiversityCallback(TrainerCallback):
    """Log the diversity (and minimal-pair accuracy) of the model's poems every N steps.

    Args:
        trainer: the ``transformers.Trainer`` (or TRL trainer) this callback is added to with
            ``trainer.add_callback(callback)``.
        prompts: prompts the poems are sampled from, used in turn.
        references: the human corpus (a list of poems or a PoemCorpus); None runs only the
            dimensions that need none (``["lexical", "semantic"]``).
        every_n_steps: evaluate and log after every N-th optimizer step (None: only at the
            Trainer's evaluations).
        num_poems: poems sampled per evaluation.
        dimensions: diversity dimensions to compute (default all that the data allows).
        generation_kwargs: ``model.generate`` options over
            :data:`~poetic_eval.integrations.poem_generation.DEFAULT_GENERATION_KWARGS`,
            checked against the model at construction (a misspelt option is named, with the
            closest valid one).
        seed: sampling seed; the same at every evaluation, so that differences between
            evaluations come from the model, not from the draw.
        generation_batch_size: poems per ``generate`` call.
        include_prompt: a poem is its prompt plus the generated text (default: the text only).
        diversity_options: options of :func:`poetic_diversity`: ``<dimension>_<option>``
            (``semantic_model``, ``memorization_thresholds`` ...), ``human_samples``, ``seed``.
        pairs: minimal pairs to score: ``(good, bad)`` lists, a ``datasets.Dataset`` with
            ``good``/``bad`` or ``sentence_good``/``sentence_bad`` columns, or a dataset folder
            or hub name loaded with ``pairs_config`` and ``pairs_split``.
        pairs_limit: score only the first N pairs.
        pairs_batch_size: packed prefix trees per forward pass when scoring.
        prefix: prepended to every key logged every N steps.
        at_evaluation: also compute the metrics at each of the Trainer's evaluations and add
            them to its evaluation metrics.
        eval_prefix: prepended to every key added to the evaluation metrics
            (``metric_for_best_model="eval_poetic/mtld"``).
        tokenizer: default ``trainer.processing_class``.
    """

    @typed_options
    def __init__(
        self,
        trainer: Any,
        prompts: Sequence[str],
        references: Sequence[str] | None,
        *,
        every_n_steps: int | None = 500,
        num_poems: int = 100,
        dimensions: str | Sequence[str] | None = None,
        generation_kwargs: dict[str, Any] | None = None,
        seed: int = 0,
        generation_batch_size: int = 8,
        include_prompt: bool = False,
        diversity_options: dict[str, Any] | None = None,
        pairs: Any = None,
        pairs_config: str | None = None,
        pairs_split: str = "test",
        pairs_limit: int | None = None,
        pairs_batch_size: int = 4,
        prefix: str = "poetic/",
        at_evaluation: bool = True,
        eval_prefix: str = "eval_poetic/",
        tokenizer: Any = None,
    ) -> None:
        self.trainer = trainer
        self.prompts = require_texts(prompts, "prompts")
        self.references = None if references is None else PoemCorpus(references)
        if every_n_steps is not None:
            require_positive_int(every_n_steps, "every_n_steps")
        elif not at_evaluation:
            raise InvalidValueError(
                "every_n_steps=None and at_evaluation=False: nothing would be logged"
            )
        self.every_n_steps = every_n_steps
        self.num_poems = require_positive_int(num_poems, "num_poems")
        self.dimensions = _checked_dimensions(dimensions, self.references, diversity_options)
        self.diversity_options = dict(diversity_options or {})
        self.generation_kwargs = dict(generation_kwargs or {})
        check_generation_kwargs(
            trainer.model, {**DEFAULT_GENERATION_KWARGS, **self.generation_kwargs}
        )
        self.seed = seed
        self.generation_batch_size = require_positive_int(
            generation_batch_size, "generation_batch_size"
        )
        self.include_prompt = include_prompt
        self.pairs = load_pairs(pairs, pairs_config, pairs_split, pairs_limit)
        self.pairs_batch_size = require_positive_int(pairs_batch_size, "pairs_batch_size")
        self.prefix = prefix
        self.at_evaluation = at_evaluation
        self.eval_prefix = eval_prefix
        if tokenizer is None:
            tokenizer = getattr(trainer, "processing_class", None)
        self.tokenizer = tokenizer
        if tokenizer is None:
            raise InvalidValueError(
                "the trainer has no processing_class: pass tokenizer= to the callback"
            )
        self.last_poems: list[str] = []
        self._pair_sequences: tuple[list[list[int]], int] | None = None
        # while training, the metrics of the last step they were computed at: the model does
        # not change within a step, so a step's logging and evaluation(s) sample once
        self._in_training = False
        self._step_metrics: tuple[int, dict[str, float]] | None = None
        self._eval_logged_step: int | None = None

    def on_train_begin(self, args, state, control, **kwargs):
        self._in_training, self._step_metrics, self._eval_logged_step = True, None, None
        if self.at_evaluation:
            _run_before_early_stopping(self, self.trainer.callback_handler.callbacks)
        return control

    def on_train_end(self, args, state, control, **kwargs):
        # the best checkpoint may have been loaded: an evaluation after this samples again
        self._in_training, self._step_metrics = False, None
        return control

    def on_step_end(self, args, state, control, **kwargs):
        every = self.every_n_steps
        if every is not None and state.global_step > 0 and state.global_step % every == 0:
            should_log = control.should_log
            self.evaluate()
            # trainer.log clears should_log (CallbackHandler.on_log): restore it, or the
            # Trainer would skip its own log of this step (the loss, the learning rate)
            control.should_log = should_log
        return control

    def on_evaluate(self, args, state, control, metrics=None, **kwargs):
        """Add the metrics, as ``eval_prefix + name``, to the Trainer's evaluation metrics
        (every process, so that each selects the same best checkpoint) and log them once."""
        if not self.at_evaluation or metrics is None:
            return control
        added = {self.eval_prefix + k: v for k, v in self._on_every_process().items()}
        step = state.global_step
        selected = _selected_metric(args)
        if added and selected.startswith(self.eval_prefix) and selected not in added:
            warnings.warn(
                f"{selected} could not be computed at step {step} (see the warnings above); "
                "it counts as NaN: never the best, and no improvement for early stopping",
                stacklevel=2,
            )
            added[selected] = float("nan")
        metrics.update(added)
        if added and not (self._in_training and self._eval_logged_step == step):
            self._eval_logged_step = step
            should_log = control.should_log
            self.trainer.log(dict(added))
            control.should_log = should_log
        return control

    def evaluate(self) -> dict[str, float]:
        """Sample, score and log now (every process must call it); returns the logged dict
        (empty on processes other than the main one)."""
        metrics = self.compute_metrics()
        if metrics:
            self.trainer.log(dict(metrics))
        return metrics

    def compute_metrics(self) -> dict[str, float]:
        """The metrics of the model as it is now, on the main process ({} on the others)."""
        return {self.prefix + key: value for key, value in self._metrics_now().items()}

    def _metrics_now(self) -> dict[str, float]:
        """The unprefixed metrics, computed once per optimizer step while training."""
        step = self.trainer.state.global_step
        if self._in_training and self._step_metrics and self._step_metrics[0] == step:
            return self._step_metrics[1]
        metrics = self._sampled_metrics()
        if self._in_training:
            self._step_metrics = (step, metrics)
        return metrics

    def _on_every_process(self) -> dict[str, float]:
        """The metrics on every process (computed on the main one, then shared)."""
        metrics = self._metrics_now()
        processes = self._processes()
        if processes["num_processes"] > 1:
            metrics = processes["gather"]([metrics])[0]
        return metrics

    def _sampled_metrics(self) -> dict[str, float]:
        """Sample and score now: the metrics on the main process ({} on the others)."""
        model = self.trainer.model
        was_training = model.training
        model.eval()
        try:
            poems = generate_poems(
                model,
                self.tokenizer,
                self.prompts,
                self.num_poems,
                generation_kwargs=self.generation_kwargs,
                seed=self.seed,
                batch_size=self.generation_batch_size,
                include_prompt=self.include_prompt,
                **self._processes(),
            )
            pair_scores = self._score_pairs(model) if self.pairs is not None else None
        finally:
            model.train(was_training)
        self.last_poems = poems
        if not self._is_main_process():
            return {}
        metrics = self._diversity(poems)
        if pair_scores is not None:
            summary = pair_preference(*pair_scores)
            metrics.update(pairs_accuracy=summary["accuracy"], pairs_ties=summary["ties"])
        return {key: _loggable(value) for key, value in metrics.items()}

    def _diversity(self, poems: list[str]) -> dict[str, float]:
        kept = [poem for poem in poems if poem.strip()]
        metrics: dict[str, float] = {"blank_poems": len(poems) - len(kept)}
        if len(kept) < 2:
            warnings.warn(
                f"{len(kept)} of {len(poems)} sampled poems are not blank: diversity needs at "
                "least 2; only blank_poems is logged this time",
                stacklevel=3,
            )
            return metrics
        metrics.update(self._diversity_scores(kept))
        return metrics

    def _diversity_scores(self, poems: list[str]) -> dict[str, float]:
        """The diversity scores; a dimension these poems cannot score (rhyme, early in training,
        before any 4-line poem) is left out this time, with a warning, the others run once."""
        named = self.dimensions is not None
        with warnings.catch_warnings():
            if named:  # the core's "<dimension> dimension skipped" is reworded below
                warnings.filterwarnings("ignore", message=r"\w+ dimension skipped: ")
            profile = diversity_profile(
                poems,
                self.references,
                dimensions=self.dimensions,
                skip_unscorable=True,
                **self._with_device(self.diversity_options),
            )
        if named:
            for dimension, reason in profile.skipped.items():
                warnings.warn(f"{dimension} left out this time: {reason}", stacklevel=4)
        return profile.scores

    def _with_device(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options, with the semantic encoder on the trainer's device unless they name
        one (an encoder instance stays where its owner put it)."""
        runs_semantic = self.dimensions is None or "semantic" in self.dimensions
        model = options.get("semantic_model")
        if not runs_semantic or "semantic_device" in options:
            return options
        if model is not None and not isinstance(model, (str, os.PathLike)):
            return options
        args = getattr(self.trainer, "args", None)
        device = getattr(args, "device", None) or self.trainer.model.device
        return {**options, "semantic_device": str(device)}

    def _score_pairs(self, model) -> tuple[np.ndarray, np.ndarray]:
        """Log-probabilities of the good and bad texts, this process scoring its shard."""
        lm = load_language_model((model, self.tokenizer), device=model.device)
        if self._pair_sequences is None:  # tokenized once
            good, bad = self.pairs
            self._pair_sequences = (causal_sequences(lm, [*good, *bad])[0], len(good))
        sequences, count = self._pair_sequences
        processes = self._processes()
        start, end = shard_bounds(count, processes["process_index"], processes["num_processes"])
        shard = sequences[start:end] + sequences[count + start : count + end]
        totals = lm.score_sequences(shard, batch_size=self.pairs_batch_size) if shard else []
        parts = [(start, totals[: end - start], totals[end - start :])]
        if processes["num_processes"] > 1:
            parts = processes["gather"](parts)
        parts.sort(key=lambda part: part[0])
        good_scores = np.concatenate([np.asarray(part[1], dtype=np.float64) for part in parts])
        bad_scores = np.concatenate([np.asarray(part[2], dtype=np.float64) for part in parts])
        return good_scores, bad_scores

    def _processes(self) -> dict[str, Any]:
        accelerator = getattr(self.trainer, "accelerator", None)
        if accelerator is None or accelerator.num_processes == 1:
            return {"process_index": 0, "num_processes": 1, "gather": None}
        from accelerate.utils import gather_object

        return {
            "process_index": accelerator.process_index,
            "num_processes": accelerator.num_processes,
            "gather": gather_object,
        }

    def _is_main_process(self) -> bool:
        return self._processes()["process_index"] == 0


def _selected_metric(args: Any) -> str:
    """The evaluation key ``metric_for_best_model`` names, as the Trainer completes it."""
    name = getattr(args, "metric_for_best_model", None) or ""
    return name if not name or name.startswith("eval_") else f"eval_{name}"


def _run_before_early_stopping(callback: TrainerCallback, callbacks: list) -> None:
    """Move ``callback`` before the first ``EarlyStoppingCallback`` listed ahead of it, so that
    early stopping reads the metrics it adds in ``on_evaluate``.

    Called from ``on_train_begin`` while the callback handler iterates over this very list:
    moving the current element to an earlier place leaves the iteration's next element as it was
    (the elements between shift one place on, and all of them have been called already).
    """
    from transformers import EarlyStoppingCallback

    place = next((i for i, listed in enumerate(callbacks) if listed is callback), None)
    if place is None:
        return
    early = [i for i in range(place) if isinstance(callbacks[i], EarlyStoppingCallback)]
    if early:
        callbacks.insert(early[0], callbacks.pop(place))


def _checked_dimensions(dimensions, references, options) -> tuple[str, ...] | None:
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


def load_pairs(pairs: Any, config: str | None, split: str, limit: int | None):
    """``(good, bad)`` lists from lists, a ``datasets.Dataset`` or a dataset folder/hub name."""
    if pairs is None:
        return None
    if isinstance(pairs, str):
        import datasets

        pairs = datasets.load_dataset(pairs, config, split=split)
    if hasattr(pairs, "column_names"):
        good_column, bad_column = pair_columns(pairs.column_names)
        pairs = (pairs[good_column], pairs[bad_column])
    if not (isinstance(pairs, tuple) and len(pairs) == 2):
        raise InvalidTypeError(
            "pairs must be (good, bad) lists, a datasets.Dataset or a dataset folder or hub name"
        )
    good, bad = require_texts(pairs[0], "pairs good"), require_texts(pairs[1], "pairs bad")
    if len(good) != len(bad):
        raise InvalidValueError(f"pairs: {len(good)} good texts but {len(bad)} bad ones")
    if limit is not None:
        require_positive_int(limit, "pairs_limit")
        good, bad = good[:limit], bad[:limit]
    return list(good), list(bad)


def _loggable(value: Any) -> float | int:
    """Python numbers for the log (numpy integers are not JSON-serialisable)."""
    if isinstance(value, (bool, np.bool_, int, np.integer)):
        return int(value)
    return float(value)
