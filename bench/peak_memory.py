"""Peak memory of the benchmark process, printed by every LM benchmark."""

from __future__ import annotations

import resource
import sys


def peak_memory() -> str:
    """The process's peak resident memory so far (and CUDA's peak allocation, when used)."""
    kilobytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform != "darwin" else 1024  # macOS reports bytes
    text = f"peak RSS {kilobytes / scale / 1024:.0f} MiB"
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        text += f", CUDA peak {torch.cuda.max_memory_allocated() / 2**20:.0f} MiB"
    return text
