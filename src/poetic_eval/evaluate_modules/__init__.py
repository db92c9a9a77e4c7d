"""The `evaluate` glue: locating and loading this package's metric modules
(:mod:`.locations`), the bare-name pointers (:mod:`.bare_names`), the input mixins the metric
modules share (:mod:`.inputs`) and each metric as a hub Space (:mod:`.spaces`).

Bare names
----------
How ``evaluate`` (0.4.6, ``evaluate/loading.py``, ``evaluation_module_factory``) resolves a bare
name such as ``"mtld"``:

1. the local script ``mtld/mtld.py``, relative to the current folder;
2. the hub's canonical Spaces ``evaluate-metric/mtld``, ``evaluate-comparison/mtld`` and
   ``evaluate-measurement/mtld`` (``HubEvaluationModuleFactory``);
3. when every hub attempt failed (offline, unreachable, or no such Space), its dynamic-modules
   cache (``CachedEvaluationModuleFactory``): the newest
   ``$HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--mtld/<64-hex hash>/mtld.py``,
   which is where step 2 leaves each module it downloads.

:func:`install_metrics` (``poetic-eval install-metrics``, run by ``make setup``) writes step 3's
entry for every metric of the package, so a bare name works in a fresh process in any folder,
offline and online. The entry is a *pointer*, not a copy: it imports the metric's class from
the module the installed poetic-eval ships (:func:`.locations.metric_class`), so it follows
upgrades and edits of an editable install and serves every virtual environment that shares the
cache. Should the hub ever publish a canonical module with the same name,
step 2 finds it first; :func:`poetic_eval.load_metric` always loads ours.
"""

from .bare_names import install_metrics
from .inputs import ColumnInputs, PoemCorpusInputs, PoemInputs, checked_columns
from .locations import available_metrics, load_metric, metric_path

__all__ = [
    "ColumnInputs",
    "PoemCorpusInputs",
    "PoemInputs",
    "available_metrics",
    "checked_columns",
    "install_metrics",
    "load_metric",
    "metric_path",
]
