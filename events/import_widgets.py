"""The cells every import reads the same way, and the resource every import uses (django-import-export).

``ChoiceWidget`` reads a choice by its stored value or its label in any of the site's
languages; ``YesNoWidget`` and ``LimitWidget`` the yes/no and arsenal-limit cells;
``PlayerField`` and ``EmailField`` turn a row's player and e-mail into an invitation
(issues 13 and 22); ``ContactField`` keeps a contact the import brings along.
events/resources.py (characters) and the cards app's resources build on them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import translation
from django.utils.translation import gettext as _
from import_export import fields, resources, widgets


class ChoiceWidget(widgets.Widget):
    """A choice by its stored value (``light``) or its label in any of the site's languages, case-insensitive.

    A file then imports whatever language its author or the importer uses. An
    empty cell is the empty choice where there is one; otherwise, with
    ``required=False``, None (the column's default), else an error.
    """

    def __init__(self, choices: Iterable[tuple[Any, Any]], *, required: bool = True) -> None:
        super().__init__()
        self.choices = list(choices)
        self.required = required
        self._names: dict[str, Any] | None = None

    def names(self) -> dict[str, Any]:
        """Every accepted spelling, folded, mapped to its stored value (built once per import)."""
        if self._names is None:
            self._names = {}
            for code, _name in settings.LANGUAGES:
                with translation.override(code):
                    self._names.update((str(label).casefold(), stored) for stored, label in self.choices)
            self._names.update((str(stored).casefold(), stored) for stored, _label in self.choices)
        return self._names

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> Any:
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # a spreadsheet's 5.0 is the power level 5
        text = "" if value is None else str(value).strip()
        if text.casefold() in self.names():
            return self.names()[text.casefold()]
        if not text and not self.required:
            return None
        allowed = ", ".join(str(stored) for stored, _label in self.choices if stored) or "—"
        raise ValueError(_("“%(value)s” is not one of: %(allowed)s.") % {"value": text, "allowed": allowed})

    def render(self, value: Any, obj: Any = None, **kwargs: Any) -> str:
        return "" if value is None else str(value)


class YesNoWidget(widgets.Widget):
    TRUE = {"1", "yes", "true", "y", "x", "да", "+"}
    FALSE = {"0", "no", "false", "n", "нет", "-", ""}

    def clean(self, value, row=None, **kwargs):
        if isinstance(value, bool):
            return value
        if isinstance(value, int | float):
            value = int(value)
        text = "" if value is None else str(value).strip().casefold()
        if text in self.TRUE:
            return True
        if text in self.FALSE:
            return False
        raise ValueError(_("“%(value)s” is not yes or no.") % {"value": value})

    def render(self, value, obj=None, **kwargs):
        return "yes" if value else "no"


class LimitWidget(widgets.Widget):
    """The arsenal size limit: empty means the default of the power level."""

    def clean(self, value, row=None, **kwargs):
        text = "" if value is None else str(value).strip()
        if not text:
            return None
        try:
            number = float(text)
        except ValueError:
            number = 0.5  # not a whole number either way
        if not number.is_integer() or number < 1 or number > 100:
            raise ValueError(_("“%(value)s” is not a whole number from 1 to 100.") % {"value": text})
        return int(number)

    def render(self, value, obj=None, **kwargs):
        return "" if value is None else str(value)


# An e-mail address inside a longer cell (allrpg.info's player cell: the address, a phone, the name...).
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def as_email(value: Any) -> str:
    """The cell as an e-mail address, lower-cased; "" if empty. Raises ``ValueError`` if it is no address."""
    text = "" if value is None else str(value).strip()
    if not text:
        return ""
    try:
        validate_email(text)
    except ValidationError:
        raise ValueError(_("“%(value)s” is not an e-mail address.") % {"value": text}) from None
    return text.lower()


def can_be_username(text: str) -> bool:
    """Whether an account could be named so (Django's validator: letters, digits and @.+-_, no spaces)."""
    try:
        UnicodeUsernameValidator()(text)
    except ValidationError:
        return False
    return len(text) <= 150


def invite(instance: Any, player_cell: Any, email_cell: Any) -> None:
    """Address the character's invitation from the row's player and e-mail cells (issue 22).

    A player cell that can be a user name invites that account (issue 13); one that is an
    e-mail address, or holds one (allrpg.info), invites by e-mail; any other text (JoinRPG's
    «Антон Петров») invites by the row's e-mail and is kept as the player's name; with no
    e-mail at all it is refused. Nothing is looked up: no row tells whether an account exists.
    """
    player = " ".join(("" if player_cell is None else str(player_cell)).split())
    email = as_email(email_cell)
    current = instance.player if instance.player_id else None
    if not player and not email:
        instance.player, instance.invited_username, instance.invited_email = None, "", ""
        return
    username = ""
    if player and can_be_username(player) and "@" not in player:
        username = player
    elif player:
        found = _EMAIL.search(player)
        if found and not email:
            email = as_email(found.group(0))
        if not found:
            if not email:
                raise ValueError(
                    _(
                        "“%(value)s” cannot be a user name (no spaces); give the player's e-mail in a column "
                        "matched to “e-mail”, or leave the cell empty."
                    )
                    % {"value": player}
                )
            instance.contacts = {**(instance.contacts or {}), "name": player}
    if current is not None and (
        (username and username.casefold() == current.get_username().casefold())
        or (email and email == (current.email or "").lower())
    ):
        instance.invited_username, instance.invited_email = "", ""  # the current player: nothing changes
        return
    instance.invited_username, instance.invited_email = username, email


class UsernameWidget(widgets.Widget):
    """The player's user name as written; never looked up, so no row says whether an account exists (issue 13)."""

    def clean(self, value, row=None, **kwargs):
        return "" if value is None else str(value).strip()

    def render(self, value, obj=None, **kwargs):
        return value.get_username() if value is not None else ""


class PlayerField(fields.Field):
    """Naming a player invites that account, as the character form does (events/forms.py CharacterForm).

    An empty cell (and no e-mail) leaves the character without a player; the current
    player's own name changes nothing; any other name or address becomes the invitation
    (``invite``), accepted on the account's home page.
    """

    def save(self, instance, row, is_m2m=False, **kwargs):
        invite(instance, row.get(self.column_name), row.get("email"))


class EmailField(fields.Field):
    """The player's e-mail: with a player column, ``PlayerField`` reads it; alone, it invites by itself."""

    def save(self, instance, row, is_m2m=False, **kwargs):
        # Refused here, in its own column, if it is no address; kept as the player's contact
        # (the character page's e-mail, the "links for messaging" export) whoever the player is.
        instance.contact_email = as_email(row.get(self.column_name))
        if "player" not in row:
            invite(instance, None, row.get(self.column_name))


class ContactField(fields.Field):
    """One of the player's contacts as the other tool had them.

    A contact the character page has a field for (``attribute``: Telegram, VK) is written
    there, where the "links for messaging" export and the form read it; any other (the
    player's name in that tool) goes to ``Character.contacts[key]``.
    """

    def __init__(self, column: str, key: str = "", attribute: str = "") -> None:
        super().__init__(attribute=attribute or "contacts", column_name=column, widget=widgets.CharWidget())
        self.key = key or column
        self.own_field = attribute

    def save(self, instance, row, is_m2m=False, **kwargs):
        value = " ".join(("" if row.get(self.column_name) is None else str(row[self.column_name])).split())
        if self.own_field:
            limit = instance._meta.get_field(self.own_field).max_length
            if limit and len(value) > limit:
                raise ValueError(
                    _("At most %(limit)d characters (this one has %(count)d).") % {"limit": limit, "count": len(value)}
                )
            setattr(instance, self.own_field, value)
            return
        contacts = dict(instance.contacts or {})
        if value:
            contacts[self.key] = value
        else:
            contacts.pop(self.key, None)
        instance.contacts = contacts

    def export(self, instance, **kwargs):
        if self.own_field:
            return getattr(instance, self.own_field)
        return (instance.contacts or {}).get(self.key, "")


class GroupsWidget(widgets.CharWidget):
    """The character's groups, however the other tool separated them (JoinRPG: " | "), kept comma-separated.

    ``Character.group_list`` (the print run's envelopes, the filters) splits on commas.
    """

    def clean(self, value, row=None, **kwargs):
        text = "" if value is None else str(value)
        parts = [part.strip() for part in re.split(r"[|,;\n]", text) if part.strip()]
        return ", ".join(dict.fromkeys(parts))


class ModelResource(resources.ModelResource):
    """Every import's resource: django-import-export's, without its sequence reset.

    After an import that created rows, django-import-export sets the table's id sequence
    to the largest id *its own transaction sees* (as ``loaddata`` does). With a referee or
    another organizer adding rows at the same moment on PostgreSQL, that moves the sequence
    back below ids already handed out, and the next inserts fail as duplicates (found by
    tests/concurrency/test_import_stall.py). Our imports never write ids themselves, so the
    sequence never needs resetting.
    """

    def after_import(self, dataset, result, **kwargs):
        pass
