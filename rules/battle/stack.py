"""The action in progress: frames, opportunity and immediate actions, answers (R0-R8, D6-D9, CR).

Reading (docs/battle-rules.md): reactions form a stack. An opportunity attack
(R3) or an immediate interrupt (R6) is pushed on top of the frame it
interrupts, whose answer windows are suspended with the time they had left;
the top frame always resolves first (last in, first out). A response (R7) is
queued on the frame it answers and runs once that frame's current part is
done, in the order responses were called, before the frame's next part (R8).
The allowed-or-not checks are those of ``rules.reactions``, asked about a view
of this battle.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .. import reactions as R
from ..cards import OUTCOMES, CounterTable, effect_of
from ..conditions import apply_effect, can_fight
from ..errors import INPUT, RuleError, gettext_noop
from . import events as E
from .flow import Events, check_sides, fit
from .state import (
    AREA,
    ATTACK,
    INTERRUPT,
    MAIN,
    MOVE,
    OPPORTUNITY,
    PASS,
    RANGED,
    READY,
    RESPONSE,
    STANDARD,
    TURNS,
    USE,
    Battle,
    BattleCard,
    Frame,
    Part,
    Readied,
    StepRecord,
    Window,
)

_REACH_TRIGGER = {RANGED: R.RANGED_ATTACK, AREA: R.AREA_ATTACK}


# --- looking things up ---------------------------------------------------------------------------


def top(state: Battle) -> Frame | None:
    return state.stack[-1] if state.stack else None


def _in_turns(state: Battle) -> None:
    if state.phase != TURNS:
        raise RuleError(INPUT, gettext_noop("No turn is on: the battle is not between its rounds' turns."))


def _hand_card(state: Battle, cid: int, uid: str, rule: str) -> BattleCard:
    combatant = state.combatants[cid]
    if uid not in combatant.hand:
        raise RuleError(rule, gettext_noop("Card %(card)s is not in %(name)s's hand."), card=uid, name=combatant.name)
    return state.cards[uid]


def _combatant(state: Battle, cid: int) -> None:
    if cid not in state.combatants:
        raise RuleError(INPUT, gettext_noop("Combatant %(who)s is not in this battle."), who=cid)


def frame_in_stack(state: Battle, number: int) -> Frame:
    for frame in state.stack:
        if frame.number == number:
            return frame
    raise RuleError(INPUT, gettext_noop("That action is not in progress."))


def _top_frame(state: Battle, number: int) -> Frame:
    frame = top(state)
    if frame is None or frame.number != number:
        waiting = any(f.number == number for f in state.stack)
        raise RuleError(
            "R3" if waiting else INPUT,
            gettext_noop("That action waits for the reaction that interrupted it.")
            if waiting
            else gettext_noop("That action is not in progress."),
        )
    return frame


def _round_view(state: Battle, frame: Frame) -> R.BattleRound:
    """The reaction rules' view of this battle: the action they react to is ``frame``."""
    action = R.Action(
        actor=frame.actor, kind=frame.act, parts=len(frame.parts), parts_done=frame.parts_done, lost=frame.lost
    )
    return R.BattleRound(
        round=state.round,
        reactions_from_round=state.settings.reactions_from_round,
        combatants=list(state.combatants),
        turn_of=state.turn_of,
        turn_seq=state.turn_seq,
        action=action,
        opportunity_in_turn=dict(state.opportunity_in_turn),
        immediate_spent=set(state.immediate_spent),
    )


def _enemies(state: Battle, a: int, b: int) -> bool:
    return state.combatants[a].side != state.combatants[b].side


def _provocation(state: Battle, frame: Frame) -> str:
    """R1: what in this frame may draw an opportunity attack, or OTHER."""
    if frame.act == MOVE:
        return R.LEAVES_REACH
    if frame.act == ATTACK:
        part = frame.current or next((p for p in frame.parts if not p.done), None)
        if part is not None and part.card is not None:
            return _REACH_TRIGGER.get(state.cards[part.card].reach, R.OTHER)
    return R.OTHER


# --- checks shared by the commands and the referee's reaction bar -------------------------------


def check_opportunity(state: Battle, reactor: int, frame: Frame) -> None:
    """R0-R3: may ``reactor`` make an opportunity attack against ``frame`` now? Raises if not."""
    _in_turns(state)
    _combatant(state, reactor)
    trigger = R.Trigger(
        actor=frame.actor,
        kind=_provocation(state, frame),
        adjacent=reactor in frame.engaged,
        enemy=_enemies(state, reactor, frame.actor),
    )
    R.opportunity_action(_round_view(state, frame), reactor, trigger)
    if frame.finished or top(state) is not frame:
        # R3: it interrupts the triggering action, so that action must still be under way.
        raise RuleError("R3", gettext_noop("An opportunity action interrupts its trigger, which is already over."))
    _can_act(state, reactor)


def check_immediate(state: Battle, reactor: int, frame: Frame, mode: str, *, negates: bool = False) -> None:
    """R0, R4-R8: may ``reactor`` take an immediate ``mode`` action on ``frame`` now? Raises if not."""
    _in_turns(state)
    _combatant(state, reactor)
    moved = frame.parts_done if frame.act == MOVE else 0
    trigger = R.Trigger(actor=frame.actor, kind=R.MOVEMENT if frame.act == MOVE else R.OTHER, moved_steps=moved)
    R.immediate_action(_round_view(state, frame), reactor, mode, trigger, trigger_met=True, negates=negates)
    if mode == INTERRUPT and top(state) is not frame:
        raise RuleError("R6", gettext_noop("An interrupt acts before the triggering action finishes."))
    if mode == RESPONSE and frame.lost:
        raise RuleError("R6", gettext_noop("That action was negated by an interrupt and is lost."))
    if mode == RESPONSE and frame.actor == reactor:
        raise RuleError("R7", gettext_noop("Nobody responds to their own action."))
    _can_act(state, reactor)


def _can_act(state: Battle, cid: int) -> None:
    if not fit(state, cid):
        raise RuleError("D11", gettext_noop("%(name)s can no longer fight."), name=state.combatants[cid].name)


# --- frames --------------------------------------------------------------------------------------


def _new_frame(state: Battle, actor: int, role: str, act: str, parts: list[Part], **kw: object) -> Frame:
    frame = Frame(number=state.next_frame, actor=actor, role=role, act=act, parts=parts, **kw)  # type: ignore[arg-type]
    state.next_frame += 1
    return frame


def _declared(frame: Frame) -> E.ActionDeclared:
    return E.ActionDeclared(
        frame=frame.number,
        actor=frame.actor,
        role=frame.role,
        act=frame.act,
        targets=list(frame.targets),
        engaged=list(frame.engaged),
        reacts_to=frame.reacts_to,
        trigger=frame.trigger,
    )


def _check_targets(state: Battle, actor: int, card: BattleCard, targets: tuple[int, ...] | list[int]) -> None:
    for target in targets:
        _combatant(state, target)
    if not targets or actor in targets or len(set(targets)) != len(targets):
        raise RuleError("D6", gettext_noop("An attack names its targets: other combatants, each once."))
    if card.reach != AREA and len(targets) != 1:
        raise RuleError("D6", gettext_noop("Only an area attack names several targets."))


def begin_part(state: Battle, frame: Frame, part: Part, now: datetime, events: Events) -> None:
    """A part starts: an attack card is shown and the answer windows open (D6, D8)."""
    part.begun = True
    actor = state.combatants[frame.actor]
    if part.card is not None:
        if part.card not in actor.hand:
            raise RuleError(
                "D6", gettext_noop("Card %(card)s is not in %(name)s's hand."), card=part.card, name=actor.name
            )
        actor.hand.remove(part.card)
    if frame.act == ATTACK:
        assert part.card is not None
        deadline = now + timedelta(seconds=state.settings.answer_window_s)
        window_ms = state.settings.answer_window_s * 1000
        part.windows = [Window(defender=t, deadline=deadline, remaining_ms=window_ms) for t in frame.targets]
        events.append(
            E.AttackShown(
                frame=frame.number,
                attacker=frame.actor,
                card=part.card,
                card_id=state.cards[part.card].face.card_id,
                targets=list(frame.targets),
                deadline=deadline.isoformat(),
            )
        )
        return
    if part.card is not None:
        events.append(
            E.CardUsed(
                frame=frame.number, combatant=frame.actor, card=part.card, card_id=state.cards[part.card].face.card_id
            )
        )
    # A move's first stretch and a card used in one's turn wait for the referee's "go on",
    # so that reactions can catch them; everything else happens at once.
    if frame.role == MAIN and frame.act in (MOVE, USE) and part is frame.parts[0]:
        return
    finish_part(state, frame, part, now, events)


def finish_part(state: Battle, frame: Frame, part: Part, now: datetime, events: Events) -> None:
    part.done = True
    if part.card is not None:
        # D9: played cards are discarded.
        state.combatants[frame.actor].discards.append(part.card)
    events.append(E.PartDone(frame=frame.number, part=frame.parts.index(part)))


def suspend(frame: Frame, now: datetime, by: int, events: Events) -> None:
    """R3/R6: the interrupted action waits; its answer windows keep the time they had left."""
    part = frame.current
    if part is None:
        return
    for window in part.windows:
        if window.deadline is not None and not window.answered:
            left = (window.deadline - now) // timedelta(milliseconds=1)
            window.remaining_ms = max(0, left)
            window.deadline = None
    events.append(E.WindowsSuspended(frame=frame.number, by=by))


def resume(state: Battle, frame: Frame, now: datetime, events: Events) -> None:
    if not frame.finished and not fit(state, frame.actor):
        # Reading: an action whose actor can no longer fight is lost with them.
        lose(state, frame, None, "out", events)
        return
    part = frame.current
    if part is None or not any(w.deadline is None and not w.answered for w in part.windows):
        return
    for window in part.windows:
        if window.deadline is None and not window.answered:
            window.deadline = now + timedelta(milliseconds=window.remaining_ms)
    events.append(E.WindowsResumed(frame=frame.number))


def lose(state: Battle, frame: Frame, by: int | None, why: str, events: Events) -> None:
    """R6: the action is lost - its shown card is spent, its answer windows close, unanswered."""
    part = frame.current
    if part is not None:
        if part.card is not None:
            state.combatants[frame.actor].discards.append(part.card)
        for window in part.windows:
            if window.answer_card is not None:
                # Reading: an answer to an attack that never happened goes back to the hand.
                state.combatants[window.defender].hand.append(window.answer_card)
        part.windows = []
        part.card = None
    frame.lost = True
    events.append(E.ActionLost(frame=frame.number, actor=frame.actor, by=by, why=why))


def settle(state: Battle, now: datetime, events: Events) -> None:
    """Start queued responses whose trigger part is done (R7, R8), in the order they were called."""
    while state.phase == TURNS and state.stack:
        frame = state.stack[-1]
        if frame.current is not None or not frame.queue:
            return
        response = frame.queue.pop(0)
        suspend(frame, now, response.actor, events)
        state.stack.append(response)
        begin_part(state, response, response.parts[0], now, events)


# --- commands ------------------------------------------------------------------------------------


def act(
    state: Battle,
    actor: int,
    kind: str,
    cards: tuple[str, ...],
    targets: tuple[int, ...],
    engaged: tuple[int, ...],
    trigger: str,
    mode: str,
    now: datetime,
    events: Events,
) -> None:
    _in_turns(state)
    if state.turn_of != actor:
        raise RuleError(
            "D5", gettext_noop("It is %(name)s's turn."), name=state.combatants[state.turn_of or actor].name
        )
    if state.stack:
        raise RuleError(INPUT, gettext_noop("One action a turn: this turn's action is already under way."))
    for other in engaged:
        _combatant(state, other)
    parts: list[Part]
    if kind == ATTACK:
        if not 1 <= len(cards) <= 2:
            raise RuleError("D6", gettext_noop("An attack shows one attack card (two for a double attack)."))
        for uid in cards:
            card = _hand_card(state, actor, uid, "D6")
            if not card.is_attack or card.action not in (STANDARD, OPPORTUNITY):
                raise RuleError(
                    "D6", gettext_noop("%(name)s is not an attack card for one's own turn."), name=card.face.name
                )
            _check_targets(state, actor, card, targets)
        if len(set(cards)) != len(cards):
            raise RuleError("D6", gettext_noop("Each card is shown once."))
        parts = [Part(card=uid) for uid in cards]
    elif kind == MOVE:
        parts = [Part(), Part()]  # the first stretch out of reach (R7), then the rest
    elif kind == USE:
        if len(cards) != 1:
            raise RuleError(INPUT, gettext_noop("Choose the card to use."))
        card = _hand_card(state, actor, cards[0], INPUT)
        if card.is_attack or card.action != STANDARD:
            raise RuleError(
                INPUT, gettext_noop("%(name)s cannot be used as an action of one's own turn."), name=card.face.name
            )
        parts = [Part(card=cards[0])]
    elif kind == READY:
        if mode not in (INTERRUPT, RESPONSE) or not trigger.strip():
            raise RuleError(
                "R4", gettext_noop("A readied action names its trigger and whether it interrupts or responds.")
            )
        state.readied[actor] = Readied(mode=mode, trigger=trigger.strip())
        events.append(E.ActionReadied(combatant=actor, mode=mode, trigger=trigger.strip()))
        parts = [Part()]
    elif kind == PASS:
        parts = [Part()]
    else:
        raise RuleError(INPUT, gettext_noop("Unknown action."))
    frame = _new_frame(
        state,
        actor,
        MAIN,
        kind,
        parts,
        targets=list(targets) if kind == ATTACK else [],
        engaged=[e for e in engaged if _enemies(state, actor, e)],
        trigger=trigger.strip() if kind == READY else "",
    )
    state.stack.append(frame)
    events.append(_declared(frame))
    begin_part(state, frame, parts[0], now, events)


def proceed(state: Battle, number: int, now: datetime, events: Events) -> None:
    _in_turns(state)
    frame = _top_frame(state, number)
    part = frame.current
    if part is not None:
        if frame.act == ATTACK:
            raise RuleError("D7", gettext_noop("The attack waits for its answers and results."))
        finish_part(state, frame, part, now, events)
    elif not frame.finished:
        begin_part(state, frame, next(p for p in frame.parts if not p.begun), now, events)
    elif frame.role == MAIN:
        raise RuleError(INPUT, gettext_noop("The action is over: go on to the next turn."))
    else:
        state.stack.pop()
        events.append(E.FrameClosed(frame=frame.number, actor=frame.actor, role=frame.role))
        below = top(state)
        if below is not None:
            resume(state, below, now, events)
    settle(state, now, events)


def opportunity(state: Battle, reactor: int, number: int, uid: str, now: datetime, events: Events) -> None:
    frame = frame_in_stack(state, number)
    check_opportunity(state, reactor, frame)
    card = _hand_card(state, reactor, uid, "R1")
    if not card.is_attack or card.action not in (STANDARD, OPPORTUNITY):
        raise RuleError("R1", gettext_noop("An opportunity action is an attack with an attack card."))
    state.opportunity_in_turn[reactor] = state.turn_seq
    reaction = _new_frame(
        state,
        reactor,
        OPPORTUNITY,
        ATTACK,
        [Part(card=uid)],
        targets=[frame.actor],
        reacts_to=frame.number,
        trigger=_provocation(state, frame),
    )
    _push(state, frame, reaction, now, events)


def immediate(
    state: Battle,
    reactor: int,
    number: int,
    mode: str,
    uid: str | None,
    target: int | None,
    negates: bool,
    now: datetime,
    events: Events,
) -> None:
    frame = frame_in_stack(state, number)
    if mode not in (INTERRUPT, RESPONSE):
        raise RuleError(INPUT, gettext_noop("An immediate action is an interrupt or a response."))
    check_immediate(state, reactor, frame, mode, negates=negates)
    card = None if uid is None else _hand_card(state, reactor, uid, "R4")
    readied = state.readied.get(reactor)
    by_readied = card is None or card.action != mode
    if by_readied and (readied is None or readied.mode != mode):
        raise RuleError(
            "R4", gettext_noop("An immediate action needs a card of that kind or an action readied for it.")
        )
    trigger = readied.trigger if by_readied and readied is not None else (card.trigger if card else "")
    act_kind, targets = USE, []
    if card is not None and card.is_attack:
        act_kind = ATTACK
        targets = [frame.actor if target is None else target]
        _check_targets(state, reactor, card, targets)
    if by_readied:
        state.readied.pop(reactor, None)
    state.immediate_spent.append(reactor)
    reaction = _new_frame(
        state,
        reactor,
        mode,
        act_kind,
        [Part(card=uid)],
        targets=targets,
        reacts_to=frame.number,
        trigger=trigger,
        readied=by_readied,
    )
    if mode == INTERRUPT:
        if negates:
            lose(state, frame, reactor, "negated", events)
        _push(state, frame, reaction, now, events)
        return
    events.append(_declared(reaction))
    if top(state) is frame and frame.current is None:
        suspend(frame, now, reactor, events)
        state.stack.append(reaction)
        begin_part(state, reaction, reaction.parts[0], now, events)
    else:
        # R7/R8: it waits for the part under way, and for responses called before it.
        frame.queue.append(reaction)


def _push(state: Battle, frame: Frame, reaction: Frame, now: datetime, events: Events) -> None:
    """R3/R6: the reaction resolves first; the action it interrupts waits."""
    suspend(frame, now, reaction.actor, events)
    state.stack.append(reaction)
    events.append(_declared(reaction))
    begin_part(state, reaction, reaction.parts[0], now, events)


def _window(state: Battle, number: int, defender: int) -> tuple[Frame, Part, Window]:
    frame = _top_frame(state, number)
    part = frame.current
    window = None if part is None else next((w for w in part.windows if w.defender == defender), None)
    if part is None or window is None:
        raise RuleError(
            "D7",
            gettext_noop("Nobody is waiting for %(name)s's answer there."),
            name=state.combatants[defender].name if defender in state.combatants else defender,
        )
    return frame, part, window


def answer(state: Battle, number: int, defender: int, uid: str | None, now: datetime, events: Events) -> None:
    _in_turns(state)
    _frame, part, window = _window(state, number, defender)
    if window.answered:
        raise RuleError("D7", gettext_noop("%(name)s has already answered."), name=state.combatants[defender].name)
    face = None
    if uid is not None:
        face = _hand_card(state, defender, uid, "D7").face
        state.combatants[defender].hand.remove(uid)
    assert part.card is not None
    window.answer_card = uid
    window.answered = True
    window.deadline = None
    window.proposed = CounterTable(state.counters).propose(face, state.cards[part.card].face)
    events.append(
        E.Answered(
            frame=number,
            defender=defender,
            card=uid,
            card_id=None if face is None else face.card_id,
            proposed=window.proposed,
        )
    )


def confirm(
    state: Battle, number: int, defender: int, outcome: str | None, reason: str, now: datetime, events: Events
) -> None:
    _in_turns(state)
    frame, part, window = _window(state, number, defender)
    if not window.answered or window.resolved or window.proposed is None:
        raise RuleError("CR2", gettext_noop("There is no result to confirm yet."))
    chosen = window.proposed if outcome is None else outcome
    if chosen not in OUTCOMES:
        raise RuleError(INPUT, gettext_noop("Unknown result %(outcome)s."), outcome=chosen)
    reason = reason.strip()
    if chosen != window.proposed and not reason:
        raise RuleError("CR2", gettext_noop("Overriding the proposed result needs a reason."))
    resolve(state, frame, part, window, chosen, now, events, reason=reason if chosen != window.proposed else "")


def resolve(
    state: Battle,
    frame: Frame,
    part: Part,
    window: Window,
    outcome: str,
    at: datetime,
    events: Events,
    *,
    reason: str = "",
    timed_out: bool = False,
) -> None:
    """CR1: the outcome's effect lands; D9: the answer is discarded; the part ends with its last window."""
    assert part.card is not None and window.proposed is not None
    defender = state.combatants[window.defender]
    old = defender.condition
    defender.condition = apply_effect(old, effect_of(outcome, state.cards[part.card].face))
    if window.answer_card is not None:
        defender.discards.append(window.answer_card)
    window.outcome = outcome
    window.timed_out = timed_out
    state.records.append(
        StepRecord(
            round=state.round,
            frame=frame.number,
            role=frame.role,
            attacker=frame.actor,
            defender=window.defender,
            attack_card=part.card,
            answer_card=window.answer_card,
            outcome=outcome,
            proposed=window.proposed,
            override_reason=reason,
            timed_out=timed_out,
        )
    )
    events.append(
        E.ResultApplied(
            frame=frame.number,
            attacker=frame.actor,
            defender=window.defender,
            outcome=outcome,
            proposed=window.proposed,
            overridden=outcome != window.proposed,
            reason=reason,
            timed_out=timed_out,
        )
    )
    if defender.condition != old:
        events.append(E.ConditionChanged(combatant=window.defender, old=old, new=defender.condition))
        if not can_fight(defender.condition):
            events.append(E.CombatantOut(combatant=window.defender, condition=defender.condition))
    if all(w.resolved for w in part.windows):
        finish_part(state, frame, part, at, events)
    if not check_sides(state, at, events):
        settle(state, at, events)


def timeout(state: Battle, frame: Frame, part: Part, window: Window, events: Events) -> None:
    """D8: no answer in time - the attack takes full effect."""
    at = window.deadline
    assert at is not None
    events.append(E.AnswerTimedOut(frame=frame.number, defender=window.defender, deadline=at.isoformat()))
    window.answered = True
    window.deadline = None
    window.proposed = "not_parried"
    resolve(state, frame, part, window, "not_parried", at, events, timed_out=True)
