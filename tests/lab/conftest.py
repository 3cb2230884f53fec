"""Fixtures of the lab's tests."""

import pytest

import demo
from events.models import Event


@pytest.fixture
def demo_event(db) -> Event:
    """The demo game (its catalogue, arsenals and counter rules are the lab's test material)."""
    return demo.load()
