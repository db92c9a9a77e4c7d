"""Stage 1 of the de-duplication: the sequential pass over overlapping windows.

QuaTrain holds every 4-line window (stride 1) of each stanza, so a stanza of ``L`` lines gives
``L - 3`` consecutive records, each starting one line after the previous. The pass (paper
section 5.1 and its public notebook) reads the records in source order:

- record ``i`` *continues* record ``i - 1`` when its line 1 equals line 2 of record ``i - 1``
  (exact strings; the first record continues nothing);
- a *run* is a maximal sequence of records each continuing the one before;
- each run is cut into groups of at most 4 consecutive records and the first of each group is
  kept: positions 0, 4, 8, ... of the run, i.e. the non-overlapping windows of the stanza.

A stanza of 4 to 7 lines keeps one window, 8 to 11 lines two, and so on; the last lines of a
stanza whose length is not a multiple of 4 are dropped. The pass is one vectorised comparison
over the ``(n, 4)`` line-id array.
"""

from __future__ import annotations

import numpy as np


def run_positions(line_ids: np.ndarray) -> np.ndarray:
    """Position of each record in its run (0 for a record that continues nothing)."""
    line_ids = np.asarray(line_ids)
    n = line_ids.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.ones(n, dtype=bool)
    starts[1:] = line_ids[1:, 0] != line_ids[:-1, 1]
    index = np.arange(n, dtype=np.int64)
    run_start = np.maximum.accumulate(np.where(starts, index, 0))
    return index - run_start


def sequential_pass(line_ids: np.ndarray) -> np.ndarray:
    """Boolean mask of the records kept by the sequential pass (positions 0, 4, 8, ... of each
    run) over the ``(n, 4)`` line ids of records in source order."""
    return run_positions(line_ids) % 4 == 0
