"""A print run grouped by side or by group (issue 22, JoinRPG #3205), and the envelope of each character (#3212).

Grouped, a run prints group after group: a page naming the group, its sheets, its
cards; each group starts on a fresh paper sheet in a duplex print. A character in
several groups (JoinRPG's «Группы») is printed with the first one listed; those in
none come last. The envelopes (one page of a DL envelope each: the character's
name, player, group and secret-link QR code) follow the whole run, in the same
order, so that the print shop feeds them as one envelope job.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from cards.printing.models import PrintRun
from events.models import Character, Side


def _side_key(character: Character) -> tuple[int, str]:
    order = list(Side.values)
    return (order.index(character.side) if character.side in order else len(order), str(character.get_side_display()))


def _group_key(character: Character) -> tuple[int, str]:
    groups = character.group_list
    return (0, groups[0]) if groups else (1, "")


def groups_of(characters: Sequence[Character], by: str) -> list[tuple[str, list[Character]]]:
    """``characters`` (by name) as (label, members) in print order; one unnamed group when not grouped."""
    if by not in (PrintRun.GroupBy.SIDE, PrintRun.GroupBy.GROUP):
        return [("", list(characters))]
    found: dict[tuple[int, str], list[Character]] = {}
    for character in characters:
        key = _side_key(character) if by == PrintRun.GroupBy.SIDE else _group_key(character)
        found.setdefault((key[0], key[1].casefold()), []).append(character)
    result = []
    for key in sorted(found):
        members = found[key]
        if by == PrintRun.GroupBy.SIDE:
            label = str(members[0].get_side_display())
        else:
            label = members[0].group_list[0] if members[0].group_list else _("No group")
        result.append((label, members))
    return result


def label_of(character: Character, by: str) -> str:
    """The group a character is printed in (on its envelope)."""
    if by == PrintRun.GroupBy.SIDE:
        return str(character.get_side_display())
    if by == PrintRun.GroupBy.GROUP:
        return character.group_list[0] if character.group_list else ""
    return ""


@dataclass(frozen=True)
class Envelope:
    character: Character
    player: str
    group: str
    link_works: bool
    link_url: str


def envelope(character: Character, group: str, link_works: bool, link_url: str) -> Envelope:
    player = character.player
    name = (player.get_full_name() or player.get_username()) if player is not None else character.invited_username
    return Envelope(character=character, player=name, group=group, link_works=link_works, link_url=link_url)
