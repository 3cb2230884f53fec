"""Refusals read as words in the user's language, not as codes (conditions, results, cards, duel numbers).

``cards.words.explain`` is the one way every page (fight, arsenal builder,
character page) turns a refusal into words; the rule it cites is apart
(``rule_of``), for staff pages to show as a link (``cards/rule_links.py``), and
a service code (STALE, BUSY) or an input check (INPUT, ARSENAL) cites none.
"""

from django.utils import translation

from cards.rule_links import refusal_html
from cards.words import explain, rule_of
from duels.services import CharacterBusy, StaleVersion
from rules.errors import ARSENAL, RuleError


def test_D11_a_condition_in_a_refusal_is_a_word_in_russian_and_english():
    err = RuleError("D11", "%(name)s can no longer fight (%(condition)s).", name="Anton", condition="heavily_wounded")
    assert explain(err) == "Anton can no longer fight (heavily wounded)." and rule_of(err) == "D11"
    with translation.override("ru"):
        text = explain(err)
    assert "heavily_wounded" not in text and "тяжёлое ранение" in text and "D11" not in text


def test_D12_a_duel_result_and_number_are_words_and_count_from_one():
    err = RuleError("D12", "Duel %(duel)s has ended (%(result)s).", duel=0, result="fighter_out")
    assert explain(err) == "Duel 1 has ended (a fighter can no longer fight)." and rule_of(err) == "D12"


def test_ARSENAL_a_card_id_or_uid_becomes_the_cards_name(attack_card):
    by_id = RuleError(ARSENAL, "Card %(card_id)s is not in this character's pool.", card_id=attack_card.pk)
    # ARSENAL names no rule of RULES.md: no rule ID to show.
    assert explain(by_id) == "Card «Fireball» is not in this character's pool." and rule_of(by_id) == ""
    by_uid = RuleError("D6", "Card %(card)s is not in %(name)s's hand.", card=f"7:{attack_card.pk}:0", name="Anton")
    assert explain(by_uid) == "Card «Fireball» is not in Anton's hand." and rule_of(by_uid) == "D6"
    with translation.override("ru"):
        assert "Огненный шар" in explain(by_id)


def test_a_service_refusal_shows_no_code():
    """STALE, BUSY... are the services' codes, not rules a referee could look up."""
    busy = CharacterBusy(name="Anton", other="Zavulon")
    assert explain(busy) == "Anton is already fighting Zavulon." and rule_of(busy) == ""
    stale = StaleVersion(situation=None)  # type: ignore[arg-type]
    assert "STALE" not in explain(stale) and rule_of(stale) == ""
    assert refusal_html(busy, staff=True) == "Anton is already fighting Zavulon."


def test_D3_staff_see_the_rule_as_a_link_to_its_help_and_players_the_words_alone():
    err = RuleError("D3", "The arsenal changes only between rounds.")
    assert refusal_html(err, staff=False) == "The arsenal changes only between rounds."
    assert refusal_html(err, staff=True) == (
        'The arsenal changes only between rounds. <a class="rule-ref" href="/help/referee/#rounds" '
        'title="What the rule says">D3</a>'
    )


def test_a_card_id_too_large_for_the_database_is_left_as_it_is():
    err = RuleError(ARSENAL, "Card %(card_id)s is not in this character's pool.", card_id=2**70)
    assert explain(err) == f"Card {2**70} is not in this character's pool."
