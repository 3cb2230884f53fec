"""Load under lock, run the engine, append to the log, save, write back, schedule timers.

Lock order (PostgreSQL; SQLite's IMMEDIATE transactions serialise everything):
Event row (only when opening situations) -> Situation row -> Character rows.
Code that already holds a Character lock (the arsenal builder) reaches a
situation only through ``refresh``, which never waits for a situation lock
(NOWAIT), so no cycle of waits can form.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from celery import current_app
from django.contrib.auth.models import AnonymousUser, User
from django.db import models, transaction
from django.db.models import Max, QuerySet

from cards.models import ArsenalCard, Card
from duels.models import LogEntry, Situation
from duels.services import rows
from duels.services.errors import BadNonce, SituationNotFound
from duels.services.kinds import SituationKind, is_join_type, kind_of
from duels.services.live import publish
from events.models import Character
from helpers.outage import BROKER
from rules import EngineEvent

logger = logging.getLogger(__name__)

NONCE_MAX = LogEntry._meta.get_field("nonce").max_length or 64
# How many of the newest log entries a change reads and hands back (the fight page shows as many).
RECENT_ENTRIES = 20
# ``expire`` acts only once ``now`` is past a deadline; wake the timer a moment later.
TIMER_LAG = dt.timedelta(milliseconds=100)
# The timer task (duels/services/timers.py), sent by its registered name: the
# task calls the services, so the services do not import it (no cycle).
EXPIRE_TASK = "duels.tasks.expire_situation"


@dataclass
class Performed:
    """What a service call did. ``repeated``: the nonce was seen before, nothing changed."""

    situation: Situation
    events: list[EngineEvent] = field(default_factory=list)
    repeated: bool = False
    # The engine state after the change, when the call has it at hand: a
    # view renders from it instead of loading and decoding the row again.
    state: Any = None
    # The newest log entries after the change (newest first, actor loaded).
    recent: Sequence[LogEntry] | None = None
    # The entries this call logged (newest first, at the head of ``recent``): a step's answer
    # describes only these and prepends them to the page's log (issue 24). None: not known.
    added: Sequence[LogEntry] | None = None


def stored_events(events: Iterable[EngineEvent]) -> list[dict[str, Any]]:
    """The log's JSON form of the typed engine events (``to_dict``)."""
    return [e.to_dict() for e in events]


def check_nonce(nonce: str) -> str:
    nonce = (nonce or "").strip()
    if len(nonce) > NONCE_MAX:
        raise BadNonce()
    return nonce


def nonce_used(nonce: str) -> LogEntry | None:
    if not nonce:
        return None
    return LogEntry.objects.filter(nonce=nonce).select_related("situation").first()


def lock(situation_id: int, *, nowait: bool = False) -> Situation:
    """The situation row, locked until the transaction ends, with its event (which stays unlocked).

    Without the opening snapshot: a change never reads it (the counter rules
    alone are ~40 KB of JSON to decode); an undo replaying under the lock
    loads it then.
    """
    situation = rows.locked_situation(situation_id, nowait=nowait)
    if situation is None:
        raise SituationNotFound()
    return situation


def next_seq_of(situation: Situation) -> int:
    """The next free ``seq`` of the situation's log (read it with the row locked)."""
    last = situation.log.aggregate(last=Max("seq"))["last"]
    return 0 if last is None else last + 1


def actor_of(user: User | AnonymousUser | None) -> User | None:
    """Who to log as the actor: a signed-in person, else nobody (a timer, a test)."""
    return user if isinstance(user, User) and user.is_authenticated else None


class Transition:
    """One transaction's worth of changes to a locked situation.

    Collects log entries while the engine runs; ``save`` writes them, the new
    state, the version and everything derived from the state, or nothing if
    nothing happened.
    """

    def __init__(self, situation: Situation, now: dt.datetime, *, next_seq: int | None = None) -> None:
        self.situation = situation
        self.kind: SituationKind = kind_of(situation)
        self.now = now
        self.before = self.kind.from_dict(situation.state)
        self.state = self.before
        self.entries: list[LogEntry] = []
        self.events: list[EngineEvent] = []
        self.recent: Sequence[LogEntry] = []
        self.next_seq = next_seq_of(situation) if next_seq is None else next_seq

    def _entry(self, **fields: Any) -> LogEntry:
        entry = LogEntry(situation=self.situation, seq=self.next_seq, at=self.now, **fields)
        self.next_seq += 1
        self.entries.append(entry)
        return entry

    def expire(self) -> bool:
        """Apply every overdue deadline; log it only if it changed something (replay needs it)."""
        new, events = self.kind.expire(self.state, self.now)
        if new is self.state or (not events and self.kind.to_dict(new) == self.kind.to_dict(self.state)):
            return False
        self.state = new
        self.events.extend(events)
        self._entry(kind=LogEntry.Kind.EXPIRE, command=None, events=stored_events(events))
        return True

    def command(
        self, command: Any, *, actor: User | None, nonce: str = "", noted: Iterable[EngineEvent] = ()
    ) -> list[EngineEvent]:
        """Run one engine command; a RuleError propagates and nothing of it is kept.

        ``noted``: events the services add to the command's log entry (a lag grace used, D8).
        """
        command, draw = self.kind.chance(self.state, command, self.situation)
        new, events = self.kind.apply(self.state, command, self.now, draw)
        events = [*events, *noted]
        self.state = new
        self.events.extend(events)
        self._entry(
            kind=LogEntry.Kind.COMMAND,
            command=self.kind.encode(command),
            actor=actor,
            draw=draw,
            nonce=nonce,
            reason=self.kind.reason_of(command),
            events=stored_events(events),
        )
        return events

    def checkpoint(self) -> tuple[Any, int, int, int]:
        return (self.state, len(self.entries), len(self.events), self.next_seq)

    def restore(self, mark: tuple[Any, int, int, int]) -> None:
        """Forget everything after ``mark`` (a refused start keeps only its expiries)."""
        self.state, n_entries, n_events, self.next_seq = mark
        del self.entries[n_entries:]
        del self.events[n_events:]

    @property
    def changed(self) -> bool:
        return bool(self.entries)

    def save(self) -> bool:
        if not self.entries:
            return False
        rows.insert_entries(self.entries)
        store_state(self.situation, self.kind, self.before, self.state, self.now)
        return True


def store_state(situation: Situation, kind: SituationKind, before: Any, after: Any, now: dt.datetime) -> None:
    """Save a new state on the locked row and everything that follows from it."""
    old_deadline = situation.next_deadline
    situation.state = kind.to_dict(after)
    situation.version += 1
    situation.next_deadline = kind.next_deadline(after)
    participants = kind.participants(after)
    if kind.is_ended(after):
        situation.ended = True
        situation.ended_at = kind.ended_at(after) or now
    elif kind.is_empty(after):
        # Everything undone: an empty situation holds nobody and never ends by
        # itself, so close the row (the state stays the replay of the log).
        situation.ended = True
        situation.ended_at = now
    # ``save(update_fields=rows.STEP_UPDATE)``, its statement written once (duels/services/rows.py).
    stored = situation.store_named_snapshots(rows.STEP_UPDATE)
    rows.update_state(situation)
    situation._stored_snapshots = stored
    joined_before = set(kind.participants(before))
    if set(participants) != joined_before:
        # Only joins and their undo change who is in it: a step costs no statement here.
        situation.participants.set(participants)
    publish(situation, joined_before | set(participants), participants)
    write_back(situation, kind, before, after)
    kind.after_save(situation, before, after)
    if situation.next_deadline is not None and situation.next_deadline != old_deadline:
        schedule_expiry(situation.pk, situation.next_deadline)


def write_back(situation: Situation, kind: SituationKind, before: Any, after: Any) -> None:
    """The fight's outcome onto the characters (see the package docstring, "Write-back").

    A condition is written whenever the fight changes it (so a fighter who is
    out is out everywhere at once, and an undo puts it back); the hand, the
    restorable arsenal and the focus only when the situation ends, because
    until then the fight's state is the truth and the arsenal is frozen.
    """
    old = kind.conditions(before)
    new = kind.conditions(after)
    for cid, condition in new.items():
        if old.get(cid, condition) != condition:
            Character.objects.filter(pk=cid).update(condition=condition)
    gone = old.keys() - new.keys()
    if gone:
        # An undo took their join back: they leave with the condition they came in with.
        came_with = joined_conditions(joins(situation))
        for cid in gone:
            if cid in came_with and came_with[cid] != old[cid]:
                Character.objects.filter(pk=cid).update(condition=came_with[cid])
    if not kind.is_ended(after) or kind.is_ended(before):
        return
    joined = joined_arsenals(joins(situation))
    results = kind.results(after)
    # D3: the composed arsenal goes back whole, the cards played from it included.
    wanted = {card_id for r in results.values() for card_id in [*r.hand, *(r.composed or [])]} | {
        r.focus_card_id for r in results.values() if r.focus_card_id is not None
    }
    # A card deleted from the catalogue mid-fight cannot go back in a hand.
    existing = set(Card.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    # S2: the original arsenal to restore is the one last composed; only a
    # character who never composed one keeps what they held on joining.
    originals = dict(Character.objects.filter(pk__in=results.keys()).values_list("pk", "restorable_arsenal"))
    for cid, result in results.items():
        hand = Counter(card_id for card_id in result.hand if card_id in existing)
        ArsenalCard.objects.filter(character_id=cid).delete()
        ArsenalCard.objects.bulk_create(
            ArsenalCard(character_id=cid, card_id=card_id, copies=copies) for card_id, copies in sorted(hand.items())
        )
        focus = result.focus_card_id if result.focus_card_id in hand else None
        # No condition here: it was written whenever the fight changed it, and
        # writing it again would undo an organiser's edit made since (a heal).
        # A new arsenal taken at a round break (D3) was composed in the fight: it is the original now.
        composed = [card_id for card_id in result.composed or [] if card_id in existing]
        original = composed or originals.get(cid) or joined.get(cid, [])
        Character.objects.filter(pk=cid).update(focus_card_id=focus, restorable_arsenal=original)


def joins(situation: Situation) -> QuerySet[LogEntry]:
    """The log's joins, undone ones too, in order: all the write-back needs, however long the fight."""
    return situation.log.filter(kind=LogEntry.Kind.COMMAND, command__type="join").order_by("seq")


def joined_arsenals(entries: Iterable[LogEntry]) -> dict[int, list[int]]:
    """Card ids each fighter held when they joined: "restore to the original" (S2)."""
    found: dict[int, list[int]] = {}
    for entry in entries:
        if entry.undone or entry.kind != LogEntry.Kind.COMMAND or not is_join_type(entry.command):
            continue
        fighter = (entry.command or {})["fighter"]
        found[int(fighter["character_id"])] = sorted(int(face["card_id"]) for face in fighter["hand"])
    return found


def joined_conditions(entries: Iterable[LogEntry]) -> dict[int, str]:
    """The condition each fighter brought in with their latest join, undone or not.

    An undo that takes a join back (with the start it belonged to) removes
    the fighter from the state; this is the condition to give them back.
    """
    found: dict[int, str] = {}
    for entry in entries:
        if entry.kind == LogEntry.Kind.COMMAND and is_join_type(entry.command):
            fighter = (entry.command or {})["fighter"]
            found[int(fighter["character_id"])] = str(fighter["condition"])
    return found


def named_by_fighters(situation: Situation, kind: SituationKind) -> dict[type[models.Model], set[int]]:
    """The characters and catalogue cards a fight of characters names: joins, participants, results."""
    state, opening = kind.from_dict(situation.state), kind.from_dict(situation.opening)
    entries = list(situation.log.all())
    joined = joined_arsenals(entries)
    characters = {*kind.participants(state), *kind.participants(opening), *joined, *joined_conditions(entries)}
    cards = {card_id for hand in joined.values() for card_id in hand}
    for result in kind.results(state).values():
        cards |= set(result.hand) | ({result.focus_card_id} if result.focus_card_id is not None else set())
    return {Character: {int(c) for c in characters}, Card: {int(c) for c in cards}}


def schedule_expiry(situation_id: int, deadline: dt.datetime) -> None:
    """After commit, nudge a worker at the deadline. Ids only; the database stays the truth."""

    def send() -> None:
        # A broker that is down must not fail, nor hold, a referee's command: the sweeper and every
        # read apply the deadline anyway. Each try costs Celery's publish retries (~0.7 s), so while
        # it is away only one send per BROKER.retry_seconds tries it, and the outage is logged once.
        if not BROKER.should_try():
            return
        try:
            current_app.tasks[EXPIRE_TASK].apply_async((situation_id,), eta=deadline + TIMER_LAG)
        except Exception as error:
            if BROKER.failed(error):
                logger.warning("could not schedule the timer of situation %s", situation_id, exc_info=True)
            return
        BROKER.answered()

    transaction.on_commit(send)
