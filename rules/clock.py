"""Time as the engine takes it: every deadline is an absolute, aware instant (DESIGN.md §3)."""

from __future__ import annotations

from datetime import UTC, datetime


def utc(now: datetime) -> datetime:
    """Times are compared as instants, stored as UTC ISO strings."""
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be an aware datetime")
    return now.astimezone(UTC)
