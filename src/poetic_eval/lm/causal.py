"""Token log-probabilities of a causal LM, with prefixes shared through prefix trees.

Each forward pass reads a batch of rows, each row one or several
:class:`~poetic_eval.lm.prefix_tree.Pack` objects side by side (a forest). In a pack every
distinct prefix of its sequences is one node, computed once; the row is fed as one sequence with
a tree attention mask (a node attends to itself and its ancestors) and position
ids equal to node depths, which gives each node the hidden state it has in every sequence through
it. Only nodes with a child are fed (a leaf's log-probability is read at its parent, and no node
attends to a leaf), and the LM head runs only on the nodes whose successors need a
log-probability (never on padding).

Models whose attention does not honour a custom 4D mask with position ids (e.g. ALiBi models that
derive positions from a 2D mask) fail a one-off self-check and are scored without sharing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import torch

from ..checks import typed_options
from .budget import PACK_TOKENS, forward_positions
from .language_model import LanguageModel
from .model_checks import checked_or_warn, probe_ids, split_head
from .next_token import chosen_log_probs
from .prefix_tree import (
    Pack,
    ancestor_mask,
    pack_prefix_trees,
    pack_rows,
    single_sequence_packs,
    token_budget_batches,
)
from .shared_root import (
    RootRun,
    SharedRoot,
    cache_keyword,
    compute_roots,
    root_attention,
    root_cache,
    root_runs,
)

#: model types whose MLP has three matrices (gate, up, down), for :func:`attention_balance`
GATED_MLP_MODEL_TYPES = frozenset({"llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi3"})
#: how much dearer a multiply-add of attention with a dense tree mask is than one of the linear
#: layers. Chosen by an A/B on 2 loaded cores (default model, best of 2, load 3.6-4.8): 40
#: limerick texts in three rows of 236-372 nodes took 3.81 s, in five of 147-236 2.92 s, though
#: the FLOP estimate without this factor favoured the three; 8 BLM items (two rows of ~310 or
#: four of ~155) and 40 agreement pairs (one row of 308) ran alike (3.07 / 2.99 s, 0.79 / 0.86 s).
ATTENTION_SLOWDOWN = 4


@typed_options
def sequence_log_probs(
    lm: LanguageModel,
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
    if share_prefixes and not _tree_mask_works(lm):
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
    lm: LanguageModel,
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


def _window_roots(lm: LanguageModel, window: _Window, source: _RootSource, totals) -> list:
    """Compute the roots of ``window``'s runs and add to ``totals`` the root tokens that each
    sequence sums (those from its start on)."""
    tokens, own_from, next_tokens = [], [], []
    for run, ids in zip(window.runs, window.members):
        tokens.append([int(token) for token in source.sequences[ids[0]][: run.length]])
        first_summed = int(source.starts[ids].min())
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
    held = budget + 1
    for run in runs:
        if held + run.length > budget:
            windows.append([])
            held = 0
        windows[-1].append(run)
        held += run.length
    return windows


def _score_windows(
    lm: LanguageModel,
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
        node_log_probs = _pack_batch_log_probs(lm, rows, tree=tree, scored=scored, roots=roots)
        for pack, log_probs in zip(rows, node_log_probs):
            for sequence_id, path in zip(pack.sequence_ids, pack.paths):
                totals[sequence_id] += log_probs[path[starts[sequence_id] :]].sum(dtype=np.float64)
        if last:
            window.roots = None


def _flag_last(batches: list) -> list:
    return [(number == len(batches) - 1, batch) for number, batch in enumerate(batches)]


def attention_balance(lm: LanguageModel) -> float:
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


def _pack_batch_log_probs(
    lm: LanguageModel,
    batch: list[Pack],
    *,
    tree: bool,
    scored: list[np.ndarray] | None = None,
    roots: list[SharedRoot | None] | None = None,
) -> list[np.ndarray]:
    """log p(node token | ancestors) for every node of every pack (NaN for roots), or only for
    the nodes flagged in ``scored`` (NaN for the others). Each row feeds only its pack's
    :meth:`~poetic_eval.lm.prefix_tree.Pack.fed_nodes`; a leaf's value is read at its parent.
    With ``roots`` (one per row, None for a row without; tree packs only), a row's nodes sit at
    depth + its root's length, see the whole root through the cache, and its packs' own roots
    are read from the root's next-token log-probabilities."""
    fed = [pack.fed_nodes() for pack in batch]
    columns = [_fed_columns(pack, nodes) for pack, nodes in zip(batch, fed)]
    width = max(nodes.size for nodes in fed)
    offsets = np.cumsum([0] + [len(pack) for pack in batch])
    flat = np.full(int(offsets[-1]), np.nan)
    if width > 0:
        count = len(batch)
        input_ids = torch.zeros((count, width), dtype=torch.long)
        for row, (pack, nodes) in enumerate(zip(batch, fed)):
            input_ids[row, : nodes.size] = torch.from_numpy(np.asarray(pack.tokens)[nodes])
        device = lm.device
        if tree:
            root_lengths = [0 if root is None else root.length for root in roots or [None] * count]
            attention_mask, position_ids = _tree_inputs(
                batch, fed, columns, width, lm.dtype, root_lengths
            )
            inputs = {
                "attention_mask": attention_mask.to(device),
                "position_ids": position_ids.to(device),
            }
            if max(root_lengths) > 0:
                inputs.update({cache_keyword(lm): root_cache(roots), "use_cache": True})
        else:
            lengths = torch.tensor([nodes.size for nodes in fed])
            padding = torch.arange(width)[None, :] < lengths[:, None]
            inputs = {"attention_mask": padding.long().to(device)}
        needed, children, parent_row, child_tokens = _parent_child_indices(
            batch, columns, width, offsets, scored
        )
        if children.size:
            with torch.inference_mode():
                rows, head = _forward(lm, input_ids.to(device), inputs, needed)
                flat[children] = chosen_log_probs(rows, head, parent_row, child_tokens)
    if roots is not None:
        _fill_pack_roots(flat, batch, offsets, scored, roots)
    return [flat[offsets[row] : offsets[row + 1]] for row in range(len(batch))]


def _fill_pack_roots(flat, batch: list[Pack], offsets, scored, roots) -> None:
    """The nodes without a parent in a pack after a root: log p(token | its row's root)."""
    for row, (pack, root) in enumerate(zip(batch, roots)):
        if root is None:
            continue
        tops = np.flatnonzero(np.asarray(pack.parents, dtype=np.int64) < 0)
        if scored is not None:
            tops = tops[scored[row][tops]]
        tokens = np.asarray(pack.tokens, dtype=np.int64)[tops]
        flat[offsets[row] + tops] = root.next_log_probs(tokens)


def _fed_columns(pack: Pack, fed: np.ndarray) -> np.ndarray:
    """Each node's column in its row of the forward pass (-1 for a node not fed)."""
    column = np.full(len(pack), -1, dtype=np.int64)
    column[fed] = np.arange(fed.size)
    return column


def _parent_child_indices(
    batch: list[Pack],
    columns: list[np.ndarray],
    width: int,
    offsets: np.ndarray,
    scored: list[np.ndarray] | None = None,
):
    """The flat input positions (row x ``width`` + column) whose next-token distribution is
    needed; per child: its index in the concatenated packs (``offsets``), its parent's index in
    those positions, its token. Children are the nodes with a parent (and flagged in
    ``scored``, when given)."""
    children, parents, tokens = [], [], []
    for row, (pack, column) in enumerate(zip(batch, columns)):
        parent_array = np.asarray(pack.parents, dtype=np.int64)
        wanted = parent_array >= 0 if scored is None else (parent_array >= 0) & scored[row]
        child = np.flatnonzero(wanted)
        children.append(offsets[row] + child)
        parents.append(row * width + column[parent_array[child]])
        tokens.append(np.asarray(pack.tokens, dtype=np.int64)[child])
    children_flat = np.concatenate(children)
    needed, parent_row = np.unique(np.concatenate(parents), return_inverse=True)
    return needed, children_flat, parent_row, np.concatenate(tokens)


def _tree_inputs(
    batch: list[Pack],
    fed: list[np.ndarray],
    columns: list[np.ndarray],
    width: int,
    dtype: torch.dtype,
    root_lengths: Sequence[int] | None = None,
):
    """The 4D additive tree mask and position ids of the fed nodes of each pack (after a cached
    root of ``root_lengths[row]`` tokens in each row, when given)."""
    count = len(batch)
    allowed = np.zeros((count, width, width), dtype=bool)
    allowed[:, np.arange(width), np.arange(width)] = True  # padding rows see themselves
    positions = np.zeros((count, width), dtype=np.int64)
    for row, (pack, nodes, column) in enumerate(zip(batch, fed, columns)):
        parents = np.asarray(pack.parents, dtype=np.int64)[nodes]
        fed_parents = np.where(parents >= 0, column[parents], -1)
        allowed[row, : nodes.size, : nodes.size] = ancestor_mask(fed_parents.tolist())
        offset = root_lengths[row] if root_lengths else 0
        positions[row, : nodes.size] = np.asarray(pack.depths, dtype=np.int64)[nodes] + offset
    if root_lengths and max(root_lengths) > 0:
        allowed = root_attention(allowed, root_lengths)
    blocked = torch.from_numpy(~allowed)[:, None, :, :]
    mask = torch.zeros(blocked.shape, dtype=dtype).masked_fill_(blocked, torch.finfo(dtype).min)
    return mask, torch.from_numpy(positions)


def _forward(lm: LanguageModel, input_ids: torch.Tensor, inputs: dict, rows: np.ndarray):
    """Hidden states (or logits) at the flat positions ``rows``, and the head that maps them
    to logits (the identity when the model had to compute logits itself)."""
    index = torch.as_tensor(rows, device=input_ids.device)
    split = split_head(lm.model)
    if split is not None:
        body, head = split
        hidden = body(input_ids=input_ids, **{"use_cache": False, **inputs}).last_hidden_state
        return hidden.reshape(-1, hidden.shape[-1])[index], head
    logits = lm.model(input_ids=input_ids, **{"use_cache": False, **inputs}).logits
    return logits.reshape(-1, logits.shape[-1])[index], lambda selected: selected


def _tree_mask_works(lm: LanguageModel) -> bool:
    """Whether a three-branch prefix tree gives the log-probs of separate sequences (checked once).

    In float32 the two must agree to 1e-3 nats. In lower precision both carry rounding noise, so
    the tree must instead be far closer to separate scoring than the packed sequence read with
    an ordinary causal mask (what a model that ignores the tree mask would compute).
    """
    return checked_or_warn(
        lm.model,
        lm.name,
        "tree_mask",
        lambda: _probe_tree_mask(lm),
        "custom tree attention masks are not honoured by this model; "
        "scoring without prefix sharing (same numbers, slower)",
    )


def _probe_tree_mask(lm: LanguageModel) -> bool:
    tokens = probe_ids(lm.model)[0].tolist()
    sequences = [
        [tokens[k] for k in (0, 1, 2, 3, 4)],
        [tokens[k] for k in (0, 1, 5, 6)],
        [tokens[0], tokens[7]],
    ]
    try:
        pack = pack_prefix_trees(sequences, max_nodes=64)[0]
        tree = _pack_batch_log_probs(lm, [pack], tree=True)[0]
        chain = _pack_batch_log_probs(lm, single_sequence_packs([pack.tokens]), tree=False)[0]
        separate = _pack_batch_log_probs(lm, single_sequence_packs(sequences), tree=False)
    except (RuntimeError, ValueError, TypeError):
        return False
    tree_error = ignored_error = 0.0
    for sequence_id, path in zip(pack.sequence_ids, pack.paths):
        expected = separate[sequence_id][1:]
        tree_error = max(tree_error, float(np.abs(tree[path[1:]] - expected).max()))
        ignored_error = max(ignored_error, float(np.abs(chain[path[1:]] - expected).max()))
    if lm.dtype == torch.float32:
        return tree_error < 1e-3
    return tree_error < 0.25 * ignored_error
