"""The duel tablet's regions written in Python (issue 24): what its templates rendered, markup for markup.

templates/duels/duel/tablet.html calls these tags for its regions, and a
step's answer calls the same builders (duels/duel/live.py), so the patched
page is the page a reload shows. The templates they replace are kept in
tests/web/regions_reference/ and the output compared with theirs. The
spectators' and players' card (``duel_public_card``) is built from the same
parts.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import ngettext

from duels.templatetags.duel_controls import controls as _controls
from duels.templatetags.fight_cards import chip
from duels.templatetags.fight_forms import (
    Ctx,
    action_form,
    alert_box,
    bt,
    e,
    log_list,
    more_played,
    quick_reasons,
    region_tag,
    rule,
    t,
)

register = template.Library()


_DANGER = "btn-outline-danger"


def fight_notes(ctx: Ctx) -> str:
    notes = "".join(alert_box(note, "", True) for note in ctx.get("notes") or ())
    alert = ctx.get("alert")
    return f'<div id="fight-notes">\n  {notes}\n  {alert_box(alert, "fight-alert", True) if alert else ""}\n  </div>'


def fight_status(ctx: Ctx) -> str:
    view = ctx["view"]
    inner = ""
    if view.ended:
        note = ctx.get("ended_note")
        said = f"{e(note.text)} {rule(note.rule)}" if note else t("This combat situation has ended.")
        export = reverse("duels:export", args=[ctx["situation"].pk])
        inner = (
            f'\n    <div class="alert alert-secondary fs-5" id="situation-status">\n      {said}\n'
            f'      <a class="btn btn-outline-dark ms-2" href="{e(export)}">{t("Download the record (JSON)")}</a>\n'
            "    </div>\n  "
        )
    elif view.gap_deadline and not view.answer_deadline:
        inner = (
            '\n    <div class="alert alert-info d-flex flex-wrap align-items-center gap-3 py-1"'
            ' id="situation-status">\n'
            f"      <span>{t('Without a combat action the situation ends in:')} {rule('S2')}</span>\n"
            f'      <span class="countdown countdown-small" data-deadline="{e(view.gap_deadline_iso)}"'
            ' data-format="clock"></span>\n    </div>\n  '
        )
    return f'<div id="fight-status">\n  {inner}\n  </div>'


def fight_log(ctx: Ctx) -> str:
    full = reverse("duels:log", args=[ctx["situation"].pk])
    return (
        '<section class="fight-log" id="fight-log">\n'
        f'    <h2 class="h5">{t("Log (newest first)")} <a class="small" href="{e(full)}">{t("full log")}</a></h2>\n'
        f"    {log_list(ctx)}\n  </section>"
    )


# --- One duel's card, as the referee sees it (duels/duel/_card.html with ``controls``) ----------


def duel_mark(ctx: Ctx) -> str:
    duel = ctx["duel"]
    n = e(duel.number)
    return f'<span hidden id="duel-{n}-mark" data-mark-for="duel-{n}" data-phase="{e(duel.phase)}"></span>'


def duel_head(ctx: Ctx, *, public: bool = False) -> str:
    duel = ctx["duel"]
    most = f" / {e(duel.max_rounds)}" if duel.max_rounds else ""
    region = "" if public else f' id="duel-{e(duel.number)}-head"'
    return (
        '<div class="card-header py-1 d-flex flex-wrap justify-content-between align-items-center gap-2"'
        f"{region}>\n"
        f'    <span class="fs-5 fw-bold">{e(duel.a.name)} — {e(duel.b.name)}</span>\n    <span>\n'
        f'      <span class="duel-round">{bt("Bout %(round)s", round=duel.round)}{most}</span>\n'
        f'      · {e(duel.opened_by_label)} · <span class="duel-phase">{e(duel.phase_label)}</span>\n'
        "    </span>\n  </div>"
    )


def duel_action(ctx: Ctx) -> str:
    duel = ctx["duel"]
    return f'<div class="duel-action mb-2" id="duel-{e(duel.number)}-action">{_controls(ctx, duel)}</div>'


def duel_fighter(ctx: Ctx) -> str:
    duel, fighter = ctx["duel"], ctx["fighter"]
    return f'<div class="col-6" id="duel-{e(duel.number)}-fighter-{e(fighter.id)}">{_fighter(ctx, duel, fighter)}</div>'


def duel_card(ctx: Ctx) -> str:
    duel = ctx["duel"]
    n = e(duel.number)
    ended = "" if duel.is_open else " duel-ended"
    fighters = "".join(duel_fighter({**_flat(ctx), "fighter": f}) for f in duel.fighters)
    end = ""
    if duel.is_open and not ctx["view"].ended:
        end = (
            f'\n    <details class="mt-2" id="end-duel-{n}">\n      <summary>{t("End the duel")}</summary>\n      '
            f"{action_form(ctx, 'end_duel', form_class='mt-2', duel=duel)}\n        <fieldset>\n          \n          "
            f"{quick_reasons(ctx, 'end-reason-', t('Why does the duel end?'), t('End the duel'), _DANGER, duel.number)}"
            "\n        </fieldset>\n      </form>\n    </details>\n    "
        )
    return (
        f'\n<section class="duel card mb-2{ended}" id="duel-{n}" data-phase="{e(duel.phase)}">\n  '
        f"{duel_mark(ctx)}\n  {duel_head(ctx)}\n"
        f'  <div class="card-body p-2">\n    \n      {duel_action(ctx)}\n    \n\n'
        f'    <div class="row g-2">\n      {fighters}\n    </div>\n\n    {_records(ctx, duel)}\n\n    {end}\n'
        "  </div>\n</section>\n"
    )


# --- One duel's card for the spectators' page and a fighter's phone (issue 24) ----------------
#
# What duels/duel/_card.html rendered there (kept in tests/web/regions_reference/): no controls, the
# step with its countdown (the defender's own phone: the window is theirs, it signals at 0), the
# player's turn spelled out, the hands open (on the player's phone: counts, the hand listed apart).


def duel_public_card(ctx: Ctx) -> str:
    duel, me = ctx["duel"], ctx.get("me")
    ended = "" if duel.is_open else " duel-ended"
    fighters = "".join(
        f'<div class="col-6">{_fighter(ctx, duel, f, public=True, hide_hand=bool(me))}</div>' for f in duel.fighters
    )
    return (
        f'<section class="duel card mb-2{ended}" id="duel-{e(duel.number)}" data-phase="{e(duel.phase)}">\n  '
        f"{duel_head(ctx, public=True)}\n"
        f'  <div class="card-body p-2">\n    {_public_step(duel, me)}\n\n'
        f'    <div class="row g-2">\n      {fighters}\n    </div>\n\n    {_records(ctx, duel, public=True)}\n\n'
        "  </div>\n</section>\n"
    )


def _public_step(duel: Any, me: Any) -> str:
    step = duel.step
    if step:
        answer = ""
        if step.answer_card:
            answer = f"→ {chip(step.answer_card)}"
        elif step.answered:
            answer = f'→ <span class="text-muted">{t("no answer")}</span>'
        return (
            '<div class="d-flex flex-wrap align-items-center gap-3 fs-5 mb-2 duel-step">\n'
            f"        <span>{e(step.attacker.name)}:</span> {chip(step.attack_card)}\n"
            f"        {answer}\n        {_public_window(duel, me)}\n      </div>"
        )
    if me and duel.phase == "await_attack":
        said = (
            t("Your turn to attack.")
            if duel.attacker.id == me.id
            else bt("%(name)s attacks next.", name=duel.attacker.name)
        )
        return f'<p class="my-2 fs-5">{said}</p>'
    if me and duel.phase == "between_rounds":
        words = t("The bout has ended. Tell the referee whether you go on, and with which arsenal.")
        return f'<p class="my-2 fs-5">{words}</p>'
    if not duel.is_open:
        reason = f" — {e(duel.end_reason)}" if duel.end_reason else ""
        return f'<p class="fs-5 mb-2 duel-result">{t("The duel has ended:")} {e(duel.result_label)}{reason}</p>'
    return ""


def _public_window(duel: Any, me: Any) -> str:
    step = duel.step
    if duel.phase == "await_result":
        return f'<span class="small text-muted">{t("The referee is deciding the result.")}</span>'
    if duel.phase != "await_answer":
        return ""
    deadline = e(step.deadline_iso)
    if me and step.defender.id == me.id:
        return (
            f'<div class="text-center" data-closes="{deadline}"'
            f' data-signal-key="{e(duel.number)}-{e(duel.records_total)}"'
            f' data-closed-text="{t("Time is up: the attack takes full effect.")}">\n'
            f'              <div class="fw-bold text-danger-emphasis">{t("Answer now! Seconds left:")}</div>\n'
            f'              <div class="countdown countdown-answer" data-deadline="{deadline}" role="timer"></div>\n'
            "            </div>"
        )
    return (
        f'<span class="countdown-label">{t("Seconds left to answer:")}</span>\n'
        f'            <span class="countdown countdown-answer" data-deadline="{deadline}" role="timer"'
        f' aria-label="{t("Seconds left to answer")}"></span>'
    )


def _flat(ctx: Ctx) -> dict[str, Any]:
    """A template context (or a dict) as one dict, to add a key for one call."""
    flatten = getattr(ctx, "flatten", None)
    return flatten() if flatten is not None else dict(ctx)


def _records(ctx: Ctx, duel: Any, *, public: bool = False) -> str:
    """The duel's newest steps: folded on the referee's card, with what an override proposed; open elsewhere."""
    if not duel.records:
        return ""
    n = e(duel.number)
    timed_out = ""
    if duel.records[-1].timed_out:
        timed_out = f'\n      <span hidden data-timed-out-key="{n}-{e(duel.records_total - 1)}"></span>\n    '
    total = duel.records_total
    summary = ngettext("%(counter)s step played", "%(counter)s steps played", total) % {"counter": total}
    rows = "".join(_record_row(r, public=public) for r in reversed(duel.records))
    more = ""
    if duel.records_hidden:
        link = reverse("duels:record", args=[ctx["situation"].pk])
        words = ngettext("All %(counter)s step", "All %(counter)s steps", total) % {"counter": total}
        more = f'<a class="small record-link" href="{e(link)}">{words}</a>'
    return (
        f"\n    {timed_out}\n"
        f'    <details class="mt-2" id="steps-{n}"{" open" if public else ""}>\n      <summary>{summary}</summary>\n'
        '      <table class="table table-sm table-tight mt-1 steps-table">\n'
        f"        <thead><tr><th>{t('Bout')}</th><th>{t('Attack')}</th><th>{t('Answer')}</th>"
        f"<th>{t('Result')}</th></tr></thead>\n        <tbody>\n        {rows}\n        </tbody>\n      </table>\n"
        f"      \n      {more}\n    </details>\n    "
    )


def _record_row(record: Any, *, public: bool = False) -> str:
    if record.answer_card:
        answer = e(record.answer_card.name)
    elif record.timed_out:
        answer = t("no answer in time")
    else:
        answer = t("no answer")
    over = ""
    if record.overridden and not public:
        words = bt(
            "overridden; proposed %(proposed)s: %(reason)s", proposed=record.proposed_label, reason=record.reason
        )
        over = f' <span class="small">({words})</span>'
    return (
        f"\n          <tr>\n            <td>{e(record.round)}</td>\n"
        f"            <td>{e(record.attacker.name)}: {e(record.attack_card.name)}</td>\n"
        f"            <td>{e(record.defender.name)}: {answer}</td>\n"
        f"            <td>{e(record.outcome_label)}{over}</td>\n          </tr>\n        "
    )


def _fighter(ctx: Ctx, duel: Any, fighter: Any, *, public: bool = False, hide_hand: bool = False) -> str:
    """A fighter as the viewer may see them: on the referee's card the hands fold to their counts, with the
    condition link; elsewhere (``public``) they are open and the link is left out; ``hide_hand``: the count only
    (the player's own phone lists the hand apart)."""
    if not fighter.can_fight:
        badge = "text-bg-danger"
    else:
        badge = "text-bg-success" if fighter.condition == "fit" else "text-bg-warning"
    focus = ""
    if fighter.focus:
        focus = (
            f'\n    <div class="mb-1"><span class="small text-muted">{t("Focus (held openly):")}</span>'
            f" {chip(fighter.focus)}</div>\n  "
        )
    count = fighter.hand_count
    unfolded = " open" if public else ""
    if fighter.hand is not None and not hide_hand:
        cards = (
            "".join(chip(c) for c in fighter.hand) if fighter.hand else f'<span class="text-muted">{t("empty")}</span>'
        )
        words = ngettext("Hand: %(counter)s card", "Hand: %(counter)s cards", count) % {"counter": count}
        hand = (
            f'\n    <details class="mb-1 hand" id="hand-{e(duel.number)}-{e(fighter.id)}"{unfolded}>\n'
            f'      <summary class="small">{words}</summary>\n'
            f'      <div class="d-flex flex-wrap gap-1">{cards}</div>\n    </details>\n  '
        )
    else:
        words = ngettext("%(counter)s card in hand", "%(counter)s cards in hand", count) % {"counter": count}
        hand = f'\n    <div class="mb-1 small text-muted">{words}</div>\n  '
    played = ""
    if fighter.discards:
        many = len(fighter.discards)
        words = ngettext("Played: %(counter)s card", "Played: %(counter)s cards", many) % {"counter": many}
        played = (
            f'\n    <details class="mb-1 discards" id="played-{e(duel.number)}-{e(fighter.id)}"{unfolded}>\n'
            f'      <summary class="small">{words}</summary>\n'
            f'      <div class="d-flex flex-wrap gap-1">{"".join(chip(c) for c in fighter.discards)}'
            f"{more_played(ctx, fighter)}</div>\n    </details>\n  "
        )
    return (
        f'\n<div class="fighter" id="fighter-{e(fighter.id)}">\n'
        '  <div class="d-flex flex-wrap align-items-center gap-2 mb-1">\n'
        f'    <span class="fighter-name">{e(fighter.name)}</span>\n'
        f'    <span class="badge condition-badge {badge}"\n          data-condition="{e(fighter.condition)}">'
        f"{e(fighter.condition_label)}</span>\n"
        f"{'' if public else _condition_link(fighter)}"
        f"  </div>\n  {focus}\n  {hand}\n  {played}\n</div>\n"
    )


def _condition_link(fighter: Any) -> str:
    url = reverse("duels:condition", args=[fighter.id])
    return f'    <a class="small condition-link" href="{e(url)}">{t("record a condition change")}</a>\n'


for _builder in (
    fight_notes,
    fight_status,
    fight_log,
    duel_card,
    duel_mark,
    duel_head,
    duel_action,
    duel_fighter,
    duel_public_card,
):
    region_tag(register, _builder)
