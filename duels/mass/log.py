"""A mass battle's log in words, for the referee's tablet (who may see every card).

Each magic-phase event's line is a function of the typed event (``rules.mass.events``)
in the one table of every fight kind (``duels/web/log.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils.dateformat import time_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import rules.mass as magic
from cards.mass_names import HasName
from duels.mass.presenters import PLACE_LABELS, SOURCE_LABELS
from duels.mass.rolls import KEPT, ROLL, Repeat, dice_of, repeats
from duels.models import LogEntry
from duels.web.log import LogLine, LogWords, log_lines, wording
from rules.mass import events as M

# How a warrior moved (``WarriorMoved.by``), with the rule that moved them.
BY_LABELS = {
    "points": gettext_lazy("by magic points (M5)"),
    "card": gettext_lazy("by a card (M6)"),
    "casualties": gettext_lazy("as a casualty of the fighting"),
}


class MassWords(LogWords):
    def __init__(self, state: magic.MassBattle, names: Mapping[int, HasName]) -> None:
        self.state = state
        self.names = names

    def side(self, key: str | None) -> str:
        found = self.state.sides.get(key) if key else None
        return found.name if found is not None else str(key)

    def card(self, card_id: int) -> str:
        row = self.names.get(card_id)
        return f"«{row.name}»" if row else f"#{card_id}"

    def warrior(self, wid: str) -> str:
        found = self.state.warriors.get(wid)
        return found.name if found is not None else wid

    def warriors(self, wids: Iterable[str]) -> str:
        return ", ".join(self.warrior(w) for w in wids)


@wording(M.DecksShuffled)
def _shuffled(w: MassWords, e: M.DecksShuffled) -> str:
    sizes = ", ".join(f"{deck}: {n}" for deck, n in e.sizes.items())
    if e.printed:
        return _("The printed decks are shuffled by hand at the table (M1) — %(sizes)s.") % {"sizes": sizes}
    return _("The server shuffled the four decks (M1) — %(sizes)s.") % {"sizes": sizes}


@wording(M.InitiativeRolled)
def _rolled(w: MassWords, e: M.InitiativeRolled) -> str:
    return _("Initiative, cycle %(cycle)s: %(a)s %(da)s — %(b)s %(db)s, %(source)s (M4, M8).") % {
        "cycle": e.cycle,
        "a": w.side("a"),
        "da": e.a,
        "b": w.side("b"),
        "db": e.b,
        "source": SOURCE_LABELS.get(e.source, e.source),
    }


@wording(M.InitiativeTied)
def _tied(w: MassWords, e: M.InitiativeTied) -> str:
    return _("Cycle %(cycle)s: a tie, both roll again (M4).") % {"cycle": e.cycle}


@wording(M.InitiativeWon)
def _won(w: MassWords, e: M.InitiativeWon) -> str:
    return _("Cycle %(cycle)s: %(side)s wins the initiative.") % {"cycle": e.cycle, "side": w.side(e.side)}


@wording(M.StarterChosen)
def _starter(w: MassWords, e: M.StarterChosen) -> str:
    return _("%(chooser)s chooses: %(starter)s starts.") % {
        "chooser": w.side(e.chooser),
        "starter": w.side(e.starter),
    }


@wording(M.PointsUsed)
def _points(w: MassWords, e: M.PointsUsed) -> str:
    return _("%(side)s uses %(points)s magic points (M5).") % {"side": w.side(e.side), "points": e.points}


@wording(M.NothingHappens)
def _nothing(w: MassWords, e: M.NothingHappens) -> str:
    params = {"side": w.side(e.side), "points": e.points}
    if e.why == "empty_hospital":
        return _("%(side)s, %(points)s points: nothing happens, the side's hospital is empty.") % params
    # The points name the deck (M5: 2, 4, 5 or 6).
    if e.why == "no_deck":
        return _("%(side)s, %(points)s points: nothing happens, this battle has no deck %(points)s.") % params
    return _("%(side)s, %(points)s points: nothing happens, deck %(points)s is empty, all its cards are kept.") % params


@wording(M.CardDeclined)
def _declined(w: MassWords, e: M.CardDeclined) -> str:
    return _("%(side)s does not take a card from deck %(deck)s.") % {"side": w.side(e.side), "deck": e.deck}


@wording(M.CardDrawn)
def _drawn(w: MassWords, e: M.CardDrawn) -> str:
    params = {"side": w.side(e.side), "card": w.card(e.card_id), "deck": e.deck}
    if e.may_keep:
        text = _("%(side)s draws %(card)s from deck %(deck)s; it may be kept for later (M5).") % params
    else:
        text = _("%(side)s draws %(card)s from deck %(deck)s.") % params
    return f"{text} {_('Recorded from the printed deck (M1).')}" if e.recorded else text


@wording(M.CardKept)
def _kept(w: MassWords, e: M.CardKept) -> str:
    return _("%(side)s keeps %(card)s for a later cycle.") % {"side": w.side(e.side), "card": w.card(e.card_id)}


@wording(M.KeptCardUsed)
def _kept_used(w: MassWords, e: M.KeptCardUsed) -> str:
    return _("%(side)s uses the kept card %(card)s.") % {"side": w.side(e.side), "card": w.card(e.card_id)}


@wording(M.CardCarriedOut)
def _carried_out(w: MassWords, e: M.CardCarriedOut) -> str:
    text = _("%(side)s carries out %(card)s; it acts until cycle %(end)s begins and goes under deck %(deck)s.") % {
        "side": w.side(e.side),
        "card": w.card(e.card_id),
        "end": e.ends_cycle,
        "deck": e.to_bottom_of,
    }
    if e.target_side:
        text += " " + _("Aimed at %(side)s.") % {"side": w.side(e.target_side)}
    if e.affected:
        text += " " + _("Acts on: %(names)s.") % {"names": w.warriors(e.affected)}
    if e.unaffected:
        text += " " + _("Protected, not affected (M3): %(names)s.") % {"names": w.warriors(e.unaffected)}
    return text


@wording(M.WarriorMoved)
def _moved(w: MassWords, e: M.WarriorMoved) -> str:
    return _("%(warrior)s (%(side)s): %(old)s → %(new)s, %(by)s.") % {
        "warrior": w.warrior(e.warrior),
        "side": w.side(e.side),
        "old": PLACE_LABELS.get(e.old, e.old),
        "new": PLACE_LABELS.get(e.new, e.new),
        "by": BY_LABELS.get(e.by, e.by),
    }


@wording(M.TurnEnded)
def _turn_ended(w: MassWords, e: M.TurnEnded) -> str:
    return _("%(side)s ends its turn.") % {"side": w.side(e.side)}


@wording(M.PhaseOver)
def _phase_over(w: MassWords, e: M.PhaseOver) -> str:
    return _("The magic phase of cycle %(cycle)s is over.") % {"cycle": e.cycle}


@wording(M.EffectEnded)
def _effect_ended(w: MassWords, e: M.EffectEnded) -> str:
    return _("%(card)s (cycle %(cycle)s) no longer acts (M6).") % {"card": w.card(e.card_id), "cycle": e.cycle}


@wording(M.CycleStarted)
def _cycle_started(w: MassWords, e: M.CycleStarted) -> str:
    return _("Cycle %(cycle)s begins.") % {"cycle": e.cycle}


@wording(M.BattleEnded)
def _ended(w: MassWords, e: M.BattleEnded) -> str:
    text = _("The mass battle is over in cycle %(cycle)s.") % {"cycle": e.cycle}
    return f"{text} {e.reason}" if e.reason else text


def _repeat_line(repeat: Repeat) -> str:
    params = {"time": time_format(localtime(repeat.undone_at), "H:i:s"), "a": repeat.a, "b": repeat.b}
    if repeat.how == KEPT:
        return _("The roll undone at %(time)s is repeated and keeps its dice, %(a)s — %(b)s (M4).") % params
    return _("The roll undone at %(time)s was %(a)s — %(b)s: other dice are entered, a re-roll (M4).") % params


# How many undone rolls before the rolls being described are read: a roll is undone a few times at
# most, and the step's newest lines must not read the whole log (issue 24, statements stay flat).
UNDONE_ROLLS_READ = 50


def _repeated_rolls(entries: list[LogEntry]) -> dict[int, Repeat]:
    """M4: which of these roll entries repeat an undone roll, from the undone rolls logged before them."""
    found: dict[int, Repeat] = {}
    for situation_id in {e.situation_id for e in entries}:
        rolls = [e for e in entries if e.situation_id == situation_id and dice_of(e) is not None]
        if not rolls:
            continue
        undone_before = LogEntry.objects.filter(
            situation_id=situation_id,
            kind=LogEntry.Kind.COMMAND,
            command__type=ROLL,
            undone=True,
            seq__lt=max(e.seq for e in rolls),
        ).order_by("-seq")[:UNDONE_ROLLS_READ]
        found |= repeats({e.pk: e for e in [*undone_before, *rolls]}.values())
    return found


def describe(entries: Iterable[LogEntry], state: magic.MassBattle, names: Mapping[int, HasName]) -> list[LogLine]:
    """Lines for ``LogEntry`` rows (``actor`` selected), newest first as given."""
    entries = list(entries)
    repeated = _repeated_rolls(entries)
    return log_lines(
        entries, MassWords(state, names), lambda e: [_repeat_line(repeated[e.pk])] if e.pk in repeated else []
    )
