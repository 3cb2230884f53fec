"""The demo game's mass battle (M1-M8): four magic decks, an armlist and two armies of ten.

Loaded with the rest of the demo (``demo.load``), so a newcomer can start a
mass battle at once from the referee's page and play a cycle. The cards
follow the seed's shape: a card of deck 2 is drawn on every 2, decks 4-6 are
stronger and optional, and only decks 2 and 5 hold cards "to use when you
see fit" (the event's default). Every type of magic is in the decks, and the
armlist protects different warriors from different types (M3).
"""

from __future__ import annotations

from django.contrib.auth.models import User

from cards.models import Catalogue
from cards.models_mass import Army, MagicCard, Warrior, WarriorType
from events.models import Event

# name_ru, name_en, deck, type, harmful, keepable, copies, text
# (harmful is for the reader: M3 protection covers every card of its types, helpful or harmful,
# so no demo card acts on protected warriors too)
MAGIC_CARDS = [
    (
        "Порыв ветра",
        "Gust of Wind",
        2,
        "wind",
        True,
        False,
        2,
        "Один отряд противника отступает на шаг и в этом цикле стреляет только с места.",
    ),
    ("Искры", "Sparks", 2, "fire", True, False, 2, "Один воин противника на поле ранен: уходит в госпиталь."),
    ("Туман", "Fog", 2, "water", False, False, 1, "Ваши стрелки не видны стрелкам противника в этом цикле."),
    (
        "Каменная кожа",
        "Stone Skin",
        2,
        "earth",
        False,
        True,
        1,
        "Использовать, когда сочтёте нужным: один ваш воин не получает ранений в этом цикле.",
    ),
    (
        "Благословение",
        "Blessing",
        2,
        "universal",
        False,
        True,
        1,
        "Использовать, когда сочтёте нужным: один ваш воин возвращается из госпиталя на поле.",
    ),
    (
        "Проклятие слабости",
        "Curse of Weakness",
        2,
        "universal",
        True,
        False,
        1,
        "Удары воинов противника в этом цикле только ранят, но не убивают.",
    ),
    (
        "Огненный шар",
        "Fireball",
        4,
        "fire",
        True,
        False,
        2,
        "До трёх воинов противника, стоящих рядом, уходят в госпиталь.",
    ),
    (
        "Землетрясение",
        "Earthquake",
        4,
        "earth",
        True,
        False,
        1,
        "Воины противника на поле пропускают движение в этом цикле.",
    ),
    (
        "Ледяные оковы",
        "Ice Shackles",
        4,
        "water",
        True,
        False,
        2,
        "Один воин противника не двигается и не бьёт в этом цикле.",
    ),
    ("Ураган", "Hurricane", 4, "wind", True, False, 1, "Стрелки противника не стреляют в этом цикле."),
    (
        "Живая вода",
        "Water of Life",
        4,
        "water",
        False,
        False,
        1,
        "Два ваших раненых воина возвращаются из госпиталя на поле.",
    ),
    ("Молния", "Lightning", 5, "wind", True, False, 1, "Один воин противника гибнет."),
    (
        "Огненная стена",
        "Wall of Fire",
        5,
        "fire",
        True,
        False,
        1,
        "Укажите линию: воин противника, пересёкший её в этом цикле, уходит в госпиталь.",
    ),
    (
        "Щит Света",
        "Shield of Light",
        5,
        "universal",
        False,
        True,
        1,
        "Использовать, когда сочтёте нужным: ваш отряд не подвержен негативной магии в этом цикле.",
    ),
    ("Зыбучие пески", "Quicksand", 5, "earth", True, False, 1, "Один отряд противника стоит на месте в этом цикле."),
    (
        "Второе дыхание",
        "Second Wind",
        5,
        "wind",
        False,
        True,
        1,
        "Использовать, когда сочтёте нужным: ваш отряд делает ещё одно движение.",
    ),
    (
        "Огненный дождь",
        "Rain of Fire",
        6,
        "fire",
        True,
        False,
        1,
        "Все воины противника на поле в пяти шагах от указанной точки уходят в госпиталь.",
    ),
    ("Потоп", "Flood", 6, "water", True, False, 1, "Два воина противника гибнут."),
    (
        "Гнев земли",
        "Wrath of the Earth",
        6,
        "earth",
        True,
        False,
        1,
        "До четырёх воинов противника, стоящих рядом, уходят в госпиталь.",
    ),
    (
        "Всеобщее исцеление",
        "Great Healing",
        6,
        "universal",
        False,
        False,
        1,
        "Все ваши раненые воины возвращаются на поле.",
    ),
    (
        "Смерч",
        "Tornado",
        6,
        "wind",
        True,
        False,
        1,
        "Один отряд противника отброшен на пять шагов; его воины не бьют в этом цикле.",
    ),
]

# name_ru, name_en, protections, description
WARRIOR_TYPES = [
    ("Копейщик", "Spearman", "", "Пехота в стёганке, копьё и щит."),
    ("Лучник", "Archer", "", "Стрелок, лёгкий доспех."),
    ("Рыцарь", "Knight", "earth", "Тяжёлый доспех: земля его не держит."),
    ("Саламандра", "Salamander", "fire", "Огненный дух в людском облике: огонь ему не вредит."),
    ("Гном", "Dwarf", "earth,fire", "Кузнец из-под горы: ни земля, ни огонь его не берут."),
    ("Эльф", "Elf", "wind,water", "Лесной народ: ветер и вода ему послушны."),
    ("Паладин", "Paladin", "wind,fire", "Освящённый доспех отводит ветер и огонь."),
]

# army, commander's login, commander's name, [(warrior, type, state)]
ARMIES = [
    ("Светлые", "anton", "Гесер", [
        ("Копейщик 1", "Копейщик", "field"), ("Копейщик 2", "Копейщик", "field"),
        ("Копейщик 3", "Копейщик", "hospital"), ("Лучник 1", "Лучник", "field"),
        ("Лучник 2", "Лучник", "field"), ("Рыцарь Илья", "Рыцарь", "field"),
        ("Рыцарь Семён", "Рыцарь", "field"), ("Эльф Лориэн", "Эльф", "field"),
        ("Паладин Игнат", "Паладин", "field"), ("Саламандра", "Саламандра", "field"),
    ]),
    ("Тёмные", "zavulon", "Завулон", [
        ("Копейщик 1", "Копейщик", "field"), ("Копейщик 2", "Копейщик", "hospital"),
        ("Копейщик 3", "Копейщик", "field"), ("Лучник 1", "Лучник", "field"),
        ("Лучник 2", "Лучник", "field"), ("Гном Торин", "Гном", "field"),
        ("Гном Балин", "Гном", "field"), ("Саламандра", "Саламандра", "field"),
        ("Рыцарь Алиса", "Рыцарь", "field"), ("Эльф Тень", "Эльф", "hospital"),
    ]),
]  # fmt: skip


def load_mass(event: Event, catalogue: Catalogue, users: dict[str, User]) -> None:
    """The magic cards into the catalogue (kept if already there), the armlist and armies into the event."""
    for name_ru, name_en, deck, kind, _harmful, keepable, copies, text in MAGIC_CARDS:
        MagicCard.objects.update_or_create(
            catalogue=catalogue,
            name_ru=name_ru,
            defaults={
                "name_en": name_en,
                "deck": deck,
                "magic_type": kind,
                "acts_on_protected": False,
                "keepable": keepable,
                "copies": copies,
                "text": text,
            },
        )
    types = {
        name_ru: WarriorType.objects.create(
            event=event, name_ru=name_ru, name_en=name_en, protections=protections, description=description
        )
        for name_ru, name_en, protections, description in WARRIOR_TYPES
    }
    for army_name, login, commander, warriors in ARMIES:
        army = Army.objects.create(event=event, name=army_name, commander=users.get(login), commander_name=commander)
        Warrior.objects.bulk_create(
            Warrior(army=army, name=name, warrior_type=types[kind], state=state) for name, kind, state in warriors
        )
