"""The mass battle tablet's regions written in Python (issue 24): what its templates rendered, markup for markup.

templates/duels/mass/tablet.html calls these tags for its regions, and a
step's answer calls the same builders (duels/mass/live.py). The templates
they replace are kept in tests/web/regions_reference/ and compared with them.
The stage's controls are in ``mass_action``. A side's kept cards are shown
only when the presenter gave them (``side.kept`` is None for whoever may not
see them: duels/mass/presenters.py decides).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from duels.templatetags.fight_forms import Ctx, action_form, alert_box, bt, e, joined, log_list, region_tag, t
from duels.templatetags.mass_action import magic_card, mass_action

register = template.Library()


def mass_notes(ctx: Ctx) -> str:
    alert = ctx.get("alert")
    return f'<div id="mass-notes">{alert_box(alert, "mass-alert", True) if alert else ""}</div>'


def mass_status(ctx: Ctx) -> str:
    view = ctx["view"]
    turn = ""
    if view.turn_side:
        words = bt("%(name)s's turn", name=view.turn_side.name)
        turn = f'<span class="fs-4 badge text-bg-primary" id="mass-turn">{words}</span>'
    a, b = e(view.sides["a"].name), e(view.sides["b"].name)
    rolls = "".join(
        f'\n      <span class="badge text-bg-light border fs-6 mass-roll">{a} {e(ra)} — {b} {e(rb)} · {e(source)}'
        f"</span>\n    "
        for ra, rb, _cycle, source in view.rolls
    )
    return (
        '<div class="d-flex flex-wrap align-items-center gap-3 mb-2 mass-status" id="mass-status">\n'
        f'    <span class="fs-3 fw-bold" id="mass-cycle">{bt("Cycle %(cycle)s", cycle=view.cycle)}</span>\n'
        f'    <span class="fs-5" id="mass-stage">{e(view.stage_label)}</span>\n    {turn}\n    {rolls}\n  </div>'
    )


def mass_public_status(ctx: Ctx) -> str:
    """Cycle, stage, whose turn, the card on the table and the effects: what everyone may see (the spectators'
    page and a commander's phone; the tablet has its own regions above)."""
    view = ctx["view"]
    over = f'<span class="badge text-bg-secondary">{t("over")}</span>' if view.ended else ""
    turn = ""
    if view.turn_side:
        words = bt("%(name)s's turn", name=view.turn_side.name)
        turn = (
            f'<div class="fs-5"><span class="badge text-bg-primary">{words}</span> {e(view.turn_side.points_label)}'
            "</div>"
        )
    a, b = e(view.sides["a"].name), e(view.sides["b"].name)
    rolls = "".join(
        f'<div class="small">{t("Initiative:")} {a} {e(ra)} — {b} {e(rb)} · {e(source)}</div>'
        for ra, rb, _cycle, source in view.rolls
    )
    pending = ""
    if view.pending:
        pending = f'<div class="mt-2">{magic_card(view.pending)}</div>'
    elif view.pending_side:
        words = bt("%(name)s looks at a drawn card.", name=view.sides_pending_name)
        pending = f'<div class="mt-2 text-muted">{words}</div>'
    effects = "".join(_public_effect(effect) for effect in view.effects) or f'<li class="text-muted">{t("None.")}</li>'
    return (
        '\n<div class="mass-status mb-2">\n'
        f'  <div class="fs-4 fw-bold">{bt("Cycle %(cycle)s", cycle=view.cycle)}\n    {over}</div>\n'
        f"  <div>{e(view.stage_label)}</div>\n  {turn}\n  {rolls}\n  {pending}\n</div>\n"
        f'<section class="mb-2">\n  <h2 class="h6">{t("Active effects (M6)")}</h2>\n'
        f'  <ul class="list-unstyled small mb-0">{effects}</ul>\n</section>\n'
        f'<p class="small text-muted mb-2">{e(view.deck_summary)}</p>\n'
    )


def _public_effect(effect: Any) -> str:
    card = effect.card
    affected = f" · {joined(effect.affected)}" if effect.affected else ""
    unaffected = (
        f' · <span class="text-muted">{t("protected:")} {joined(effect.unaffected)}</span>' if effect.unaffected else ""
    )
    ends = bt("ends when cycle %(cycle)s begins", cycle=effect.ends_cycle)
    return (
        f'\n    <li class="mass-effect"><strong>{e(card.name)}</strong> ({e(card.type_label)}) · {ends}'
        f"{affected}{unaffected}</li>\n  "
    )


def mass_effects(ctx: Ctx) -> str:
    items = "".join(_effect(effect) for effect in ctx["view"].effects)
    if not items:
        items = f'<li class="text-muted">{t("None.")}</li>'
    return (
        '<section class="card mb-3" id="mass-effects"><div class="card-body">\n'
        f'        <h2 class="h5">{t("Active effects (M6)")}</h2>\n'
        f'        <ul class="list-unstyled mb-0">\n        {items}\n        </ul>\n      </div></section>'
    )


def _effect(effect: Any) -> str:
    card = effect.card
    affected = f'<div class="small">{t("acts on:")} {joined(effect.affected)}</div>' if effect.affected else ""
    unaffected = ""
    if effect.unaffected:
        unaffected = (
            f'<div class="small text-muted">{t("protected, not affected (M3):")} {joined(effect.unaffected)}</div>'
        )
    return (
        f'\n          <li class="mb-2 mass-effect"><strong>{e(card.name)}</strong> <span class="badge magic-type-badge'
        f' magic-{e(card.magic_type)}">{e(card.type_label)}</span>\n'
        f"            · {bt('ends when cycle %(cycle)s begins', cycle=effect.ends_cycle)}\n"
        f"            {affected}\n            {unaffected}\n          </li>\n        "
    )


def mass_decks(ctx: Ctx) -> str:
    view = ctx["view"]
    printed = ""
    if view.printed:
        printed = (
            f'<p class="mb-0"><a class="btn btn-outline-dark" id="deck-order-link"'
            f' href="{e(ctx.get("decks_url", ""))}">'
            f"{t('The printed decks by the record: print and check (referee only)')}</a></p>"
        )
    order = ""
    if view.deck_order:
        decks = "".join(
            f'\n            <div class="small"><strong>{e(deck)}:</strong> '
            f"{' · '.join(e(card.name) for card in cards) if cards else '—'}</div>\n          "
            for deck, cards in view.deck_order.items()
        )
        order = (
            f"\n        <details><summary>{t('Order of the decks, top first (referee only)')}</summary>\n"
            f"          {decks}\n        </details>\n        "
        )
    return (
        '<section class="card mb-3" id="mass-decks"><div class="card-body">\n'
        f'        <h2 class="h5">{t("Decks (M1, M7)")}</h2>\n'
        f'        <p class="mb-1" id="deck-sizes">{e(view.deck_summary)}</p>\n        {printed}\n        {order}\n'
        "      </div></section>"
    )


def mass_log(ctx: Ctx) -> str:
    full = reverse("duels:mass-log", args=[ctx["situation"].pk])
    return (
        '<section class="card mb-3" id="mass-log"><div class="card-body">\n'
        f'        <h2 class="h5 d-flex justify-content-between">{t("Log")} <a class="btn btn-outline-secondary btn-sm"'
        f' href="{e(full)}">{t("Full log")}</a></h2>\n        {log_list(ctx)}\n      </div></section>'
    )


def mass_side(ctx: Ctx) -> str:
    """duels/mass/_side.html: one side's warriors (with the casualty buttons while they are open) and kept cards."""
    side = ctx["side"]
    casualties = bool(ctx.get("casualties"))
    commander = f' <span class="fw-normal text-muted">· {e(side.commander)}</span>' if side.commander else ""
    points = ""
    if side.points:
        points = f'<span class="badge text-bg-primary fs-6">{bt("%(points)s magic points", points=side.points)}</span>'
    lists = "".join(
        f'\n    <h3 class="h6 mb-1">{t(title)} <span class="badge {badge}">{len(people)}</span></h3>\n'
        f'    <ul class="list-unstyled mb-2 warriors-{place}">'
        f"{''.join(_warrior(ctx, w, casualties) for w in people) or '<li class="text-muted">—</li>'}</ul>"
        for title, badge, place, people in (
            ("On the field", "text-bg-success", "field", side.on_field),
            ("Hospital", "text-bg-warning", "hospital", side.hospital),
            ("Dead", "text-bg-secondary", "dead", side.dead),
        )
    )
    kept = ""
    if side.kept is not None:
        cards = (
            "".join(
                f'\n          <li class="mb-1">{magic_card(card)}\n'
                f'            <span class="small text-muted">{bt("kept in cycle %(cycle)s", cycle=cycle)}</span>'
                f"</li>\n        "
                for card, cycle, _usable in side.kept
            )
            or '<li class="text-muted">—</li>'
        )
        kept = (
            f'\n      <h3 class="h6 mb-1">{t("Kept cards (M5)")}</h3>\n'
            f'      <ul class="list-unstyled mb-0 kept-cards">\n        {cards}\n      </ul>\n    '
        )
    return (
        f'\n<section class="mass-side card mb-3" id="side-{e(side.key)}">\n'
        '  <div class="card-header d-flex justify-content-between flex-wrap gap-2">\n'
        f'    <span class="fs-5 fw-bold">{e(side.name)}{commander}</span>\n    {points}\n  </div>\n'
        f'  <div class="card-body p-2">{lists}\n    {kept}\n  </div>\n</section>\n'
    )


def _warrior(ctx: Ctx, w: Any, casualties: bool) -> str:
    protections = f" · {t('protection:')} {joined(w.protections)}" if w.protections else ""
    buttons = ""
    if casualties:
        moves = "".join(
            f'\n        <button class="btn {style}" name="to" value="{place}">{t(label)}</button>'
            for place, style, label in (
                ("field", "btn-outline-success", "to the field"),
                ("hospital", "btn-outline-hospital", "wounded"),
                ("dead", "btn-outline-dark", "dead"),
            )
            if w.place != place
        )
        buttons = (
            f"\n    {action_form(ctx, 'move', form_class='ms-auto')}\n"
            f'      <input type="hidden" name="warrior" value="{e(w.wid)}">\n'
            f'      <fieldset class="d-flex gap-1">{moves}\n      </fieldset>\n    </form>\n  '
        )
    return (
        f'\n<li class="mass-warrior d-flex flex-wrap align-items-center gap-2 py-1" data-warrior="{e(w.wid)}">\n'
        f'  <span class="fw-bold">{e(w.name)}</span>\n'
        f'  <span class="small text-muted">{e(w.type_name)}{protections}</span>\n  {buttons}\n</li>\n'
    )


for _builder in (
    mass_notes,
    mass_status,
    mass_action,
    mass_effects,
    mass_decks,
    mass_log,
    mass_side,
    mass_public_status,
):
    region_tag(register, _builder)
