"""The event file is read within bounds before anything else (issue 27, helpers/json_limits.py).

Measured on main: a 400 KB deeply nested file answered 500 (``RecursionError``
in duels/views_archive.py), and a 1.99 MB file with one 150,000-key object ran
203 s before it was refused. Both are refused now, with a message, quickly and
with memory flat; the same reader bounds ``manage.py import_event``.
"""

import io
import json
import time
import tracemalloc

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from duels.archive import MAX_DEPTH, MAX_KEYS
from events.creators import allow_event_creation
from events.models import Event
from helpers.json_limits import DEFAULT_LIMITS, JsonLimitError, JsonLimits, read_json

# A bound on wall time or real processes: runs alone, never beside an xdist worker (scripts/test.sh).
pytestmark = [pytest.mark.django_db, pytest.mark.serial]

# Wide bounds on purpose (DESIGN: no wall-clock assertions but generous ones for a refused bomb).
SECONDS = 5.0
MEMORY = 50 * 1024 * 1024


def deep_file() -> bytes:
    """~400 KB: an event file whose objects list nests 200,000 levels deep."""
    depth = 200_000
    return (
        '{"format": "sumrak-event", "version": 1, "accounts": [], "objects": ' + "[" * depth + "]" * depth + "}"
    ).encode()


def wide_file() -> bytes:
    """~1.99 MB: one object with 150,000 keys, as the fields of one row."""
    keys = ",".join(f'"k{n:06d}":0' for n in range(150_000))
    head = '{"format": "sumrak-event", "version": 1, "accounts": [], '
    return (head + '"objects": [{"model": "events.event", "pk": 1, "fields": {' + keys + "}}]}").encode()


@pytest.fixture
def importer(db) -> Client:
    user = User.objects.create_user("host", password="host-Long-pass-2027")
    allow_event_creation(user)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("make", "reason"),
    [(deep_file, f"nests more than {MAX_DEPTH} levels"), (wide_file, f"more than {MAX_KEYS} keys")],
    ids=["deep", "wide"],
)
def test_a_deep_or_wide_event_file_is_refused_quickly_with_a_message(importer, make, reason):
    content = make()
    assert 390_000 < len(content) < 2_000_000
    upload = SimpleUploadedFile("event.json", content, content_type="application/json")
    tracemalloc.start()
    # CPU seconds of this thread (the test client runs the view in it), not the wall clock: a loaded 2-core
    # CI machine lends the cores to other processes; a file that is not refused burns CPU for far longer.
    started = time.thread_time()
    try:
        response = importer.post(reverse("duels:event-import"), {"file": upload})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.thread_time() - started < SECONDS
    assert peak < MEMORY
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="import-error"' in page and reason in page
    assert not Event.objects.exists()


@pytest.mark.parametrize("make", [deep_file, wide_file], ids=["deep", "wide"])
def test_the_command_refuses_them_too(tmp_path, make):
    path = tmp_path / "event.json"
    path.write_bytes(make())
    with pytest.raises(CommandError, match="not a Sumrak event file"):
        call_command("import_event", str(path), stdout=io.StringIO())
    assert not Event.objects.exists()


# --- the reader itself ---------------------------------------------------------------------------


LIMITS = JsonLimits(max_bytes=1000, max_depth=3, max_keys=3, max_values=20)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[[[[]]]]", "nests more than 3"),
        ('{"a": 1, "b": 2, "c": 3, "d": 4}', "more than 3 keys"),
        ("[" + ",".join(["1"] * 25) + "]", "more than 20 values"),
        ("[" + " " * 1000 + "]", "larger than"),
        ('{"a": 1', "could not be read"),
    ],
    ids=["deep", "wide", "many values", "big", "broken"],
)
def test_the_reader_refuses_past_each_bound(text, reason):
    with pytest.raises(JsonLimitError, match=reason):
        read_json(text.encode(), LIMITS)


def test_the_reader_counts_no_bracket_or_comma_inside_a_string():
    """Strings are skipped whole, escaped quotes included: ``"[[[[,,,,"`` is one value, not a deep list."""
    text = json.dumps({"a": '[[[[{{{{,,,,,,,,\\"[[[[', "b": ["x,y", "\\\\"], "c": {"d": "]]]]"}})
    assert read_json(text.encode(), LIMITS) == json.loads(text)


def test_the_reader_takes_a_byte_order_mark_and_refuses_what_is_not_text():
    assert read_json(b"\xef\xbb\xbf[1, 2]", LIMITS) == [1, 2]
    with pytest.raises(JsonLimitError, match="not readable text"):
        read_json(b"\xff\xfe\x00[", LIMITS)


def test_a_bound_is_exact():
    """At the bound a document is read; one past it is refused."""
    assert read_json(b"[[[]]]", LIMITS) == [[[]]]
    assert read_json(b'{"a": 1, "b": 2, "c": 3}', LIMITS) == {"a": 1, "b": 2, "c": 3}
    assert DEFAULT_LIMITS.max_depth >= 20 and DEFAULT_LIMITS.max_keys >= 1000
