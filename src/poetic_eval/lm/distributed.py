"""Scoring across processes with ``torch.distributed`` (launched by ``torchrun`` or
``accelerate launch``).

Each process scores a contiguous shard of the items (the split ``datasets.Dataset.shard(...,
contiguous=True)`` makes) and the shards are gathered in rank order, so every process ends with
the scores of all items in their original order, equal to a single-process run
(:func:`in_shards`). ``score-pairs`` (:func:`score_pairs_sharded`), ``blm-eval`` and the
report's BLM scoring (:mod:`poetic_eval.blm.evaluation.methods`) and ``verb-agreement``
(:mod:`poetic_eval.pairs.verb_agreement.evaluation`) split their work this way whenever they run
inside such a job; outside one they run in one process.

    torchrun --nproc_per_node 2 -m poetic_eval.cli score-pairs --dataset datasets/agreement
    torchrun --nnodes 2 --node_rank 0 --master_addr HOST --master_port 29500 \
        --nproc_per_node 8 -m poetic_eval.cli blm-eval --items datasets/blm   # and rank 1

The process group uses NCCL when the job runs on GPUs (one GPU per process, by LOCAL_RANK: a node
with fewer GPUs than processes is an error that says so) and gloo on CPUs (``device="cpu"``, or
no GPU here). A single-node gloo job talks over the loopback interface (``GLOO_SOCKET_IFNAME``,
unless already set): gloo otherwise picks its address by resolving the host name, which breaks
on hosts whose name maps to an address of another interface or family.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..files import DeviceError
from .input_checks import require_equal_lengths
from .scoring import score_pairs


def process_group(device: str | torch.device | None = None) -> tuple[int, int]:
    """(rank, world size): of the running torch.distributed job, initialising its process group
    from torchrun's environment when needed; (0, 1) outside a distributed job.

    ``device``: where this job computes (None: this process's GPU when torch sees one, else the
    CPU). A CPU job uses gloo even on a machine with GPUs.
    """
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    if int(os.environ.get("WORLD_SIZE", "1")) <= 1 or not dist.is_available():
        return 0, 1
    on_gpu = torch.cuda.is_available() if device is None else torch.device(device).type == "cuda"
    if on_gpu:
        torch.cuda.set_device(local_device())
        dist.init_process_group("nccl")
    else:
        loopback = loopback_interface()
        # every process on this node: loopback reaches them all; a job over several nodes needs the
        # interface that reaches the others, left to gloo
        single_node = os.environ.get("LOCAL_WORLD_SIZE") == os.environ.get("WORLD_SIZE")
        if single_node and loopback and "GLOO_SOCKET_IFNAME" not in os.environ:
            os.environ["GLOO_SOCKET_IFNAME"] = loopback
        dist.init_process_group("gloo")
    return dist.get_rank(), dist.get_world_size()


def loopback_interface() -> str | None:
    """Name of this host's loopback network interface (``lo`` on Linux), or None if not found."""
    import socket

    loopback_flag = 0x8  # IFF_LOOPBACK in <net/if.h>
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return None
    for name in names:
        try:
            # the kernel writes the flags in hex ("0x9" for lo: up and loopback)
            flags = int(Path(f"/sys/class/net/{name}/flags").read_text(), 16)
        except (OSError, ValueError):
            continue
        if flags & loopback_flag:
            return name
    return "lo" if "lo" in names else None


def end_process_group() -> None:
    """Wait for every process, then tear the process group down (no-op outside a job).

    The barrier keeps a fast rank from closing its connections while a slower one is still
    inside the last collective."""
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        dist.barrier()
        dist.destroy_process_group()


def local_device() -> torch.device:
    """This process's device: its LOCAL_RANK's GPU, or the CPU when torch sees no GPU.

    Raises:
        DeviceError: this node runs more processes than it has GPUs.
    """
    if not torch.cuda.is_available():
        return torch.device("cpu")
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    count = torch.cuda.device_count()
    if local_rank >= count:
        raise DeviceError(
            f"process {local_rank} of this node has no GPU: torch sees {count} GPU(s) here; "
            f"launch at most {count} process(es) per node (torchrun --nproc_per_node {count}), "
            "or run on the CPU (--device cpu, or CUDA_VISIBLE_DEVICES= to hide the GPUs)"
        )
    return torch.device("cuda", local_rank)


def torchrun_device(device: Any = None, device_map: Any = None) -> tuple[int, Any]:
    """(rank, the device this process loads its model on) for a command that may run under
    torchrun: the process group is started here; a job on GPUs gives each process its own
    (:func:`local_device`) unless ``device`` or ``device_map`` say otherwise; outside a job
    (0, ``device``)."""
    rank, world_size = process_group(device)
    if world_size > 1 and device is None and device_map is None:
        return rank, local_device()
    return rank, device


def shard_bounds(count: int, rank: int, world_size: int) -> tuple[int, int]:
    """[start, end) of ``rank``'s contiguous shard, sized like ``datasets`` shards."""
    base, extra = divmod(count, world_size)
    # the first ``extra`` ranks take one item more, as datasets' contiguous shards do
    start = rank * base + min(rank, extra)
    return start, start + base + (1 if rank < extra else 0)


def in_shards(
    count: int, compute: Callable[[int, int], Sequence[Any]], device: Any = None
) -> list[Any]:
    """``compute(start, end)`` (a list of results for items ``start .. end - 1``: one per item,
    or per batch) over the processes of a torchrun job: each process computes its contiguous
    shard and every process gets the lists joined in rank order, as one process would compute
    them; outside a job, ``compute(0, count)``.
    ``device``: where this job computes (see :func:`process_group`)."""
    rank, world_size = process_group(device)
    if world_size == 1:
        return list(compute(0, count))
    import torch.distributed as dist

    start, end = shard_bounds(count, rank, world_size)
    part = list(compute(start, end)) if end > start else []
    gathered: list[Any] = [None] * world_size
    dist.all_gather_object(gathered, part)
    return [result for shard in gathered for result in shard]


def score_pairs_sharded(
    good: Sequence[str], bad: Sequence[str], model: Any = None, **options: Any
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~poetic_eval.lm.score_pairs` split over the processes of a torchrun job; all
    scores on every rank."""
    _, world_size = process_group(options.get("device"))
    if world_size == 1:
        return score_pairs(good, bad, model=model, **options)
    require_equal_lengths(good=good, bad=bad)
    # this process's own GPU unless device or device_map say otherwise (not setdefault:
    # local_device() fails on a CPU job with more processes than GPUs)
    options["device"] = torchrun_device(options.get("device"), options.get("device_map"))[1]

    def shard(start: int, end: int) -> list[tuple[float, float]]:
        scores = score_pairs(list(good[start:end]), list(bad[start:end]), model=model, **options)
        return list(zip(*scores))

    pairs = in_shards(len(good), shard)
    return (
        np.array([pair[0] for pair in pairs], dtype=np.float64),
        np.array([pair[1] for pair in pairs], dtype=np.float64),
    )
