"""Django's ``get_token`` with the mask drawn in one read of the system's randomness.

A player's changed poll sends a fragment with forms, so each response masks
the CSRF secret afresh (BREACH: the token on the page must differ every
time). Django draws the 32-character mask with ``secrets.choice`` once per
character and finds each character's index with ``str.index``: ~30 µs of a
poll. Here the mask is 32 uniform indices from one ``os.urandom`` call
(bytes at or above 248 = 4 x 62 are dropped, so every character stays
equally likely) and the indices come from a table. The token is what
Django's would be - ``mask + cipher``, unmasked by ``CsrfViewMiddleware`` as
its own - and without a cookie yet Django's own ``get_token`` makes the new
secret. tests/test_csrf_mask.py checks both against Django's.
"""

from __future__ import annotations

import os

from django.http import HttpRequest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
from django.middleware.csrf import get_token as django_get_token

_CHARS = CSRF_ALLOWED_CHARS
_COUNT = len(_CHARS)
_INDEX = {char: i for i, char in enumerate(_CHARS)}
# The bytes below this map onto the characters evenly (each of 62 by four byte values).
_EVEN = 256 - 256 % _COUNT
# One read is nearly always enough: 40 bytes keep 32 unless nine are dropped (p ~ 1e-5).
_READ = CSRF_SECRET_LENGTH + 8


def mask_indices(count: int = CSRF_SECRET_LENGTH) -> list[int]:
    """``count`` indices into the allowed characters, each equally likely, from the system's randomness."""
    found: list[int] = []
    while len(found) < count:
        found.extend(byte % _COUNT for byte in os.urandom(_READ) if byte < _EVEN)
    return found[:count]


def mask(secret: str) -> str:
    """The masked token of ``secret``: a fresh random mask, then the secret shifted by it (Django's cipher)."""
    shifts = mask_indices()
    cipher = "".join(_CHARS[(_INDEX[char] + shift) % _COUNT] for char, shift in zip(secret, shifts, strict=True))
    return "".join(_CHARS[shift] for shift in shifts) + cipher


def get_token(request: HttpRequest) -> str:
    """``django.middleware.csrf.get_token``: the cookie's secret masked afresh (renewing the cookie), or a new one."""
    secret = request.META.get("CSRF_COOKIE")
    if secret is None:
        return django_get_token(request)  # a new secret, and the cookie that carries it
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    return mask(secret)
