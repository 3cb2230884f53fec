"""The player's own part of their live page, for every kind: condition, focus, hand, played cards (issue 24).

A player's phone polls every 2 s and each new version of their fight is
rendered for them alone (their hand is theirs): the first poll of a version
renders, and this part of ``duels/player_live.html`` - a chip and, for each
card that may hold the focus, a form (an ``{% include %}`` each) - was the
larger part of that render. Written here in Python from the shared pieces
(``fight_forms``, ``fight_cards``), markup for markup what the template
rendered: tests/web/test_player_own_python.py compares it with the template
it replaces (tests/web/regions_reference/player_own.html) for a character
outside a fight, in a duel and in a battle, in ru and en.

Context (``player_live.html``'s): character, situation, hand, focus,
can_focus, version, focus_url; in a fight, ``me`` (the kind's own view of
the player: ``condition``, ``condition_label``, ``can_fight``, and where the
kind keeps them, ``discards`` and ``discards_hidden``).
"""

from __future__ import annotations

from typing import Any

from django import template

from duels.templatetags.fight_cards import chip
from duels.templatetags.fight_forms import Ctx, csrf_input, e, more_played, nonce, region_tag, t

register = template.Library()


def player_own(ctx: Ctx) -> str:
    me = ctx.get("me")
    situation = ctx.get("situation")
    focus = ctx.get("focus")
    focused = f'<p class="mb-2">{t("My focus (held openly):")} {chip(focus)}</p>' if focus else ""
    title = t("My hand in this fight") if situation else t("My hand")
    can_focus = ctx.get("can_focus")
    cards = [
        f'<li class="d-flex flex-wrap align-items-center gap-2 mb-1">{chip(card)}\n        '
        f"{_focus_form(ctx, card) if not card.is_attack and can_focus else ''}</li>"
        for card in ctx.get("hand") or ()
    ]
    hand = "\n    ".join(cards) or f'<li class="text-muted">{t("No cards in hand.")}</li>'
    discards = getattr(me, "discards", None) if me else None
    played = ""
    if discards:
        played = (
            f'<div class="d-flex flex-wrap gap-1 mb-2"><span class="small text-muted">{t("My played cards:")}</span>'
            f"{''.join(chip(card) for card in discards)}{more_played(ctx, me)}</div>"
        )
    outside = ""
    if not situation:
        words = t("You are not in a fight now. This part updates by itself when one starts.")
        outside = f'<p class="small text-muted mb-0">{words}</p>'
    return (
        '\n  <div class="d-flex flex-wrap align-items-center gap-2 mb-2">\n'
        f'    <span class="small text-muted">{t("My condition:")}</span>\n    {_condition(ctx, me)}\n  </div>\n'
        f"  {focused}\n\n"
        f'  <h2 class="h6 mb-1">{title}</h2>\n'
        f'  <ul class="list-unstyled mb-2 my-hand">\n    {hand}\n  </ul>\n'
        f"  {played}\n  {outside}\n"
    )


def _condition(ctx: Ctx, me: Any) -> str:
    if me:
        if not me.can_fight:
            badge = "text-bg-danger"
        elif me.condition == "fit":
            badge = "text-bg-success"
        else:
            badge = "text-bg-warning"
        condition, label = me.condition, me.condition_label
    else:
        character = ctx["character"]
        badge, condition, label = "text-bg-secondary", character.condition, character.get_condition_display()
    return (
        f'<span class="badge fs-6 condition-badge my-condition {badge}" data-condition="{e(condition)}">'
        f"{e(label)}</span>"
    )


def _focus_form(ctx: Ctx, card: Any) -> str:
    """F1: focus on one card of the player's own hand, or drop the focus (``duels/_focus_button.html``)."""
    url = e(ctx.get("focus_url", ""))
    if card.focused:
        choice = (
            '<input type="hidden" name="card" value="">\n'
            f'    <button type="submit" class="btn btn-sm btn-warning">{t("Drop the focus")}</button>'
        )
    else:
        choice = (
            f'<input type="hidden" name="card" value="{e(card.uid)}">\n'
            f'    <button type="submit" class="btn btn-sm btn-outline-primary">{t("Focus on this card")}</button>'
        )
    return (
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#player-live" hx-swap="outerHTML"\n'
        '      hx-disabled-elt="find fieldset" hx-sync="#player-live:replace" class="d-inline">\n'
        f"  {csrf_input(ctx)}\n"
        f'  <input type="hidden" name="version" value="{e(ctx.get("version", ""))}">\n'
        f'  <input type="hidden" name="nonce" value="{nonce(ctx)}">\n'
        f'  <fieldset class="d-inline">\n    {choice}\n  </fieldset>\n</form>\n'
    )


region_tag(register, player_own)
