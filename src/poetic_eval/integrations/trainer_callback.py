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
from ..diversity import diversity_profile
from ..errors import InvalidValueError
from ..lm import load_language_model
from ..lm.distributed import shard_bounds
from ..pairs import pair_preference
from ..text import PoemCorpus, require_texts, resolve_language
from .callback_checks import (
    check_diversity_values,
    checked_dimensions,
    pair_sequences,
    trainer_tokenizer,
)
from .callback_options import PairScoring, PoemSampling, grouped_options
from .generation_options import check_generation_kwargs
from .poem_generation import DEFAULT_GENERATION_KWARGS, generate_poems


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
        at_evaluation: also compute the metrics at each of the Trainer's evaluations and add
            them to its evaluation metrics.
        dimensions: diversity dimensions to compute (default all that the data allows).
        diversity_options: options of :func:`poetic_diversity`: ``<dimension>_<option>``
            (``semantic_model``, ``memorization_thresholds`` ...), ``human_samples``, ``seed``;
            their names, types and values are checked when the callback is built.
        sampling: what to sample (:class:`~.callback_options.PoemSampling`: ``num_poems``,
            ``generation_kwargs``, ``seed``, ``batch_size``, ``include_prompt``).
        scoring: which minimal pairs to score (:class:`~.callback_options.PairScoring`:
            ``pairs``, ``config``, ``split``, ``limit``, ``batch_size``; default none).
        tokenizer: default ``trainer.processing_class``.
        **keywords: ``language``, the poems' language, "en" (default) or "de"
            (:func:`poetic_diversity`'s ``language``: rhyme, tokens and the semantic encoder's
            warning follow it); the fields of the two groups by their keywords of before
            (``num_poems``, ``generation_kwargs``, ``seed``, ``generation_batch_size``,
            ``include_prompt``, ``pairs``, ``pairs_config``, ``pairs_split``, ``pairs_limit``,
            ``pairs_batch_size``), and ``prefix`` (prepended to every key logged every N
            steps, default ``"poetic/"``) and ``eval_prefix`` (prepended to every key added to
            the evaluation metrics, default ``"eval_poetic/"``:
            ``metric_for_best_model="eval_poetic/mtld"``).
    """

    @typed_options
    def __init__(
        self,
        trainer: Any,
        prompts: Sequence[str],
        references: Sequence[str] | None,
        *,
        every_n_steps: int | None = 500,
        at_evaluation: bool = True,
        dimensions: str | Sequence[str] | None = None,
        diversity_options: dict[str, Any] | None = None,
        sampling: PoemSampling | None = None,
        scoring: PairScoring | None = None,
        **keywords: Any,
    ) -> None:
        # kept out of the signature's ten parameters: keywords like the groups' fields
        self.language = resolve_language(keywords.pop("language", None))
        tokenizer = keywords.pop("tokenizer", None)
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
        self.at_evaluation = at_evaluation
        self.sampling, self.scoring, prefixes = grouped_options(sampling, scoring, keywords)
        self.prefix, self.eval_prefix = prefixes["prefix"], prefixes["eval_prefix"]
        self.dimensions = checked_dimensions(dimensions, self.references, diversity_options)
        self.diversity_options = dict(diversity_options or {})
        check_diversity_values(self.dimensions, self.references, self.diversity_options)
        check_generation_kwargs(
            trainer.model, {**DEFAULT_GENERATION_KWARGS, **self.sampling.generation_kwargs}
        )
        self.tokenizer = tokenizer if tokenizer is not None else trainer_tokenizer(trainer)
        self.last_poems: list[str] = []
        # the pairs, tokenized once, now: one longer than the model's context fails here
        self._pair_sequences = pair_sequences(trainer.model, self.tokenizer, self.scoring.pairs)
        # while training, the metrics of the last step they were computed at: the model does
        # not change within a step, so a step's logging and evaluation(s) sample once
        self._in_training = False
        self._step_metrics: tuple[int, dict[str, float]] | None = None
        self._eval_logged_step: int | None = None

    # the options by their names of before the groups, read by existing code
    num_poems = property(lambda self: self.sampling.num_poems)
    generation_kwargs = property(lambda self: self.sampling.generation_kwargs)
    seed = property(lambda self: self.sampling.seed)
    generation_batch_size = property(lambda self: self.sampling.batch_size)
    include_prompt = property(lambda self: self.sampling.include_prompt)
    pairs = property(lambda self: self.scoring.pairs)
    pairs_batch_size = property(lambda self: self.scoring.batch_size)

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
                language=self.language,
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


def _loggable(value: Any) -> float | int:
    """Python numbers for the log (numpy integers are not JSON-serialisable)."""
    if isinstance(value, (bool, np.bool_, int, np.integer)):
        return int(value)
    return float(value)
