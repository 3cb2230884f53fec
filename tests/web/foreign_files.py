"""Files shaped as JoinRPG, allrpg.info and Google Forms write them (issue 22; docs/import.md).

Column names and cell formats as read from those tools' public source (events/imports/presets.py):
JoinRPG's CSV quotes every cell, joins groups with " | ", writes UTF-8 without a byte order
mark and shows a link as its address; its XLSX has the same header on row 1 and a link cell
showing the link's path; allrpg.info's «Excel» is an HTML table in a file named .xls, whose
player cell holds the e-mail, the phone and the name; a Google Forms sheet starts with the
response's time.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import openpyxl

PLAYER_COLUMNS = [
    "Игрок",
    "Игрок.SurName",
    "Игрок.FatherName",
    "Игрок.BornName",
    "Игрок.Email",
    "Игрок.Extra.Vk",
    "Игрок.Extra.Skype",
    "Игрок.Extra.Telegram",
    "Игрок.Extra.Livejournal",
    "Игрок.Extra.PhoneNumber",
]
CHARACTER_HEADER = [
    "Персонаж",
    "Персонаж",
    "Занят?",
    "Группы",
    "Входит в группы",
    "Ответственный мастер",
    "Сторона",  # the project's own fields, by their names
    "Уровень силы",
    "Вид Иного",
    *PLAYER_COLUMNS,
]


def _player(display: str, email: str, vk: str = "", telegram: str = "") -> list[str]:
    surname, _, born = display.partition(" ")[::-1] if " " in display else ("", "", display)
    return [display, surname, "", born, email, vk, "", telegram, "", ""]


def joinrpg_characters_rows() -> list[list[str]]:
    link = "https://joinrpg.ru/1234/character/{}/"
    groups = "https://joinrpg.ru/1234/character-group/{}/"
    return [
        CHARACTER_HEADER,
        [
            "Антон Городецкий",
            link.format(5678),
            "Занят",
            "Ночной Дозор | Маги",
            groups.format(11),
            "Ольга Мастер",
            "Свет",
            "2",
            "Маг",
            *_player("Антон Петров", "anton@example.org", "id1001", "@anton"),
        ],
        [
            "Завулон",
            link.format(5679),
            "Занят",
            "Дневной Дозор",
            groups.format(12),
            "Ольга Мастер",
            "Тьма",
            "вне категорий",
            "Маг",
            *_player("Игорь Сидоров", "igor@example.org"),
        ],
        [
            "Ольга",
            link.format(5680),
            "Нет заявок",
            "Ночной Дозор",
            groups.format(11),
            "",
            "Свет",
            "1",
            "Маг",
            *[""] * len(PLAYER_COLUMNS),
        ],
    ]


CLAIM_HEADER = [
    "Имя",
    "",  # the claim's link: JoinRPG writes no name for it
    "Статус",
    "Причина отказа",
    "Обновлена",
    "Создана",
    "Итого взнос",
    "Осталось",
    "Уплачено",
    "LastModifiedBy",
    "Ответственный",
    *PLAYER_COLUMNS,
    "Сторона",
]


def joinrpg_claims_rows() -> list[list[str]]:
    claim = "https://joinrpg.ru/1234/claim/{}/"
    fees = ["1500", "0", "1500", "Ольга Мастер", "Ольга Мастер"]
    return [
        CLAIM_HEADER,
        [
            "Семён",
            claim.format(91),
            "Принята",
            "",
            "01.05.2026 10:00:00",
            "20.04.2026 12:00:00",
            *fees,
            *_player("Семён Лавров", "semyon@example.org"),
            "Свет",
        ],
        [
            "Алиса",
            claim.format(92),
            "Обсуждается",
            "",
            "02.05.2026 10:00:00",
            "21.04.2026 12:00:00",
            *fees,
            *_player("Алиса Донникова", "alisa@example.org"),
            "Тьма",
        ],
        [
            "Игнат",
            claim.format(93),
            "Подана",
            "",
            "03.05.2026 10:00:00",
            "22.04.2026 12:00:00",
            *fees,
            *_player("Игнат Котов", "ignat@example.org"),
            "Тьма",
        ],
        [
            "Светлана",
            claim.format(94),
            "Отклонена",
            "Игрок не отвечает",
            "04.05.2026 10:00:00",
            "23.04.2026 12:00:00",
            *fees,
            *_player("Светлана Назарова", "sveta@example.org"),
            "Свет",
        ],
    ]


def joinrpg_csv(rows: Sequence[Sequence[str]]) -> bytes:
    """As JoinRPG's CsvBackend writes: every non-empty cell quoted, commas, UTF-8, no byte order mark."""

    def cell(value: str) -> str:
        return "" if not value.strip() else '"' + value.replace('"', '""').replace("\n", " ") + '"'

    return "".join(",".join(cell(v) for v in row) + "\n" for row in rows).encode()


def joinrpg_xlsx(rows: Sequence[Sequence[str]]) -> bytes:
    """As JoinRPG's ClosedXML backend writes: the header on row 1, a link cell showing its path."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sheet1"
    for row in rows:
        cells = []
        for value in row:
            cells.append(value.split("joinrpg.ru", 1)[1] if value.startswith("https://joinrpg.ru") else value or None)
        sheet.append(cells)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


ALLRPG_HEADER = [
    "#",
    "К заявке",
    "Игрок",
    "Статус",
    "Ответственный мастер",
    "Персонаж",
    "Группы",
    "Сторона",
    "Дата подачи заявки",
    "Комментарии",
]


def allrpg_xls() -> bytes:
    """allrpg.info's «export to Excel»: an HTML table (ApplicationView::generateExcel), saved as .xls."""

    def player(email: str, phone: str, name: str, uid: int) -> str:
        return (
            f'<a href="mailto:{email}">{email}</a><br><a href="tel:{phone}">{phone}</a><br><br>'
            f"{name}, ИНП {uid}, мужчина, <br>Москва, Москва<br>"
        )

    rows = [
        [
            "501",
            '<a href="https://www.allrpg.info/application/application/501/act=edit&project_id=7">К заявке</a>',
            player("geser@example.org", "+79001112233", "Борис Игнатьевич", 11),
            "принята",
            "Ольга Мастер",
            "Гесер",
            "Ночной Дозор",
            "Свет",
            "01.04.2026 12:00",
            "Гесер (другим мастерам) - 02.04.2026<br>ok<br><br>",
        ],
        [
            "502",
            '<a href="https://www.allrpg.info/application/application/502/act=edit&project_id=7">К заявке</a>',
            player("tigr@example.org", "+79004445566", "Игорь Тигров", 12),
            "обсуждается",
            "Ольга Мастер",
            "Тигрёнок",
            "Ночной Дозор",
            "Свет",
            "02.04.2026 12:00",
            "",
        ],
    ]
    head = "".join(f"<th>{h}</th>" for h in ALLRPG_HEADER)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    style = (
        "<style>\n\ttable,tr,td {\n\t\tborder: .5pt black solid;\n\t}\n\tbr {mso-data-placement:same-cell;}\n</style>"
    )
    return f"<html><head>\n{style}\n</head><body>\n<table><tr>{head}</tr>{body}</table></body></html>".encode()


def google_forms_csv() -> bytes:
    header = "Отметка времени,Адрес электронной почты,Имя персонажа,Сторона,Уровень силы\n"
    rows = "2026/04/01 12:00:00 PM GMT+3,lena@example.org,Лена,Тьма,3\n"
    return (header + rows).encode()
