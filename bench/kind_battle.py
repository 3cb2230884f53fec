"""The benchmark's battles of four: the patient referee's wishes and the game's battles (issue 24).

Each turn an attack - the area card (Nova) on every enemy still fighting, else
a single one - answered with a defence card where there is one, every result
confirmed as "parried" (an override with a reason, so nobody drops out); from
the reactions' round (R0) a target holding an interrupt (Counterspell) casts it
before answering, and once the attack is over a target holding a response
(Riposte) strikes back (R7); then the next turn. Only wishes the engine would
take are made where that is plain (no "go on" while an attack waits, no
second immediate action before one's own turn, R5): a refusal costs a copy of
the state, and the game's build plays ~45,000 commands. Between rounds the log takes
everyone's arsenal again (D3), each combatant's own form; the prepared steps,
which go through the tablet's form, start the next round with the hands left
(its "start round" button), so the load goes on across the break as a referee
would.
"""

from __future__ import annotations

from typing import Any

import rules
from rules import battle as B

REASON = "benchmark: parried"
LENGTHS = (60, 200)
# Each kind's load needs more fights than wrk has connections (-c50): every connection then has a
# step of its own in flight, and each fight enough prepared steps for a load of 6 s (issue 24).
PER_LENGTH = 30
EXTRA = (
    ("Nova", "attack", {"full_effect": "lightly_wounded", "tags": "area"}),
    ("Counterspell", "defence", {"action_kind": "interrupt", "trigger_text": "an enemy casts at you"}),
    ("Riposte", "attack", {"full_effect": "lightly_wounded", "action_kind": "response", "trigger_text": "attacked"}),
)


def _named(state: B.Battle, cid: int, name: str) -> str | None:
    return next((u for u in state.combatants[cid].hand if state.cards[u].face.name == name), None)


def _enemies(state: B.Battle, cid: int) -> list[int]:
    side = state.combatants[cid].side
    return [o for o, c in state.combatants.items() if c.side != side and B.fit(state, o)]


def _between_rounds(state: B.Battle, memo: dict[str, Any]) -> list[Any]:
    if memo.get("form"):  # the tablet's "start round": everyone goes on with the hand left
        return [B.StartRound()]
    arsenals = memo["arsenals"]
    done = memo.setdefault("renewed", {}).setdefault(state.round, set())
    for cid in state.combatants:
        if cid not in done:
            done.add(cid)
            return [B.NewArsenal(cid, arsenals[cid], "again"), B.StartRound()]
    return [B.StartRound()]


def _in_frame(state: B.Battle, frame: B.Frame, memo: dict[str, Any]) -> list[Any]:
    wishes: list[Any] = []
    part = frame.current
    window = next((w for w in part.windows if not w.resolved), None) if part else None
    if window is not None and not window.answered:
        reacted = memo.setdefault("reacted", set())
        spent = window.defender in state.immediate_spent  # R5: one immediate action between own turns
        if state.reactions_on and frame.role == B.MAIN and frame.number not in reacted and not spent:
            reacted.add(frame.number)
            interrupt = _named(state, window.defender, "Counterspell")
            if interrupt:
                wishes.append(B.Immediate(window.defender, frame.number, B.INTERRUPT, interrupt))
        hand = state.combatants[window.defender].hand
        shield = next((u for u in hand if state.cards[u].face.is_defence and state.cards[u].action == B.STANDARD), None)
        wishes += [
            B.AnswerAttack(frame.number, window.defender, shield),
            B.AnswerAttack(frame.number, window.defender, None),
        ]
    elif window is not None:
        wishes += [
            B.ConfirmAnswer(frame.number, window.defender, rules.PARRIED, REASON),
            B.ConfirmAnswer(frame.number, window.defender),
        ]
    elif part is None and frame.finished and frame.role == B.MAIN and state.reactions_on:
        # R7: a response once its trigger has happened - the attack over, a target strikes back.
        responded = memo.setdefault("responded", set())
        for target in frame.targets:
            riposte = _named(state, target, "Riposte")
            if riposte and (frame.number, target) not in responded and target not in state.immediate_spent:
                responded.add((frame.number, target))
                wishes.append(B.Immediate(target, frame.number, B.RESPONSE, riposte, frame.actor))
                break
    # Only a "go on" the engine would take (stack.proceed's refusals): each refusal costs a copy of the
    # state, and the game's build plays ~30,000 commands.
    waits = frame.act == B.ATTACK if part is not None else frame.finished and frame.role == B.MAIN
    return [*wishes, *([] if waits else [B.Proceed(frame.number)]), B.NextTurn()]


def wishes(state: B.Battle, memo: dict[str, Any]) -> list[Any]:
    """The referee's wishes for the next command, in order (the engine refuses what the rules do not allow)."""
    if state.phase == B.BETWEEN_ROUNDS:
        return _between_rounds(state, memo)
    if state.phase != B.TURNS:
        return []
    frame = B.top(state)
    if frame is not None:
        return _in_frame(state, frame, memo)
    actor = state.turn_of
    if actor is None or memo.get("acted") == state.turn_seq:
        return [B.NextTurn()]
    enemies = _enemies(state, actor)
    out = []
    hand = [u for u in state.combatants[actor].hand if state.cards[u].is_attack and state.cards[u].action == B.STANDARD]
    for uid in sorted(hand, key=lambda u: state.cards[u].reach != B.AREA):  # the area card first
        targets = enemies if state.cards[uid].reach == B.AREA else enemies[:1]
        out.append(B.Act(actor=actor, act=B.ATTACK, cards=(uid,), targets=tuple(targets)))
    return [*out, B.Act(actor=actor, act=B.PASS), B.NextTurn()]


def memo_of(state: B.Battle) -> dict[str, Any]:
    """What the battle referee remembers: each combatant's arsenal of the first round (D3)."""
    return {"arsenals": {cid: tuple(state.cards[u] for u in c.hand) for cid, c in state.combatants.items()}}


# --- the bench game's battles (Django set up) ------------------------------------------------------


def people(event: Any, fighters: list[Any]) -> None:
    """Sides (two against two) and the battle's own cards - area, interrupt, response - for ``fighters``."""
    from cards.models import ArsenalCard, Card
    from events.models import Character, Side

    extra = []
    for name, kind, more in EXTRA:
        found = Card.objects.filter(catalogue=event.catalogue, name_en=name).first()
        extra.append(
            found or Card.objects.create(catalogue=event.catalogue, name_ru=name, name_en=name, kind=kind, **more)
        )
    light = [p.pk for i, p in enumerate(fighters) if i % 2 == 0]
    Character.objects.filter(pk__in=[p.pk for p in fighters]).update(side=Side.DARK)
    Character.objects.filter(pk__in=light).update(side=Side.LIGHT)
    ArsenalCard.objects.bulk_create(
        (ArsenalCard(character=person, card=c, copies=1) for person in fighters for c in extra), batch_size=2000
    )


def build(
    event: Any, user: Any, fighters: list[Any], ahead: int, lengths: tuple[int, ...] | None = None
) -> list[dict[str, Any]]:
    """Battles of four (two against two), ``PER_LENGTH`` at each of ``LENGTHS`` (or one a length of
    ``lengths``), each with its next ``ahead`` steps."""
    from bench import kinds
    from duels.battle.start import start_battle
    from events.models import Character

    made = []
    lengths = lengths or tuple(n for n in LENGTHS for _ in range(PER_LENGTH))
    people(event, fighters[: 4 * len(lengths)])
    # Every round a bout (the event setting, D3): each round ends in a break, so the load has round
    # breaks at every length; by the rules' reading a bout lasts while attack cards are left, and a
    # 200-entry battle would rarely reach one.
    type(event).objects.filter(pk=event.pk).update(every_round_a_bout=True)
    event.every_round_a_bout = True
    for i, length in enumerate(lengths):
        ids = [p.pk for p in fighters[4 * i : 4 * i + 4]]
        four = sorted(Character.objects.filter(pk__in=ids), key=lambda c: ids.index(c.pk))  # their new cards, sides
        situation = start_battle(event, four, declarer=four[0], user=user, nonce=kinds.secrets_hex()).situation
        state, memo = kinds.extend(situation, "battle", length - situation.log.count())
        made.append(kinds.described(situation, "battle", length, state, memo, ahead, [p.link_token for p in four]))
    return made
