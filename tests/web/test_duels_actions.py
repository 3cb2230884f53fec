"""The referee's buttons: each builds a command, the services apply it, the page shows the fresh state."""

import re
from typing import Any

import pytest
from django import forms
from django.urls import reverse

from cards.models import PreparedArsenal, PreparedArsenalCard
from duels.models import LogEntry, Situation
from duels.web.alerts import form_problem
from events.models import Character
from rules import duel as engine
from tests.services.kit import nonce
from tests.web.duels_kit import drive, post_action, rendered_nonces, state_of, uid_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("secret_hands")]


def test_D7_CR2_answer_then_confirm_through_the_page(as_user, referee, shown, rival, defence_card):
    client = as_user(referee)
    response = post_action(
        client, shown, action="answer", duel=0, fighter=rival.pk, card=uid_of(shown, rival.pk, defence_card)
    )
    assert response.status_code == 200
    html = response.content.decode()
    # What the step changed, not the whole page (issue 24: the duel's controls and the log, out of
    # band; tests/web/test_step_regions.py): the proposal is on it (CR2).
    assert 'id="duel-0-action"' in html and 'hx-swap-oob="true"' in html and "<html" not in html
    assert 'data-outcome="parried"' in html
    assert state_of(shown).duels[0].phase == engine.AWAIT_RESULT

    response = post_action(client, shown, action="confirm", duel=0)
    assert response.status_code == 200
    st = state_of(shown)
    duel = st.duels[0]
    # D9 and D10: the cards are discarded and Zavulon attacks next.
    assert duel.phase == engine.AWAIT_ATTACK and duel.attacker == rival.pk
    assert [r.outcome for r in duel.steps_done] == ["parried"]
    assert len(st.fighters[rival.pk].discards) == 1


def test_D6_attack_button_shows_the_card_and_opens_the_window(as_user, referee, fight, character, attack_card):
    client = as_user(referee)
    page = client.get(reverse("duels:situation", args=[fight.pk])).content.decode()
    uid = uid_of(fight, character.pk, attack_card)
    assert f'value="{uid}"' in page  # a big button per attack card of the attacker
    response = post_action(client, fight, action="attack", duel=0, fighter=character.pk, card=uid)
    assert response.status_code == 200
    assert "countdown-answer" in response.content.decode()  # D8: the window's countdown
    assert state_of(fight).duels[0].step.attack_card == uid


def test_without_javascript_a_post_redirects_to_the_fight_page(as_user, referee, shown, rival):
    response = post_action(as_user(referee), shown, htmx=False, action="answer", duel=0, fighter=rival.pk, card="")
    assert response.status_code == 302
    assert response["Location"] == reverse("duels:situation", args=[shown.pk])
    assert state_of(shown).duels[0].step.answered


def test_a_stale_version_is_a_409_with_the_fresh_state_and_nothing_applied(as_user, referee, shown, rival):
    client = as_user(referee)
    old_version = Situation.objects.get(pk=shown.pk).version
    # Another referee answers first.
    post_action(client, shown, action="answer", duel=0, fighter=rival.pk, card="")
    entries = LogEntry.objects.count()
    version = Situation.objects.get(pk=shown.pk).version
    response = client.post(
        reverse("duels:act", args=[shown.pk]),
        {"action": "confirm", "duel": 0, "version": old_version, "nonce": nonce()},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "Another referee acted first" in html
    # The fresh state: the answer is there, waiting for the referee, with the new version in its forms.
    assert 'data-phase="await_result"' in html
    assert f'name="version" value="{version}"' in html
    assert LogEntry.objects.count() == entries
    assert Situation.objects.get(pk=shown.pk).version == version


def test_a_stale_version_without_javascript_renders_the_fresh_page(as_user, referee, shown, rival):
    client = as_user(referee)
    version = Situation.objects.get(pk=shown.pk).version
    response = client.post(
        reverse("duels:act", args=[shown.pk]),
        {"action": "answer", "duel": 0, "fighter": rival.pk, "card": "", "version": version - 1, "nonce": nonce()},
    )
    assert response.status_code == 409
    assert "<html" in response.content.decode() and "Another referee acted first" in response.content.decode()
    assert not state_of(shown).duels[0].step.answered


def test_a_repeated_nonce_applies_once(as_user, referee, shown, rival):
    client = as_user(referee)
    version = Situation.objects.get(pk=shown.pk).version
    data = {"action": "answer", "duel": 0, "fighter": rival.pk, "card": "", "version": version, "nonce": nonce()}
    first = client.post(reverse("duels:act", args=[shown.pk]), data, headers={"HX-Request": "true"})
    again = client.post(reverse("duels:act", args=[shown.pk]), data, headers={"HX-Request": "true"})
    assert (first.status_code, again.status_code) == (200, 200)
    assert LogEntry.objects.filter(nonce=data["nonce"].replace("-", "")).count() == 1
    assert Situation.objects.get(pk=shown.pk).version == version + 1


def test_every_rendered_form_has_its_own_nonce(as_user, referee, shown):
    html = as_user(referee).get(reverse("duels:situation", args=[shown.pk])).content.decode()
    nonces = rendered_nonces(html)
    assert len(nonces) >= 3 and len(set(nonces)) == len(nonces)


def test_D7_a_rule_error_is_shown_with_its_rule_and_nothing_changes(as_user, referee, shown, character):
    """Anton tries to answer his own attack: the engine refuses (D7), the message is on the page."""
    client = as_user(referee)
    version = Situation.objects.get(pk=shown.pk).version
    entries = LogEntry.objects.count()
    response = post_action(client, shown, action="answer", duel=0, fighter=character.pk, card="")
    assert response.status_code == 422
    html = response.content.decode()
    # The rule is a small link to the referee's help (issue 10), not a bare code in the sentence.
    assert "Only Zavulon may answer this attack." in html
    assert '<a class="rule-ref" href="/help/referee/#duel" title="What the rule says">D7</a>' in html
    assert Situation.objects.get(pk=shown.pk).version == version
    assert LogEntry.objects.count() == entries


def test_CR2_an_override_needs_a_reason(as_user, referee, shown, rival):
    client = as_user(referee)
    post_action(client, shown, action="answer", duel=0, fighter=rival.pk, card="")
    version = Situation.objects.get(pk=shown.pk).version
    response = post_action(client, shown, action="override", duel=0, outcome="softened", reason="")
    assert response.status_code == 400
    assert Situation.objects.get(pk=shown.pk).version == version
    assert state_of(shown).duels[0].phase == engine.AWAIT_RESULT

    response = post_action(client, shown, action="override", duel=0, outcome="softened", reason="grazed only")
    assert response.status_code == 200
    record = state_of(shown).duels[0].steps_done[-1]
    assert (record.outcome, record.proposed, record.override_reason) == ("softened", "not_parried", "grazed only")
    # CR1: the softened effect of a Fireball is a light wound.
    assert Character.objects.get(pk=rival.pk).condition == "lightly_wounded"
    assert "grazed only" in response.content.decode()


def test_garbage_input_is_a_clear_400_and_changes_nothing(as_user, referee, shown):
    client = as_user(referee)
    version = Situation.objects.get(pk=shown.pk).version
    for data in ({"action": "launch"}, {"action": "answer", "duel": "x"}, {"action": "attack", "duel": 0}):
        response = client.post(
            reverse("duels:act", args=[shown.pk]),
            {**data, "version": version, "nonce": nonce()},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 400
        assert 'class="alert alert-danger' in response.content.decode()
    bad_nonce = client.post(
        reverse("duels:act", args=[shown.pk]), {"action": "confirm", "duel": 0, "version": version, "nonce": "x"}
    )
    assert bad_nonce.status_code == 400
    assert Situation.objects.get(pk=shown.pk).version == version


def test_D2_end_the_duel_with_a_reason(as_user, referee, shown):
    client = as_user(referee)
    assert post_action(client, shown, action="end_duel", duel=0, reason="").status_code == 400
    response = post_action(client, shown, action="end_duel", duel=0, reason="they made peace")
    assert response.status_code == 200
    duel = state_of(shown).duels[0]
    assert (duel.phase, duel.end_reason) == (engine.ENDED, "they made peace")
    assert "they made peace" in response.content.decode()


def test_undo_the_last_action_with_a_reason(as_user, referee, shown, rival):
    client = as_user(referee)
    post_action(client, shown, action="answer", duel=0, fighter=rival.pk, card="")
    assert state_of(shown).duels[0].phase == engine.AWAIT_RESULT
    shown.refresh_from_db()
    url = reverse("duels:undo", args=[shown.pk])
    missing = client.post(url, {"reason": "", "version": shown.version, "nonce": nonce()})
    assert missing.status_code == 400
    response = client.post(
        url, {"reason": "wrong fighter", "version": shown.version, "nonce": nonce()}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert state_of(shown).duels[0].phase == engine.AWAIT_ANSWER
    undo = LogEntry.objects.filter(situation=shown, kind="undo").get()
    assert undo.reason == "wrong fighter" and undo.actor == referee
    assert "wrong fighter" in response.content.decode()


def test_the_log_names_fighters_whose_start_was_undone(as_user, referee, fight, character, rival):
    """Undoing a start takes the fighters out of the state; the log still says who they were."""
    client = as_user(referee)
    fight.refresh_from_db()
    undo = {"reason": "wrong fighters", "version": fight.version, "nonce": nonce()}
    assert client.post(reverse("duels:undo", args=[fight.pk]), undo).status_code == 302
    assert not state_of(fight).fighters
    html = client.get(reverse("duels:log", args=[fight.pk])).content.decode()
    assert f"Duel 1: {character.name} against {rival.name} (aggression)." in html
    assert f"Duel 1, bout 1: {character.name} attacks first." in html
    assert "#" + str(character.pk) not in html


def _to_between_rounds(situation, referee, anton, zavulon, fireball, shield, spark):
    """Round 1 to its end (D11): both hold only defence cards afterwards."""
    return drive(
        situation,
        referee,
        engine.Answer(0, zavulon.pk, uid_of(situation, zavulon.pk, shield)),
        engine.ConfirmResult(0),
        engine.Attack(0, zavulon.pk, uid_of(situation, zavulon.pk, spark)),
        engine.Answer(0, anton.pk, None),
        engine.ConfirmResult(0),
    ) and drive(
        situation,
        referee,
        engine.Attack(0, anton.pk, uid_of(situation, anton.pk, fireball)),
        engine.Answer(0, zavulon.pk, None),
        engine.ConfirmResult(0, "parried", "ducked behind a tree"),
    )


@pytest.fixture
def between_rounds(shown, referee, character, rival, attack_card, defence_card, spark):
    situation = _to_between_rounds(shown, referee, character, rival, attack_card, defence_card, spark)
    assert state_of(situation).duels[0].phase == engine.BETWEEN_ROUNDS
    return situation


def test_D3_round_choice_offers_the_hand_prepared_arsenals_and_the_pool(as_user, referee, between_rounds, character):
    prepared = PreparedArsenal.objects.create(character=character, name="Fire set")
    html = as_user(referee).get(reverse("duels:situation", args=[between_rounds.pk])).content.decode()
    assert "Keep the hand" in html
    assert f'value="prepared-{prepared.pk}"' in html
    assert "Build a new arsenal" in html and 'name="card_' in html


def test_D3_a_prepared_arsenal_is_taken_whole_for_the_next_round(
    as_user, referee, between_rounds, character, rival, attack_card
):
    client = as_user(referee)
    prepared = PreparedArsenal.objects.create(character=character, name="Fire set")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card, copies=2)
    response = post_action(
        client,
        between_rounds,
        action="round_choice",
        duel=0,
        fighter=character.pk,
        go_on="yes",
        arsenal=f"prepared-{prepared.pk}",
    )
    assert response.status_code == 200
    post_action(client, between_rounds, action="round_choice", duel=0, fighter=rival.pk, go_on="yes", arsenal="keep")
    st = state_of(between_rounds)
    assert st.duels[0].round == 2
    assert sorted(st.cards[u].card_id for u in st.fighters[character.pk].hand) == [attack_card.pk, attack_card.pk]


def test_D3_ARSENAL_a_new_arsenal_beyond_the_pool_is_refused(as_user, referee, between_rounds, character, attack_card):
    client = as_user(referee)
    version = Situation.objects.get(pk=between_rounds.pk).version
    pool_choice: dict[str, Any] = {f"card_{attack_card.pk}": 3}  # the pool holds two
    response = post_action(
        client,
        between_rounds,
        action="round_choice",
        duel=0,
        fighter=character.pk,
        go_on="yes",
        arsenal="new",
        **pool_choice,
    )
    assert response.status_code == 400
    assert "the pool holds only 2" in response.content.decode()
    assert "Fireball" in response.content.decode() or "Огненный шар" in response.content.decode()
    # Named through the one explainer, as the arsenal builder names it.
    assert "The arsenal has 3 copies of card «Fireball»; the pool holds only 2." in response.content.decode()
    assert Situation.objects.get(pk=between_rounds.pk).version == version


def test_D12_a_fighter_who_stops_ends_the_duel(as_user, referee, between_rounds, character, rival):
    client = as_user(referee)
    post_action(client, between_rounds, action="round_choice", duel=0, fighter=character.pk, go_on="no", arsenal="keep")
    post_action(client, between_rounds, action="round_choice", duel=0, fighter=rival.pk, go_on="yes", arsenal="keep")
    duel = state_of(between_rounds).duels[0]
    assert (duel.phase, duel.result) == (engine.ENDED, "stopped")


@pytest.mark.parametrize(("language", "fireball"), [("ru", "Огненный шар"), ("en", "Fireball")])
def test_a_full_step_works_in_russian_and_english(as_user, referee, shown, rival, defence_card, language, fireball):
    client = as_user(referee)
    client.cookies["django_language"] = language
    headers = {"HX-Request": "true", "Accept-Language": language}
    page = client.get(reverse("duels:situation", args=[shown.pk]), headers={"Accept-Language": language})
    assert f'lang="{language}"' in page.content.decode() and fireball in page.content.decode()
    for data in (
        {"action": "answer", "duel": 0, "fighter": rival.pk, "card": uid_of(shown, rival.pk, defence_card)},
        {"action": "confirm", "duel": 0},
    ):
        shown.refresh_from_db()
        response = client.post(
            reverse("duels:act", args=[shown.pk]),
            {**data, "version": shown.version, "nonce": nonce()},
            headers=headers,
        )
        assert response.status_code == 200
        assert fireball in response.content.decode()
    assert [r.outcome for r in state_of(shown).duels[0].steps_done] == ["parried"]


def test_D3_a_refusal_inside_a_form_keeps_its_rule_for_the_referee():
    """The round's new arsenal is checked in the form: its rule reaches the fight page's alert as a link."""

    class Choice(forms.Form):
        rule = forms.CharField()

        def clean(self) -> dict[str, Any]:
            raise forms.ValidationError("Not now.", code=self.data["rule"])

    cited, uncited = Choice({"rule": "D3"}), Choice({"rule": "ARSENAL"})
    assert not cited.is_valid() and not uncited.is_valid()
    assert (form_problem(cited).text, form_problem(cited).rule) == ("Not now.", "D3")
    assert form_problem(uncited).rule == ""  # an input check cites no rule


@pytest.mark.parametrize("built", [False, True])
def test_D3_the_chosen_arsenal_badge_names_it_rightly(as_user, referee, between_rounds, character, attack_card, built):
    """D3: a made choice's badge gives a prepared arsenal's quoted name, or says it is newly built."""
    client = as_user(referee)
    prepared = PreparedArsenal.objects.create(character=character, name="Fire set")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card, copies=1)
    choice: dict[str, Any] = (
        {"arsenal": "new", f"card_{attack_card.pk}": "1"} if built else {"arsenal": f"prepared-{prepared.pk}"}
    )
    response = post_action(
        client, between_rounds, action="round_choice", duel=0, fighter=character.pk, go_on="yes", **choice
    )
    assert response.status_code == 200, response.content.decode()[:300]
    badge = re.search(r'<span class="badge text-bg-info">(.*?)</span>', response.content.decode(), re.S)
    assert badge is not None
    words = " ".join(badge.group(1).split())
    assert words == ("goes on · newly built arsenal" if built else "goes on · prepared arsenal “Fire set”"), words
