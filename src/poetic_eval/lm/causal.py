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
from .shared_root import SharedRoot, root_attention, shared_root

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
    (``batch_size``, when given, also caps the rows per pass).
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
        root = shared_root(lm, sequences, len(packs))
        if root is not None:
            return sequence_log_probs_after_root(
                lm, sequences, root, starts=starts, pack_tokens=pack_tokens, **options
            )
        packs = pack_rows(packs, attention_balance(lm))
    else:
        packs = single_sequence_packs(sequences)
    totals = np.zeros(len(sequences), dtype=np.float64)
    _score_packs(lm, packs, starts, totals, tree=share_prefixes, **options)
    return totals


def sequence_log_probs_after_root(
    lm: LanguageModel,
    sequences: Sequence[Sequence[int]],
    root: SharedRoot,
    *,
    starts: np.ndarray | None = None,
    pack_tokens: int | None = None,
    batch_size: int | None = None,
    progress: Callable | None = None,
    skip_context: bool = False,
) -> np.ndarray:
    """:func:`sequence_log_probs` of sequences that all begin with ``root``'s tokens (and are
    longer): the root's log-probs are read from its states, the suffixes packed and fed after
    its cache. ``starts``: the first summed position of each sequence (at least 1)."""
    length = root.length
    if starts is None:
        starts = np.ones(len(sequences), dtype=np.int64)
    if pack_tokens is None:
        pack_tokens = min(PACK_TOKENS, lm.tokens_per_forward)
    suffixes = [sequence[length:] for sequence in sequences]
    packs = pack_rows(pack_prefix_trees(suffixes, max_nodes=pack_tokens), attention_balance(lm))
    totals = np.array([root.log_probs[start:length].sum() for start in starts], dtype=np.float64)
    suffix_starts = np.maximum(starts - length, 0)
    options = {"batch_size": batch_size, "progress": progress, "skip_context": skip_context}
    _score_packs(lm, packs, suffix_starts, totals, tree=True, root=root, **options)
    return totals


def _score_packs(
    lm: LanguageModel,
    packs: list[Pack],
    starts: np.ndarray,
    totals: np.ndarray,
    *,
    tree: bool,
    batch_size: int | None,
    progress: Callable | None,
    skip_context: bool,
    root: SharedRoot | None = None,
) -> None:
    """Add to ``totals`` each sequence's node log-probs from position ``starts[i]`` of its
    path on, running the packs in token-budget batches."""
    widths = [pack.width for pack in packs]
    batches = token_budget_batches(
        widths, lm.tokens_per_forward, batch_size, forward_positions=forward_positions(lm)
    )
    batches = [[packs[index] for index in batch] for batch in batches]
    iterator = progress(batches) if progress is not None else batches
    for batch in iterator:
        scored = [_scored_nodes(pack, starts) for pack in batch] if skip_context else None
        node_log_probs = _pack_batch_log_probs(lm, batch, tree=tree, scored=scored, root=root)
        for pack, log_probs in zip(batch, node_log_probs):
            for sequence_id, path in zip(pack.sequence_ids, pack.paths):
                totals[sequence_id] += log_probs[path[starts[sequence_id] :]].sum(dtype=np.float64)


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
    root: SharedRoot | None = None,
) -> list[np.ndarray]:
    """log p(node token | ancestors) for every node of every pack (NaN for roots), or only for
    the nodes flagged in ``scored`` (NaN for the others). Each row feeds only its pack's
    :meth:`~poetic_eval.lm.prefix_tree.Pack.fed_nodes`; a leaf's value is read at its parent.
    After a ``root`` (tree packs only), nodes sit at depth + root length, see the whole root
    through its cache, and the packs' own roots are read from the root's next-token
    distribution."""
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
            root_length = 0 if root is None else root.length
            attention_mask, position_ids = _tree_inputs(
                batch, fed, columns, width, lm.dtype, root_length
            )
            inputs = {
                "attention_mask": attention_mask.to(device),
                "position_ids": position_ids.to(device),
            }
            if root is not None:
                inputs.update(root.inputs(count))
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
    if root is not None:
        _fill_pack_roots(flat, batch, offsets, scored, root)
    return [flat[offsets[row] : offsets[row + 1]] for row in range(len(batch))]


def _fill_pack_roots(flat, batch: list[Pack], offsets, scored, root: SharedRoot) -> None:
    """The nodes without a parent in a pack after ``root``: log p(token | the root)."""
    for row, pack in enumerate(batch):
        tops = np.flatnonzero(np.asarray(pack.parents, dtype=np.int64) < 0)
        if scored is not None:
            tops = tops[scored[row][tops]]
        tokens = np.asarray(pack.tokens, dtype=np.int64)[tops]
        flat[offsets[row] + tops] = root.next_log_probs[tokens]


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
    root_length: int = 0,
):
    """The 4D additive tree mask and position ids of the fed nodes of each pack (after a cached
    root of ``root_length`` tokens, when given)."""
    count = len(batch)
    allowed = np.zeros((count, width, width), dtype=bool)
    allowed[:, np.arange(width), np.arange(width)] = True  # padding rows see themselves
    positions = np.zeros((count, width), dtype=np.int64)
    for row, (pack, nodes, column) in enumerate(zip(batch, fed, columns)):
        parents = np.asarray(pack.parents, dtype=np.int64)[nodes]
        fed_parents = np.where(parents >= 0, column[parents], -1)
        allowed[row, : nodes.size, : nodes.size] = ancestor_mask(fed_parents.tolist())
        positions[row, : nodes.size] = np.asarray(pack.depths, dtype=np.int64)[nodes] + root_length
    if root_length:
        allowed = root_attention(allowed, root_length)
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
