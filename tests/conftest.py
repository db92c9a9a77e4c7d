"""Shared test configuration: offline mode, the shared corpora, and the WordNet skip."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Nothing may reach the Hugging Face hub in tests.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

if os.environ.get("PYTEST_XDIST_WORKER"):
    # one intra-op thread per xdist worker: two workers with two threads each on two cores
    # oversubscribe, and torch forward passes then slow down many times over
    import torch

    torch.set_num_threads(1)

REPO_ROOT = Path(__file__).resolve().parent.parent
# ../shared/data beside the checkout; POETIC_EVAL_SHARED_DATA points elsewhere (e.g. a worktree)
SHARED_DATA = Path(
    os.environ.get("POETIC_EVAL_SHARED_DATA") or REPO_ROOT.parent / "shared" / "data"
)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data, or skip when this checkout has none (a user's fresh clone)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} is absent: the corpora for tests at scale are not here")
    return SHARED_DATA


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="module")
def one_torch_thread():
    """One torch thread for a module of small-model tests (thread start-up costs more than
    the work, and under xdist two workers share two cores); restores the setting after."""
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)
