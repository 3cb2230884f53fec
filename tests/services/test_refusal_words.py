"""Refusals read as words in the user's language, not as codes (conditions, results, cards, duel numbers).

``cards.words.explain`` is the one way every page (fight, arsenal builder,
character page) turns a refusal into words, and it names the rule the same
way everywhere: " (D3)" after the sentence, nothing for a service code.
"""

from django.utils import translation

from cards.words import explain
from duels.services import CharacterBusy, StaleVersion
from rules.errors import ARSENAL, RuleError


def test_D11_a_condition_in_a_refusal_is_a_word_in_russian_and_english():
    err = RuleError("D11", "%(name)s can no longer fight (%(condition)s).", name="Anton", condition="heavily_wounded")
    assert explain(err) == "Anton can no longer fight (heavily wounded). (D11)"
    with translation.override("ru"):
        text = explain(err)
    assert "heavily_wounded" not in text and "тяжёлое ранение" in text and text.endswith(" (D11)")


def test_D12_a_duel_result_and_number_are_words_and_count_from_one():
    err = RuleError("D12", "Duel %(duel)s has ended (%(result)s).", duel=0, result="fighter_out")
    assert explain(err) == "Duel 1 has ended (a fighter can no longer fight). (D12)"


def test_ARSENAL_a_card_id_or_uid_becomes_the_cards_name(attack_card):
    by_id = RuleError(ARSENAL, "Card %(card_id)s is not in this character's pool.", card_id=attack_card.pk)
    # ARSENAL names no rule of RULES.md: no rule ID to show.
    assert explain(by_id) == "Card «Fireball» is not in this character's pool."
    by_uid = RuleError("D6", "Card %(card)s is not in %(name)s's hand.", card=f"7:{attack_card.pk}:0", name="Anton")
    assert explain(by_uid) == "Card «Fireball» is not in Anton's hand. (D6)"
    with translation.override("ru"):
        assert "Огненный шар" in explain(by_id)


def test_a_service_refusal_shows_no_code():
    """STALE, BUSY... are the services' codes, not rules a referee could look up."""
    assert explain(CharacterBusy(name="Anton", other="Zavulon")) == "Anton is already fighting Zavulon."
    assert "(STALE)" not in explain(StaleVersion(situation=None))  # type: ignore[arg-type]


def test_a_card_id_too_large_for_the_database_is_left_as_it_is():
    err = RuleError(ARSENAL, "Card %(card_id)s is not in this character's pool.", card_id=2**70)
    assert explain(err) == f"Card {2**70} is not in this character's pool."
