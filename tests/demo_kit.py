"""Playing the demo game through the real services: a duel with an undo, and an instant attack.

Shared by the archive, lab and browser tests (and run in a subprocess by the
archive's SQLite-to-this-database test).
"""

from django.contrib.auth.models import User
from django.test import override_settings

from cards.models import ArsenalCard, Catalogue
from duels import services
from duels.archive_rows import rows_of, tracked_model
from duels.duel.start import declare_aggression, start_instant_attack
from duels.models import Situation
from events.models import Character, Event
from rules import duel as engine
from tests.services.kit import nonce


def step_once(situation: Situation, referee: User) -> bool:
    """One command of the open duel, whatever its phase; False when nothing is left to do."""
    situation.refresh_from_db()
    state = services.state_of(situation)
    duel = next((d for d in state.duels if d.is_open), None)
    if duel is None:
        return False
    number = state.duels.index(duel)
    command: engine.Command
    if duel.phase == engine.AWAIT_ATTACK:
        cards = engine.attack_cards(state, duel.attacker)
        command = engine.Attack(duel=number, fighter=duel.attacker, card=cards[0])
    elif duel.phase == engine.AWAIT_ANSWER:
        defender = duel.step.defender
        defence = [u for u in state.fighters[defender].hand if not state.cards[u].is_attack]
        command = engine.Answer(duel=number, fighter=defender, card=defence[0] if defence else None)
    elif duel.phase == engine.AWAIT_RESULT:
        command = engine.ConfirmResult(duel=number)
    elif duel.phase == engine.BETWEEN_ROUNDS:
        fighter = next(f for f in (duel.a, duel.b) if f not in duel.round_choices)
        command = engine.RoundChoice(duel=number, fighter=fighter, go_on=False)
    else:
        return False
    services.perform(situation.pk, command, user=referee, seen_version=situation.version, nonce=nonce())
    return True


def play_the_demo(event: Event) -> None:
    """A spoken-aggression duel of Anton and Zavulon with a few steps and an undo, and an instant attack."""
    referee = User.objects.get(username="referee")
    anton = Character.objects.get(event=event, player__username="anton")
    zavulon = Character.objects.get(event=event, player__username="zavulon")
    duel = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    for _ in range(7):
        if not step_once(duel, referee):
            break
    duel.refresh_from_db()
    services.undo_last(duel.pk, user=referee, reason="the referee misheard", seen_version=duel.version, nonce=nonce())
    step_once(duel, referee)
    armed = [
        (character, attack)
        for character in Character.objects.filter(event=event, status="accepted").exclude(pk__in=[anton.pk, zavulon.pk])
        if (attack := ArsenalCard.objects.filter(character=character, card__kind="attack").first()) is not None
    ]
    (attacker, attack), (victim, _) = armed[:2]
    start_instant_attack(
        event, attacker, victim, attack.card_id, out_of_sight=True, within_reach=True, user=referee, nonce=nonce()
    )


def remove_everything(event: Event, data: dict) -> None:
    """The event, its catalogue, accounts and edit history gone, as on a new installation."""
    forget_event(event)
    User.objects.filter(username__in=[a["username"] for a in data["accounts"]]).delete()


def forget_event(event: Event) -> None:
    """The event and its catalogue deleted with their edit history (no "-" rows left to clash with a file)."""
    history = [
        (model, list(rows.values_list("pk", flat=True))) for model, rows in rows_of(event) if tracked_model(model)
    ]
    catalogue_id = event.catalogue_id
    with override_settings(SIMPLE_HISTORY_ENABLED=False):
        event.delete()
        if catalogue_id is not None:
            Catalogue.objects.filter(pk=catalogue_id).delete()
    for model, pks in history:
        model._default_manager.filter(pk__in=pks).delete()
