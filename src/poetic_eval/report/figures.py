"""The paper's diversity figures, generated next to human, as PNG files.

Figures are drawn on a :class:`matplotlib.figure.Figure` with an explicit Agg canvas, so no
display and no pyplot state are involved (safe in scripts, servers and notebooks alike), and
saved atomically (temporary file, then rename).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..errors import InvalidValueError
from ..files import atomic_path

GENERATED_COLOUR = "#c0504d"
HUMAN_COLOUR = "#4f81bd"


def _new_figure(columns: int, *, width_per_panel: float = 4.2, height: float = 3.4):
    figure = Figure(figsize=(width_per_panel * columns, height), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(1, columns, sharey=True, squeeze=False)[0]
    return figure, axes


def save_figure(figure: Figure, path: str | Path, *, dpi: int = 120) -> Path:
    """Write ``figure`` as PNG to ``path`` atomically and return the path."""
    with atomic_path(path) as staging:
        figure.savefig(staging, format="png", dpi=dpi)
    return Path(path)


def length_histograms(
    generated: Sequence[float],
    human: Sequence[float],
    path: str | Path,
    *,
    bins: int = 30,
    labels: tuple[str, str] = ("generated", "human"),
) -> Path:
    """Side-by-side histograms of poem lengths (tokens), same bins, as shares of poems."""
    generated, human = np.asarray(generated, float), np.asarray(human, float)
    low, high = min(generated.min(), human.min()), max(generated.max(), human.max())
    # all lengths equal: linspace would give bins of width 0, so one bin around the value; the
    # weights 1/n make bars shares, so panels of different sizes compare
    edges = np.linspace(low, high, bins + 1) if high > low else np.array([low - 0.5, low + 0.5])
    figure, axes = _new_figure(2)
    for axis, values, label, colour in zip(
        axes, (generated, human), labels, (GENERATED_COLOUR, HUMAN_COLOUR)
    ):
        axis.hist(values, bins=edges, weights=np.full(values.size, 1 / values.size), color=colour)
        axis.set_title(f"{label} (n={values.size}, mean={values.mean():.1f})")
        axis.set_xlabel("length (tokens)")
    axes[0].set_ylabel("share of poems")
    return save_figure(figure, path)


def rhyme_scheme_bars(
    generated: Mapping[str, float],
    human: Mapping[str, float],
    path: str | Path,
    *,
    labels: tuple[str, str] = ("generated", "human"),
) -> Path:
    """Side-by-side bar charts of the rhyme-scheme distributions (same scheme order)."""
    schemes = list(generated)
    if list(human) != schemes:
        raise InvalidValueError(
            "generated and human scheme distributions must list the same schemes"
        )
    figure, axes = _new_figure(2, width_per_panel=5.0)
    for axis, distribution, label, colour in zip(
        axes, (generated, human), labels, (GENERATED_COLOUR, HUMAN_COLOUR)
    ):
        axis.bar(schemes, [distribution[s] for s in schemes], color=colour)
        axis.set_title(label)
        axis.tick_params(axis="x", labelrotation=90)
        axis.set_xlabel("rhyme scheme")
    axes[0].set_ylabel("share of quatrains")
    return save_figure(figure, path)


def max_similarity_histograms(
    series: Mapping[str, Sequence[float]], path: str | Path, *, bins: int = 30
) -> Path:
    """One histogram per series of per-poem maximum cosine similarities, side by side, shared
    bins (e.g. {"generated within": ..., "generated across": ..., "human within": ...})."""
    if not series:
        raise InvalidValueError("max_similarity_histograms needs at least one series")
    arrays = {name: np.asarray(values, float) for name, values in series.items()}
    low = min(float(a.min()) for a in arrays.values())
    high = max(float(a.max()) for a in arrays.values())
    # one bin around a single value, narrow as similarities live in [-1, 1]
    edges = np.linspace(low, high, bins + 1) if high > low else np.array([low - 0.01, high + 0.01])
    figure, axes = _new_figure(len(arrays))
    for axis, (name, values) in zip(axes, arrays.items()):
        colour = HUMAN_COLOUR if name.startswith("human") else GENERATED_COLOUR
        axis.hist(values, bins=edges, weights=np.full(values.size, 1 / values.size), color=colour)
        axis.axvline(values.mean(), color="black", linestyle="--", linewidth=1)
        axis.set_title(f"{name} (mean={values.mean():.3f})")
        axis.set_xlabel("max cosine similarity")
    axes[0].set_ylabel("share of poems")
    return save_figure(figure, path)


def accuracy_bars(
    accuracy: Mapping[str, float],
    path: str | Path,
    *,
    intervals: Mapping[str, tuple[float, float]] | None = None,
    chance: float | None = 0.5,
) -> Path:
    """Horizontal bars of accuracy per category, with optional (low, high) interval whiskers
    and a dashed chance line."""
    if not accuracy:
        raise InvalidValueError("accuracy_bars needs at least one category")
    names = list(accuracy)
    values = np.array([accuracy[name] for name in names], float)
    # height in inches: room for the axis plus a fixed height per bar, so labels never overlap
    figure = Figure(figsize=(7.0, 0.9 + 0.28 * len(names)), layout="constrained")
    FigureCanvasAgg(figure)
    axis = figure.subplots()
    error = None
    if intervals is not None:
        bounds = np.array([intervals[name] for name in names], float)
        # whiskers are distances from the bar; an interval that misses its value would give a
        # negative one, which matplotlib refuses
        error = np.vstack([values - bounds[:, 0], bounds[:, 1] - values]).clip(min=0)
    axis.barh(names, values, xerr=error, color=GENERATED_COLOUR, capsize=2)
    if chance is not None:
        axis.axvline(chance, color="black", linestyle="--", linewidth=1)
    axis.set_xlim(0, 1)
    # barh puts the first category at the bottom: inverted, the bars read in the mapping's order
    axis.invert_yaxis()
    axis.set_xlabel("accuracy")
    return save_figure(figure, path)
