"""The battle tablet's regions written in Python (issue 24): what its templates rendered, markup for markup.

templates/duels/battle/tablet.html calls these tags for its regions, and a
step's answer calls the same builders (duels/battle/live.py). The templates
they replace are kept in tests/web/regions_reference/ and compared with them.
The turn's controls, the actions in progress and the reaction bar are in
``battle_turn``. The spectators' page and a combatant's phone use the same
strip and frames without the referee's buttons and rule codes
(``public_turn_strip``, ``public_battle_frames``) and ``battle_records``
(their templates, too, are kept in tests/web/regions_reference/).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from typing import Any

from django import template
from django.utils.translation import get_language, ngettext, pgettext

from duels.templatetags.battle_turn import battle_action, frames, reaction_bar
from duels.templatetags.fight_forms import Ctx, action_form, alert_box, bt, e, log_list, region_tag, t

register = template.Library()


def battle_notes(ctx: Ctx) -> str:
    alert = ctx.get("alert")
    return f'<div id="battle-notes">{alert_box(alert, "battle-alert", True) if alert else ""}</div>'


def battle_head(ctx: Ctx) -> str:
    view = ctx["view"]
    most = f" / {e(view.max_rounds)}" if view.max_rounds else ""
    reactions = ""
    if view.reactions_on:
        words = t("opportunity and immediate actions apply (R0)")
        reactions = f'<span class="badge text-bg-info" id="reactions-on">{words}</span>'
    elif not view.ended:
        words = bt("reactions from round %(first)s (R0)", first=view.reactions_from)
        reactions = f'<span class="badge text-bg-light border" id="reactions-off">{words}</span>'
    gap = ""
    if view.gap_deadline_iso:
        gap = (
            f'<span class="small">{t("Ends without a combat action in (S2):")} <span class="countdown-inline"'
            f' data-deadline="{e(view.gap_deadline_iso)}" data-format="clock"></span></span>'
        )
    round_words = pgettext("battle", "Round %(round)s") % {"round": e(view.round)}
    return (
        '<div class="d-flex flex-wrap gap-3 align-items-center mb-1 fs-5" id="battle-head">\n'
        f'    <span id="battle-round">{round_words}{most}</span>\n    {reactions}\n    {gap}\n  </div>'
    )


def turn_strip(ctx: Ctx) -> str:
    """The turn strip on the referee's tablet: the rules' codes in the flags' titles."""
    return _strip(ctx["view"], referee=True)


def public_turn_strip(ctx: Ctx) -> str:
    """The turn strip on the spectators' page and a combatant's phone (context: ``battle``, their view)."""
    return _strip(ctx["battle"], referee=False)


def _strip(view: Any, *, referee: bool) -> str:
    return (
        '\n<ol class="battle-strip list-unstyled d-flex flex-wrap gap-2 mb-2" id="turn-strip">\n  '
        f"{''.join(_combatant(view, c, referee) for c in view.combatants)}\n</ol>\n"
    )


# A combatant's strip item by everything it shows and the language: of a step's four, most are the
# step before's (as the log's <li>s, fight_log.py). Bounded as those are.
_ITEMS: dict[tuple[Any, ...], str] = {}
_ITEMS_MAX = 20_000


def _combatant(view: Any, c: Any, referee: bool) -> str:
    key = (
        get_language(),
        referee,
        view.reactions_on,
        c.id,
        c.name,
        c.side,
        c.condition,
        c.can_fight,
        c.active,
        c.opportunity_spent,
        c.immediate_spent,
        c.readied,
        c.hand_count,
    )
    item = _ITEMS.get(key)
    if item is None:
        if len(_ITEMS) >= _ITEMS_MAX:
            _ITEMS.clear()
        item = _ITEMS[key] = _strip_item(view, c, referee)
    return item


def _strip_item(view: Any, c: Any, referee: bool) -> str:
    active = " active-turn" if c.active else ""
    out = "" if c.can_fight else " out"
    badge = "text-bg-success" if c.condition == "fit" else "text-bg-warning"
    badge = badge if c.can_fight else "text-bg-danger"
    flags = ""
    if view.reactions_on:
        opp = " spent" if c.opportunity_spent else ""
        imm = " spent" if c.immediate_spent else ""
        r2, r5 = (" (R2)", " (R5)") if referee else ("", "")
        flags = (
            f'\n        · <span class="reaction-flag{opp}" title="{t("opportunity action this turn")}{r2}">'
            f"{t('Opp.')} {'✗' if c.opportunity_spent else '✓'}</span>\n"
            f'        · <span class="reaction-flag{imm}" title="{t("immediate action since their last turn")}{r5}">'
            f"{t('Imm.')} {'✗' if c.immediate_spent else '✓'}</span>\n      "
        )
    readied = f'<span class="d-block">{t("Readied:")} {e(c.readied)}</span>' if c.readied else ""
    cards = ngettext("%(counter)s card", "%(counter)s cards", c.hand_count) % {"counter": c.hand_count}
    return (
        f'\n  <li class="combatant border border-3 border-{e(c.side_colour)} rounded px-2 py-1{active}{out}"\n'
        f'      data-combatant="{e(c.id)}" data-condition="{e(c.condition)}">\n'
        f'    <div class="fw-bold">{"▶ " if c.active else ""}{e(c.name)}</div>\n'
        f'    <div class="small">{e(c.side_label)} · <span class="badge condition-badge {badge}">'
        f"{e(c.condition_label)}</span></div>\n"
        f'    <div class="small">{cards}\n      {flags}\n      {readied}\n    </div>\n  </li>\n  '
    )


def public_battle_frames(ctx: Ctx) -> str:
    """The actions in progress on the spectators' page and a combatant's phone: no buttons, no rule codes."""
    return frames(ctx, ctx["battle"], referee=False)


def battle_records(ctx: Ctx) -> str:
    """The latest results, newest first (every played card is public). Context: ``battle``."""
    records = ctx["battle"].records
    if not records:
        return ""
    rows = "".join(_record_row(r) for r in records)
    table = '<table class="table table-sm table-tight mt-2" id="battle-records">'
    return f"\n{table}\n  <tbody>\n  {rows}\n  </tbody>\n</table>\n"


def _record_row(r: Mapping[str, Any]) -> str:
    """One result (duels/battle/presenters.py's row: a dict)."""
    answer = e(r["answer"]) if r.get("answer") else t("no answer")
    late = f" ({t('time ran out')})" if r.get("timed_out") else ""
    return (
        f"\n    <tr><td>{e(r['round'])}</td><td>{e(r['role'])}</td><td>{e(r['attacker'])}: {e(r['attack'])}</td>\n"
        f"      <td>{e(r['defender'])}: {answer}</td>\n      <td>{e(r['outcome'])}{late}</td></tr>\n  "
    )


def battle_main(ctx: Ctx) -> str:
    return (
        '<div class="row g-2" id="battle-main">\n'
        f'    <div class="col-12 col-lg-8" id="battle-action">\n      {battle_action(ctx)}\n    </div>\n\n'
        f"    {reaction_bar(ctx)}\n  </div>"
    )


def joinable_people(ctx: Ctx) -> list[Any]:
    """The context's ``joinable``: a list, or (a step's, duels/battle/views.py) a call that reads it."""
    joinable = ctx.get("joinable")
    return (joinable() if callable(joinable) else joinable) or []


def battle_join(ctx: Ctx) -> str:
    view = ctx["view"]
    if view.ended:
        return '<div id="battle-join"></div>'
    people = joinable_people(ctx)
    if not people:
        return '<div id="battle-join"></div>'
    groups = "".join(
        f'<optgroup label="{e(side)}">'
        + "".join(f'<option value="{e(c.pk)}">{"✓ " if c.arrived else ""}{e(c.name)}</option>' for c in group)
        + "</optgroup>"
        for side, group in groupby(people, key=lambda c: c.get_side_display())
    )
    sides = "".join(f'<option value="{e(value)}">{e(label)}</option>' for value, label in ctx.get("sides") or ())
    strike = ""
    if view.phase == "turns":
        strike = (
            '<button type="submit" name="strike" value="1" class="btn btn-outline-danger" id="join-striking">'
            f"{t('Joins by attacking (strikes at once, BP4)')}</button>"
        )
    return (
        '<div id="battle-join">\n'
        f"{action_form(ctx, url=ctx.get('join_url'), form_class='mt-2', form_id='join-form')}\n"
        '<fieldset class="d-flex flex-wrap gap-2 align-items-center">\n'
        f'  <label for="join-character">{t("Add a combatant:")}</label>\n'
        '  <input type="search" class="form-control form-control-lg w-auto choice-filter"'
        ' data-filter-for="join-character" id="join-filter" autocomplete="off"\n'
        f'         placeholder="{t("Type to filter the names")}" aria-label="{t("Filter the characters by name")}">\n'
        f'  <select name="character" id="join-character" class="form-select form-select-lg w-auto">{groups}</select>\n'
        f'  <select name="side" class="form-select w-auto" aria-label="{t("Side")}"><option value="">'
        f"{t('their own side')}</option>{sides}</select>\n"
        f'  <button type="submit" class="btn btn-outline-primary">{t("Join the battle")}</button>\n'
        f"  {strike}\n</fieldset>\n</form>\n</div>"
    )


def battle_log(ctx: Ctx) -> str:
    return f'<details class="mt-2" id="battle-log"><summary>{t("Log")}</summary>{log_list(ctx)}</details>'


for _builder in (
    battle_notes,
    battle_head,
    turn_strip,
    battle_main,
    battle_join,
    battle_log,
    public_turn_strip,
    public_battle_frames,
    battle_records,
):
    region_tag(register, _builder)
