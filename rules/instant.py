"""The instant attack's checks every kind of fight shares (IA1, IA3, IA6, F1).

A duel's instant attack opens a fight (``rules.duel.instant``); a battle's is a
newcomer's first action in it (``rules.battle.instant``, IA1: someone already
fighting may be struck too). Both ask these the same questions, so the blind
draw's rules live once: which answer the victim gives, when the attack is an
ordinary one instead, and what the draw's input must be. Chance stays an
input: the services choose the index with ``secrets``.
"""

from __future__ import annotations

from typing import Final

from rules.errors import RuleError, gettext_noop

ANSWER_BY_FOCUS: Final = "focus"
ANSWER_BY_DRAW: Final = "draw"
ANSWER_BY_DECLINED: Final = "declined"  # the victim did not try to parry
ANSWER_BY_REAL_CARDS: Final = "real_cards"  # IA3: drawn blind from the real cards, recorded by the referee


def conversion_rule(out_of_sight: bool, within_reach: bool, used: bool) -> str | None:
    """Why an instant attack is an ordinary attack instead, or None if it is a real one.

    IA1: no surprise without both conditions; IA6: only one per situation.
    """
    if not (out_of_sight and within_reach):
        return "IA1"
    if used:
        return "IA6"
    return None


def answer_source(parry: bool, focused: bool, focus_held: bool) -> str:
    """IA3, F1: declined (nothing drawn), the focused card (held in front of the victim), or a blind draw."""
    if not parry:
        return ANSWER_BY_DECLINED
    if focused and focus_held:
        return ANSWER_BY_FOCUS
    return ANSWER_BY_DRAW


def physical_draw(
    source: str, physical_draws: bool, drawn: str | None, hand: list[str], draw: int | None, name: str
) -> int | None:
    """IA3 "draws from real cards": the index of the recorded card ``drawn`` in ``hand``, or None (a server draw).

    With the setting on, a draw needs the recorded card, which must be in the
    victim's hand; with it off (the default), the server draws and a recorded
    card is refused. A focus (F1) or a declined parry draws nothing either way.
    """
    if source != ANSWER_BY_DRAW:
        return None
    if not physical_draws:
        if drawn is not None:
            raise RuleError("IA3", gettext_noop("This event's draws are the server's: no drawn card is recorded."))
        return None
    if draw is not None:
        raise RuleError("IA3", gettext_noop("This event draws from real cards: the server draws nothing."))
    if drawn is None and not hand:
        return None  # nothing to draw from: not parried (IA3)
    if drawn is None:
        raise RuleError("IA3", gettext_noop("Record the card %(name)s drew from their real cards."), name=name)
    if drawn not in hand:
        raise RuleError("IA3", gettext_noop("The recorded card is not in %(name)s's hand."), name=name)
    return hand.index(drawn)


def check_draw(size: int, draw: int | None, name: str) -> None:
    """IA3: a blind draw among ``size`` cards is an index of them; with nothing to draw, there is none."""
    if size == 0 and draw is not None:
        raise RuleError("IA3", gettext_noop("No card is drawn from %(name)s's arsenal."), name=name)
    if size > 0 and (draw is None or not 0 <= draw < size):
        raise RuleError(
            "IA3", gettext_noop("The blind draw must be a number from 0 to %(top)s."), top=size - 1, draw=draw
        )
