"""Pack token sequences into prefix trees so that shared prefixes are computed once.

Minimal pairs share long prefixes, within a pair (everything before the verb) and across a
template dataset (hundreds of rows begin "the authors that the guard likes"). A causal LM's
log-probability of a token depends only on the tokens before it, so the log-prob of each node of
a prefix tree (trie) over the token sequences is shared by every sequence through that node.

:func:`pack_prefix_trees` sorts the sequences lexicographically (then a sequence's longest common
prefix with the sequence before it is its longest common prefix with any earlier one) and fills
packs greedily, closing a full pack where its sequences share least (so a BLM item's context is
not split between two packs): each pack is one flat list of trie nodes in depth-first order, with
each node's parent and depth. :func:`pack_rows` then lays packs side by side in the rows of a
forward pass, so that rows come out of similar width and little is padded. A model reads a
row as one sequence in which every node attends to its ancestors only (:func:`ancestor_mask`) at
position = depth, which gives every node exactly the hidden state it has in each sequence
through it. Only the nodes with a child are fed (:meth:`Pack.fed_nodes`): a leaf's
log-probability is read at its parent.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import InvalidValueError
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

    def fed_nodes(self) -> np.ndarray:
        """Indices (ascending) of the nodes a forward pass must compute: those with a child.

        A node's states serve only its descendants: the LM head reads its hidden state for its
        children's log-probabilities, and their attention (and their descendants') reads its keys
        and values. A leaf has no descendant, so its own log-probability comes from its parent's
        row and it is never fed (a templated agreement pair ends in two leaves, "laughs ." and
        "laugh .": 100 such pairs have 717 nodes, 521 of them with a child).
        """
        parents = np.asarray(self.parents, dtype=np.int64)
        has_child = np.zeros(len(self.tokens), dtype=bool)
        has_child[parents[parents >= 0]] = True
        return np.flatnonzero(has_child)

    @property
    def width(self) -> int:
        """Positions this pack takes in a forward pass: its nodes with a child."""
        return int(self.fed_nodes().size)

    def _add(self, token: int, parent: int, depth: int) -> int:
        self.tokens.append(token)
        self.parents.append(parent)
        self.depths.append(depth)
        return len(self.tokens) - 1


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

    A pack boundary between two neighbours (in lexicographic order) costs their common prefix,
    computed again in the next pack. When the next sequence does not fit, the pack is therefore
    closed at its weakest link: before the latest of its sequences with the shortest common
    prefix with the one before it (a BLM item boundary, where only the start token is shared,
    rather than inside an item, where the whole context is). The packs this leaves smaller than
    ``max_nodes`` cost no padding: :func:`pack_rows` lays several packs side by side in one row.
    """
    order = sorted(range(len(sequences)), key=lambda index: tuple(sequences[index]))
    ordered = [sequences[index] for index in order]
    # shared[i]: what sequence i shares with its predecessor, which (sorted) is the most it
    # shares with any earlier sequence; it is what i costs nothing to add to their pack
    shared = [0] + [
        common_prefix_length(ordered[position - 1], ordered[position])
        for position in range(1, len(ordered))
    ]
    ranges, start = [], 0
    while start < len(ordered):
        end, nodes = start + 1, len(ordered[start])
        while end < len(ordered):
            full = max_sequences is not None and end - start >= max_sequences
            cost = len(ordered[end]) - shared[end]  # its new nodes only
            if full or nodes + cost > max_nodes:
                if not full:  # a count cap is no node overflow: close right here
                    end = _weakest_link(shared, start, end)
                break
            nodes += cost
            end += 1
        ranges.append((start, end))
        start = end
    packs = []
    for start, end in ranges:
        pack, previous_path = Pack(), []
        for position in range(start, end):
            sequence = ordered[position]
            # a pack's first sequence shares nothing: its prefix is computed again here
            common = shared[position] if position > start else 0
            path = previous_path[:common]  # the predecessor's nodes for the shared prefix
            for depth in range(common, len(sequence)):
                parent = path[-1] if path else -1
                path.append(pack._add(int(sequence[depth]), parent, depth))
            pack.sequence_ids.append(order[position])
            pack.paths.append(path)
            previous_path = path
        packs.append(pack)
    return packs


def _weakest_link(shared: list[int], start: int, end: int) -> int:
    """Where to close the pack ``start..end`` when sequence ``end`` does not fit: the latest
    position in ``start + 1 .. end`` with the shortest common prefix with its predecessor."""
    best = end
    # strictly shorter only, scanning backwards: among equal links the latest wins, which
    # keeps the pack as full as possible
    for position in range(end - 1, start, -1):
        if shared[position] < shared[best]:
            best = position
    return best


def pack_rows(packs: Sequence[Pack], attention_balance: float) -> list[Pack]:
    """Packs laid side by side into rows (forests), one row of a forward pass each.

    A batch of rows is padded to its widest row, so packs of unequal size waste positions (two
    packs of 256 and 54 nodes: 512 positions for 310 nodes), while one wide row pays attention
    over all its node pairs. Sizes here are :attr:`Pack.width` (the fed nodes). The row count
    ``k`` is the one of least estimated cost ``k * width * (1 + width / attention_balance)``,
    where ``width`` is the widest row when the packs are dealt largest first, each to the row
    with fewest fed nodes, and ``attention_balance``
    is the number of attended positions whose attention costs what one position's linear
    layers cost (:func:`poetic_eval.lm.causal.attention_balance`; 768 for SmolLM2).
    Each pack's nodes keep their own parents (a root has parent -1), so a row's ancestor mask
    is block-diagonal and a node still attends to its own ancestors only.
    """
    if not packs:
        return []
    sizes = [pack.width for pack in packs]
    order = sorted(range(len(packs)), key=lambda index: -sizes[index])
    count = len(packs)
    # every row count up to 64, then steps of 10 %: the cost changes slowly with many rows, and
    # dealing is O(packs log rows) per candidate, so trying every count would be quadratic
    candidates = set(range(1, min(count, 64) + 1))
    rows = 64
    while rows < count:
        rows = int(rows * 1.1) + 1
        candidates.add(min(rows, count))
    best_cost, best_rows = None, None
    for rows in sorted(candidates):
        dealt = _dealt(sizes, order, rows)
        width = max(size for size, _ in dealt)
        cost = rows * width * (1 + width / attention_balance)
        if best_cost is None or cost < best_cost:
            best_cost, best_rows = cost, dealt
    return [_merged([packs[index] for index in members]) for _, members in best_rows if members]


def _dealt(sizes: Sequence[int], order: list[int], rows: int) -> list[tuple[int, list[int]]]:
    """Packs (largest first) dealt to ``rows`` rows, each to the row with the smallest size."""
    # (size, row, members): the row number breaks ties, so the lists are never compared
    heap = [(0, row, []) for row in range(rows)]
    for index in order:
        size, row, members = heapq.heappop(heap)
        members.append(index)
        heapq.heappush(heap, (size + sizes[index], row, members))
    return [(size, members) for size, _, members in heap]


def _merged(packs: list[Pack]) -> Pack:
    if len(packs) == 1:
        return packs[0]
    row = Pack()
    for pack in packs:
        offset = len(row)  # node indices shift by the nodes before; roots stay -1
        row.tokens.extend(pack.tokens)
        row.parents.extend(parent + offset if parent >= 0 else -1 for parent in pack.parents)
        row.depths.extend(pack.depths)
        row.sequence_ids.extend(pack.sequence_ids)
        row.paths.extend([node + offset for node in path] for path in pack.paths)
    return row


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
                raise InvalidValueError(f"node {node} comes before its parent {parent}")
            # a node's ancestors are its parent's (a finished row: parents come first) plus it
            mask[node, : parent + 1] = mask[parent, : parent + 1]
        mask[node, node] = True
    return mask


def token_budget_batches(
    lengths: Sequence[int],
    budget: int,
    max_rows: int | None = None,
    forward_positions: int | None = None,
) -> list[list[int]]:
    """Indices of rows of the given lengths grouped into batches, shortest rows first: a batch
    grows while (rows + 1) x its longest row stays within ``budget`` padded positions (and
    within ``max_rows`` rows, when given). A row longer than the budget is a batch alone.

    With ``forward_positions`` (what one more forward pass costs, counted in padded
    positions), each batch is then cut into the runs of rows of least total cost
    (:func:`least_cost_runs`), so that rows of unequal length are not padded to the longest
    where a separate pass is cheaper."""
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
    if forward_positions is None:
        return batches
    return [
        batch[start:stop]
        for batch in batches
        for start, stop in least_cost_runs([lengths[index] for index in batch], forward_positions)
    ]


def least_cost_runs(sorted_lengths: Sequence[int], forward_positions: int) -> list[tuple[int, int]]:
    """``(start, stop)`` slices cutting rows sorted by length into consecutive runs, one forward
    pass each, of least total cost: per run, its rows x its longest row (the padded positions)
    plus ``forward_positions``. Exact (dynamic programming); cuts fall only where the length
    changes, so the work grows with the number of distinct lengths, not of rows."""
    count = len(sorted_lengths)
    ends = [
        stop
        for stop in range(1, count + 1)
        if stop == count or sorted_lengths[stop] != sorted_lengths[stop - 1]
    ]
    # run end -> (least cost of the rows before it, where its run starts); a run's width is its
    # last row's length, since the rows are sorted
    best = {0: (0, 0)}
    for stop in ends:
        width = sorted_lengths[stop - 1]
        best[stop] = min(
            (cost + (stop - start) * width + forward_positions, start)
            for start, (cost, _) in best.items()
        )
    runs, stop = [], count
    while stop:
        start = best[stop][1]
        runs.append((start, stop))
        stop = start
    return runs[::-1]
