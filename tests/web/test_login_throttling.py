"""Password guessing is throttled per account and address, and per address (issue 13, 27; django-axes).

A known user name is counted per address first (issue 27): ten wrong
passwords from one address lock that address out of that account, never the
account's owner on another address.

The site's login and the admin's are both counted; a locked-out login gets a
clear page in the user's language (429) and even the right password waits; an
administrator unlocks with ``manage.py axes_reset_username``. Live pages are not
touched by the lock-out.
"""

import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "the-Right-pass-2027"
LOGIN = "/accounts/login/"


@pytest.fixture
def account(django_user_model):
    return django_user_model.objects.create_user("svetlana", password=PASSWORD)


def try_login(client: Client, username: str, password: str, url: str = LOGIN, address: str = "10.0.0.5", **extra):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address, **extra)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_wrong_passwords_past_the_limit_lock_with_a_clear_message(account):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    statuses = [try_login(client, "svetlana", f"wrong-{n}").status_code for n in range(20)]
    limit = settings.AXES_FAILURE_LIMIT
    assert statuses[: limit - 1] == [200] * (limit - 1)  # the form again, with its error
    assert set(statuses[limit:]) == {429}
    locked = try_login(client, "svetlana", PASSWORD)
    assert locked.status_code == 429 and not logged_in(client)
    page = locked.content.decode()
    assert 'id="locked-out"' in page and "Too many failed log-ins" in page
    assert "Try again in 15 minutes" in page


def test_the_lock_out_page_speaks_russian(account):
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    for n in range(settings.AXES_FAILURE_LIMIT):
        try_login(client, "svetlana", f"wrong-{n}")
    page = try_login(client, "svetlana", PASSWORD).content.decode()
    assert "Слишком много неудачных входов" in page


def test_a_stranger_s_lock_out_from_another_address_does_not_lock_the_account_here(account):
    """Issue 27: for a known user name the count is per address first: a stranger cannot lock staff out."""
    for n in range(settings.AXES_FAILURE_LIMIT):
        try_login(Client(), "svetlana", f"wrong-{n}", address="10.0.1.66")
    stranger = Client()
    assert try_login(stranger, "svetlana", PASSWORD, address="10.0.1.66").status_code == 429
    assert not logged_in(stranger)
    owner = Client()
    assert try_login(owner, "svetlana", PASSWORD, address="10.0.1.5").status_code == 302
    assert logged_in(owner)


def test_guesses_spread_over_addresses_lock_each_address_for_that_account(account):
    """Each address that reached the limit for the name is locked; an address still under it may try."""
    limit = settings.AXES_FAILURE_LIMIT
    for address in ("10.0.6.1", "10.0.6.2"):
        for n in range(limit):
            try_login(Client(), "svetlana", f"wrong-{n}", address=address)
    for address in ("10.0.6.1", "10.0.6.2"):
        assert try_login(Client(), "svetlana", PASSWORD, address=address).status_code == 429
    assert try_login(Client(), "svetlana", f"wrong-{limit}", address="10.0.6.3").status_code == 200


def test_one_address_guessing_many_accounts_is_locked_but_others_may_log_in(account, django_user_model):
    for n in range(settings.AXES_FAILURE_LIMIT):
        try_login(Client(), f"guess{n}", "wrong", address="10.0.0.66")
    guesser = Client()
    assert try_login(guesser, "svetlana", PASSWORD, address="10.0.0.66").status_code == 429
    assert not logged_in(guesser)
    player = Client()
    response = try_login(player, "svetlana", PASSWORD, address="10.0.0.7")
    assert response.status_code == 302 and logged_in(player)


def test_a_forged_forwarded_for_header_does_not_reset_the_count(account):
    """Without a proxy in front (SUMRAK_PROXY_COUNT=0) the counted address is the connection's own."""
    for n in range(settings.AXES_FAILURE_LIMIT):
        try_login(Client(), f"guess{n}", "wrong", address="10.0.0.66", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    client = Client()
    response = try_login(client, "svetlana", PASSWORD, address="10.0.0.66", HTTP_X_FORWARDED_FOR="192.0.2.200")
    assert response.status_code == 429


def test_the_admin_login_is_throttled_too(django_user_model):
    django_user_model.objects.create_superuser("root", password=PASSWORD)
    url = reverse("admin:login")
    for n in range(settings.AXES_FAILURE_LIMIT):
        try_login(Client(), "root", f"wrong-{n}", url=url, address="10.0.3.1")
    client = Client()
    assert try_login(client, "root", PASSWORD, url=url, address="10.0.3.1").status_code == 429
    assert not logged_in(client)


def test_an_administrator_unlocks_the_account(account):
    for n in range(settings.AXES_FAILURE_LIMIT):
        try_login(Client(), "svetlana", f"wrong-{n}", address="10.0.4.1")
    assert try_login(Client(), "svetlana", PASSWORD, address="10.0.4.1").status_code == 429
    call_command("axes_reset_username", "svetlana", stdout=io.StringIO())
    client = Client()
    assert try_login(client, "svetlana", PASSWORD, address="10.0.4.1").status_code == 302
    assert logged_in(client)


def test_a_good_log_in_clears_the_earlier_failures(account):
    limit = settings.AXES_FAILURE_LIMIT
    for n in range(limit - 1):
        try_login(Client(), "svetlana", f"wrong-{n}", address="10.0.5.1")
    assert try_login(Client(), "svetlana", PASSWORD, address="10.0.5.1").status_code == 302
    for n in range(limit - 1):
        try_login(Client(), "svetlana", f"wrong-again-{n}", address="10.0.5.1")
    client = Client()
    assert try_login(client, "svetlana", PASSWORD, address="10.0.5.1").status_code == 302


def test_live_pages_are_untouched_while_logins_are_locked(account, as_user, player, character):
    """The lock-out adds no work to the pages a game runs on: the player's live poll costs the same."""
    url = reverse("duels:player-live", args=[character.pk])
    client = as_user(player)
    with CaptureQueriesContext(connection) as before:
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 200
    for n in range(20):
        try_login(Client(), "svetlana", f"wrong-{n}")
    with CaptureQueriesContext(connection) as during:
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 200
    assert len(during) == len(before)


def test_a_very_long_or_odd_user_name_is_refused_not_a_server_error(account):
    """axes stores the attempted name in a 255-character column; PostgreSQL refused a longer one with a 500."""
    client = Client()
    for name in ("ü" * 300, "a\x00b" * 100):
        response = try_login(client, name, "wrong")
        assert response.status_code in (200, 429) and not logged_in(client)
