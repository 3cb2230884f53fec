"""In-process measurements of the benchmark: statements per request, replay times, timer lateness.

Run by ``python -m bench`` against the bench database with the same settings
as the app servers (``python -m bench.probe WHAT GAME.json``); prints JSON.
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
import sys
import time
from functools import partial
from typing import Any


def _client(user: Any = None) -> Any:
    from django.test import Client

    client = Client(HTTP_X_FORWARDED_PROTO="https")
    if user is not None:
        client.force_login(user)
    return client


def _count(call: Any) -> tuple[int, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        response = call()
    return len(ctx.captured_queries), response.status_code


def queries(game: dict[str, Any]) -> dict[str, Any]:
    """Statements per request, for a 10-entry and a 500-entry fight (each after a warm-up request)."""
    from django.contrib.auth import get_user_model

    from duels.models import Situation

    referee = get_user_model().objects.get(pk=game["referee"])
    staff, public = _client(referee), _client()
    hx = {"HX-Request": "true"}
    out: dict[str, Any] = {}
    for length in (10, 500):
        fight = next(f for f in game["fights"] if f["length"] == length and f["steps"])
        fid, token = fight["id"], fight["tokens"][0]
        urls = {
            "spectator_poll": (public, f"/watch/{fid}/"),
            "player_poll": (public, f"/c/{token}/live/"),
            "referee_poll": (staff, f"/fights/{fid}/"),
        }
        for name, (client, url) in urls.items():
            etag = client.get(url, headers=hx)["ETag"]
            same, other = {**hx, "If-None-Match": etag}, {**hx, "If-None-Match": '"x"'}
            out[f"{name}_unchanged_{length}"] = _count(partial(client.get, url, headers=same))[0]
            out[f"{name}_changed_{length}"] = _count(partial(client.get, url, headers=other))[0]
        out[f"referee_page_{length}"] = _count(partial(staff.get, f"/fights/{fid}/"))[0]
        # The next step of this fight: the load may have played some already (one version each).
        version = Situation.objects.get(pk=fid).version
        step = fight["steps"][min(version - fight["version"], len(fight["steps"]) - 1)]
        body = {**step, "version": version, "nonce": f"{fid:032x}"}
        n, status = _count(partial(staff.post, f"/fights/{fid}/act/", body, headers=hx))
        out[f"step_post_{length}"] = n
        out[f"step_post_{length}_status"] = status
    url = f"/events/{game['event']}/referee/"
    headers = {**hx, "HX-Target": "running"}
    etag = staff.get(url, headers=headers)["ETag"]
    out["referee_list_unchanged"] = _count(lambda: staff.get(url, headers={**headers, "If-None-Match": etag}))[0]
    out["referee_list_changed"] = _count(lambda: staff.get(url, headers={**headers, "If-None-Match": '"x"'}))[0]
    out["bare"] = _count(lambda: public.get("/ping/"))[0]
    return out


def _timed(call: Any, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 2)


def replay(game: dict[str, Any]) -> dict[str, Any]:
    """Replay time by log length: from the database (read, decode, replay) and the engine alone."""
    from bench.game import _fight
    from cards.faces import counter_rule_of, face_of
    from cards.models import ArsenalCard, Card, CounterRule
    from duels import services
    from duels.models import LogEntry, Situation
    from duels.services.kinds import KINDS
    from events.models import Character, Event
    from rules import duel as engine

    kind = KINDS["duel"]
    event = Event.objects.get(pk=game["event"])
    ids = {length: next(f["id"] for f in game["fights"] if f["length"] == length) for length in (10, 100, 500)}
    # A 2,000-entry fight, made for this measurement by two fresh characters.
    pair = [Character.objects.create(event=event, name=f"Replay {i}", status="accepted") for i in (1, 2)]
    source = Character.objects.filter(event=event, arsenal__isnull=False).order_by("pk").first()

    for person in pair:
        ArsenalCard.objects.bulk_create(
            ArsenalCard(character=person, card_id=row.card_id, copies=row.copies) for row in source.arsenal.all()
        )
    faces = {card.pk: face_of(card) for card in Card.objects.filter(catalogue=event.catalogue_id)}
    counters = [counter_rule_of(r) for r in CounterRule.objects.filter(defence_card__catalogue=event.catalogue_id)]
    pair = list(Character.objects.filter(pk__in=[p.pk for p in pair]).prefetch_related("arsenal").order_by("pk"))
    ids[2000] = _fight(event, kind, pair[0], pair[1], faces, counters, 2000)["id"]
    out: dict[str, Any] = {}
    for length, sid in ids.items():
        situation = Situation.objects.get(pk=sid)
        assert services.replayed(situation) == services.state_of(situation), f"replay differs for {sid}"
        out[f"db_{length}_ms"] = _timed(lambda s=situation: services.replayed(s))
        entries = list(LogEntry.objects.filter(situation_id=sid).order_by("seq"))
        steps = [("command", kind.decode(e.command or {}), e.at, e.draw) for e in entries]
        opening = kind.from_dict(situation.opening)
        out[f"engine_{length}_ms"] = _timed(lambda o=opening, s=steps: engine.replay(o, s))
        out[f"entries_{length}"] = len(entries)
        out[f"state_kb_{length}"] = round(len(json.dumps(situation.state)) / 1024, 1)
    return out


def lateness(windows: list[dict[str, Any]]) -> dict[str, Any]:
    """How late each D8 window was applied, and that each was applied exactly once."""
    from duels.models import LogEntry

    late, missing, twice = [], 0, 0
    for window in windows:
        deadline = dt.datetime.fromisoformat(window["deadline"])
        expiries = list(LogEntry.objects.filter(situation_id=window["id"], kind="expire").order_by("seq"))
        timeouts = [e for e in expiries if any(ev.get("type") == "answer_timed_out" for ev in e.events or [])]
        if not timeouts:
            missing += 1
            continue
        if len(timeouts) > 1:
            twice += 1
        late.append((timeouts[0].at - deadline).total_seconds() * 1000)
    late.sort()

    def pct(p: float) -> float | None:
        return round(late[min(len(late) - 1, int(p * len(late)))], 1) if late else None

    return {
        "windows": len(windows),
        "applied": len(late),
        "missing": missing,
        "applied_twice": twice,
        "p50_ms": pct(0.5),
        "p99_ms": pct(0.99),
        "max_ms": round(late[-1], 1) if late else None,
    }


def nonces(sent: list[str]) -> dict[str, Any]:
    """How many log entries each nonce left (the scale-out's repeated submissions): exactly one each."""
    from django.db.models import Count

    from duels.models import LogEntry

    counts = dict(
        LogEntry.objects.filter(nonce__in=sent).values_list("nonce").annotate(n=Count("id")).values_list("nonce", "n")
    )
    per = [counts.get(n, 0) for n in sent]
    return {"sent": len(sent), "exactly_one": sum(1 for n in per if n == 1), "none": per.count(0)}


if __name__ == "__main__":
    import django

    django.setup()
    what, path = sys.argv[1], sys.argv[2]
    with open(path) as handle:
        data = json.load(handle)
    result = {"queries": queries, "replay": replay, "lateness": lateness, "nonces": nonces}[what](data)
    print(json.dumps(result))
