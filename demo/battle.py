"""The demo game's battle group: three Light against two Dark, armed for a battle with reactions.

A newcomer can start a battle with them at once (referee's home -> "Start a
battle"): they hold a ranged attack (an opportunity attack is drawn when a
neighbour shoots), an area attack (every target answers in its own window),
an immediate interrupt that turns a ranged spell aside (it negates the
attack), an immediate response that strikes back when wounded, and an
opportunity attack card. Reach is read from the tags ``ranged`` and ``area``
(docs/battle-rules.md). Card text is game content for Russian-speaking
players, so it stays in Russian.
"""

from demo.people import CharacterData

# name_ru, name_en, category, kind, magic type, full effect, softened effect, tags, rules text
# fmt: off
BATTLE_CARDS: list[tuple[str, str, str, str, str, str, str, str, str]] = [
    ("Огненная стрела", "Fire Arrow", "spell", "attack", "fire", "lightly_wounded", "",
     "fire, ranged", "Стрела пламени бьёт издалека. В сражении — дальнобойная атака: враг рядом с "
     "вами может ответить провоцированной атакой."),
    ("Ледяной град", "Hail of Ice", "spell", "attack", "water", "lightly_wounded", "",
     "ice, area", "Град бьёт по нескольким целям сразу. Каждая цель отвечает сама, в своё окно ответа."),
    ("Отражение", "Deflection", "spell", "defence", "universal", "", "",
     "shield", "Немедленное прерывание: когда в вас летит заклинание издалека, отведите его — атака пропадает."),
    ("Ответный удар", "Counterblow", "spell", "attack", "universal", "lightly_wounded", "",
     "force", "Немедленный ответ: когда вас ранили, ударьте обидчика, пока он не сделал ничего ещё."),
    ("Подножка Сумрака", "Twilight Trip", "ability", "attack", "", "lightly_wounded", "",
     "force", "Провоцированная атака: враг уходит из вашей досягаемости или стреляет, стоя рядом с вами."),
]
# fmt: on

# R4: the action kind in battles and its trigger.
BATTLE_REACTIONS: dict[str, tuple[str, str]] = {
    "Отражение": ("interrupt", "В вас летит дальнобойное заклинание"),
    "Ответный удар": ("response", "Вас ранили"),
    "Подножка Сумрака": ("opportunity", "Враг рядом уходит из досягаемости или стреляет"),
}

# R4: what the reaction cards react to, so the tablet offers them only when it happened.
BATTLE_TRIGGER_KINDS: dict[str, str] = {"Отражение": "attacked", "Ответный удар": "attacked"}

# BP2: the card that grants its holder a double attack (two attack cards in one action).
BATTLE_DOUBLE_ATTACKS: frozenset[str] = frozenset({"Тройное лезвие"})

BATTLE_COUNTER_RULES: list[tuple[str, str, str]] = [
    ("Отражение", "#ranged", "parried"),
    ("Щит мага", "Огненная стрела", "softened"),
    ("Щит мага", "Ледяной град", "parried"),
]

_LIGHT_MAGE = "Огненная стрела×2, Ледяной град, Удар Силой, Щит мага, Отражение, Ответный удар, Подножка Сумрака"
BATTLE_GROUP: list[CharacterData] = [
    {
        "name": "Илья",
        "side": "light",
        "kind": "mage",
        "level": "4",
        "pool": _LIGHT_MAGE + ", Лечение",
        "arsenal": _LIGHT_MAGE,
        "prepared": {"Сражение": _LIGHT_MAGE},
        "application": "Светлый маг Ночного Дозора, любит бить издалека.",
    },
    {
        "name": "Семён",
        "side": "light",
        "kind": "mage",
        "level": "4",
        "pool": "Тройное лезвие, Огненная стрела, Удар Силой×2, Щит мага, Лечение, Отражение, Подножка Сумрака",
        "arsenal": "Тройное лезвие, Огненная стрела, Удар Силой×2, Щит мага, Лечение, Отражение, Подножка Сумрака",
        "prepared": {"Сражение": "Тройное лезвие, Огненная стрела, Удар Силой×2, Щит мага, Лечение, Отражение"},
    },
    {
        "name": "Тигрёнок",
        "side": "light",
        "kind": "shapeshifter",
        "level": "4",
        "pool": "Когти оборотня×2, Подножка Сумрака×2, Ответный удар, Лечение, Щит мага, Ледяной град",
        "arsenal": "Когти оборотня×2, Подножка Сумрака×2, Ответный удар, Лечение, Щит мага, Ледяной град",
        "prepared": {"Сражение": "Когти оборотня×2, Подножка Сумрака×2, Ответный удар, Лечение, Щит мага"},
    },
    {
        "name": "Арина",
        "side": "dark",
        "kind": "enchanter",
        "level": "3",
        "pool": "Ледяной град, Огненная стрела, Лоза Сумрака, Фриз, Подножка Сумрака, Отражение, Ответный удар, "
        "Щит мага, Лечение",
        "arsenal": "Ледяной град, Огненная стрела, Лоза Сумрака, Фриз, Подножка Сумрака, Отражение, Ответный удар, "
        "Щит мага, Лечение",
        "prepared": {"Сражение": "Ледяной град, Огненная стрела, Фриз, Подножка Сумрака, Отражение, Щит мага"},
        "application": "Ведьма, Тёмная.",
    },
    {
        "name": "Виталий Рогоза",
        "side": "dark",
        "kind": "mage",
        "level": "3",
        "pool": "Огненная стрела×2, Ледяной град, Клинок Хаоса, Подножка Сумрака, Ответный удар, Отражение, Щит мага×2",
        "arsenal": "Огненная стрела×2, Ледяной град, Клинок Хаоса, Подножка Сумрака, Ответный удар, Отражение, "
        "Щит мага×2",
        "prepared": {"Сражение": "Огненная стрела×2, Ледяной град, Клинок Хаоса, Отражение, Щит мага×2"},
    },
]
