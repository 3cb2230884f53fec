"""A referee runs a four-combatant battle over two rounds on a tablet while a player follows it
on a phone and a spectator watches (R0-R8, D8): one negating interrupt, one response, one
opportunity attack, one answer timeout and one undo. The spectator never sees an unplayed card (D4)."""

import re

import pytest
from playwright.sync_api import expect

from duels import services
from duels.models import Situation
from events.models import Event
from rules import battle as B
from tests.services.battle_kit import party

pytestmark = pytest.mark.browser
WINDOW_S = 3
NEVER_PLAYED = "Nova"  # in every hand, never played in this battle: must never reach the spectator


def state(situation_id: int) -> B.Battle:
    return services.state_of(Situation.objects.get(pk=situation_id))


def uid(situation_id: int, who: int, name: str) -> str:
    st = state(situation_id)
    return next(u for u in st.combatants[who].hand if st.cards[u].face.name == name)


def test_R0_R8_D8_a_four_combatant_battle_over_two_rounds(
    tablet, phone, log_in_as, url, screenshot, referee, player, event
):
    Event.objects.filter(pk=event.pk).update(answer_window_s=WINDOW_S)
    anna, boris, vera, gleb = party(event)
    boris.player = player
    boris.save()

    ref = tablet()
    log_in_as(ref, referee)
    ref.goto(url("duels:referee-home", event.pk))
    ref.locator("#start-battle").first.click()
    ref.locator("#id_pick").select_option([str(who.pk) for who in (anna, boris, vera, gleb)])
    ref.locator("#add-combatant").click()
    ref.locator(f"input[name=declarer][value='{anna.pk}']").check()
    ref.locator("#begin-battle").click()
    ref.wait_for_url(re.compile(r"/battles/\d+/$"))
    battle_url = re.search(r"/battles/(\d+)/", ref.url)
    assert battle_url is not None, ref.url
    sid = int(battle_url.group(1))
    battle = ref.locator("#battle")

    me = phone()
    log_in_as(me, player)
    me.goto(url("duels:player-live", boris.pk))
    expect(me.locator("#my-battle")).to_be_visible()
    fan = phone()
    fan.goto(url("duels:watch", sid))
    expect(fan.locator("#turn-strip")).to_be_visible()

    def done(click) -> None:
        """Click, then wait until the tablet shows the next version."""
        version = battle.get_attribute("data-version")
        click()
        expect(battle).not_to_have_attribute("data-version", version or "")

    def attack(actor, card, target, engaged=()):
        ref.locator(f"label[for='card-{uid(sid, actor.pk, card)}']").click()
        ref.locator(f"label[for='target-{target.pk}']").click()
        for enemy in engaged:
            ref.locator(f"label[for='engaged-{enemy.pk}']").click()
        done(lambda: ref.locator("#act-attack").click())

    def answer(defender, card=None):
        window = ref.locator(f".answer-window[data-defender='{defender.pk}']")
        button = window.locator("button", has_text=card) if card else window.locator("button[value='']")
        done(lambda: button.first.click())
        done(lambda: ref.locator(f".answer-window[data-defender='{defender.pk}'] .confirm-result").click())

    def click(selector):
        done(lambda: ref.locator(selector).click())

    def spectator_keeps_secrets():
        assert NEVER_PLAYED not in fan.content()

    # Round 1 (no reactions, R0): Anna's blade, Vera's shield.
    expect(ref.locator("#reactions-off")).to_be_visible()
    attack(anna, "Blade", vera)
    expect(ref.locator(".reaction-form")).to_have_count(0)  # R0: no reaction buttons at all
    answer(vera, "Shield")
    click("#next-turn")
    # The start form lists people by name, so they joined Anna, Boris, Gleb, Vera: Gleb is next.
    assert state(sid).order == [anna.pk, gleb.pk, boris.pk, vera.pk]
    # Gleb's bolt at Boris: nobody answers; the window closes by itself (D8).
    attack(gleb, "Bolt", boris)
    expect(me.locator("#attacked")).to_be_visible(timeout=6000)
    screenshot(me, "player-attacked")
    expect(ref.locator("#battle-log")).to_contain_text("did not answer in time", timeout=(WINDOW_S + 8) * 1000)
    expect(me.locator(".my-condition")).to_have_attribute("data-condition", "lightly_wounded", timeout=6000)
    click("#next-turn")
    # Boris passes by mistake; the referee undoes it with a reason, and Boris passes properly.
    click("#act-pass")
    ref.locator("#undo-box summary").click()
    ref.locator("#undo-form input[name=reason]").fill("tapped the wrong button")
    done(lambda: ref.locator("#undo-form .reason-submit").click())
    expect(ref.locator("#battle-log")).to_contain_text("tapped the wrong button")
    assert state(sid).stack == [] and state(sid).turn_of == boris.pk
    click("#act-pass")
    click("#next-turn")
    click("#act-pass")  # Vera
    click("#next-turn")  # D11: everyone still holds attack cards, so round 2 of the bout starts at once
    assert state(sid).round == 2

    # Round 2: reactions apply (R0). Anna shoots Gleb while next to Vera: Vera's opportunity attack (R1-R3).
    expect(ref.locator("#reactions-on")).to_be_visible()
    attack(anna, "Bolt", gleb, engaged=(vera,))
    bar = ref.locator("#reaction-bar")
    expect(bar.locator(f".reactor[data-reactor='{anna.pk}'] .reaction-refused").first).to_contain_text("own turn")
    screenshot(ref, "reaction-bar")
    done(
        lambda: bar.locator(
            f".reactor[data-reactor='{vera.pk}'] form[data-action=opportunity] button", has_text="Snap"
        ).click()
    )
    answer(anna)  # the opportunity attack first (R3)
    click("#go-on")
    # Gleb's counterspell negates the bolt: the attack and its answer window are gone (R6).
    interrupt = bar.locator(f".reactor[data-reactor='{gleb.pk}'] form[data-action=interrupt]")
    interrupt.locator("input[name=negates]").check()
    done(lambda: interrupt.locator("button", has_text="Counterspell").click())
    expect(ref.locator(".frame-lost")).to_be_visible()
    click("#go-on")
    assert state(sid).records[-1].role == B.OPPORTUNITY  # the bolt never resolved
    spectator_keeps_secrets()
    click("#next-turn")
    # Gleb's blade at Boris; Boris answers nothing; then Anna responds with her riposte (R7).
    attack(gleb, "Blade", boris)
    answer(boris)
    response = bar.locator(f".reactor[data-reactor='{anna.pk}'] form[data-action=response]")
    done(lambda: response.locator("button", has_text="Riposte").click())
    screenshot(ref, "response")
    answer(gleb)
    click("#go-on")
    roles = [r.role for r in state(sid).records]
    assert roles[-2:] == [B.MAIN, B.RESPONSE]
    click("#next-turn")
    expect(fan.locator("#battle-records")).to_contain_text("Riposte", timeout=6000)
    spectator_keeps_secrets()
    screenshot(fan, "spectator")
    screenshot(ref, "tablet")
    assert ref.evaluate("document.documentElement.scrollWidth") <= 1024
