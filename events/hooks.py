"""What the events app asks of the apps above it, which it never imports.

A player's character page (``events.views_player``) belongs to events, but an
accepted character's page also shows the arsenal, which is the cards app's.
Cards adds its part here in ``CardsConfig.ready`` (the layers are in
docs/architecture.md; import-linter enforces them): each part gives the
template's context for one character. Without cards installed the page shows
the character alone.
"""

from __future__ import annotations

from collections.abc import Callable

from events.models import Character

CharacterPagePart = Callable[[Character], dict[str, object]]

_character_page_parts: list[CharacterPagePart] = []


def register_character_page_part(part: CharacterPagePart) -> None:
    """Called by an app's ``AppConfig.ready``; registering the same part twice keeps one."""
    if part not in _character_page_parts:
        _character_page_parts.append(part)


def character_page_context(character: Character) -> dict[str, object]:
    """Every registered part's context for an accepted character's own page, in registration order."""
    context: dict[str, object] = {}
    for part in _character_page_parts:
        context.update(part(character))
    return context
