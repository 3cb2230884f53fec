"""What the cards app asks of the fight apps, which sit above it and which it never imports.

The arsenal is frozen while its holder is in an unfinished fight (S2, AG2, D3,
IA5), but only the fight apps know what a fight is. So cards defines the
question here and each fight app answers it: ``duels`` registers its check in
``DuelsConfig.ready`` (the layers are in docs/architecture.md; import-linter
enforces them). A later fight app registers its own check beside it; a
character is in a fight if any of them says so.

With no fight app installed nobody can be in a fight, so no check means "no".
"""

from __future__ import annotations

from collections.abc import Callable

from events.models import Character

FightCheck = Callable[[Character], bool]

_fight_checks: list[FightCheck] = []


def register_fight_check(check: FightCheck) -> None:
    """Called by a fight app's ``AppConfig.ready``; registering the same check twice keeps one."""
    if check not in _fight_checks:
        _fight_checks.append(check)


def fight_checks() -> tuple[FightCheck, ...]:
    return tuple(_fight_checks)


def in_fight(character: Character) -> bool:
    """Is the character in a fight that has not ended (in any fight app)?"""
    return any(check(character) for check in _fight_checks)
