"""Battles and mass battles played by their engines, for the benchmark's game and cost (issue 24).

As ``bench.fights`` does for duels: a patient referee's commands, each a real
engine command, so the log replays to the state. For each state the referee
has a short list of wishes, tried in order; the engine refuses what the
rules do not allow (a refusal changes nothing) and the first accepted one is
the step.

- A battle of four (two against two): each turn an attack - the area card
  (Nova) on every enemy still fighting, else a single one - answered with a
  defence card where there is one, every result confirmed as "parried" (an
  override with a reason, so nobody drops out); from the reactions' round
  (R0) a target holding an interrupt (Counterspell) or a response (Riposte)
  reacts; then the next turn; between rounds everyone takes the arsenal
  they came with again (D3), which the form cannot send (the steps stop
  there).
- A mass battle: each cycle (M4-M6) the referee enters both dice (never a
  tie), the winner starts, each side uses its points (a card drawn is
  carried out on the first enemy warrior, or kept when it may be), ends its
  turn; one casualty of the physical battle; the next cycle.

``form`` gives each command as the fight form's POST fields (None where the
form cannot send it).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from typing import Any

import rules
import rules.mass as magic
from rules import RuleError
from rules import battle as B

STEP = dt.timedelta(milliseconds=5)
REASON = "benchmark: parried"


# --- battles ---------------------------------------------------------------------------------------


def _named(state: B.Battle, cid: int, name: str) -> str | None:
    return next((u for u in state.combatants[cid].hand if state.cards[u].face.name == name), None)


def _enemies(state: B.Battle, cid: int) -> list[int]:
    side = state.combatants[cid].side
    return [o for o, c in state.combatants.items() if c.side != side and B.fit(state, o)]


def _battle_wishes(state: B.Battle, memo: dict[str, Any]) -> list[Any]:
    if state.phase == B.BETWEEN_ROUNDS:
        arsenals = memo["arsenals"]
        done = memo.setdefault("renewed", {}).setdefault(state.round, set())
        for cid in state.combatants:
            if cid not in done:
                done.add(cid)
                return [B.NewArsenal(cid, arsenals[cid], "again"), B.StartRound()]
        return [B.StartRound()]
    if state.phase != B.TURNS:
        return []
    frame = B.top(state)
    if frame is not None:
        wishes: list[Any] = []
        part = frame.current
        window = next((w for w in part.windows if not w.resolved), None) if part else None
        if window is not None and not window.answered:
            reacted = memo.setdefault("reacted", set())
            if state.reactions_on and frame.role == B.MAIN and frame.number not in reacted:
                reacted.add(frame.number)
                interrupt = _named(state, window.defender, "Counterspell")
                response = _named(state, window.defender, "Riposte")
                if interrupt:
                    wishes.append(B.Immediate(window.defender, frame.number, B.INTERRUPT, interrupt))
                if response:
                    wishes.append(B.Immediate(window.defender, frame.number, B.RESPONSE, response, frame.actor))
            hand = state.combatants[window.defender].hand
            shield = next(
                (u for u in hand if state.cards[u].face.is_defence and state.cards[u].action == B.STANDARD), None
            )
            wishes += [
                B.AnswerAttack(frame.number, window.defender, shield),
                B.AnswerAttack(frame.number, window.defender, None),
            ]
        elif window is not None:
            wishes += [
                B.ConfirmAnswer(frame.number, window.defender, rules.PARRIED, REASON),
                B.ConfirmAnswer(frame.number, window.defender),
            ]
        return [*wishes, B.Proceed(frame.number), B.NextTurn()]
    actor = state.turn_of
    if actor is None or memo.get("acted") == state.turn_seq:
        return [B.NextTurn()]
    enemies = _enemies(state, actor)
    wishes = []
    hand = [u for u in state.combatants[actor].hand if state.cards[u].is_attack and state.cards[u].action == B.STANDARD]
    for uid in sorted(hand, key=lambda u: state.cards[u].reach != B.AREA):  # the area card first
        targets = enemies if state.cards[uid].reach == B.AREA else enemies[:1]
        wishes.append(B.Act(actor=actor, act=B.ATTACK, cards=(uid,), targets=tuple(targets)))
    return [*wishes, B.Act(actor=actor, act=B.PASS), B.NextTurn()]


def battle_memo(state: B.Battle) -> dict[str, Any]:
    """What the battle referee remembers: each combatant's arsenal of the first round (D3)."""
    return {"arsenals": {cid: tuple(state.cards[u] for u in c.hand) for cid, c in state.combatants.items()}}


# --- mass battles ---------------------------------------------------------------------------------


def _mass_wishes(state: magic.MassBattle, memo: dict[str, Any]) -> list[Any]:
    if state.ended:
        return []
    rng: random.Random = memo.setdefault("rng", random.Random(24))
    if state.stage == magic.INITIATIVE:
        a, b = rng.sample(range(1, 7), 2)
        return [magic.RollInitiative(source=magic.REFEREE, dice=(a, b))]
    if state.stage == magic.CHOOSE:
        assert state.winner is not None
        return [magic.ChooseStarter(side=state.winner, starts=True)]
    if state.stage == magic.OVER:
        field = [w for w in state.warriors.values() if w.place == magic.FIELD]
        if memo.get("casualty") != state.cycle and len(field) > 4:
            memo["casualty"] = state.cycle
            return [
                magic.MoveWarrior(warrior=field[state.cycle % len(field)].wid, to=magic.HOSPITAL),
                magic.NextCycle(),
            ]
        return [magic.NextCycle()]
    side = state.whose_turn()
    if side is None:
        return []
    other = state.other(side)
    if state.pending is not None:
        enemy = [w.wid for w in state.warriors.values() if w.side == other and w.place == magic.FIELD][:1]
        keep = [magic.KeepCard(side=side)] if magic.may_keep(state) and rng.random() < 0.3 else []
        return [
            *keep,
            magic.CarryOut(side=side, targets=tuple(enemy)),
            magic.CarryOut(side=side, target_side=other),
            magic.CarryOut(side=side),
        ]
    if side not in state.used_points:
        wounded = state.hospital(side)
        return [magic.UsePoints(side=side, warrior=wounded[0] if wounded else None, take=True)]
    return [magic.EndTurn(side=side)]


# --- both -----------------------------------------------------------------------------------------


def memo_for(kind: str, state: Any) -> dict[str, Any]:
    return battle_memo(state) if kind == "battle" else {}


def play(
    kind: str, state: Any, entries: int, start: dt.datetime, memo: dict[str, Any] | None = None
) -> Iterator[tuple[Any, dt.datetime, Any, list[Any]]]:
    """Up to ``entries`` commands from ``state``: (command, at, new state, events) each."""
    from duels.services.kinds import KINDS

    engine = KINDS["mass_battle" if kind == "mass" else kind]
    memo = memo_for(kind, state) if memo is None else memo
    wishes_of = _battle_wishes if kind == "battle" else _mass_wishes
    at = start
    for _ in range(entries):
        for command in wishes_of(state, memo):
            try:
                new, events = engine.apply(state, command, at, None)
            except RuleError:
                continue
            if isinstance(command, B.Act):
                memo["acted"] = state.turn_seq
            state = new
            yield command, at, state, events
            break
        else:
            return
        at += STEP


def _ids(values: Any) -> list[str]:
    return [str(v) for v in values]


def form(command: Any) -> dict[str, Any] | None:
    """The fight form's POST fields for one command (lists are repeated fields), or None."""
    match command:
        case B.Act():
            return {"action": "act", "who": command.actor, "act": command.act, "cards": list(command.cards),
                    "targets": _ids(command.targets)}  # fmt: skip
        case B.AnswerAttack():
            return {"action": "answer", "frame": command.frame, "who": command.defender, "card": command.card or ""}
        case B.ConfirmAnswer():
            return {"action": "confirm", "frame": command.frame, "who": command.defender,
                    "outcome": command.outcome or "", "reason": command.reason}  # fmt: skip
        case B.Proceed():
            return {"action": "proceed", "frame": command.frame}
        case B.Immediate():
            return {"action": command.mode, "frame": command.frame, "who": command.reactor, "card": command.card or "",
                    "target": command.target or "", "negates": "1" if command.negates else "0"}  # fmt: skip
        case B.NextTurn():
            return {"action": "next_turn"}
        case B.StartRound():
            return {"action": "start_round"}
        case magic.RollInitiative() if command.dice is not None:
            return {"action": "roll_entered", "dice_a": command.dice[0], "dice_b": command.dice[1]}
        case magic.ChooseStarter():
            return {"action": "choose", "side": command.side, "starts": "yes" if command.starts else "no"}
        case magic.UsePoints():
            return {"action": "points", "side": command.side, "warrior": command.warrior or "",
                    "take": "yes" if command.take else "no"}  # fmt: skip
        case magic.KeepCard():
            return {"action": "keep", "side": command.side}
        case magic.CarryOut():
            return {"action": "carry_out", "side": command.side, "targets": list(command.targets),
                    "target_side": command.target_side or "", "move_to": command.move_to or ""}  # fmt: skip
        case magic.EndTurn():
            return {"action": "end_turn", "side": command.side}
        case magic.MoveWarrior():
            return {"action": "move", "warrior": command.warrior, "to": command.to}
        case magic.NextCycle():
            return {"action": "next_cycle"}
    return None  # a new arsenal at a round break (its own form): the prepared steps stop there


def steps(kind: str, state: Any, ahead: int, now: dt.datetime, memo: dict[str, Any]) -> list[dict[str, Any]]:
    """The form's next ``ahead`` steps from ``state``, up to the first one the form cannot send."""
    import copy

    out = []
    for command, _at, _state, _events in play(kind, state, ahead, now, copy.deepcopy(memo)):
        fields = form(command)
        if fields is None:
            break
        out.append(fields)
    return out


# --- the bench game's battles and mass battles (Django set up) ---------------------------------------

BATTLE_LENGTHS = (60, 200)
MASS_LENGTHS = (40, 150)
# Enough fights that a load of a few seconds does not run out of prepared steps (a battle has ~30
# ahead, up to its next round break; a mass battle 60): wrk then sends pings instead (steps_done shows it).
PER_LENGTH = 6
MIN_AHEAD = 20
WARRIORS = 6  # per army
MAGIC = [
    # name, deck, type, negative, keepable, copies (as tests/services/mass_kit.py)
    ("Fire Rain", 2, "fire", True, False, 2),
    ("Wind Ward", 2, "wind", False, True, 1),
    ("Water Lash", 4, "water", True, False, 2),
    ("Stone Skin", 4, "earth", False, False, 1),
    ("Bright Banner", 5, "universal", False, True, 1),
    ("Flame Wall", 6, "fire", True, False, 2),
    ("Warm Wind", 6, "fire", False, False, 1),
]


def extend(situation: Any, kind: str, entries: int, memo: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
    """Append ``entries`` played commands to a stored battle or mass battle; the new state and the memo."""
    from django.db.models import Max

    from duels.models import LogEntry
    from duels.services.kinds import kind_of
    from duels.services.live import publish
    from duels.services.store import stored_events

    engine = kind_of(situation)
    state = engine.from_dict(situation.state)
    memo = memo_for(kind, state) if memo is None else memo
    last = situation.log.aggregate(seq=Max("seq"), at=Max("at"))
    seq, at = last["seq"] + 1, last["at"] + STEP
    rows, final = [], state
    for command, when, final, events in play(kind, state, entries, at, memo):  # noqa: B007 - the last one is kept
        rows.append(
            LogEntry(
                situation=situation,
                seq=seq,
                kind=LogEntry.Kind.COMMAND,
                command=engine.encode(command),
                at=when,
                reason=engine.reason_of(command),
                events=stored_events(events),
            )
        )
        seq += 1
    LogEntry.objects.bulk_create(rows, batch_size=500)
    situation.state = engine.to_dict(final)
    situation.version += len(rows)
    situation.next_deadline = engine.next_deadline(final)
    situation.save(update_fields=["state", "version", "next_deadline", "updated_at"])
    ids = list(engine.participants(final))
    publish(situation, ids, ids)
    return final, memo


def _battle_people(event: Any, people: list[Any]) -> None:
    from cards.models import ArsenalCard, Card
    from events.models import Character, Side

    catalogue = event.catalogue

    def card(name: str, kind: str, **kw: Any) -> Any:
        found = Card.objects.filter(catalogue=catalogue, name_en=name).first()
        return found or Card.objects.create(catalogue=catalogue, name_ru=name, name_en=name, kind=kind, **kw)

    extra = [
        card("Nova", "attack", full_effect="lightly_wounded", tags="area"),
        card("Counterspell", "defence", action_kind="interrupt", trigger_text="an enemy casts at you"),
        card("Riposte", "attack", full_effect="lightly_wounded", action_kind="response", trigger_text="attacked"),
    ]
    for i, person in enumerate(people):
        Character.objects.filter(pk=person.pk).update(side=Side.LIGHT if i % 2 == 0 else Side.DARK)
        ArsenalCard.objects.bulk_create(ArsenalCard(character=person, card=c, copies=1) for c in extra)


def battles(event: Any, user: Any, people: list[Any], now: Any, ahead: int) -> list[dict[str, Any]]:
    """Battles of four (two against two) at ``BATTLE_LENGTHS``, each with its next ``ahead`` steps."""
    import secrets

    from duels.battle.start import start_battle
    from events.models import Character

    made = []
    lengths = [n for n in BATTLE_LENGTHS for _ in range(PER_LENGTH)]
    _battle_people(event, people[: 4 * len(lengths)])
    # Every round a bout (the event setting, D3): each round ends in a break with new arsenals, so the
    # load has round breaks at every length; by the rules' reading a bout lasts while attack cards are
    # left, and a 200-entry battle would rarely reach one.
    type(event).objects.filter(pk=event.pk).update(every_round_a_bout=True)
    event.every_round_a_bout = True
    for i, length in enumerate(lengths):
        ids = [p.pk for p in people[4 * i : 4 * i + 4]]
        four = sorted(Character.objects.filter(pk__in=ids), key=lambda c: ids.index(c.pk))  # their new cards, sides
        situation = start_battle(event, four, declarer=four[0], user=user, nonce=secrets.token_hex(16)).situation
        state, memo = extend(situation, "battle", length - situation.log.count())
        for _ in range(40):
            # Near a round break the form cannot go on (a new arsenal has its own form): play on into the
            # next round, so that every battle has steps for the load (as bench/game.py does for duels).
            at = _last_at(situation) + STEP
            if len(steps("battle", state, MIN_AHEAD, at, memo)) >= MIN_AHEAD:
                break
            state, memo = extend(situation, "battle", 1, memo)
        made.append(_described(situation, "battle", length, state, memo, ahead, [p.link_token for p in four]))
    return made


def _last_at(situation: Any) -> dt.datetime:
    from django.db.models import Max

    last: dt.datetime = situation.log.aggregate(at=Max("at"))["at"]
    return last


def _armies(event: Any, count: int) -> list[tuple[Any, Any]]:
    from cards.models_mass import Army, MagicCard, Warrior, WarriorType

    for name, deck, kind, negative, keepable, copies in MAGIC:
        MagicCard.objects.get_or_create(
            catalogue=event.catalogue, name_en=name,
            defaults={"name_ru": name, "deck": deck, "magic_type": kind, "text": f"{name}: read aloud.",
                      "acts_on_protected": not negative, "keepable": keepable, "copies": copies},
        )  # fmt: skip
    types = [
        WarriorType.objects.create(event=event, name_ru="Саламандра", name_en="Salamander", protections="fire"),
        WarriorType.objects.create(event=event, name_ru="Копейщик", name_en="Spearman"),
        WarriorType.objects.create(event=event, name_ru="Сильф", name_en="Sylph", protections="wind,fire"),
    ]
    pairs = []
    for i in range(count):
        pair = []
        for colour in ("Red", "Blue"):
            army = Army.objects.create(event=event, name=f"{colour} {i}", commander_name=f"{colour} commander {i}")
            Warrior.objects.bulk_create(
                Warrior(army=army, name=f"{colour} {i}.{n}", warrior_type=types[n % len(types)])
                for n in range(WARRIORS)
            )
            pair.append(army)
        pairs.append((pair[0], pair[1]))
    return pairs


def mass_battles(event: Any, user: Any, now: Any, ahead: int) -> list[dict[str, Any]]:
    """Mass battles at ``MASS_LENGTHS`` (a magic cycle is ~8-10 entries), each with its next steps."""
    import secrets

    from duels.mass.start import start_mass_battle

    made = []
    lengths = [n for n in MASS_LENGTHS for _ in range(PER_LENGTH)]
    for (red, blue), length in zip(_armies(event, len(lengths)), lengths, strict=True):
        situation = start_mass_battle(event, red, blue, user=user, nonce=secrets.token_hex(16)).situation
        state, memo = extend(situation, "mass", length - situation.log.count())
        made.append(_described(situation, "mass", length, state, memo, ahead, []))
    return made


def _described(
    situation: Any, kind: str, length: int, state: Any, memo: dict[str, Any], ahead: int, tokens: list[str]
) -> dict[str, Any]:
    from django.db.models import Max

    at = situation.log.aggregate(at=Max("at"))["at"] + STEP
    path = {"battle": f"/battles/{situation.pk}/", "mass": f"/mass/{situation.pk}/"}[kind]
    watch = {"battle": f"/watch/{situation.pk}/", "mass": f"/mass/{situation.pk}/watch/"}[kind]
    return {
        "id": situation.pk,
        "kind": kind,
        "length": length,
        "entries": situation.log.count(),
        "version": situation.version,
        "steps": steps(kind, state, ahead, at, memo),
        "tokens": tokens,
        "path": path,
        "watch": watch,
    }


def secrets_hex() -> str:
    """A fresh nonce for a step sent through the form."""
    import secrets

    return secrets.token_hex(16)
