"""The step's hand-written statements read and write what the ORM would (duels/services/rows.py, issue 24).

Run on SQLite by default and on PostgreSQL with ``DATABASE_URL``: each
statement is held to the ORM's own answer for the same rows (the values
read, the instances built, the columns written), and on PostgreSQL the
row lock is really taken: a second connection is refused with NOWAIT while
a step holds it.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError, OperationalError, connection, transaction
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from duels import services
from duels.models import LogEntry, Situation
from duels.services import rows
from duels.services.deadlines import _lock_busy
from duels.web.access import public_situation, situation_for_staff
from events.access import ORGANIZER, REFEREE, character_for_token
from events.models import Character
from tests.services.battle_kit import begin
from tests.services.mass_kit import armies, start

pytestmark = pytest.mark.django_db
ROLES = (ORGANIZER.value, REFEREE.value)


def _fields(instance: Any) -> dict[str, Any]:
    """An instance's loaded column values (what was read), without Django's bookkeeping."""
    return {k: v for k, v in instance.__dict__.items() if not k.startswith("_")}


def test_the_locked_row_is_the_orm_s_row_with_its_event(shown):
    with transaction.atomic():
        mine = rows.locked_situation(shown.pk)
    orm = Situation.objects.select_related("event").defer("opening").get(pk=shown.pk)
    assert mine is not None
    assert _fields(mine) == _fields(orm)
    assert mine.get_deferred_fields() == orm.get_deferred_fields() == {"opening"}
    assert mine._stored_snapshots == orm._stored_snapshots
    assert mine.next_deadline is not None and timezone.is_aware(mine.next_deadline)
    with CaptureQueriesContext(connection) as ctx:
        assert _fields(mine.event) == _fields(orm.event)  # already there: no statement
    assert ctx.captured_queries == []
    assert mine.opening == Situation.objects.get(pk=shown.pk).opening  # loads on first use, as deferred
    assert rows.locked_situation(shown.pk + 1000) is None


def test_the_lock_clause_is_postgresql_s_and_left_out_on_sqlite(shown):
    with CaptureQueriesContext(connection) as ctx, transaction.atomic():
        rows.locked_situation(shown.pk)
        rows.locked_situation(shown.pk, nowait=True)
    plain, nowait = (q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT"))
    if connection.vendor == "postgresql":
        assert plain.endswith('FOR UPDATE OF "duels_situation"')
        assert nowait.endswith('FOR UPDATE OF "duels_situation" NOWAIT')
    else:
        assert "FOR UPDATE" not in plain + nowait


def test_the_staff_check_lets_in_whom_the_orm_lets_in(shown, referee, organizer, other_organizer, player):
    for whole in (False, True):
        orm = Situation.objects.select_related("event")
        orm = orm.defer("opening") if whole else orm.only("id", "event_id", "kind", "version", "next_deadline", "ended")
        expected = orm.get(pk=shown.pk)
        for user in (referee, organizer):
            found = situation_for_staff(user, shown.pk, whole=whole)
            assert _fields(found) == _fields(expected)
            assert found.get_deferred_fields() == expected.get_deferred_fields()
            assert _fields(found.event) == _fields(expected.event)
        for user in (other_organizer, player, AnonymousUser()):
            with pytest.raises(Http404):
                situation_for_staff(user, shown.pk, whole=whole)
        with pytest.raises(Http404):
            situation_for_staff(referee, shown.pk + 1000, whole=whole)
    # The state loads on first use from the lean row, as the ORM's ``only`` leaves it.
    lean = situation_for_staff(referee, shown.pk)
    assert lean.state == Situation.objects.get(pk=shown.pk).state


def _log(situation: Situation, referee: Any, count: int) -> None:
    """``count`` more entries of every shape: with and without an actor, a draw, a nonce, a reason, events."""
    first = (LogEntry.objects.filter(situation=situation).order_by("-seq").values_list("seq", flat=True).first()) or 0
    at = timezone.now()
    LogEntry.objects.bulk_create(
        LogEntry(
            situation=situation,
            seq=first + 1 + n,
            kind=LogEntry.Kind.COMMAND if n % 2 else LogEntry.Kind.EXPIRE,
            command={"type": "pass", "n": n, "ру": "ключ"} if n % 2 else None,
            actor=referee if n % 3 else None,
            at=at + dt.timedelta(seconds=n),
            draw=n if n % 4 == 0 else None,
            nonce=f"rows-{situation.pk}-{n}" if n % 5 else "",
            undone=n % 7 == 0,
            reason="причина" if n % 2 else "",
            events=[{"type": "x", "n": n}],
        )
        for n in range(count)
    )


def _orm_rows(whole: bool):
    rows_ = Situation.objects.select_related("event")
    return (
        rows_.defer("opening") if whole else rows_.only("id", "event_id", "kind", "version", "next_deadline", "ended")
    )


def test_a_public_read_is_the_orm_s_row_with_its_event(shown):
    for whole in (False, True):
        expected = _orm_rows(whole).get(pk=shown.pk)
        found = public_situation(shown.pk, whole=whole)
        assert _fields(found) == _fields(expected)
        assert found.get_deferred_fields() == expected.get_deferred_fields()
        assert _fields(found.event) == _fields(expected.event)
        for missing in (shown.pk + 1000, 2**70):  # a number no row has, and one no column holds
            with pytest.raises(Http404):
                public_situation(missing, whole=whole)
    # What a poll reads first: the state loads on first use (a 304 never reads it).
    lean = public_situation(shown.pk)
    assert "state" in lean.get_deferred_fields()
    assert lean.state == Situation.objects.get(pk=shown.pk).state


def test_a_character_s_unfinished_fights_are_the_orm_s_newest_first(shown, armed, event):
    anton, zavulon = armed
    bystander = Character.objects.create(event=event, name="Bystander", status=Character.Status.ACCEPTED)
    for whole in (False, True):
        for character in (anton, zavulon, bystander):
            expected = list(_orm_rows(whole).filter(participants__id=character.pk, ended=False).order_by("-pk"))
            found = rows.unfinished_for(character.pk, whole=whole)
            assert [_fields(s) for s in found] == [_fields(s) for s in expected]
            assert [s.get_deferred_fields() for s in found] == [s.get_deferred_fields() for s in expected]
        assert [s.pk for s in rows.unfinished_for(anton.pk, whole=whole)] == [shown.pk]
        assert rows.unfinished_for(bystander.pk, whole=whole) == []
    Situation.objects.filter(pk=shown.pk).update(ended=True)
    assert rows.unfinished_for(anton.pk, whole=True) == []
    assert services.active_situation_for(anton) is None


def test_the_public_read_and_the_fights_of_a_battle_and_a_mass_battle_are_the_orm_s(event, referee, people, cards):
    """Every kind: a battle's combatants find it (newest first, beside nothing else); a mass battle has no
    character in it (its warriors are the armies'), and its public read is the ORM's row all the same."""
    battle = begin(event, people, referee)
    red, blue = armies(event)
    mass = start(event, referee, red, blue)
    for situation in (battle, mass):
        for whole in (False, True):
            expected = _orm_rows(whole).get(pk=situation.pk)
            found = public_situation(situation.pk, whole=whole)
            assert _fields(found) == _fields(expected) and _fields(found.event) == _fields(expected.event)
            assert found.get_deferred_fields() == expected.get_deferred_fields()
    for person in people:
        for whole in (False, True):
            expected = list(_orm_rows(whole).filter(participants__id=person.pk, ended=False).order_by("-pk"))
            assert [_fields(s) for s in rows.unfinished_for(person.pk, whole=whole)] == [_fields(s) for s in expected]
        assert [s.pk for s in rows.unfinished_for(person.pk, whole=True)] == [battle.pk]
        active = services.active_situation_for(person)
        assert active is not None and active.pk == battle.pk
    assert not Situation.objects.get(pk=mass.pk).participants.exists()


def test_a_secret_link_finds_the_character_the_orm_finds(shown, armed):
    anton, _zavulon = armed
    expected = Character.objects.select_related("event").get(pk=anton.pk)
    with CaptureQueriesContext(connection) as ctx:
        found = character_for_token(anton.link_token)
        assert _fields(found) == _fields(expected)
        assert _fields(found.event) == _fields(expected.event)
    assert len(ctx.captured_queries) == 1
    assert found.get_deferred_fields() == set()
    refused = [
        ("link_active", False),  # revoked
        ("status", Character.Status.PENDING),  # not (or no longer) accepted
    ]
    for column, value in refused:
        Character.objects.filter(pk=anton.pk).update(**{column: value})
        with pytest.raises(Http404):
            character_for_token(anton.link_token)
        Character.objects.filter(pk=anton.pk).update(**{column: getattr(expected, column)})
        assert character_for_token(anton.link_token).pk == anton.pk
    for unknown in ("x" * 43, "", anton.link_token[:-1]):
        with pytest.raises(Http404):
            character_for_token(unknown)


def test_the_newest_entries_are_the_orm_s_newest_twenty_in_order(shown, referee):
    _log(shown, referee, 30)
    mine = rows.newest_entries(shown, 20)
    orm = list(shown.log.select_related("actor").order_by("-seq")[:20])
    assert [e.seq for e in mine] == [e.seq for e in orm]
    assert [e.seq for e in mine] == sorted((e.seq for e in mine), reverse=True)
    assert mine[0].seq == shown.log.order_by("-seq").first().seq
    for a, b in zip(mine, orm, strict=True):
        assert _fields(a) == _fields(b)
    with CaptureQueriesContext(connection) as ctx:
        actors = [e.actor for e in mine]
        owners = {e.situation for e in mine}
    assert ctx.captured_queries == []  # joined or handed in: no statement per entry
    assert actors == [e.actor for e in orm] and any(actors) and None in actors
    assert all(_fields(a) == _fields(b) for a, b in zip(actors, [e.actor for e in orm], strict=True) if a)
    assert owners == {shown}
    assert list(rows.newest_entries(shown, 5)) == list(mine[:5])


def test_the_newest_entries_are_built_once_when_used(shown, referee):
    _log(shown, referee, 30)
    mine = rows.newest_entries(shown, 20)
    orm = list(shown.log.select_related("actor").order_by("-seq")[:20])
    assert mine._built == {} and mine.newest_seq == orm[0].seq  # read, not built
    assert len(mine) == 20 and mine[-1].seq == orm[-1].seq and mine[3] is mine[3]
    assert len(mine._built) == 2
    assert [e.seq for e in mine[5:9]] == [e.seq for e in orm[5:9]]
    assert [e.seq for e in mine.undone()] == [e.seq for e in orm if e.undone] and any(e.undone for e in orm)
    first = mine[:4]
    assert isinstance(first, rows.Entries) and [e.seq for e in first] == [e.seq for e in orm[:4]]
    assert first[3] is mine[3]  # a cut builds into the same entries
    added = [LogEntry(situation=shown, seq=orm[0].seq + 2), LogEntry(situation=shown, seq=orm[0].seq + 1)]
    after = mine.after(added, 20)
    assert [e.seq for e in after] == [e.seq for e in [*added, *orm]][:20] and after.newest_seq == added[0].seq
    assert rows.undone_of(after) == rows.undone_of(list(after)) and list(rows.newest_entries(shown, 0)) == []
    with pytest.raises(IndexError):
        mine[20]


def _entry(situation: Situation, seq: int, referee: Any, nonce: str) -> LogEntry:
    return LogEntry(
        situation=situation,
        seq=seq,
        kind=LogEntry.Kind.COMMAND,
        command={"type": "answer", "card": "2:198:9", "list": [1, 2.5, None, True], "ру": "ё"},
        actor=referee,
        at=timezone.now(),
        draw=3,
        nonce=nonce,
        reason="причина",
        events=[{"type": "parried", "at": "2026-12-05T07:00:00+00:00"}],
    )


COLUMNS = ("kind", "command", "actor_id", "at", "draw", "undone", "reason", "events")


def test_the_insert_writes_what_bulk_create_writes(shown, referee):
    base = (shown.log.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1
    mine = [_entry(shown, base + n, referee, f"mine-{n}") for n in range(2)]
    orm = [_entry(shown, base + 10 + n, referee, f"orm-{n}") for n in range(2)]
    for a, b in zip(mine, orm, strict=True):
        b.at = a.at
    with transaction.atomic():
        rows.insert_entries(mine)
    LogEntry.objects.bulk_create(orm)
    stored = {e["seq"]: e for e in LogEntry.objects.filter(situation=shown).values("id", "seq", "nonce", *COLUMNS)}
    for a, b in zip(mine, orm, strict=True):
        assert a.pk == stored[a.seq]["id"] and not a._state.adding
        assert {k: stored[a.seq][k] for k in COLUMNS} == {k: stored[b.seq][k] for k in COLUMNS}
        assert stored[a.seq]["nonce"] == a.nonce
    rows.insert_entries([])  # nothing to write: no statement needed
    # The log's unique nonce refuses a repeat exactly as the ORM's insert did.
    with pytest.raises(DatabaseError), transaction.atomic():
        rows.insert_entries([_entry(shown, base + 20, referee, "mine-0")])


def test_the_update_writes_what_save_writes(shown):
    fight = Situation.objects.get(pk=shown.pk)
    fight.pk = None
    fight._state.adding = True
    fight.save()  # a second row to hold the ORM's write
    at = timezone.now().replace(microsecond=123456)
    changes = {
        "state": {**shown.state, "extra": {"ру": [1, 2, None]}},
        "version": shown.version + 7,
        "next_deadline": at + dt.timedelta(seconds=30),
        "ended": True,
        "ended_at": at,
    }
    mine = Situation.objects.defer("opening").get(pk=shown.pk)
    orm = Situation.objects.defer("opening").get(pk=fight.pk)
    for row in (mine, orm):
        for name, value in changes.items():
            setattr(row, name, value)
    before = timezone.now()
    with transaction.atomic():
        rows.update_state(mine)
    orm.save(update_fields=rows.STEP_UPDATE)
    columns = ("state", "version", "next_deadline", "ended", "ended_at")
    a = Situation.objects.values(*columns, "updated_at", "opening").get(pk=shown.pk)
    b = Situation.objects.values(*columns).get(pk=fight.pk)
    assert {k: a[k] for k in columns} == {k: b[k] for k in columns} == {**changes}
    assert before <= a["updated_at"] <= timezone.now() and a["updated_at"] == mine.updated_at
    assert a["opening"] == Situation.objects.get(pk=shown.pk).opening  # untouched
    gone = Situation.objects.defer("opening").get(pk=shown.pk)
    gone.pk = shown.pk + 1000
    with pytest.raises(DatabaseError):
        rows.update_state(gone)


@pytest.mark.django_db(transaction=True)
def test_on_postgresql_the_step_s_lock_refuses_a_second_connection(shown):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no row locks (its IMMEDIATE transactions serialise every writer)")
    refused: list[Any] = []

    def second() -> None:
        try:
            for call in (
                lambda: rows.locked_situation(shown.pk, nowait=True),
                lambda: list(Situation.objects.select_for_update(nowait=True).filter(pk=shown.pk)),
            ):
                try:
                    with transaction.atomic():
                        call()
                    refused.append(None)
                except OperationalError as err:
                    refused.append(err)
        finally:
            connection.close()

    with transaction.atomic():
        assert rows.locked_situation(shown.pk) is not None
        thread = threading.Thread(target=second)
        thread.start()
        thread.join(30)
    assert len(refused) == 2 and all(isinstance(e, OperationalError) and _lock_busy(e) for e in refused), refused
    # Released with the transaction: the next one takes it at once.
    thread = threading.Thread(target=second)
    refused.clear()
    thread.start()
    thread.join(30)
    assert refused == [None, None]


def test_on_postgresql_the_step_s_statements_are_prepared_by_the_server(shown):
    """A connection's fifth same statement is prepared (config/settings.py, SUMRAK_DB_PREPARED; issue 24).

    PostgreSQL then parses and plans the step's statements once per connection, not once a step.
    On SQLite there is nothing to prepare and no such option.
    """
    options = connection.settings_dict.get("OPTIONS", {})
    if connection.vendor != "postgresql":
        assert "server_side_binding" not in options and "prepare_threshold" not in options
        return
    assert options.get("server_side_binding") is True and options.get("prepare_threshold") == 5

    def prepared() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
            return [row[0] for row in cursor.fetchall()]

    with transaction.atomic():
        rows.locked_situation(shown.pk)
        assert not [s for s in prepared() if "FOR UPDATE" in s]  # once: sent as it is
        for _ in range(6):  # psycopg prepares it once it has been sent ``prepare_threshold`` times
            rows.locked_situation(shown.pk)
        locks = [s for s in prepared() if "FOR UPDATE" in s]
    assert len(locks) == 1 and '"duels_situation"."id" = $1' in locks[0], prepared()
    # The same answer as before it was prepared.
    with transaction.atomic():
        assert _fields(rows.locked_situation(shown.pk)) == _fields(rows.locked_situation(shown.pk))
