"""Where researchers already work: lm-evaluation-harness tasks and a transformers Trainer callback.

* :func:`write_harness_tasks` (``poetic-eval harness-tasks``): harness task configs for the built
  minimal-pair and BLM datasets, whose accuracy equals :func:`poetic_eval.lm.score_pairs` +
  :func:`poetic_eval.pairs.pair_preference`; :func:`harness_model_args` and
  :func:`harness_lm` run the harness under the same scoring convention.
* :class:`PoeticDiversityCallback`: every N training steps, generate poems with the model being
  trained and log their diversity profile (and minimal-pair accuracy) through ``trainer.log``;
  at each evaluation, add them to the evaluation metrics (``eval_poetic/<name>``) so that
  ``metric_for_best_model`` and ``EarlyStoppingCallback`` can select on them; its options in
  two groups, :class:`PoemSampling` (what to sample) and :class:`PairScoring` (which pairs).
"""

from __future__ import annotations

from .callback_options import PairScoring, PoemSampling
from .harness_models import harness_lm, harness_model_args
from .harness_tasks import write_harness_tasks
from .poem_generation import generate_poems
from .trainer_callback import PoeticDiversityCallback

__all__ = [
    "PairScoring",
    "PoemSampling",
    "PoeticDiversityCallback",
    "generate_poems",
    "harness_lm",
    "harness_model_args",
    "write_harness_tasks",
]
