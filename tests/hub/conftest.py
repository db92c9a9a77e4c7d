"""Fixtures of the hub tests."""

from __future__ import annotations

import pytest
from hub_doubles import FakeHub


@pytest.fixture()
def fake_hub(monkeypatch):
    """The in-process stand-in for the hub's HTTP API, which huggingface_hub is pointed at."""
    hub = FakeHub(monkeypatch)
    yield hub
    hub.close()
