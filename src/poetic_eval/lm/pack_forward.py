"""One forward pass over a batch of packed prefix trees: the log-probability of every node.

A row holds one pack (or several side by side, :func:`~poetic_eval.lm.prefix_tree.pack_rows`);
only its nodes with a child are fed (:meth:`~poetic_eval.lm.prefix_tree.Pack.fed_nodes`), with a
4D additive tree mask (a node attends to itself and its ancestors) and position ids equal to
node depths, after a cached root when the row has one (:mod:`poetic_eval.lm.shared_root`). The
LM head runs only at the parents whose children need a log-probability
(:func:`~poetic_eval.lm.next_token.chosen_log_probs`), on the device where the head lives: a
model dispatched over several devices (``hf_device_map``) keeps its states where its last block
left them, and its head's hook moves them on.

Models whose attention does not honour a custom 4D mask with position ids (e.g. ALiBi models that
derive positions from a 2D mask) fail a one-off self-check (:func:`tree_mask_works`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from .loaded_model import LoadedModel
from .model_checks import checked_or_warn, probe_ids, split_head
from .next_token import chosen_log_probs
from .prefix_tree import Pack, ancestor_mask, pack_prefix_trees, single_sequence_packs
from .shared_root import SharedRoot, cache_keyword, root_attention, root_cache


def pack_batch_log_probs(
    lm: LoadedModel,
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
        # rows shorter than the widest are padded with id 0: the mask keeps every real node from
        # seeing a padding column, and no padding position is ever read back
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
            # single-sequence packs: an ordinary causal model with a 2D padding mask gives the same
            # numbers, and this path also serves models that fail the tree-mask self-check
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
        # a pack's own roots have no parent inside the pack, so the forward pass gives them no value
        # (NaN); after a cached root they continue it, and the root's last position predicts them
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
    # siblings share a parent position: the LM head runs once per distinct position, and each
    # child reads its row of that output through parent_row
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
    # the dtype's most negative finite value, transformers' own convention for additive masks:
    # -inf risks NaN (a softmax over a row of -inf, or -inf minus -inf)
    mask = torch.zeros(blocked.shape, dtype=dtype).masked_fill_(blocked, torch.finfo(dtype).min)
    return mask, torch.from_numpy(positions)


def _forward(lm: LoadedModel, input_ids: torch.Tensor, inputs: dict, rows: np.ndarray):
    """Hidden states (or logits) at the flat positions ``rows``, and the head that maps them
    to logits (the identity when the model had to compute logits itself). The states stay on
    the device the body's last block left them on (a dispatched model's hooks move them to the
    head's device when the head runs)."""
    split = split_head(lm.model)
    if split is not None:
        body, head = split
        # no KV cache is built for a one-off pass; a row after a shared root sets use_cache=True in
        # ``inputs``, which overrides this default
        hidden = body(input_ids=input_ids, **{"use_cache": False, **inputs}).last_hidden_state
        flat = hidden.reshape(-1, hidden.shape[-1])
        return flat[torch.as_tensor(rows, device=flat.device)], head
    logits = lm.model(input_ids=input_ids, **{"use_cache": False, **inputs}).logits
    flat = logits.reshape(-1, logits.shape[-1])
    return flat[torch.as_tensor(rows, device=flat.device)], lambda selected: selected


def tree_mask_works(lm: LoadedModel) -> bool:
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


def _probe_tree_mask(lm: LoadedModel) -> bool:
    tokens = probe_ids(lm.model)[0].tolist()
    sequences = [
        [tokens[k] for k in (0, 1, 2, 3, 4)],
        [tokens[k] for k in (0, 1, 5, 6)],
        [tokens[0], tokens[7]],
    ]
    try:
        # three sequences of 5, 4 and 2 tokens sharing token 0 (two also sharing token 1): 8 nodes,
        # one pack; a model that ignores the mask lets each branch see its siblings' tokens
        pack = pack_prefix_trees(sequences, max_nodes=64)[0]
        tree = pack_batch_log_probs(lm, [pack], tree=True)[0]
        chain = pack_batch_log_probs(lm, single_sequence_packs([pack.tokens]), tree=False)[0]
        separate = pack_batch_log_probs(lm, single_sequence_packs(sequences), tree=False)
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
