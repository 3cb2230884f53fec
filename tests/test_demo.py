"""The demo game «Ночной Дозор: Сумрак» (manage.py load_demo)."""

import datetime as dt
from collections import Counter
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import RequestFactory

import demo
import demo.battle
from cards.models import ArsenalCard, Card, CounterRule, PoolEntry, PreparedArsenal, PreparedArsenalCard
from events.models import Character, Event, StaffRole
from rules import cards as engine
from rules.arsenal import check_arsenal

pytestmark = pytest.mark.django_db

# The login throttle (django-axes) counts by the request: authenticate as the login page does.
LOGIN_REQUEST = RequestFactory().post("/accounts/login/")


def load(*args: str) -> str:
    out = StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def counts() -> dict[str, int]:
    models = (Event, Character, Card, CounterRule, PoolEntry, ArsenalCard, PreparedArsenal, PreparedArsenalCard)
    return {model.__name__: model.objects.count() for model in models} | {"staff": StaffRole.objects.count()}


def face(card: Card) -> engine.CardFace:
    return engine.CardFace(
        card.pk, card.name_ru, card.kind, card.full_effect, card.softened_effect, tuple(card.tag_list)
    )


def propose(defence_name: str, attack_name: str) -> str:
    """CR2 as the engine proposes it from the demo catalogue's counter rules."""
    rules = [
        engine.CounterRule(r.defence_card_id, r.attack_card_id, r.attack_tag or None, r.outcome)
        for r in CounterRule.objects.all()
    ]
    defence, attack = Card.objects.get(name_ru=defence_name), Card.objects.get(name_ru=attack_name)
    return engine.CounterTable(rules).propose(face(defence), face(attack))


def test_loads_event_next_month_with_place_and_staff(demo_event):
    assert demo_event.place
    assert demo_event.starts_on <= demo_event.ends_on
    today = dt.date.today()
    next_month = (today.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    assert (demo_event.starts_on.year, demo_event.starts_on.month) == (next_month.year, next_month.month)
    roles = set(demo_event.staff.values_list("user__username", "role"))
    assert roles == {("organizer", "organizer"), ("referee", "referee")}


def test_demo_logins_work_with_the_printed_password(demo_event):
    for username in ("organizer", "referee", "anton", "zavulon"):
        assert authenticate(LOGIN_REQUEST, username=username, password="sumrak-demo") is not None, username
    assert demo_event.characters.get(player__username="anton").name == "Антон Городецкий"
    assert demo_event.characters.get(player__username="zavulon").name == "Завулон"


def test_CR1_catalogue_has_at_least_30_full_cards(demo_event):
    cards = list(demo_event.catalogue.cards.all())
    assert len(cards) >= 30
    names = {c.name_ru for c in cards}
    for book_spell in ("Тройное лезвие", "Серый молебен", "Фриз", "Щит мага", "Сфера отрицания", "Радужная сфера"):
        assert book_spell in names
    assert all(c.name_en and c.rules_text and c.tags for c in cards)
    assert {c.kind for c in cards} == {"attack", "defence"}
    assert {c.category for c in cards} == {"spell", "ability"}
    assert {"universal", "wind", "earth", "water", "fire"} <= {c.magic_type for c in cards}  # M2
    attacks = [c for c in cards if c.kind == "attack"]
    # CR1: every attack says what it does in full, and its softened effect is milder or none.
    assert all(c.full_effect for c in attacks)
    assert any(c.softened_effect for c in attacks) and any(not c.softened_effect for c in attacks)
    assert all(c.full_effect == c.softened_effect == "" for c in cards if c.kind == "defence")


def test_CR2_counter_rules_by_card_and_by_tag(demo_event):
    rules = CounterRule.objects.filter(defence_card__catalogue=demo_event.catalogue)
    assert rules.filter(attack_card__isnull=False).exists()
    assert rules.exclude(attack_tag="").exists()
    assert set(rules.values_list("outcome", flat=True)) == {"parried", "softened"}
    # Every rule pairs a defence card with an attack card (or a tag some attack carries).
    attack_tags = {t for c in Card.objects.filter(kind="attack") for t in c.tag_list}
    for rule in rules.select_related("defence_card", "attack_card"):
        assert rule.defence_card.kind == "defence"
        assert rule.attack_card is None or rule.attack_card.kind == "attack"
        assert rule.attack_card is not None or rule.attack_tag in attack_tags, rule.attack_tag


def test_IA4_mage_shield_and_healing_soften_attacks(demo_event):
    assert propose("Щит мага", "Тройное лезвие") == "softened"  # card rule beats the #force tag rule
    assert propose("Щит мага", "Огненный шар") == "softened"
    assert propose("Щит мага", "Удар Силой") == "parried"
    assert propose("Щит мага", "Серый молебен") == "not_parried"
    assert propose("Лечение", "Серый молебен") == "softened"
    assert propose("Лечение", "Когти оборотня") == "softened"  # by the #physical tag
    grey_prayer = Card.objects.get(name_ru="Серый молебен")
    assert engine.effect_of("softened", face(grey_prayer)) == "heavily_wounded"


def test_eight_characters_of_both_watches_and_the_inquisition(demo_event):
    characters = demo_event.characters.all()
    assert characters.count() == 8 + len(demo.battle.BATTLE_GROUP)
    sides = Counter(characters.values_list("side", flat=True))
    assert sides["light"] >= 2 and sides["dark"] >= 2 and sides["inquisition"] >= 1
    assert all(c.status == Character.Status.ACCEPTED for c in characters)


def test_every_arsenal_within_its_limit_and_its_pool(demo_event):
    for character in demo_event.characters.all():
        pool = {e.card_id: e.copies for e in character.pool.all()}
        limit = character.effective_arsenal_limit
        hand = [a.card_id for a in character.arsenal.all() for _ in range(a.copies)]
        assert hand, character.name
        check_arsenal(hand, pool, limit)  # raises RuleError if not
        assert sorted(character.restorable_arsenal) == sorted(hand)
        prepared = list(character.prepared_arsenals.all())
        assert 1 <= len(prepared) <= 2, character.name
        for arsenal in prepared:
            cards = [c.card_id for c in arsenal.cards.all() for _ in range(c.copies)]
            assert cards
            check_arsenal(cards, pool, limit)


def test_F1_demo_focus_is_a_defence_card_in_hand(demo_event):
    focused = demo_event.characters.exclude(focus_card=None)
    assert focused.exists()
    for character in focused:
        assert character.focus_card.kind == "defence"
        assert character.arsenal.filter(card=character.focus_card).exists()


def test_second_run_changes_nothing_and_keeps_organizers_edits(demo_event):
    before = counts()
    anton = demo_event.characters.get(player__username="anton")
    anton.condition = "heavily_wounded"
    anton.save()
    assert "already loaded" in load()
    assert counts() == before
    anton.refresh_from_db()
    assert anton.condition == "heavily_wounded"


def test_reset_rebuilds_without_duplicates(demo_event):
    before = counts()
    demo_event.characters.get(name="Гесер").delete()
    load("--reset")
    assert counts() == before
    assert Event.objects.get(name="Ночной Дозор: Сумрак").characters.filter(name="Гесер").exists()


def test_reset_keeps_a_catalogue_that_another_event_uses(demo_event):
    other = Event.objects.create(
        name="Дневной Дозор", starts_on=dt.date(2027, 1, 1), ends_on=dt.date(2027, 1, 2), catalogue=demo_event.catalogue
    )
    load("--reset")
    other.refresh_from_db()
    assert other.catalogue is not None
    assert other.catalogue.cards.count() == len(demo.catalogue.CARDS) + len(demo.battle.BATTLE_CARDS)
    assert Event.objects.filter(name="Ночной Дозор: Сумрак").count() == 1


def test_loading_again_never_resets_an_existing_accounts_password():
    """The docs say to change the demo passwords for a real game: a later load must not undo that."""
    User.objects.create_user("organizer", password="a-real-secret-42")
    User.objects.create_user("referee", password="sumrak-demo", is_active=False)
    load()
    assert authenticate(LOGIN_REQUEST, username="organizer", password="sumrak-demo") is None
    assert authenticate(LOGIN_REQUEST, username="organizer", password="a-real-secret-42") is not None
    assert not User.objects.get(username="referee").is_active
    assert authenticate(LOGIN_REQUEST, username="anton", password="sumrak-demo") is not None


def test_R1_R4_the_battle_group_can_fight_a_battle_with_reactions_at_once(demo_event, django_user_model):
    """Three Light against two Dark, holding ranged, area, interrupt, response and opportunity cards."""
    from duels.battle.start import start_battle
    from rules import battle as B

    group = [demo_event.characters.get(name=data["name"]) for data in demo.battle.BATTLE_GROUP]
    assert Counter(c.side for c in group) == {"light": 3, "dark": 2}
    kinds = {(a.card.action_kind, a.card.trigger_text != "") for c in group for a in c.arsenal.select_related("card")}
    assert {("interrupt", True), ("response", True), ("opportunity", True)} <= kinds
    tags = {t for c in group for a in c.arsenal.select_related("card") for t in a.card.tag_list}
    assert {"ranged", "area"} <= tags
    referee = django_user_model.objects.get(username="referee")
    situation = start_battle(demo_event, group, declarer=group[0], user=referee, nonce="demo-battle").situation
    state = situation.state
    assert B.from_dict(state).turn_of == group[0].pk and len(B.from_dict(state).combatants) == 5


# --- demo logins on a network (issue 13: start.sh --lan) ------------------------------------


def test_random_passwords_are_printed_once_and_the_public_one_does_not_work():
    out = load("--random-passwords")
    printed = dict(line.split() for line in out.splitlines() if line.startswith("    "))
    assert set(printed) == set(demo.LOGINS)
    assert len(set(printed.values())) == len(demo.LOGINS)  # one each, not one for all
    for login, password in printed.items():
        assert authenticate(LOGIN_REQUEST, username=login, password=password) is not None
        assert authenticate(LOGIN_REQUEST, username=login, password=demo.DEMO_PASSWORD) is None
    assert "sumrak-demo" not in out
    assert "Demo logins" not in load("--random-passwords")  # loaded already: nothing new to print


def test_secure_only_loads_nothing_and_replaces_a_left_over_public_password():
    load()  # a local start left the public demo password
    before = counts()
    out = load("--secure-only")
    assert counts() == before
    printed = dict(line.split() for line in out.splitlines() if line.startswith("    "))
    assert set(printed) == set(demo.LOGINS)
    for login in demo.LOGINS:
        assert authenticate(LOGIN_REQUEST, username=login, password=demo.DEMO_PASSWORD) is None
        assert authenticate(LOGIN_REQUEST, username=login, password=printed[login]) is not None
    assert load("--secure-only").strip() == ""  # nothing left on the public password
    Event.objects.all().delete()
    assert load("--secure-only").strip() == "" and not Event.objects.exists()


def test_loading_the_demo_beside_a_real_event_asks_first(monkeypatch):
    Event.objects.create(name="Real game", starts_on=dt.date(2030, 1, 1), ends_on=dt.date(2030, 1, 2))
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    with pytest.raises(CommandError, match="already has 1 other event"):
        load()
    assert not demo.is_loaded()
    monkeypatch.setattr("sys.stdin", type("Tty", (), {"isatty": lambda self: True})())
    monkeypatch.setattr("builtins.input", lambda question: "n")
    with pytest.raises(CommandError, match="Not loading"):
        load()
    assert not demo.is_loaded()
    monkeypatch.setattr("builtins.input", lambda question: "да")
    load()
    assert demo.is_loaded()


def test_yes_loads_beside_a_real_event_without_asking():
    Event.objects.create(name="Real game", starts_on=dt.date(2030, 1, 1), ends_on=dt.date(2030, 1, 2))
    load("--yes")
    assert demo.is_loaded() and Event.objects.count() == 2
