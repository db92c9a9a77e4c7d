"""Token log-probabilities of a causal LM, with prefixes shared through prefix trees.

Each forward pass reads a batch of rows, each row one or several
:class:`~poetic_eval.lm.prefix_tree.Pack` objects side by side (a forest). In a pack every
distinct prefix of its sequences is one node, computed once; the row is fed as one sequence with
a tree attention mask (a node attends to itself and its ancestors) and position
ids equal to node depths, which gives each node the hidden state it has in every sequence through
it (:mod:`poetic_eval.lm.pack_forward`). Only nodes with a child are fed (a leaf's
log-probability is read at its parent, and no node attends to a leaf), and the LM head runs only
on the nodes whose successors need a log-probability (never on padding). Prefixes shared by runs
of packs are computed once through the KV cache (:mod:`poetic_eval.lm.shared_root`).

Models whose attention does not honour a custom 4D mask with position ids (e.g. ALiBi models that
derive positions from a 2D mask) fail a one-off self-check and are scored without sharing; a
model whose cache does not reproduce its scores is scored without shared roots.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import torch

from .budget import PACK_TOKENS, forward_positions
from .loaded_model import LoadedModel
from .model_checks import checked_or_warn, probe_ids
from .pack_forward import pack_batch_log_probs, tree_mask_works
from .prefix_tree import (
    Pack,
    pack_prefix_trees,
    pack_rows,
    single_sequence_packs,
    token_budget_batches,
)
from .shared_root import RootRun, SharedRoot, candidate_runs, compute_roots

#: model types whose MLP has three matrices (gate, up, down), for :func:`attention_balance`
GATED_MLP_MODEL_TYPES = frozenset({"llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi3"})
#: how much dearer a multiply-add of attention with a dense tree mask is than one of the linear
#: layers. Chosen by an A/B on 2 loaded cores (default model, best of 2, load 3.6-4.8): 40
#: limerick texts in three rows of 236-372 nodes took 3.81 s, in five of 147-236 2.92 s, though
#: the FLOP estimate without this factor favoured the three; 8 BLM items (two rows of ~310 or
#: four of ~155) and 40 agreement pairs (one row of 308) ran alike (3.07 / 2.99 s, 0.79 / 0.86 s).
ATTENTION_SLOWDOWN = 4


def sequence_log_probs(
    lm: LoadedModel,
    sequences: Sequence[Sequence[int]],
    *,
    share_prefixes: bool = True,
    batch_size: int | None = None,
    pack_tokens: int | None = None,
    progress: Callable | None = None,
    context_lengths: Sequence[int] | None = None,
) -> np.ndarray:
    """Sum over positions 1.. of log p(token | previous tokens), for each token sequence.

    Position 0 (the document-start token) is context only. With ``context_lengths``, the first
    ``context_lengths[i]`` positions of sequence ``i`` (at least the start token) are context
    only: log p(continuation | context), and the LM head skips the nodes that no summed token
    needs (multiple-choice scoring: a long prompt, short answers). Returns float64 sums.

    All sequences go into one lexicographic order, so the packs (prefix trees of at most
    ``pack_tokens`` nodes, default :data:`~poetic_eval.lm.budget.PACK_TOKENS`) share every
    prefix common to neighbouring sequences, whichever item or pair they come from. Packs are
    laid side by side into rows of similar width (:func:`~poetic_eval.lm.prefix_tree.pack_rows`),
    and forward passes take rows while rows x width stays within the model's token budget
    (``batch_size``, when given, also caps the rows per pass). A prefix that the sequences of
    several neighbouring packs share (a preamble of the whole call, opening sentences that
    neighbouring items repeat) is computed once and its cache fed before their packs
    (:mod:`poetic_eval.lm.shared_root`).
    """
    if pack_tokens is None:
        pack_tokens = min(PACK_TOKENS, lm.tokens_per_forward)
    if share_prefixes and not tree_mask_works(lm):
        share_prefixes = False
    starts = np.ones(len(sequences), dtype=np.int64)
    if context_lengths is not None:
        starts = np.maximum(starts, np.asarray(context_lengths, dtype=np.int64))
    options = {
        "batch_size": batch_size,
        "progress": progress,
        "skip_context": context_lengths is not None,
    }
    if share_prefixes:
        packs = pack_prefix_trees(sequences, max_nodes=pack_tokens)
        runs = root_runs(lm, packs, sequences)
        if runs:
            return rooted_log_probs(
                lm, sequences, packs, runs, starts=starts, pack_tokens=pack_tokens, **options
            )
        packs = pack_rows(packs, attention_balance(lm))
    else:
        packs = single_sequence_packs(sequences)
    totals = np.zeros(len(sequences), dtype=np.float64)
    plan = [_Window(packs, [None] * len(packs))]
    _score_windows(lm, plan, starts, totals, tree=share_prefixes, **options)
    return totals


@dataclass
class _Window:
    """Rows scored together, each after the root of one of ``runs`` (an index) or none;
    ``members``: each run's sequence indices. The roots are computed when the window's first
    batch runs and dropped after its last."""

    rows: list[Pack]
    row_runs: list[int | None]
    runs: list[RootRun] = field(default_factory=list)
    members: list[np.ndarray] = field(default_factory=list)
    roots: list[SharedRoot] | None = None


def rooted_log_probs(
    lm: LoadedModel,
    sequences: Sequence[Sequence[int]],
    packs: list[Pack],
    runs: list[RootRun],
    *,
    starts: np.ndarray | None = None,
    pack_tokens: int | None = None,
    batch_size: int | None = None,
    progress: Callable | None = None,
    skip_context: bool = False,
    compute: Callable | None = None,
) -> np.ndarray:
    """:func:`sequence_log_probs` of ``sequences`` packed into ``packs`` (in the packer's order),
    each of ``runs`` scored after its root (:mod:`poetic_eval.lm.shared_root`): the root once
    through the cache, the run's sequences packed again without it. ``starts``: the first summed
    position of each sequence (at least 1). ``compute`` makes the roots (default
    :func:`~poetic_eval.lm.shared_root.compute_roots`; the probe passes wrong ones)."""
    if starts is None:
        starts = np.ones(len(sequences), dtype=np.int64)
    if pack_tokens is None:
        pack_tokens = min(PACK_TOKENS, lm.tokens_per_forward)
    balance = attention_balance(lm)
    in_run = np.zeros(len(packs), dtype=bool)
    for run in runs:
        in_run[run.start : run.stop] = True
    rows = pack_rows([pack for pack, taken in zip(packs, in_run) if not taken], balance)
    plan = [_Window(rows, [None] * len(rows))]
    source = _RootSource(sequences, starts, compute or compute_roots)
    suffix_starts = starts.copy()
    for window_runs in _root_windows(runs, lm.tokens_per_forward):
        window = _Window([], [], window_runs)
        for number, run in enumerate(window_runs):
            members = [index for pack in packs[run.start : run.stop] for index in pack.sequence_ids]
            ids = np.asarray(members, dtype=np.int64)
            window.members.append(ids)
            suffixes = [sequences[index][run.length :] for index in ids]
            suffix_packs = pack_prefix_trees(suffixes, max_nodes=pack_tokens)
            for pack in suffix_packs:
                pack.sequence_ids = [int(ids[index]) for index in pack.sequence_ids]
            # positions now count from the end of the root; the summed positions inside the root are
            # added from the root's own log-probabilities (_window_roots)
            suffix_starts[ids] = np.maximum(starts[ids] - run.length, 0)
            run_rows = pack_rows(suffix_packs, balance)
            window.rows += run_rows
            window.row_runs += [number] * len(run_rows)
        plan.append(window)
    totals = np.zeros(len(sequences), dtype=np.float64)
    _score_windows(
        lm, plan, suffix_starts, totals, tree=True, batch_size=batch_size, progress=progress,
        skip_context=skip_context, source=source,
    )  # fmt: skip
    return totals


@dataclass(frozen=True)
class _RootSource:
    """What a window's roots are made from: the sequences, their first summed positions, and
    the function that computes the roots."""

    sequences: Sequence[Sequence[int]]
    starts: np.ndarray
    compute: Callable


def _window_roots(lm: LoadedModel, window: _Window, source: _RootSource, totals) -> list:
    """Compute the roots of ``window``'s runs and add to ``totals`` the root tokens that each
    sequence sums (those from its start on)."""
    tokens, own_from, next_tokens = [], [], []
    for run, ids in zip(window.runs, window.members):
        tokens.append([int(token) for token in source.sequences[ids[0]][: run.length]])
        first_summed = int(source.starts[ids].min())
        # None: no member sums a position inside the root, so its own log-probabilities are not
        # needed
        own_from.append(first_summed if first_summed < run.length else None)
        next_tokens.append(np.array([source.sequences[index][run.length] for index in ids]))
    roots = source.compute(lm, tokens, own_from, next_tokens)
    for root, ids in zip(roots, window.members):
        for index in ids[source.starts[ids] < root.length]:
            totals[index] += root.log_probs[source.starts[index] : root.length].sum()
    return roots


def _root_windows(runs: list[RootRun], budget: int) -> list[list[RootRun]]:
    """Consecutive runs whose roots together take at most ``budget`` tokens (one run at least):
    the roots of a window are computed in one go and held while its rows are scored."""
    windows: list[list[RootRun]] = []
    # above the budget, so that the first run opens the first window
    held = budget + 1
    for run in runs:
        if held + run.length > budget:
            windows.append([])
            held = 0
        windows[-1].append(run)
        held += run.length
    return windows


def _score_windows(
    lm: LoadedModel,
    plan: list[_Window],
    starts: np.ndarray,
    totals: np.ndarray,
    *,
    tree: bool,
    batch_size: int | None,
    progress: Callable | None,
    skip_context: bool,
    source: _RootSource | None = None,
) -> None:
    """Add to ``totals`` each sequence's node log-probs from position ``starts[i]`` of its
    path on, running every window's rows in token-budget batches (one progress over all), a
    window's roots made from ``source`` when its first batch runs."""
    jobs = []
    for window in plan:
        widths = [pack.width for pack in window.rows]
        batches = token_budget_batches(
            widths, lm.tokens_per_forward, batch_size, forward_positions=forward_positions(lm)
        )
        jobs += [(window, batch, last) for last, batch in _flag_last(batches)]
    iterator = progress(jobs) if progress is not None else jobs
    for window, batch, last in iterator:
        rows = [window.rows[index] for index in batch]
        roots = None
        if window.runs:
            if window.roots is None:
                window.roots = _window_roots(lm, window, source, totals)
            roots = [window.roots[window.row_runs[index]] for index in batch]
        scored = [_scored_nodes(pack, starts) for pack in rows] if skip_context else None
        node_log_probs = pack_batch_log_probs(lm, rows, tree=tree, scored=scored, roots=roots)
        for pack, log_probs in zip(rows, node_log_probs):
            for sequence_id, path in zip(pack.sequence_ids, pack.paths):
                totals[sequence_id] += log_probs[path[starts[sequence_id] :]].sum(dtype=np.float64)
        if last:
            window.roots = None


def _flag_last(batches: list) -> list:
    return [(number == len(batches) - 1, batch) for number, batch in enumerate(batches)]


def attention_balance(lm: LoadedModel) -> float:
    """How many attended positions cost, in attention, what one position costs in the linear
    layers: the multiply-adds per position of the projections and the MLP over those per
    query-key pair, divided by :data:`ATTENTION_SLOWDOWN` (SmolLM2-135M: 3,072 / 4 = 768).
    An estimate from the config (750 without one), for
    :func:`~poetic_eval.lm.prefix_tree.pack_rows`.
    """
    config = getattr(lm.model, "config", None)
    hidden = int(getattr(config, "hidden_size", 0) or 0)
    if hidden <= 0:
        return 750.0
    heads = int(getattr(config, "num_attention_heads", 0) or 1)
    kv_heads = int(getattr(config, "num_key_value_heads", 0) or heads)
    head_dim = int(getattr(config, "head_dim", 0) or hidden // heads)
    intermediate = int(getattr(config, "intermediate_size", 0) or 4 * hidden)
    gated = 3 if getattr(config, "model_type", "") in GATED_MLP_MODEL_TYPES else 2
    linear = 2 * hidden * heads * head_dim + 2 * hidden * kv_heads * head_dim
    linear += gated * hidden * intermediate
    return linear / (2 * heads * head_dim) / ATTENTION_SLOWDOWN


def _scored_nodes(pack: Pack, starts: np.ndarray) -> np.ndarray:
    """Whether each node of ``pack`` is a summed (non-context) position of some sequence."""
    scored = np.zeros(len(pack), dtype=bool)
    for sequence_id, path in zip(pack.sequence_ids, pack.paths):
        scored[path[starts[sequence_id] :]] = True
    return scored


def root_runs(
    lm: LoadedModel, packs: Sequence[Pack], sequences: Sequence[Sequence[int]]
) -> list[RootRun]:
    """The runs of ``packs`` worth a root (:func:`~.shared_root.candidate_runs`), or none when
    the model fails the cache probe (checked once, only when some run is found)."""
    runs = candidate_runs(packs, sequences)
    if runs and not root_cache_works(lm):
        return []
    return runs


def root_cache_works(lm: LoadedModel) -> bool:
    """Whether packs after cached roots give the log-probs of separate scoring (checked once).

    The probe puts roots of two lengths in one forward. In float32 the two must agree to 1e-3
    nats. In lower precision both carry rounding noise, so the cached path must be far closer
    to separate scoring than roots computed from other tokens would leave it.
    """
    return checked_or_warn(
        lm.model,
        lm.name,
        "shared_root",
        lambda: _probe_root(lm),
        "a cached shared prefix does not reproduce this model's scores; "
        "computing it in every pack (same numbers, slower)",
    )


def _probe_root(lm: LoadedModel) -> bool:
    tokens = probe_ids(lm.model, 14)[0].tolist()
    sequences = [
        tokens[:5] + tokens[5:9],
        tokens[:5] + tokens[5:7] + tokens[10:12],
        tokens[:5] + [tokens[9]],
        tokens[1:4] + tokens[12:14],
        tokens[1:4] + [tokens[11]],
    ]
    try:
        packs = pack_prefix_trees(sequences, max_nodes=1)
        runs = _probe_runs(packs, sequences, tokens)
        cached = rooted_log_probs(lm, sequences, packs, runs)
        misled = rooted_log_probs(lm, sequences, packs, runs, compute=_reversed_roots)
        separate = sequence_log_probs(lm, sequences, share_prefixes=False)
    except (RuntimeError, ValueError, TypeError, AttributeError, IndexError, KeyError):
        return False
    error = float(np.abs(cached - separate).max())
    if lm.dtype == torch.float32:
        return error < 1e-3
    return error < 0.25 * float(np.abs(misled - separate).max())


def _reversed_roots(lm: LoadedModel, roots, *needs) -> list[SharedRoot]:
    """Roots of the right lengths from the wrong tokens: what ignoring the cache would cost."""
    return compute_roots(lm, [list(root)[::-1] for root in roots], *needs)


def _probe_runs(packs: Sequence[Pack], sequences, tokens: list[int]) -> list[RootRun]:
    """The probe's two runs, roots of 5 and 3 tokens, over the packs their sequences fill."""
    runs = []
    for root in (tokens[:5], tokens[1:4]):
        members = [
            index
            for index, pack in enumerate(packs)
            if list(sequences[pack.sequence_ids[0]][: len(root)]) == root
        ]
        runs.append(RootRun(min(members), max(members) + 1, len(root)))
    return sorted(runs, key=lambda run: run.start)
