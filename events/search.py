"""Finding characters by a part of their name, in any letter case, Cyrillic included (issues 10 and 22).

Search reads the same folded key as the duplicate check (helpers/names.py ``name_key``,
stored in ``Character.name_key``): case, the letter yo and the Latin, Greek and digit
lookalikes are folded once, the same way on both sides, so whatever the duplicate check calls
"the same name" search finds too (a name typed with a Latin A is found by the Cyrillic one).
The key is folded in Python, so SQLite and PostgreSQL answer the same; the query is a
literal substring (``contains``), never a pattern.
"""

from django.db.models import Q

from helpers.names import name_key

MAX_QUERY = 120


def name_matches(query: str, field: str = "name") -> Q:
    """Rows whose name (stored folded in ``<field>_key``) contains the folded ``query``."""
    return Q(**{f"{field}_key__contains": name_key(query[:MAX_QUERY])})
