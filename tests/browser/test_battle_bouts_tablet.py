"""The changed battle flow on the tablet (issue 25): a double attack from a talent that grants it (BP2),
a round that does not stop the bout (D11), a withdrawal at a bout's end (D12), and an instant attack
on a duellist that turns the duel into a battle (IA1, IA3, BP4)."""

import re

import pytest
from playwright.sync_api import expect

from cards.models import Card
from duels import services
from duels.duel.start import declare_aggression
from duels.models import Situation
from events.models import Event
from rules import battle as B
from tests.services.battle_kit import begin, party
from tests.services.kit import arm, nonce

pytestmark = pytest.mark.browser


def state(situation_id: int) -> B.Battle:
    return services.state_of(Situation.objects.get(pk=situation_id))


def uids(situation_id: int, who: int, name: str) -> list[str]:
    st = state(situation_id)
    return [u for u in st.combatants[who].hand if st.cards[u].face.name == name]


def test_BP2_D12_a_double_attack_then_a_withdrawal_at_the_bout_s_end(
    tablet, log_in_as, url, screenshot, referee, event
):
    Event.objects.filter(pk=event.pk).update(every_round_a_bout=True)  # a round of turns reaches a bout's end
    event.refresh_from_db()
    anna, boris, vera, gleb = party(event)
    # BP2: "or a character's talent" - Anna's talent, an ability card of the catalogue, grants the double
    # attack; the Blades themselves do not.
    Card.objects.filter(catalogue=event.catalogue, name_en="Blade").update(double_attack=False)
    twin = Card.objects.create(
        catalogue=event.catalogue,
        name_ru="Двойной удар",
        name_en="Twin strike",
        category=Card.Category.ABILITY,
        kind=Card.Kind.DEFENCE,
        double_attack=True,
        rules_text="Talent: two attacks in one action.",
    )
    arm(anna, twin)
    situation = begin(event, [anna, boris, vera, gleb], referee)
    sid = situation.pk
    ref = tablet()
    log_in_as(ref, referee)
    ru = tablet(locale="ru-RU")
    log_in_as(ru, referee)
    ref.goto(url("duels:battle", sid))
    battle = ref.locator("#battle")

    def in_russian(suffix: str) -> None:
        ru.goto(url("duels:battle", sid))
        expect(ru.locator("html")).to_have_attribute("lang", "ru")
        screenshot(ru, suffix + "-ru")

    def done(click) -> None:
        version = battle.get_attribute("data-version")
        click()
        expect(battle).not_to_have_attribute("data-version", version or "")

    # BP2: Anna's two Blades in one action against Vera (her talent grants the double attack).
    first, second = uids(sid, anna.pk, "Blade")
    ref.locator(f"label[for='card-{first}']").click()
    ref.locator(f"label[for='card-{second}']").click()
    ref.locator(f"label[for='target-{vera.pk}']").click()
    done(lambda: ref.locator("#act-attack").click())
    frame = B.top(state(sid))
    assert frame is not None and len(frame.parts) == 2
    screenshot(ref, "double-attack")
    in_russian("double-attack")
    window = ref.locator(f".answer-window[data-defender='{vera.pk}']")
    for _ in range(2):  # each blade answered and resolved in turn
        done(lambda: window.locator("button[value='']").first.click())
        done(lambda: window.locator(".confirm-result").click())
        top = B.top(state(sid))
        if top is not None and top.current is None and not top.finished:
            done(lambda: ref.locator("#go-on").click())
    assert [r.defender for r in state(sid).records] == [vera.pk, vera.pk]
    done(lambda: ref.locator("#next-turn").click())
    while state(sid).phase != B.BETWEEN_ROUNDS:
        done(lambda: ref.locator("#act-pass").click())
        done(lambda: ref.locator("#next-turn").click())
    # D12: at the bout's end Boris is not ready to go on and leaves.
    expect(ref.locator("#bout-break-leave")).to_be_visible()
    screenshot(ref, "bout-break")
    in_russian("bout-break")
    done(lambda: ref.locator(f"#leave-{boris.pk}").click())
    expect(ref.locator("#battle-log")).to_contain_text("leaves the battle")
    done(lambda: ref.locator("#start-round").click())
    assert boris.pk not in state(sid).order and state(sid).bout == 2
    assert re.search(r"/battles/\d+/", ref.url)

    # IA1: an instant attack may strike someone already fighting. Extra 5 and Extra 6 fight a duel;
    # Extra 4, unseen and close, strikes Extra 6 from the start page: the duel becomes a battle of
    # three whose first action is the strike, answered at once by a blind draw (IA3).
    striker, duellist, victim = party(event, 3, first=4)
    duel = declare_aggression(event, victim, duellist, None, user=referee, nonce=nonce()).situation
    ref.goto(url("duels:start", event.pk) + f"?a={striker.pk}&b={victim.pk}")
    expect(ref.locator("#ia-joins-fight")).to_be_visible()
    blade = Card.objects.get(catalogue=event.catalogue, name_en="Blade")
    ref.locator("label[for='sight-yes']").click()
    ref.locator("label[for='reach-yes']").click()
    ref.locator(f"label[for='ia-card-{blade.pk}']").click()
    ref.locator("#instant-form button[type='submit']").click()
    expect(ref).to_have_url(re.compile(r"/battles/\d+/"))
    expect(ref.locator("#battle-log")).to_contain_text("(IA3)")
    found = re.search(r"/battles/(\d+)/", ref.url)
    assert found is not None
    grown = int(found.group(1))
    st = state(grown)
    frame = B.top(st)
    assert set(st.combatants) == {striker.pk, duellist.pk, victim.pk} and st.declarer == striker.pk
    assert frame is not None and frame.instant and frame.parts[0].windows[0].answered
    assert Situation.objects.get(pk=duel.pk).ended
    screenshot(ref, "instant-attack-grows-battle")
    sid = grown
    in_russian("instant-attack-grows-battle")
