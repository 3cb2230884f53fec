"""What each viewer of a battle may see (D4), built from the battle engine's state.

As for duels, D4 lives here: an unplayed card reaches a template only through
``CombatantView.hand`` or a reaction option's cards, filled in only for a
viewer who may see that combatant's hand (the referee, or the holder). Shown
attack cards, answers once given and discards are public. The reaction bar
asks the engine's own checks (``check_opportunity`` / ``check_immediate``),
so "why not" is the rule's own refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any

from django.utils.translation import gettext_lazy as _

from cards.words import OUTCOME_LABELS, explain, rule_of
from duels.web.viewers import CardView, HoldsCards, Viewer, iso
from events.models import Side
from rules import RuleError
from rules import battle as B
from rules.conditions import can_fight

ROLE_LABELS = {
    B.MAIN: _("action"),
    B.OPPORTUNITY: _("opportunity attack"),
    B.INTERRUPT: _("immediate interrupt"),
    B.RESPONSE: _("immediate response"),
}
ACT_LABELS = {
    B.ATTACK: _("attack"),
    B.MOVE: _("leaves engagement (move)"),
    B.USE: _("uses a card"),
    B.READY: _("readies an action"),
    B.PASS: _("passes"),
}
INSTANT_LABEL = _("instant attack")
RESULT_LABELS = {
    "one_side_left": _("one side is left"),
    "ended_by_referee": _("ended by the referee"),
    "max_rounds": _("the agreed number of rounds was played"),
    "no_attacks_left": _("nobody has an attack card left"),
    "situation_ended": _("the combat situation ended"),
}
SIDE_LABELS = {s.value: s.label for s in Side}
# Side colours on the turn strip (Bootstrap colour names).
SIDE_COLOURS = {"light": "warning", "dark": "dark", "inquisition": "danger", "neutral": "secondary"}


def _card(state: B.Battle, uid: str) -> CardView:
    card = state.cards[uid]
    face = card.face
    return CardView(
        uid=uid,
        card_id=face.card_id,
        name=face.name,
        kind=face.kind,
        full_effect=face.full_effect,
        softened_effect=face.softened_effect,
    )


def _cards(state: B.Battle, uids: Iterable[str]) -> list[CardView]:
    return [_card(state, uid) for uid in uids]


@dataclass
class CombatantView(HoldsCards):
    id: int
    name: str
    side: str
    condition: str
    can_fight: bool
    hand_count: int
    active: bool
    opportunity_spent: bool  # R2: this turn
    immediate_spent: bool  # R5: since the end of their last turn
    readied: str
    hand: list[CardView] | None = None  # None: this viewer may not see it (D4)
    # Their played cards, built when a page shows them (a combatant's own page): the tablet does not.
    played: Callable[[], list[CardView]] = field(default=list, repr=False, compare=False)

    @cached_property
    def discards(self) -> list[CardView]:
        """Every card they played, oldest first (public, D4)."""
        return self.played()

    @property
    def side_label(self) -> str:
        return str(SIDE_LABELS.get(self.side, self.side))

    @property
    def side_colour(self) -> str:
        return SIDE_COLOURS.get(self.side, "info")


@dataclass
class WindowView:
    defender: CombatantView
    deadline_iso: str
    suspended: bool
    answered: bool
    answer_card: CardView | None
    proposed: str | None
    outcome: str | None

    @property
    def proposed_label(self) -> str:
        return str(OUTCOME_LABELS.get(self.proposed or "", ""))


@dataclass
class FrameView:
    number: int
    actor: CombatantView
    role: str
    act: str
    targets: list[CombatantView]
    card: CardView | None
    windows: list[WindowView]
    finished: bool
    lost: bool
    on_top: bool
    parts_done: int
    parts: int
    trigger: str
    queued: list[FrameView] = field(default_factory=list)
    instant: bool = False  # IA1: an instant attack's blow (rules/battle/instant.py)

    @property
    def role_label(self) -> str:
        return str(ROLE_LABELS.get(self.role, self.role))

    @property
    def act_label(self) -> str:
        if self.instant:
            return str(INSTANT_LABEL)
        return str(ACT_LABELS.get(self.act, self.act))

    @property
    def open_windows(self) -> list[WindowView]:
        return [w for w in self.windows if not w.answered and not w.suspended]

    @property
    def to_confirm(self) -> list[WindowView]:
        return [w for w in self.windows if w.answered and w.outcome is None]


@dataclass
class ReactionOption:
    """One possible reaction of one combatant now, or why not."""

    kind: str  # opportunity / interrupt / response
    allowed: bool
    why_not: str = ""
    rule: str = ""  # the rule the refusal cites, shown to the referee as a link
    cards: list[CardView] = field(default_factory=list)
    ask_adjacent: bool = False  # R1: an out-of-turn provoker - the referee ticks "next to them now"

    @property
    def label(self) -> str:
        return str(ROLE_LABELS[self.kind])


@dataclass
class ReactorView:
    combatant: CombatantView
    options: list[ReactionOption]

    # Kept once asked: the bar asks each several times, and the options are not changed after presenting.
    @cached_property
    def any_allowed(self) -> bool:
        return any(o.allowed for o in self.options)

    @cached_property
    def one_reason(self) -> ReactionOption | None:
        """The one refusal when every reaction is refused for the same reason (e.g. their own turn)."""
        reasons = {(o.why_not, o.rule) for o in self.options}
        return self.options[0] if self.options and not self.any_allowed and len(reasons) == 1 else None


@dataclass
class BattleView:
    phase: str
    round: int
    max_rounds: int | None
    reactions_on: bool
    reactions_from: int
    combatants: list[CombatantView]
    by_id: dict[int, CombatantView]
    turn_of: CombatantView | None
    frames: list[FrameView]
    reactors: list[ReactorView]
    records: list[dict[str, Any]]
    ended: bool
    result: str | None
    end_reason: str
    winner: str | None
    gap_deadline_iso: str
    respond_frame: int | None = None  # the action a response now answers (R7)
    striker: CombatantView | None = None  # BP4: a newcomer who joined by attacking, to strike at once

    @property
    def top(self) -> FrameView | None:
        return self.frames[-1] if self.frames else None

    @property
    def main(self) -> FrameView | None:
        return self.frames[0] if self.frames else None

    @property
    def result_label(self) -> str:
        return str(RESULT_LABELS.get(self.result or "", ""))

    @property
    def winner_label(self) -> str:
        return str(SIDE_LABELS.get(self.winner or "", self.winner or ""))

    @property
    def can_next_turn(self) -> bool:
        main = self.main
        return self.phase == B.TURNS and (main is None or (len(self.frames) == 1 and not main.queued and main.finished))


# The newest answers a live page shows; the state keeps B.RECORDS_KEPT of them, the record page all.
LIVE_RECORDS = 12


def present_battle(
    state: B.Battle, viewer: Viewer, *, reactions: bool = True, records: int = LIVE_RECORDS
) -> BattleView:
    """The battle as ``viewer`` may see it; the reaction bar only for the referee (or a player's own)."""
    turn_of = state.turn_of
    people: dict[int, CombatantView] = {}
    for cid, c in state.combatants.items():
        people[cid] = CombatantView(
            id=cid,
            name=c.name,
            side=c.side,
            condition=c.condition,
            can_fight=can_fight(c.condition) and not c.left,
            hand_count=len(c.hand),
            played=partial(_cards, state, tuple(c.discards)),
            active=cid == turn_of,
            opportunity_spent=state.opportunity_in_turn.get(cid) == state.turn_seq and state.phase == B.TURNS,
            immediate_spent=cid in state.immediate_spent,
            readied=state.readied[cid].trigger if cid in state.readied else "",
            hand=[_card(state, uid) for uid in c.hand] if viewer.sees_hand_of(cid) else None,
        )
    order = [people[cid] for cid in state.order if cid in people] if state.order else []
    order += [p for cid, p in people.items() if cid not in state.order]

    def frame_view(frame: B.Frame, on_top: bool) -> FrameView:
        part = frame.current
        windows = []
        if part is not None:
            for w in part.windows:
                windows.append(
                    WindowView(
                        defender=people[w.defender],
                        deadline_iso=iso(w.deadline),
                        suspended=w.deadline is None and not w.answered,
                        answered=w.answered,
                        answer_card=_card(state, w.answer_card) if w.answer_card else None,
                        proposed=w.proposed,
                        outcome=w.outcome,
                    )
                )
        return FrameView(
            number=frame.number,
            actor=people[frame.actor],
            role=frame.role,
            act=frame.act,
            targets=[people[t] for t in frame.targets],
            card=_card(state, part.card) if part is not None and part.card else None,
            windows=windows,
            finished=frame.finished,
            lost=frame.lost,
            on_top=on_top,
            parts_done=frame.parts_done,
            parts=len(frame.parts),
            trigger=frame.trigger,
            queued=[frame_view(q, False) for q in frame.queue],
            instant=frame.instant,
        )

    frames = [frame_view(f, i == len(state.stack) - 1) for i, f in enumerate(state.stack)]
    reactors = _reactors(state, viewer, people) if reactions and state.reactions_on and state.stack else []
    shown = record_rows(state, state.records[-records:][::-1]) if records else []
    winner = None
    if state.ended and state.result == "one_side_left":
        standing = B.sides_standing(state)
        winner = standing[0] if standing else None
    return BattleView(
        phase=state.phase,
        round=state.round,
        max_rounds=state.max_rounds,
        reactions_on=state.reactions_on,
        reactions_from=state.settings.reactions_from_round,
        combatants=order,
        by_id=people,
        turn_of=people.get(turn_of) if turn_of is not None else None,
        frames=frames,
        reactors=reactors,
        records=shown,
        ended=state.ended,
        result=state.result,
        end_reason=state.end_reason,
        winner=winner,
        gap_deadline_iso=iso(B.gap_deadline(state)),
        respond_frame=_respond_to(state).number if state.stack else None,
        # BP4, D11: a newcomer put out before their blow strikes none; the turn's owner acts.
        striker=people.get(state.striker) if state.striker is not None and B.fit(state, state.striker) else None,
    )


def _respond_to(state: B.Battle) -> B.Frame:
    """A response answers the topmost action whose part has happened (R7); else the action on top."""
    top = B.top(state)
    assert top is not None
    return next((f for f in reversed(state.stack) if f.parts_done and not f.lost), top)


def _reactors(state: B.Battle, viewer: Viewer, people: dict[int, CombatantView]) -> list[ReactorView]:
    """R0-R8 per combatant: who may react to the action on top of the stack now, with what, or why not."""
    top = B.top(state)
    assert top is not None
    respond_to = _respond_to(state)
    out = []
    # The engine refuses each combatant and kind; many refusals are the same words (their own
    # turn, R5 spent): each sentence is put into words once per presenting (issue 24).
    said: dict[Any, str] = {}

    def words(err: RuleError) -> str:
        try:
            key: Any = (err.message, frozenset(err.params.items()))
            hash(key)
        except TypeError:
            return explain(err)
        if key not in said:
            said[key] = explain(err)
        return said[key]

    for cid, c in state.combatants.items():
        if viewer.kind == "player" and viewer.character_id != cid:
            continue
        hand = c.hand if viewer.sees_hand_of(cid) else []
        options = []
        for kind, frame in ((B.OPPORTUNITY, top), (B.INTERRUPT, top), (B.RESPONSE, respond_to)):
            ask_adjacent = False
            try:
                if kind == B.OPPORTUNITY:
                    ask_adjacent = _needs_adjacent(state, cid, frame)
                    B.check_opportunity(state, cid, frame, adjacent=ask_adjacent)
                    usable = [
                        u
                        for u in hand
                        if state.cards[u].is_attack
                        and state.cards[u].action != B.INTERRUPT
                        and state.cards[u].action != B.RESPONSE
                    ]
                else:
                    B.check_immediate(state, cid, frame, kind)
                    readied = state.readied.get(cid)
                    # R4: a card of the kind only when its trigger fits (the engine says); readied: any card.
                    usable = [
                        u
                        for u in hand
                        if (readied and readied.mode == kind)
                        or (state.cards[u].action == kind and B.trigger_fits(state, cid, frame, state.cards[u]))
                    ]
                if not usable and not (kind != B.OPPORTUNITY and cid in state.readied):
                    options.append(ReactionOption(kind, False, str(_("no card for it in hand"))))
                    continue
                options.append(
                    ReactionOption(kind, True, cards=[_card(state, u) for u in usable], ask_adjacent=ask_adjacent)
                )
            except RuleError as err:
                options.append(ReactionOption(kind, False, words(err), rule_of(err)))
        out.append(ReactorView(people[cid], options))
    return out


def _needs_adjacent(state: B.Battle, cid: int, frame: B.Frame) -> bool:
    """R1: a provoker out of turn has no recorded neighbours; would the referee's "next to them" make it fit?"""
    if frame.role == B.MAIN or cid in frame.engaged:
        return False
    try:
        B.check_opportunity(state, cid, frame)
    except RuleError:
        try:
            B.check_opportunity(state, cid, frame, adjacent=True)
        except RuleError:
            return False
        return True
    return False


def record_rows(state: B.Battle, records: Iterable[B.StepRecord]) -> list[dict[str, Any]]:
    """Resolved answer windows as the pages list them (every card in them was played: public, D4)."""
    names = {cid: c.name for cid, c in state.combatants.items()}
    return [
        {
            "round": r.round,
            "role": str(ROLE_LABELS.get(r.role, r.role)),
            "attacker": names.get(r.attacker, f"#{r.attacker}"),
            "defender": names.get(r.defender, f"#{r.defender}"),
            "attack": state.cards[r.attack_card].face.name,
            "answer": state.cards[r.answer_card].face.name if r.answer_card else "",
            "outcome": str(OUTCOME_LABELS.get(r.outcome, r.outcome)),
            "timed_out": r.timed_out,
            "overridden": r.outcome != r.proposed,
        }
        for r in records
    ]
