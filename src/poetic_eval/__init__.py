"""poetic-eval: poetic and linguistic minimal-pair benchmarks and poetry-diversity metrics.

The metrics are `evaluate` modules; :func:`metric_path` finds their folder, in a source
checkout or in an installed wheel, and :func:`load_metric` loads one offline::

    import poetic_eval
    mtld = poetic_eval.load_metric("mtld")
    mtld.compute(predictions=["the cat sat on the mat\\nand so did I"])

After ``poetic-eval install-metrics`` (which ``make setup`` runs), ``evaluate.load("mtld")``
works by bare name too (see :mod:`poetic_eval.evaluate_modules.bare_names`).
"""

from __future__ import annotations

from .evaluate_modules.bare_names import install_metrics
from .evaluate_modules.locations import available_metrics, load_metric, metric_path

__version__ = "0.1.0"

__all__ = ["__version__", "available_metrics", "install_metrics", "load_metric", "metric_path"]
