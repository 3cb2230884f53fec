"""Refusals read as words in the user's language, not as codes (conditions, results, cards, duel numbers)."""

from django.utils import translation

from duels.refusals import explain
from rules.errors import RuleError


def test_D11_a_condition_in_a_refusal_is_a_word_in_russian_and_english():
    err = RuleError("D11", "%(name)s can no longer fight (%(condition)s).", name="Anton", condition="heavily_wounded")
    assert explain(err) == "Anton can no longer fight (heavily wounded)."
    with translation.override("ru"):
        text = explain(err)
    assert "heavily_wounded" not in text and "тяжёлое ранение" in text


def test_a_duel_result_and_number_are_words_and_count_from_one():
    err = RuleError("D12", "Duel %(duel)s has ended (%(result)s).", duel=0, result="fighter_out")
    assert explain(err) == "Duel 1 has ended (a fighter can no longer fight)."


def test_ARSENAL_a_card_id_or_uid_becomes_the_cards_name(attack_card):
    by_id = RuleError("ARSENAL", "Card %(card_id)s is not in this character's pool.", card_id=attack_card.pk)
    assert explain(by_id) == "Card «Fireball» is not in this character's pool."
    by_uid = RuleError("D6", "Card %(card)s is not in %(name)s's hand.", card=f"7:{attack_card.pk}:0", name="Anton")
    assert explain(by_uid) == "Card «Fireball» is not in Anton's hand."
    with translation.override("ru"):
        assert "Огненный шар" in explain(by_id)
