"""A fight's whole public record: every finished step and every played card (D4: nothing unplayed).

Live fragments show only the newest steps and played cards (presenters.LIVE_RECENT);
this is where the rest is, a page at a time, for referees, players and
spectators alike. The state given here has every step (the stored row keeps
the newest; duels/services/record.py replays the log with the whole record).
Steps are paginated from the engine's records and only the page shown is
turned into views; played cards are counted per fighter, so a
long fight's record page stays small.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.core.paginator import Page, Paginator

from duels.duel.presenters import RecordView, _Builder
from duels.web.viewers import SPECTATOR, Viewer
from rules.duel import Situation

RECORD_PAGE = 50


@dataclass
class PlayedCount:
    name: str
    kind: str
    copies: int


@dataclass
class FighterRecord:
    name: str
    played: list[PlayedCount]
    total: int


@dataclass
class StepLine:
    duel: int  # shown from 1
    record: RecordView


@dataclass
class FightRecord:
    page: Page
    steps: list[StepLine]
    fighters: list[FighterRecord]


def fight_record(state: Situation, names: dict[int, str], page_number: str | int | None) -> FightRecord:
    builder = _Builder(state, Viewer(SPECTATOR), names, recent=0)
    by_id = {cid: builder.fighter(f) for cid, f in state.fighters.items()}
    # Newest first, like the log; only the page shown becomes views.
    done = [(duel.number, r) for duel in state.duels for r in duel.steps_done]
    done.reverse()
    page = Paginator(done, RECORD_PAGE).get_page(page_number)
    steps = [StepLine(number + 1, builder.record(r, by_id)) for number, r in page.object_list]
    fighters = []
    for fighter in state.fighters.values():
        counted = Counter((builder.card(uid).name, state.cards[uid].kind) for uid in fighter.discards)
        played = [PlayedCount(name, kind, copies) for (name, kind), copies in sorted(counted.items())]
        fighters.append(FighterRecord(fighter.name, played, len(fighter.discards)))
    return FightRecord(page, steps, fighters)
