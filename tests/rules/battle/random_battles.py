"""Random legal battle commands for the engine's Hypothesis properties (test_properties, test_situation_properties)."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from rules import battle as B
from tests.rules.battle.kit import Fight

ACTS = (B.ATTACK, B.ATTACK, B.ATTACK, B.MOVE, B.USE, B.READY, B.PASS)


def _choose[T](data: st.DataObject, items: Sequence[T]) -> T:
    # Every caller offers at least one item (a battle has combatants, a hand offered here is not empty).
    assert items, "nothing to choose from"
    return items[data.draw(st.integers(0, len(items) - 1))]


def _candidate(fight: Fight, data: st.DataObject) -> B.BattleCommand | None:
    state = fight.state
    ids = list(state.combatants)
    if state.phase == B.BETWEEN_ROUNDS:
        return B.StartRound()
    choice = data.draw(st.integers(0, 9))
    top = B.top(state)
    if choice == 0 or top is None:
        actor = state.turn_of
        if actor is None:
            return None
        kind = _choose(data, list(ACTS))
        hand = state.combatants[actor].hand
        attacks = [u for u in hand if state.cards[u].is_attack and state.cards[u].action in (B.STANDARD, "opportunity")]
        # Mostly a legal attack (so that reactions have something to react to), sometimes anything.
        pool = attacks if kind == B.ATTACK and attacks and data.draw(st.booleans()) else hand
        cards = tuple(data.draw(st.lists(st.sampled_from(pool), max_size=2, unique=True))) if pool else ()
        others = [i for i in ids if i != actor]
        targets = tuple(data.draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True)))
        engaged = tuple(data.draw(st.lists(st.sampled_from(ids), max_size=3, unique=True)))
        return B.Act(
            actor=actor,
            act=kind,
            cards=cards,
            targets=targets,
            engaged=engaged,
            trigger="x",
            mode=_choose(data, [B.INTERRUPT, B.RESPONSE]),
        )
    # Mostly the frame a reaction can legally react to; sometimes any frame of the stack.
    frame = top if data.draw(st.booleans()) else _choose(data, list(state.stack))
    reactor = _choose(data, ids)
    hand = state.combatants[reactor].hand
    part = top.current
    if choice == 1:
        return B.Proceed(frame=top.number)
    if choice == 2 and hand:
        reactor = _choose(data, frame.engaged or ids)
        attacks = [u for u in state.combatants[reactor].hand if state.cards[u].is_attack]
        return B.Opportunity(reactor=reactor, frame=frame.number, card=_choose(data, attacks or hand))
    if choice in (3, 9):
        mode = _choose(data, [B.INTERRUPT, B.RESPONSE])
        frame = top if mode == B.INTERRUPT else next((f for f in reversed(state.stack) if f.parts_done), frame)
        fitting = [u for u in hand if state.cards[u].action == mode]
        use_fitting = bool(fitting) and data.draw(st.booleans())
        options: list[str | None] = [*fitting] if use_fitting else [*hand, None]
        return B.Immediate(
            reactor=reactor,
            frame=frame.number,
            mode=mode,
            card=_choose(data, options),
            target=_choose(data, [*ids, None]),
            negates=data.draw(st.booleans()),
        )
    if choice in (4, 5) and part is not None and part.windows:
        window = _choose(data, part.windows)
        if not window.answered:
            return B.AnswerAttack(
                frame=top.number,
                defender=window.defender,
                card=_choose(data, [*state.combatants[window.defender].hand, None]),
            )
        return B.ConfirmAnswer(frame=top.number, defender=window.defender)
    if choice == 6:
        return B.NextTurn()
    if choice == 7:
        fight.tick(data.draw(st.sampled_from([1, 5, 16, 200])))
    return None
