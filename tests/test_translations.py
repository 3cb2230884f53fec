"""The Russian translation is complete, well-formed and compiled (DESIGN.md §5: Russian and English complete).

The .po file is parsed here in plain Python and the .mo is read with the standard
library, so these tests run on a fresh clone without the gettext tools.
"""

import ast
import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cards.words import explain
from rules import RuleError, check_arsenal

LOCALE = Path(settings.BASE_DIR) / "locale"
RU_PO = LOCALE / "ru" / "LC_MESSAGES" / "django.po"
RU_MO = LOCALE / "ru" / "LC_MESSAGES" / "django.mo"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def key(self) -> str:
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"


def _unquote(text: str) -> str:
    # A .po string is a C string literal; Python's literal syntax reads the same escapes.
    return ast.literal_eval(text)


def parse_po(path: Path) -> list[Entry]:
    """Every live entry of a .po file, the header included (msgid "")."""
    entries: list[Entry] = []
    current = Entry()
    target: tuple[str, int] | None = None  # which field a continuation line extends

    def flush() -> None:
        nonlocal current, target
        if target is not None:
            entries.append(current)
        current, target = Entry(), None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("#~"):
            continue  # obsolete entries are not compiled
        elif line.startswith("#,"):
            if target is not None:
                flush()
            current.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            if target is not None and target[0] == "msgstr":
                flush()
        elif line.startswith('"'):
            assert target is not None, f"{path}:{number}: a string outside an entry"
            name, index = target
            if name == "msgstr":
                current.msgstr[index] += _unquote(line)
            else:
                setattr(current, name, (getattr(current, name) or "") + _unquote(line))
        else:
            keyword, _space, value = line.partition(" ")
            if keyword in ("msgctxt", "msgid") and target is not None and target[0] == "msgstr":
                flush()
            current.line = current.line or number
            match = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
            if match:
                target = ("msgstr", int(match.group(1)))
                current.msgstr[target[1]] = _unquote(value)
            elif keyword == "msgstr":
                target = ("msgstr", 0)
                current.msgstr[0] = _unquote(value)
            elif keyword in ("msgctxt", "msgid", "msgid_plural"):
                target = (keyword, 0)
                setattr(current, keyword, _unquote(value))
            else:
                raise AssertionError(f"{path}:{number}: unexpected line {raw!r}")
    flush()
    return entries


@pytest.fixture(scope="module")
def ru_entries() -> list[Entry]:
    return parse_po(RU_PO)


def messages(entries: list[Entry]) -> list[Entry]:
    return [e for e in entries if e.msgid != ""]


def where(entry: Entry) -> str:
    return f"{RU_PO.name}:{entry.line} {entry.msgid[:60]!r}"


def test_parser_reads_the_file(ru_entries):
    """The parser itself must work, or the checks below would pass on nothing."""
    assert len(messages(ru_entries)) > 300
    by_id = {e.msgid: e for e in ru_entries}
    assert by_id["Arsenal"].msgstr == {0: "Арсенал"}
    plural = next(e for e in ru_entries if e.msgid_plural)
    assert sorted(plural.msgstr) == [0, 1, 2]


def test_header_has_russian_plural_forms(ru_entries):
    header = next(e for e in ru_entries if e.msgid == "")
    assert "fuzzy" not in header.flags
    assert "Language: ru\n" in header.msgstr[0]
    assert "nplurals=3;" in header.msgstr[0]


def test_every_entry_is_translated(ru_entries):
    empty = []
    for entry in messages(ru_entries):
        forms = 3 if entry.msgid_plural else 1
        if sorted(entry.msgstr) != list(range(forms)) or not all(s.strip() for s in entry.msgstr.values()):
            empty.append(where(entry))
    assert empty == []


def test_no_entry_is_fuzzy(ru_entries):
    assert [where(e) for e in ru_entries if "fuzzy" in e.flags] == []


def test_placeholders_match(ru_entries):
    wrong = []
    for entry in messages(ru_entries):
        for index, text in entry.msgstr.items():
            source = entry.msgid_plural if entry.msgid_plural and index > 0 else entry.msgid
            if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(source)):
                wrong.append(f"{where(entry)} form {index}: {text!r}")
    assert wrong == []


def test_html_tags_match(ru_entries):
    tag = re.compile(r"</?[a-z]+[^>]*>")
    wrong = [
        where(e)
        for e in messages(ru_entries)
        for text in e.msgstr.values()
        if sorted(tag.findall(text)) != sorted(tag.findall(e.msgid))
    ]
    assert wrong == []


def test_compiled_mo_matches_the_po(ru_entries):
    """The committed .mo is not stale: it holds exactly the .po's entries, with the same text."""
    with RU_MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    wrong = []
    for entry in messages(ru_entries):
        if entry.msgid_plural:
            # 1 → form 0, 3 → form 1, 5 → form 2 under the Russian plural rule.
            for n, index in ((1, 0), (3, 1), (5, 2)):
                got = (
                    compiled.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
                    if entry.msgctxt
                    else (compiled.ngettext(entry.msgid, entry.msgid_plural, n))
                )
                if got != entry.msgstr[index]:
                    wrong.append(f"{where(entry)} form {index}")
        else:
            got = compiled.pgettext(entry.msgctxt, entry.msgid) if entry.msgctxt else compiled.gettext(entry.msgid)
            if got != entry.msgstr[0]:
                wrong.append(where(entry))
    assert wrong == []
    # An entry removed from the .po but still compiled would also mean a stale .mo.
    po_keys = {e.key for e in messages(ru_entries)}
    mo_keys = {key[0] if isinstance(key, tuple) else key for key in vars(compiled)["_catalog"]} - {""}
    assert mo_keys == po_keys


def test_engine_messages_are_extracted(ru_entries):
    """The engine marks its refusals with a local gettext_noop; makemessages must have picked them up."""
    engine_messages = [e for e in ru_entries if e.msgid.startswith("An arsenal holds at most")]
    assert engine_messages and all(e.msgstr[0] for e in engine_messages)


def test_django_translates_to_russian_and_keeps_english():
    with translation.override("ru"):
        assert _("Arsenal") == "Арсенал"
        assert _("instant attack") == "мгновенная атака"
        assert _("parried") == "отражено"
        assert ngettext("%(counter)s card", "%(counter)s cards", 5) % {"counter": 5} == "5 карт"
        assert ngettext("%(counter)s card", "%(counter)s cards", 22) % {"counter": 22} == "22 карты"
    with translation.override("en"):
        assert _("Arsenal") == "Arsenal"
        assert _("instant attack") == "instant attack"
        assert ngettext("%(counter)s card", "%(counter)s cards", 5) % {"counter": 5} == "5 cards"


def test_rule_engine_refusal_reaches_the_user_in_russian():
    with pytest.raises(RuleError) as caught:
        check_arsenal([1, 1, 1], {1: 3}, limit=2)
    with translation.override("ru"):
        assert explain(caught.value) == "В арсенале не более 2 карт, а в этом — 3."
    with translation.override("en"):
        assert explain(caught.value) == "An arsenal holds at most 2 cards; this one has 3."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected", "absent"),
    [
        ("ru", "Сумрак — магические бои", "magic fights for live-action games"),
        ("en", "Sumrak — magic fights for live-action games", "магические бои"),
    ],
)
def test_home_page_follows_the_language_cookie(language, expected, absent):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert expected in page
    assert absent not in page
    assert f'lang="{language}"' in page


def test_djangos_blank_choice_label_reads_russian():
    """Every select's empty choice is Django's own label; our catalogue carries its Russian."""
    from django.db.models.fields import BLANK_CHOICE_LABEL

    with translation.override("ru"):
        assert str(BLANK_CHOICE_LABEL) == "— выберите —"
    with translation.override("en"):
        assert str(BLANK_CHOICE_LABEL) == "- Select an option -"
