"""Pack token sequences into prefix trees so that shared prefixes are computed once.

Minimal pairs share long prefixes, within a pair (everything before the verb) and across a
template dataset (hundreds of rows begin "the authors that the guard likes"). A causal LM's
log-probability of a token depends only on the tokens before it, so the log-prob of each node of
a prefix tree (trie) over the token sequences is shared by every sequence through that node.

:func:`pack_prefix_trees` sorts the sequences lexicographically (then a sequence's longest common
prefix with the sequence before it is its longest common prefix with any earlier one) and fills
packs greedily: each pack is one flat list of trie nodes in depth-first order, with each node's
parent and depth. A model reads a pack as one sequence in which every node attends to its
ancestors only (:func:`ancestor_mask`) at position = depth, which gives every node exactly the
hidden state it has in each sequence through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..checks import typed_options
from ..text import common_prefix_length


@dataclass
class Pack:
    """A prefix tree over some sequences, flattened in depth-first order.

    Attributes:
        tokens: token id of each node.
        parents: index of each node's parent node (-1 for the root).
        depths: depth of each node (root 0), the position id to feed the model.
        sequence_ids: the index (in the caller's list) of each sequence in this pack.
        paths: for each of those sequences, the node index at each of its positions.
    """

    tokens: list[int] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)
    sequence_ids: list[int] = field(default_factory=list)
    paths: list[list[int]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.tokens)

    def _add(self, token: int, parent: int, depth: int) -> int:
        self.tokens.append(token)
        self.parents.append(parent)
        self.depths.append(depth)
        return len(self.tokens) - 1


@typed_options
def pack_prefix_trees(
    sequences: Sequence[Sequence[int]],
    *,
    max_nodes: int,
    max_sequences: int | None = None,
) -> list[Pack]:
    """Group ``sequences`` into packs of at most ``max_nodes`` trie nodes each.

    A sequence longer than ``max_nodes`` gets a pack of its own. ``max_sequences`` caps how many
    sequences share a pack. Every sequence appears in exactly one pack; identical sequences share
    all their nodes.
    """
    order = sorted(range(len(sequences)), key=lambda index: tuple(sequences[index]))
    packs: list[Pack] = []
    current = Pack()
    previous: Sequence[int] = ()
    previous_path: list[int] = []
    for index in order:
        sequence = sequences[index]
        shared = common_prefix_length(previous, sequence) if len(current) else 0
        full = max_sequences is not None and len(current.sequence_ids) >= max_sequences
        if len(current) and (full or len(current) + len(sequence) - shared > max_nodes):
            packs.append(current)
            current, shared = Pack(), 0
        path = previous_path[:shared]
        for depth in range(shared, len(sequence)):
            parent = path[-1] if path else -1
            path.append(current._add(int(sequence[depth]), parent, depth))
        current.sequence_ids.append(index)
        current.paths.append(path)
        previous, previous_path = sequence, path
    if len(current.sequence_ids):
        packs.append(current)
    return packs


def single_sequence_packs(sequences: Sequence[Sequence[int]]) -> list[Pack]:
    """One pack (a chain) per sequence: plain scoring without prefix sharing."""
    packs = []
    for index, sequence in enumerate(sequences):
        pack = Pack(
            tokens=[int(token) for token in sequence],
            parents=list(range(-1, len(sequence) - 1)),
            depths=list(range(len(sequence))),
            sequence_ids=[index],
            paths=[list(range(len(sequence)))],
        )
        packs.append(pack)
    return packs


def ancestor_mask(parents: Sequence[int]) -> np.ndarray:
    """Boolean matrix ``m[i, j]``: node ``j`` is node ``i`` or one of its ancestors.

    Needs parents to come before their children (depth-first order guarantees it).
    """
    count = len(parents)
    mask = np.zeros((count, count), dtype=bool)
    for node, parent in enumerate(parents):
        if parent >= 0:
            if parent >= node:
                raise ValueError(f"node {node} comes before its parent {parent}")
            mask[node, : parent + 1] = mask[parent, : parent + 1]
        mask[node, node] = True
    return mask


@typed_options
def token_budget_batches(
    lengths: Sequence[int], budget: int, max_rows: int | None = None
) -> list[list[int]]:
    """Indices of rows of the given lengths grouped into batches, shortest rows first: a batch
    grows while (rows + 1) x its longest row stays within ``budget`` padded positions (and
    within ``max_rows`` rows, when given). A row longer than the budget is a batch alone."""
    order = sorted(range(len(lengths)), key=lambda index: lengths[index])
    batches: list[list[int]] = []
    current: list[int] = []
    for index in order:
        padded = (len(current) + 1) * lengths[index]  # sorted: this row is the longest
        full = max_rows is not None and len(current) >= max_rows
        if current and (full or padded > budget):
            batches.append(current)
            current = []
        current.append(index)
    if current:
        batches.append(current)
    return batches
