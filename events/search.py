"""Finding characters by a part of their name, in any letter case, Cyrillic included (issue 10).

``icontains`` is not enough: SQLite's LIKE and lower() fold ASCII letters
only, so a Cyrillic name typed in capitals would not be found on the embedded database. A regular
expression matched case-insensitively works on both databases: Django gives
SQLite a Python REGEXP function (Unicode-aware ``re.IGNORECASE``), and
PostgreSQL's ``~*`` folds by the database's character type (UTF-8). The
Cyrillic e and yo (U+0435, U+0451) are taken as one, as Russian writers often do.
"""

import re

from django.db.models import Q

MAX_QUERY = 120


def name_pattern(query: str) -> str:
    """A case-insensitive regular expression for a part of a name (``query`` is literal text)."""
    escaped = re.escape(query.strip()[:MAX_QUERY])
    return re.sub("[\u0435\u0415\u0451\u0401]", "[\u0435\u0451\u0415\u0401]", escaped)


def name_matches(query: str, field: str = "name") -> Q:
    return Q(**{f"{field}__iregex": name_pattern(query)})
