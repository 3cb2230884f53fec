"""[D7, CR2, M5] The battle and mass tablets on a 1024x768 tablet in both orientations (issue 20): every
answer of every open window and the confirm are on screen without scrolling, two targets included;
and axe (vendored, tests/browser/test_field_accessibility.py) finds no serious violation on the referee's,
the player's, the spectator's and the big-screen pages of each kind, light and dark."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from cards.models_mass import Army, MagicCard, Warrior, WarriorType
from duels import services
from duels.mass.start import start_mass_battle
from duels.models import Situation
from events.models import Event
from rules import battle as B
from rules import mass as M
from tests.browser.axe_kit import axe_violations
from tests.services.battle_kit import begin, buid, party
from tests.services.kit import nonce

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ORIENTATIONS = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024}}


def perform(situation: Situation, command, user) -> None:
    situation.refresh_from_db()
    services.perform(situation.pk, command, user=user, seen_version=situation.version, nonce=nonce())


@pytest.fixture
def area_attack(event, referee, player):
    """Anna's area attack at Vera and Gleb: two answer windows open at once (600 s: no window closes)."""
    Event.objects.filter(pk=event.pk).update(answer_window_s=600)
    event.refresh_from_db()
    people = party(event)
    anna, _boris, vera, gleb = people
    vera.player = player
    vera.save()
    battle = begin(event, people, referee)
    nova = buid(battle, anna, "Nova")
    perform(battle, B.Act(actor=anna.pk, act=B.ATTACK, cards=(nova,), targets=(vera.pk, gleb.pk)), referee)
    return battle, people


def in_view(page, locator) -> list[str]:
    """What of ``locator``'s elements lies (partly) outside the viewport, as text."""
    size = page.viewport_size
    outside = []
    for i in range(locator.count()):
        box = locator.nth(i).bounding_box()
        if (
            box is None
            or box["y"] < 0
            or box["y"] + box["height"] > size["height"]
            or box["x"] + box["width"] > size["width"]
        ):
            outside.append(f"{locator.nth(i).inner_text()!r} at {box}")
    return outside


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_both_targets_answers_and_confirms_fit_the_screen(
    tablet, log_in_as, url, screenshot, referee, area_attack, orientation
):
    battle, (_anna, _boris, vera, gleb) = area_attack
    page = tablet(viewport=ORIENTATIONS[orientation])
    log_in_as(page, referee)
    page.goto(url("duels:battle", battle.pk))
    tablet_root = page.locator("#battle")
    answers = page.locator(".answer-window button")
    expect(answers.first).to_be_visible()
    assert page.locator(".answer-window").count() == 2
    assert not in_view(page, answers), in_view(page, answers)
    screenshot(page, f"{orientation}-answers")
    # Vera answers with her shield: her confirm and Gleb's answers are on screen together.
    version = tablet_root.get_attribute("data-version")
    page.locator(f".answer-window[data-defender='{vera.pk}'] button", has_text="Shield").first.click()
    expect(tablet_root).not_to_have_attribute("data-version", version or "")
    controls = page.locator(
        f".answer-window[data-defender='{vera.pk}'] .confirm-result, .answer-window[data-defender='{gleb.pk}'] button"
    )
    assert not in_view(page, controls), in_view(page, controls)
    version = tablet_root.get_attribute("data-version")
    page.locator(f".answer-window[data-defender='{gleb.pk}'] button[value='']").click()
    expect(tablet_root).not_to_have_attribute("data-version", version or "")
    confirms = page.locator(".confirm-result")
    expect(confirms).to_have_count(2)
    assert not in_view(page, confirms), in_view(page, confirms)
    screenshot(page, f"{orientation}-confirms")


def start_red_against_blue(event: Event, referee) -> Situation:
    """A mass battle of two armies of three Salamanders, a fire card in deck 2 (the one drawn)."""
    Event.objects.filter(pk=event.pk).update(mass_battles_on=True)
    event.refresh_from_db()
    assert event.catalogue is not None  # the event fixture's
    MagicCard.objects.create(catalogue=event.catalogue, name_ru="Огненный дождь", deck=2, magic_type="fire")
    kind = WarriorType.objects.create(event=event, name_ru="Саламандра")
    armies = [Army.objects.create(event=event, name=name) for name in ("Red", "Blue")]
    for army in armies:
        for n in range(1, 4):
            Warrior.objects.create(army=army, name=str(n), warrior_type=kind)
    return start_mass_battle(event, *armies, user=referee, nonce=nonce()).situation


@pytest.fixture
def mass_battle(event, referee):
    mass = start_red_against_blue(event, referee)
    perform(mass, M.RollInitiative(source="referee", dice=(5, 2)), referee)
    return mass


def open_as_referee(page, log_in_as, referee, address: str) -> None:
    """The referee's tablet with every folded part open, so that all of it is seen (and checked)."""
    log_in_as(page, referee)
    page.goto(address)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")


def assert_no_serious_violation(page, live_server, screenshot, name: str, scheme: str) -> None:
    """The page is in ``scheme`` and axe finds no serious violation on it."""
    expect(page.locator("html")).to_have_attribute("data-bs-theme", scheme)
    screenshot(page, name)
    assert axe_violations(page, live_server) == []


PAGES = ("referee", "player", "spectator", "big screen")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("which", PAGES)
def test_battle_pages_have_no_serious_violation(
    tablet, phone, log_in_as, url, live_server, screenshot, referee, player, event, area_attack, which, scheme
):
    battle, (_anna, _boris, vera, _gleb) = area_attack
    page = (phone if which == "player" else tablet)(color_scheme=scheme)
    if which == "referee":
        open_as_referee(page, log_in_as, referee, url("duels:battle", battle.pk))
    elif which == "player":
        log_in_as(page, player)
        page.goto(url("duels:player-live", vera.pk))
    elif which == "spectator":
        page.goto(url("duels:watch", battle.pk))
    else:
        page.goto(url("duels:big-screen", event.pk))
    assert_no_serious_violation(page, live_server, screenshot, f"{which}-{scheme}", scheme)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("which", ("referee", "commander", "spectator", "big screen"))
def test_mass_battle_pages_have_no_serious_violation(
    tablet, phone, log_in_as, url, live_server, screenshot, referee, event, mass_battle, which, scheme
):
    page = (phone if which in ("commander", "spectator") else tablet)(color_scheme=scheme)
    if which == "referee":
        open_as_referee(page, log_in_as, referee, url("duels:mass", mass_battle.pk))
    elif which == "commander":
        army = Army.objects.get(pk=mass_battle.opening["armies"]["a"])
        page.goto(url("duels:mass-army-link", army.link_token))
    elif which == "spectator":
        page.goto(url("duels:mass-watch", mass_battle.pk))
    else:
        page.goto(url("duels:big-screen", event.pk))
    assert_no_serious_violation(page, live_server, screenshot, f"{which}-{scheme}", scheme)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_M5_carry_it_out_is_on_screen_after_a_card_is_drawn(
    tablet, log_in_as, url, screenshot, referee, event, orientation
):
    mass = start_red_against_blue(event, referee)
    perform(mass, M.RollInitiative(source="referee", dice=(2, 1)), referee)
    perform(mass, M.ChooseStarter(side="a", starts=True), referee)
    perform(mass, M.UsePoints(side="a", take=True), referee)
    assert services.state_of(Situation.objects.get(pk=mass.pk)).pending is not None  # the card is drawn
    page = tablet(viewport=ORIENTATIONS[orientation])
    log_in_as(page, referee)
    page.goto(url("duels:mass", mass.pk))
    button = page.locator("#carry-out-button")
    expect(button).to_be_visible()
    screenshot(page, orientation)
    assert not in_view(page, button), in_view(page, button)


def test_after_a_tap_the_newest_step_is_scrolled_into_view_and_flashed(
    tablet, log_in_as, url, screenshot, referee, event, area_attack
):
    battle, _people = area_attack
    newcomer = party(event, 1, first=4)[0]
    page = tablet(viewport=ORIENTATIONS["portrait"])
    open_as_referee(page, log_in_as, referee, url("duels:battle", battle.pk))
    page.locator("#join-character").select_option(str(newcomer.pk))
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    frame = page.locator("[data-newest]")
    assert in_view(page, frame), "the test needs the step out of view before the tap"
    page.locator("#join-form button[type=submit]:not([name=strike])").click()
    expect(page.locator(".just-changed")).to_have_count(1)
    assert not in_view(page, page.locator("[data-newest] .answer-window").first)
    screenshot(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_D11_an_out_combatant_stays_readable(tablet, log_in_as, url, live_server, screenshot, referee, event, scheme):
    """The strip faded an out combatant (opacity .6): its badge fell to 2.5:1. Now struck through, not faded."""
    from cards.models import Card
    from tests.services.battle_kit import battle_cards

    assert event.catalogue is not None
    battle_cards(event.catalogue)
    Card.objects.filter(catalogue=event.catalogue, name_en="Blade").update(full_effect="heavily_wounded")
    people = party(event)
    anna, _boris, vera, _gleb = people
    battle = begin(event, people, referee)
    perform(
        battle, B.Act(actor=anna.pk, act=B.ATTACK, cards=(buid(battle, anna, "Blade"),), targets=(vera.pk,)), referee
    )
    frame = B.top(services.state_of(Situation.objects.get(pk=battle.pk)))
    assert frame is not None
    perform(battle, B.AnswerAttack(frame=frame.number, defender=vera.pk, card=None), referee)
    perform(battle, B.ConfirmAnswer(frame=frame.number, defender=vera.pk), referee)
    page = tablet(color_scheme=scheme)
    log_in_as(page, referee)
    for address in (url("duels:battle", battle.pk), url("duels:watch", battle.pk)):
        page.goto(address)
        expect(page.locator(f".combatant.out[data-combatant='{vera.pk}']")).to_be_visible()
        screenshot(page, f"{scheme}-{'watch' if 'watch' in address else 'tablet'}")
        assert axe_violations(page, live_server) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_S2_the_gap_banners_rule_link_is_readable(
    tablet, log_in_as, url, live_server, screenshot, referee, armed, event, scheme
):
    """The situation's gap banner (S2) linked its rule in the page's blue on the alert's tint (3.85:1)."""
    from duels.duel.start import declare_aggression
    from rules import duel as D

    anton, zavulon = armed
    situation = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    perform(situation, D.EndDuel(duel=0, reason="they parted"), referee)
    page = tablet(color_scheme=scheme)
    log_in_as(page, referee)
    page.goto(url("duels:situation", situation.pk))
    expect(page.locator("#situation-status .rule-ref")).to_be_visible()
    screenshot(page, scheme)
    assert axe_violations(page, live_server) == []
