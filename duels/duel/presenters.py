"""What each viewer of a fight may see, built from the engine's state.

D4 lives here and only here: an unplayed card reaches a template only through
``FighterView.hand`` (and a round choice's arsenal label), and those are
filled in only for a viewer who may see that fighter's hand - the event's
referees and organizers, or the holder. Spectators get no hand at all.
Played cards (the attack shown, the answer given or drawn, the discards) and
the focused card (F1) are public.

The views choose the viewer; the templates only display. Nothing here decides
a rule: phases, deadlines and proposals come from the engine's state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext_lazy as _

import rules

# The shared words (labels, card names) are the cards app's, defined once; the
# fight pages keep importing them from here.
from cards.words import OUTCOME_LABELS as OUTCOME_LABELS
from cards.words import RESULT_LABELS as RESULT_LABELS
from cards.words import card_names as card_names
from cards.words import condition_label as condition_label
from duels.web.viewers import CardView, HoldsCards, Viewer, iso
from rules import duel as engine
from rules.duel import Duel, Situation

PHASE_LABELS = {
    engine.AWAIT_ATTACK: _("waiting for an attack"),
    engine.AWAIT_ANSWER: _("waiting for the answer"),
    engine.AWAIT_RESULT: _("waiting for the referee's decision"),
    engine.BETWEEN_ROUNDS: _("between bouts"),
    engine.ENDED: _("ended"),
}
OPENED_BY_LABELS = {
    engine.AGGRESSION: _("aggression"),
    engine.INSTANT_ATTACK: _("instant attack"),
}


@dataclass
class FighterView(HoldsCards):
    id: int
    name: str
    condition: str
    can_fight: bool
    hand_count: int
    discards: list[CardView]  # the newest played cards only, oldest first (see present)
    focus: CardView | None
    # None: this viewer may not see the hand (D4).
    hand: list[CardView] | None = None
    discards_total: int = 0  # all played cards, however many ``discards`` shows

    @property
    def discards_hidden(self) -> int:
        """Played cards not shown live: they are on the fight's record page."""
        return self.discards_total - len(self.discards)


@dataclass
class StepView:
    attacker: FighterView
    defender: FighterView
    attack_card: CardView
    deadline: datetime | None
    answered: bool
    answer_card: CardView | None
    instant: bool
    proposed: str | None
    answer_by: str = ""  # IA3/F1: how the answer was chosen, from the record

    @property
    def proposed_label(self) -> str:
        return str(OUTCOME_LABELS.get(self.proposed or "", ""))

    @property
    def deadline_iso(self) -> str:
        return iso(self.deadline)


@dataclass
class RecordView:
    round: int
    attacker: FighterView
    defender: FighterView
    attack_card: CardView
    answer_card: CardView | None
    outcome: str
    proposed: str
    reason: str
    timed_out: bool
    instant: bool
    answer_by: str = ""

    @property
    def outcome_label(self) -> str:
        return str(OUTCOME_LABELS.get(self.outcome, self.outcome))

    @property
    def proposed_label(self) -> str:
        return str(OUTCOME_LABELS.get(self.proposed, self.proposed))

    @property
    def overridden(self) -> bool:
        return self.outcome != self.proposed


@dataclass
class ChoiceView:
    fighter: FighterView
    chosen: bool = False
    go_on: bool = False
    new_arsenal: bool = False
    label: str = ""  # the prepared arsenal's name: only for those who see the hand
    # The D3 options, filled in by the referee's view from the database.
    prepared: list[Any] = field(default_factory=list)
    pool: list[Any] = field(default_factory=list)
    limit: int | None = None
    # Which arsenal radio shows as chosen: "keep", "new" or a prepared arsenal's id.
    picked: str | int = "keep"


@dataclass
class DuelView:
    number: int
    a: FighterView
    b: FighterView
    opened_by: str
    round: int
    max_rounds: int | None
    phase: str
    attacker: FighterView
    defender: FighterView
    step: StepView | None
    records: list[RecordView]  # the newest finished steps only, oldest first (see present)
    choices: list[ChoiceView]
    result: str | None
    end_reason: str
    records_total: int = 0

    @property
    def records_hidden(self) -> int:
        """Finished steps not shown live: they are on the fight's record page."""
        return self.records_total - len(self.records)

    @property
    def is_open(self) -> bool:
        return self.phase != engine.ENDED

    @property
    def phase_label(self) -> str:
        return str(PHASE_LABELS.get(self.phase, self.phase))

    @property
    def result_label(self) -> str:
        return str(RESULT_LABELS.get(self.result or "", self.result or ""))

    @property
    def opened_by_label(self) -> str:
        return str(OPENED_BY_LABELS.get(self.opened_by, self.opened_by))

    @property
    def fighters(self) -> tuple[FighterView, FighterView]:
        return (self.a, self.b)


@dataclass
class SituationView:
    viewer: Viewer
    fighters: list[FighterView]
    duels: list[DuelView]
    ended: bool
    answer_deadline: datetime | None  # the earliest open answer window (D8)
    gap_deadline: datetime | None  # when the situation ends if nothing happens (S2)
    by_id: dict[int, FighterView] = field(default_factory=dict)

    @property
    def answer_deadline_iso(self) -> str:
        return iso(self.answer_deadline)

    @property
    def gap_deadline_iso(self) -> str:
        return iso(self.gap_deadline)

    @property
    def open_duels(self) -> list[DuelView]:
        return [d for d in self.duels if d.is_open]

    def duel_of(self, fighter_id: int) -> DuelView | None:
        """The fighter's open duel, else their latest one."""
        theirs = [d for d in self.duels if fighter_id in (d.a.id, d.b.id)]
        open_ = [d for d in theirs if d.is_open]
        found = open_ or theirs
        return found[-1] if found else None


def card_ids(state: Situation) -> set[int]:
    return {face.card_id for face in state.cards.values()}


def _answer_by(step: engine.Step) -> str:
    """How the step's answer was chosen, from the record (states saved before it was recorded: from the draw)."""
    if step.answer_by or not step.instant or step.answer_card is None:
        return step.answer_by
    return engine.ANSWER_BY_DRAW if step.draw is not None else engine.ANSWER_BY_FOCUS


class _Builder:
    def __init__(
        self, state: Situation, viewer: Viewer, names: dict[int, str] | None, recent: int | None = None
    ) -> None:
        self.state = state
        self.viewer = viewer
        self.names = names or {}
        self.recent = recent

    def tail(self, items: list[Any]) -> list[Any]:
        return items if self.recent is None else items[-self.recent :] if self.recent else []

    def card(self, uid: str, *, focused: bool = False) -> CardView:
        face = self.state.cards[uid]
        return CardView(
            uid=uid,
            card_id=face.card_id,
            # The face keeps the name in the language of the day it joined;
            # the catalogue's name in the viewer's language wins when known.
            name=self.names.get(face.card_id) or face.name,
            kind=face.kind,
            full_effect=face.full_effect,
            softened_effect=face.softened_effect,
            focused=focused,
        )

    def fighter(self, fighter: engine.Fighter) -> FighterView:
        # F1: the focused card is held openly, so everybody sees it.
        view = FighterView(
            id=fighter.character_id,
            name=fighter.name,
            condition=fighter.condition,
            can_fight=rules.can_fight(fighter.condition),
            hand_count=len(fighter.hand),
            discards=[self.card(uid) for uid in self.tail(fighter.discards)],
            focus=None if fighter.focus is None else self.card(fighter.focus, focused=True),
            discards_total=len(fighter.discards),
        )
        if self.viewer.sees_hand_of(fighter.character_id):
            view.hand = [self.card(uid, focused=uid == fighter.focus) for uid in fighter.hand]
        return view

    def duel(self, duel: Duel, by_id: dict[int, FighterView]) -> DuelView:
        a, b = by_id[duel.a], by_id[duel.b]
        attacker = by_id.get(duel.attacker, a)
        step = None
        if duel.step is not None:
            s = duel.step
            # The answer is public once given (played) or drawn and shown (IA4).
            answer = self.card(s.answer_card) if s.answer_card is not None and s.answered else None
            step = StepView(
                attacker=by_id[s.attacker],
                defender=by_id[s.defender],
                attack_card=self.card(s.attack_card),
                deadline=s.answer_deadline,
                answered=s.answered,
                answer_card=answer,
                instant=s.instant,
                proposed=s.proposed,
                answer_by=_answer_by(s),
            )
        records = [self.record(r, by_id) for r in self.tail(duel.steps_done)]
        choices = []
        if duel.phase == engine.BETWEEN_ROUNDS:
            for fid in (duel.a, duel.b):
                made = duel.round_choices.get(fid)
                choice = ChoiceView(fighter=by_id[fid])
                if made is not None:
                    choice.chosen = True
                    choice.go_on = made.go_on
                    choice.new_arsenal = made.arsenal is not None
                    if self.viewer.sees_hand_of(fid):
                        choice.label = made.label
                choices.append(choice)
        return DuelView(
            number=duel.number,
            a=a,
            b=b,
            opened_by=duel.opened_by,
            round=duel.round,
            max_rounds=duel.max_rounds,
            phase=duel.phase,
            attacker=attacker,
            defender=b if attacker is a else a,
            step=step,
            records=records,
            choices=choices,
            result=duel.result,
            end_reason=duel.end_reason,
            records_total=duel.steps_total,
        )

    def record(self, r: engine.StepRecord, by_id: dict[int, FighterView]) -> RecordView:
        return RecordView(
            round=r.round,
            attacker=by_id[r.attacker],
            defender=by_id[r.defender],
            attack_card=self.card(r.attack_card),
            answer_card=None if r.answer_card is None else self.card(r.answer_card),
            outcome=r.outcome,
            proposed=r.proposed,
            reason=r.override_reason,
            timed_out=r.timed_out,
            instant=r.instant,
            answer_by=r.answer_by,
        )


# What a live fragment shows of the past: the newest steps of each duel and
# the newest played cards of each fighter. The whole record is on its own
# paginated page (presenters_record), so a live fragment - rendered every
# time a long fight changes - stays the same size however long the fight.
LIVE_RECENT = 5


def present(
    state: Situation, viewer: Viewer, names: dict[int, str] | None = None, *, recent: int | None = LIVE_RECENT
) -> SituationView:
    """The situation as ``viewer`` may see it. ``names``: card id -> name in the viewer's language.

    ``recent``: how many finished steps per duel and played cards per
    fighter to include (the newest); None for all the state holds (a stored
    state keeps a duel's newest ``RECORDS_KEPT`` steps; the record page
    presents a whole replay, duels/services/record.py).
    """
    builder = _Builder(state, viewer, names, recent)
    fighters = [builder.fighter(f) for f in state.fighters.values()]
    by_id = {f.id: f for f in fighters}
    duels = [builder.duel(d, by_id) for d in state.duels]
    answers = [d.step.deadline for d in duels if d.phase == engine.AWAIT_ANSWER and d.step and d.step.deadline]
    return SituationView(
        viewer=viewer,
        fighters=fighters,
        duels=duels,
        ended=state.ended,
        answer_deadline=min(answers, default=None),
        gap_deadline=engine.situation_deadline(state),
        by_id=by_id,
    )
