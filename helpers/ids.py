"""Database ids as they arrive from outside (URLs, forms, engine uids, admin searches)."""

# The largest database id: a signed 64-bit integer. A larger number in a
# request names no row, and SQLite cannot even look it up (OverflowError).
MAX_ID = 2**63 - 1


def is_id(value: int) -> bool:
    return 0 < value <= MAX_ID
