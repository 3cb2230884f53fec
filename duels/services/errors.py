"""Domain refusals of the fight services (not rules: those are the engine's RuleError).

They carry an untranslated English ``message`` with ``%(name)s`` placeholders and
``params``, exactly like ``RuleError``, so a view handles both the same way:
``cards.words.explain(err)``, which also names the rule the same way on every page.
Nothing was changed when one is raised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_noop

if TYPE_CHECKING:
    from duels.models import Situation


class ServiceError(Exception):
    """A request the fight services refuse; nothing was saved."""

    code = "SERVICE"
    default_message = gettext_noop("This fight cannot be changed like that.")

    def __init__(self, message: str | None = None, **params: object) -> None:
        self.message = message or self.default_message
        self.params: dict[str, object] = dict(params)
        # Same attribute as RuleError, so templates and logs can show one field.
        self.rule_id = self.code
        super().__init__(self.message % self.params)


class StaleVersion(ServiceError):
    """The tablet acted on an old view of the fight (DESIGN.md §4: 409 and a fresh view)."""

    code = "STALE"
    default_message = gettext_noop(
        "Someone changed this fight a moment ago, so nothing was done. Check the current state and try again."
    )

    def __init__(self, situation: Situation) -> None:
        super().__init__()
        # The locked row as it was: the view re-renders from ``refresh(situation)``.
        self.situation = situation


class SituationNotFound(ServiceError):
    code = "NOT_FOUND"
    default_message = gettext_noop("This fight does not exist.")


class SituationEnded(ServiceError):
    code = "ENDED"
    default_message = gettext_noop("This combat situation has ended; it can no longer be changed.")


class NothingToUndo(ServiceError):
    code = "UNDO"
    default_message = gettext_noop("There is nothing to undo.")


class ReasonRequired(ServiceError):
    code = "REASON"
    default_message = gettext_noop("Say why the last action is undone.")


class NotInEvent(ServiceError):
    code = "EVENT"
    default_message = gettext_noop("%(name)s is not an accepted character of this event.")


class DuelsOff(ServiceError):
    code = "DUELS_OFF"
    default_message = gettext_noop("Duels are switched off for this event.")


class CharacterBusy(ServiceError):
    code = "BUSY"
    default_message = gettext_noop("%(name)s is already fighting %(other)s.")


class SeparateSituations(ServiceError):
    code = "BUSY"
    default_message = gettext_noop(
        "%(name)s and %(other)s are in two different combat situations; wait until one of them ends."
    )


class CardNotHeld(ServiceError):
    code = "CARD"
    default_message = gettext_noop("%(name)s does not hold the card %(card)s.")


class BadNonce(ServiceError):
    code = "NONCE"
    default_message = gettext_noop("This form is out of date; reload the page and try again.")


class BattlesOff(ServiceError):
    code = "BATTLES_OFF"
    default_message = gettext_noop("Battles are switched off for this event.")


class InAnotherFight(ServiceError):
    code = "BUSY"
    default_message = gettext_noop("%(name)s is already in another fight; finish it first.")


class StillInSituation(ServiceError):
    """S2: a new battle takes on a situation whose fight is over; everyone still able to fight in it goes along."""

    code = "S2"
    default_message = gettext_noop(
        "%(name)s is still in that combat situation (S2): add them to the battle too, or wait for the gap."
    )


class TooFewCombatants(ServiceError):
    code = "FEW"
    default_message = gettext_noop("A battle needs at least three combatants on at least two sides.")


class NotABattle(ServiceError):
    code = "NOT_BATTLE"
    default_message = gettext_noop("Combatants can be added only to a running battle.")
