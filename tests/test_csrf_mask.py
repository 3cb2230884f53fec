"""helpers.csrf.get_token: Django's token, its mask drawn in one read of randomness (issue 24)."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from django.http import HttpResponse
from django.middleware import csrf as django_csrf
from django.middleware.csrf import (
    CSRF_ALLOWED_CHARS,
    CSRF_SECRET_LENGTH,
    CSRF_TOKEN_LENGTH,
    CsrfViewMiddleware,
)
from django.test import RequestFactory

from helpers import csrf

SECRET = "aZ09" * 8


def _unmask_cipher_token(token: str) -> str:
    return str(django_csrf._unmask_cipher_token(token))  # type: ignore[attr-defined]  # Django's own unmasking


def _request(**meta):
    request = RequestFactory().get("/")
    request.META.update(meta)
    return request


def test_the_token_unmasks_to_the_cookies_secret_and_renews_the_cookie():
    request = _request(CSRF_COOKIE=SECRET)
    tokens = {csrf.get_token(request) for _ in range(50)}
    assert len(tokens) == 50, "a fresh mask for every response"
    for token in tokens:
        assert len(token) == CSRF_TOKEN_LENGTH and set(token) <= set(CSRF_ALLOWED_CHARS)
        assert _unmask_cipher_token(token) == SECRET
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True


def test_without_a_cookie_django_makes_the_new_secret():
    request = _request()
    token = csrf.get_token(request)
    secret = request.META["CSRF_COOKIE"]
    assert len(secret) == CSRF_SECRET_LENGTH and _unmask_cipher_token(token) == secret
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True


def test_csrf_middleware_accepts_the_token():
    token = csrf.get_token(_request(CSRF_COOKIE=SECRET))
    post = RequestFactory().post("/", {"csrfmiddlewaretoken": token})
    post.COOKIES["csrftoken"] = SECRET
    middleware = CsrfViewMiddleware(lambda r: HttpResponse())
    middleware.process_request(post)
    assert middleware.process_view(post, lambda r: HttpResponse(), (), {}) is None  # None: accepted
    forged = RequestFactory().post("/", {"csrfmiddlewaretoken": token})
    forged.COOKIES["csrftoken"] = "b" * CSRF_SECRET_LENGTH
    middleware.process_request(forged)
    assert middleware.process_view(forged, lambda r: HttpResponse(), (), {}) is not None


def test_the_mask_reads_the_systems_randomness_once(monkeypatch):
    reads = []
    real = os.urandom

    def urandom(n):
        reads.append(n)
        return real(n)

    monkeypatch.setattr(os, "urandom", urandom)
    csrf.get_token(_request(CSRF_COOKIE=SECRET))
    assert len(reads) == 1


def test_dropped_bytes_are_drawn_again(monkeypatch):
    # Every byte at or above 248 would favour the first 8 characters: such bytes are dropped, more are read.
    feed = iter([bytes([255] * 20 + [61] * 20), bytes(range(40))])
    monkeypatch.setattr(os, "urandom", lambda n: next(feed))
    assert csrf.mask_indices() == [61] * 20 + list(range(12))


def test_every_character_of_the_mask_is_equally_likely():
    counts = Counter(i for _ in range(3000) for i in csrf.mask_indices())
    expected = 3000 * CSRF_SECRET_LENGTH / len(CSRF_ALLOWED_CHARS)
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(len(CSRF_ALLOWED_CHARS)))
    # 61 degrees of freedom: p < 1e-6 beyond ~125; a modulo bias on the first 8 characters gives ~1,600.
    assert chi2 < 130, chi2
    assert set(counts) == set(range(len(CSRF_ALLOWED_CHARS)))


@pytest.mark.parametrize("secret", ["x" * CSRF_SECRET_LENGTH, SECRET])
def test_the_cipher_is_djangos(secret, monkeypatch):
    # With the same mask, Django's own masking gives the same token.
    token = csrf.mask(secret)
    monkeypatch.setattr(django_csrf, "_get_new_csrf_string", lambda: token[:CSRF_SECRET_LENGTH])
    assert django_csrf._mask_cipher_secret(secret) == token  # type: ignore[attr-defined]
