"""The battle tablet's turn controls, actions in progress and reaction bar, written in Python (issue 24).

The ``battle-main`` region of templates/duels/battle/tablet.html as its
template rendered it (with duels/battle/_frames.html, _window_buttons.html
and _new_arsenal.html on the referee's side); compared with those templates
in tests/web/test_battle_regions_python.py.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext

from duels.templatetags.fight_cards import chip
from duels.templatetags.fight_forms import Ctx, action_form, bt, e, quick_reasons, rule, t

_ARSENALS = (
    "Before it starts, a combatant may take a prepared arsenal or build a new one from their pool (D3);"
    " the others keep their hands."
)


def battle_action(ctx: Ctx) -> str:
    view = ctx["view"]
    if view.phase == "between_rounds":
        body = _bout_break(ctx, view)
    elif not view.frames and view.turn_of:
        body = _turn(ctx, view)
    else:
        body = frames(ctx, view) + _go_on(ctx, view)
    if view.can_next_turn:
        body += (
            f"\n        {action_form(ctx, 'next_turn', form_class='mt-2')}\n"
            '          <fieldset><button type="submit" class="btn btn-success btn-huge" id="next-turn">'
            f"{t('Next turn')}</button></fieldset>\n        </form>\n      "
        )
    return body


def _bout_break(ctx: Ctx, view: Any) -> str:
    fit = [c for c in view.combatants if c.can_fight]
    selects = "".join(
        '\n                <select name="order" class="form-select form-select-lg w-auto"'
        f' aria-label="{bt("place %(n)s", n=place)}">\n                  '
        + "".join(
            f'<option value="{e(o.id)}"{" selected" if o.id == c.id else ""}>{number}. {e(o.name)}</option>'
            for number, o in enumerate(view.combatants, 1)
            if o.can_fight
        )
        + "\n                </select>\n              "
        for place, c in enumerate(view.combatants, 1)
        if c.can_fight
    )
    leaves = "".join(
        f"\n            {action_form(ctx, 'leave', form_class='d-inline')}"
        f'<input type="hidden" name="who" value="{e(c.id)}">\n'
        f'              <fieldset><button type="submit" class="btn btn-outline-secondary" id="leave-{e(c.id)}">'
        f"{bt('%(name)s leaves', name=c.name)}</button></fieldset>\n            </form>\n          "
        for c in fit
    )
    arsenals = "".join(_arsenal_choice(ctx, choice) for choice in ctx.get("round_break") or ())
    return (
        f"\n        {action_form(ctx, 'start_round')}\n          <fieldset>\n"
        f'            <p class="fs-5'
        f' mb-1">{t("The bout has ended (D11). Order of the next bout (tap to keep it, or reorder):")}</p>\n'
        f'            <div class="d-flex flex-wrap gap-2 mb-2">\n              {selects}\n            </div>\n'
        f'            <button type="submit" class="btn btn-primary btn-huge"'
        f' id="start-round">{t("Start the next bout")}</button>\n'
        "          </fieldset>\n        </form>\n"
        '        <div class="mt-2 d-flex flex-wrap gap-1 align-items-center" id="bout-break-leave">\n'
        f'          <span class="small text-muted">{t("Not ready to go on (D12):")}</span>\n          {leaves}\n    '
        f"    </div>\n"
        '        <div class="mt-2" id="round-break-arsenals">\n'
        f'          <p class="mb-1">{t(_ARSENALS)}</p>\n'
        f"          {arsenals}\n        </div>\n      "
    )


def _arsenal_choice(ctx: Ctx, choice: Any) -> str:
    c = choice.fighter
    prepared = (
        "".join(
            f'<button type="submit" name="prepared" value="{e(p.pk)}" class="btn btn-outline-primary">{e(p.name)}'
            f"</button>\n                "
            for p in choice.prepared
        )
        or f'\n                <span class="small text-muted">{t("no prepared arsenal")}</span>'
    )
    new = _new_arsenal(ctx, choice) if choice.pool else ""
    return (
        f"\n            {action_form(ctx, url=ctx.get('arsenal_url'), form_class='mb-1')}\n"
        f'              <fieldset class="d-flex flex-wrap gap-1 align-items-center"><strong'
        f' class="me-1">{e(c.name)}:</strong>\n'
        f"                {prepared}\n              </fieldset>\n            </form>\n            {new}\n          "
    )


def _new_arsenal(ctx: Ctx, choice: Any) -> str:
    c = choice.fighter
    rows = "".join(
        f'\n        <tr>\n          <td><label for="battle-pool-{e(c.id)}-{e(entry.card_id)}">{e(entry.card.name)}'
        f"</label>\n"
        f'            <span class="small text-muted">{e(entry.card.get_kind_display())}</span></td>\n'
        f'          <td class="w-25"><input type="number" class="form-control" min="0" max="{e(entry.copies)}"'
        f' value="0"\n'
        f'                     name="card_{e(entry.card_id)}" id="battle-pool-{e(c.id)}-{e(entry.card_id)}"></td>\n'
        f'          <td class="small text-muted">/ {e(entry.copies)}</td>\n        </tr>\n        '
        for entry in choice.pool
    )
    summary = ngettext(
        "Build a new arsenal for %(name)s (at most %(limit)s card)",
        "Build a new arsenal for %(name)s (at most %(limit)s cards)",
        choice.limit,
    ) % {"name": e(c.name), "limit": e(choice.limit)}
    return (
        f"\n{action_form(ctx, url=ctx.get('arsenal_url'), form_class='mb-2', form_id='new-arsenal-', id_suffix=c.id)}"
        f'<input type="hidden" name="fighter" value="{e(c.id)}">\n  <details>\n    <summary>{summary}</summary>\n'
        f'    <fieldset>\n      <table class="table table-sm table-tight mb-1">\n        {rows}\n      </table>\n'
        f'      <button type="submit" class="btn btn-primary'
        f' btn-lg">{bt("Take this new arsenal for %(name)s", name=c.name)}</button>\n'
        "    </fieldset>\n  </details>\n</form>\n"
    )


def _checks(name: str, people: Any, style: str) -> str:
    return "".join(
        f'\n                <input type="checkbox" class="btn-check" name="{name}" value="{e(c.id)}"'
        f' id="{name[:-1] if name == "targets" else name}-{e(c.id)}">\n'
        f'                <label class="btn {style}"'
        f' for="{name[:-1] if name == "targets" else name}-{e(c.id)}">{e(c.name)}</label>\n              '
        for c in people
    )


def _turn(ctx: Ctx, view: Any) -> str:
    actor = view.striker or view.turn_of
    striker = ""
    if view.striker:
        words = bt("%(name)s joined by attacking and strikes at once (BP4).", name=view.striker.name)
        striker = f'<p class="alert alert-warning mb-1" id="newcomer-strikes">{words}</p>'
    cards = "".join(
        f'\n                <input type="checkbox" class="btn-check" name="cards" value="{e(card.uid)}"'
        f' id="card-{e(card.uid)}">\n'
        f'                <label class="btn {"btn-outline-danger" if card.is_attack else "btn-outline-primary"}"'
        f' for="card-{e(card.uid)}">{e(card.name)}</label>\n              '
        for card in actor.hand or ()
    )
    # BP3: only who can still fight is offered as a target (the engine refuses the others).
    targets = _checks("targets", [c for c in view.combatants if c.id != actor.id and c.can_fight], "btn-outline-dark")
    engaged = _checks("engaged", [c for c in view.combatants if c.side != actor.side], "btn-outline-secondary")
    return (
        f"\n        \n        {striker}\n        {action_form(ctx, 'act', form_id='turn-form')}"
        f'<input type="hidden" name="who" value="{e(actor.id)}">\n          <fieldset>\n'
        f'            <h2 class="h5 mb-1">{bt("%(name)s's turn: cards, targets, then the action", name=actor.name)}'
        f"</h2>\n"
        f'            <div class="d-flex flex-wrap gap-1 mb-1" role="group" aria-label="{t("Cards")}">\n            '
        f"  {cards}\n            </div>\n"
        f'            <div class="d-flex flex-wrap gap-1 mb-1 align-items-center" role="group"'
        f' aria-label="{t("Targets")}">\n'
        f'              <span class="small text-muted">{t("Targets:")}</span>\n              {targets}\n            '
        f"</div>\n"
        f'            <div class="d-flex flex-wrap gap-1 mb-1 align-items-center" role="group"'
        f' aria-label="{t("Engaged with")}">\n'
        f'              <span class="small text-muted">{t("Next to (engaged with, R1):")}</span>\n             '
        f" {engaged}\n            </div>\n"
        '            <div class="d-flex flex-wrap gap-2">\n'
        f'              <button type="submit" name="act" value="attack" class="btn btn-danger btn-huge"'
        f' id="act-attack">{t("Attack")}</button>\n'
        f'              <button type="submit" name="act" value="move" class="btn btn-warning btn-huge"'
        f' id="act-move">{t("Leave engagement")}</button>\n'
        f'              <button type="submit" name="act" value="use" class="btn btn-primary btn-huge"'
        f' id="act-use">{t("Use the card")}</button>\n'
        f'              <button type="submit" name="act" value="pass" class="btn btn-outline-dark btn-huge"'
        f' id="act-pass">{t("Pass")}</button>\n'
        f'            </div>\n            <details class="mt-1"><summary>{t("Ready an action with a trigger (R4)")}'
        f"</summary>\n"
        '              <div class="d-flex flex-wrap gap-2 align-items-center">\n'
        f'                <input type="text" name="trigger" maxlength="200" class="form-control form-control-lg'
        f' w-auto" placeholder="{t("when …")}">\n'
        f'                <select name="mode" class="form-select form-select-lg w-auto"><option'
        f' value="interrupt">{t("as an interrupt")}</option>'
        f'<option value="response">{t("as a response")}</option></select>\n'
        f'                <button type="submit" name="act" value="ready" class="btn btn-outline-primary btn-lg"'
        f' id="act-ready">{t("Ready")}</button>\n'
        "              </div>\n            </details>\n          </fieldset>\n        </form>\n        \n      "
    )


def _go_on(ctx: Ctx, view: Any) -> str:
    top = view.top
    button = ""
    if top and not top.open_windows and not top.to_confirm and (top.role != "main" or not top.finished):
        words = t("Reaction over: go on") if top.finished else t("Go on")
        button = (
            f"{action_form(ctx, 'proceed')}"
            f'<input type="hidden" name="frame" value="{e(top.number)}">\n'
            f'              <fieldset><button type="submit" class="btn btn-primary btn-huge" id="go-on">{words}'
            f"</button></fieldset>\n"
            "            </form>"
        )
    return f'\n        <div class="d-flex flex-wrap gap-2">\n          {button}\n        </div>\n      '


def frames(ctx: Ctx, view: Any, *, referee: bool = True) -> str:
    """The actions in progress; ``referee``: the answer and result buttons and the rules' codes (else the
    spectators' and combatants' pages)."""
    return "".join(_frame(ctx, frame, referee) for frame in view.frames)


def _frame(ctx: Ctx, frame: Any, referee: bool) -> str:
    look = " border-primary border-3" if frame.on_top else " opacity-75"
    lost = " frame-lost" if frame.lost else ""
    targets = f" → {', '.join(e(x.name) for x in frame.targets)}" if frame.targets else ""
    parts = ""
    if frame.parts > 1:
        parts = bt("part %(done)s of %(total)s done", done=frame.parts_done, total=frame.parts)
    if frame.lost:
        badge = f'<span class="badge text-bg-danger">{t("negated: lost")}{" (R6)" if referee else ""}</span>'
    elif frame.finished:
        badge = f'<span class="badge text-bg-secondary">{t("done")}</span>'
    elif not frame.on_top:
        badge = (
            f'<span class="badge text-bg-warning">{t("waiting for the reaction")}{" (R3)" if referee else ""}</span>'
        )
    else:
        badge = ""
    trigger = f'<div class="small text-muted">{t("Trigger:")} {e(frame.trigger)}</div>' if frame.trigger else ""
    card = f'<div class="my-1 fs-5">{chip(frame.card)}</div>' if frame.card else ""
    windows = "".join(_window(ctx, frame, w, referee) for w in frame.windows)
    queued = "".join(
        f'\n    <div class="small border-top mt-1 pt-1">{t("Waiting response:")} {e(q.actor.name)} —'
        f" {e(q.act_label)}</div>\n  "
        for q in frame.queued
    )
    return (
        f'\n<div class="battle-frame border rounded p-2 mb-2{look}{lost}"\n'
        f'     id="frame-{e(frame.number)}" data-role="{e(frame.role)}"{" data-newest" if frame.on_top else ""}>\n'
        '  <div class="d-flex flex-wrap justify-content-between gap-2">\n'
        f'    <span class="fs-5"><strong>{e(frame.actor.name)}</strong>: {e(frame.role_label)} —'
        f" {e(frame.act_label)}{targets}</span>\n"
        f'    <span class="small">{parts}\n      {badge}</span>\n  </div>\n'
        f"  {trigger}\n  {card}\n  {windows}\n  {queued}\n</div>\n"
    )


def _window(ctx: Ctx, frame: Any, w: Any, referee: bool) -> str:
    if w.suspended:
        state = f'<span class="badge text-bg-warning">{t("paused")}</span>'
    elif not w.answered:
        label = "" if referee else f'<span class="countdown-label">{t("Seconds left to answer:")}</span> '
        look = "countdown countdown-answer" if referee else "countdown-inline fw-bold"
        state = (
            f'{label}<span class="{look}" data-deadline="{e(w.deadline_iso)}" role="timer"'
            f' aria-label="{t("Seconds left to answer")}"></span>'
        )
    elif w.answer_card:
        state = f"→ {chip(w.answer_card)}"
    else:
        state = f'→ <span class="text-muted">{t("no answer")}</span>'
    proposed = ""
    if w.answered and not w.outcome:
        proposed = (
            f'<span>{t("Proposed:")} <strong class="proposed" data-outcome="{e(w.proposed)}">'
            f"{e(w.proposed_label)}</strong></span>"
        )
    buttons = _window_buttons(ctx, frame, w) if referee and frame.on_top else ""
    return (
        f'\n    <div class="answer-window d-flex flex-wrap align-items-center gap-2 my-1"'
        f' data-defender="{e(w.defender.id)}">\n'
        f"      <strong>{e(w.defender.name)}</strong>\n      {state}\n      {proposed}\n      {buttons}\n    </div>\n  "
    )


def _window_buttons(ctx: Ctx, frame: Any, w: Any) -> str:
    hidden = (
        f'<input type="hidden" name="frame" value="{e(frame.number)}">'
        f'<input type="hidden" name="who" value="{e(w.defender.id)}">'
    )
    if not w.answered and not w.suspended:
        cards = "".join(
            f'<button type="submit" name="card" value="{e(card.uid)}" class="btn '
            f'{"btn-outline-danger" if card.is_attack else "btn-primary"} btn-lg answer-card">{e(card.name)}</button>'
            for card in w.defender.hand or ()
        )
        return (
            f"\n{action_form(ctx, 'answer', form_class='w-100')}{hidden}\n"
            f'  <fieldset class="d-flex flex-wrap gap-2">\n    {cards}\n'
            f'    <button type="submit" name="card" value="" class="btn btn-outline-dark btn-lg">{t("No answer")}'
            f"</button>\n"
            "  </fieldset>\n</form>\n"
        )
    if not (w.answered and not w.outcome):
        return ""
    who = f"{e(frame.number)}-{e(w.defender.id)}"
    outcomes = "".join(
        f'\n          <input type="radio" class="btn-check" name="outcome" value="{e(value)}"'
        f' id="outcome-{who}-{e(value)}" required>\n'
        f'          <label class="btn btn-outline-dark btn-lg" for="outcome-{who}-{e(value)}">{e(label)}</label>\n  '
        f"      "
        for value, label in ctx.get("outcomes") or ()
    )
    reasons = quick_reasons(
        ctx, "override-reason-", t("Another reason"), t("Override the result"), "btn-warning", w.defender.id
    )
    return (
        '\n<div class="d-flex flex-wrap gap-2 align-items-start w-100">\n'
        f"{action_form(ctx, 'confirm')}{hidden}\n"
        '  <fieldset><button type="submit" class="btn btn-success btn-lg confirm-result">'
        f"{bt('Confirm: %(outcome)s', outcome=w.proposed_label)}</button></fieldset>\n</form>\n\n"
        '<details class="override-box flex-grow-1">\n'
        f'  <summary class="btn btn-outline-dark btn-lg">{t("Override…")}</summary>\n  '
        f"{action_form(ctx, 'confirm', form_class='override-form border rounded p-2 mt-1')}{hidden}\n"
        f'    <fieldset>\n      <legend class="fs-6 mb-1">{t("Override: the result, then a reason")}</legend>\n'
        f'      <div class="btn-group mb-2 flex-wrap" role="group">\n        {outcomes}\n      </div>\n'
        f"      \n      \n      {reasons}\n    </fieldset>\n  </form>\n</details>\n</div>\n"
    )


def reaction_bar(ctx: Ctx) -> str:
    view = ctx["view"]
    if not view.reactions_on:
        words = bt("No reactions before round %(first)s (R0).", first=view.reactions_from)
        body = f'<p class="small text-muted">{words}</p>'
    elif not view.frames:
        body = f'<p class="small text-muted">{t("Reactions come when an action is under way.")}</p>'
    else:
        body = "".join(_reactor(ctx, view, r) for r in view.reactors if r.any_allowed) + _why_not(view)
    return (
        '<aside class="col-12 col-lg-4" id="reaction-bar">\n'
        f'      <h2 class="h6 mb-1">{t("Who may react now")}</h2>\n      {body}\n    </aside>'
    )


def _reactor(ctx: Ctx, view: Any, r: Any) -> str:
    forms = ""
    for o in r.options:
        if not o.allowed:
            continue
        frame = view.respond_frame if o.kind == "response" else view.top.number
        negates = ""
        if o.kind == "interrupt":
            negates = (
                f'<label class="small"><input type="checkbox" name="negates" value="1"> {t("negates (R6)")}</label>'
            )
        adjacent = ""
        if o.ask_adjacent:
            adjacent = (
                '<label class="small"><input type="checkbox" name="adjacent" value="1" required>'
                f" {t('next to them now (R1)')}</label>"
            )
        cards = "".join(
            f'<button type="submit" name="card" value="{e(card.uid)}" class="btn btn-outline-danger'
            f' reaction-card">{e(card.name)}</button>'
            for card in o.cards
        )
        readied = ""
        if o.kind != "opportunity" and r.combatant.readied:
            readied = (
                '<button type="submit" name="card" value="" class="btn btn-outline-secondary">'
                f"{t('readied action, no card')}</button>"
            )
        forms += (
            f"\n                {action_form(ctx, o.kind, form_class='reaction-form')}"
            f'<input type="hidden" name="who" value="{e(r.combatant.id)}">\n'
            f'                  <input type="hidden" name="frame" value="{e(frame)}">\n'
            '                  <fieldset class="d-flex flex-wrap gap-1 align-items-center">\n'
            f'                    <span class="small">{e(o.label)}:</span>\n                    {negates}\n'
            f"                    {adjacent}\n                    {cards}\n                    {readied}\n"
            "                  </fieldset>\n                </form>\n            "
        )
    return (
        f'\n          <div class="reactor border-bottom py-1" data-reactor="{e(r.combatant.id)}">\n'
        f"            <strong>{e(r.combatant.name)}</strong>\n            {forms}\n          </div>\n        "
    )


def _why_not(view: Any) -> str:
    # A dozen refusals a step cite a few rules and three kinds: each link and label once (issue 24).
    links: dict[str, str] = {}
    labels: dict[str, str] = {}

    def link(code: str) -> str:
        if code not in links:
            links[code] = rule(code)
        return links[code]

    def label(o: Any) -> str:
        if o.kind not in labels:
            labels[o.kind] = e(o.label)
        return labels[o.kind]

    rows = ""
    for r in view.reactors:
        head = (
            f'\n<div class="reactor reactor-why-not small py-1" data-reactor="{e(r.combatant.id)}">'
            f"<strong>{e(r.combatant.name)}</strong>\n"
        )
        if r.one_reason:
            why = f"✗ {e(r.one_reason.why_not)} {link(r.one_reason.rule)}"
            rows += f'{head}<span class="reaction-refused" data-kind="all">{why}</span></div>\n'
        else:
            rows += "".join(
                f'{head}<span class="reaction-refused" data-kind="{e(o.kind)}">✗ {label(o)}: {e(o.why_not)}'
                f" {link(o.rule)}</span></div>\n"
                for o in r.options
                if not o.allowed
            )
    return (
        '\n        <details class="mt-1 reactions-why-not" id="reactions-why-not">\n'
        f'          <summary class="small">{t("Why not the others")}</summary>\n          {rows}\n        '
        f"</details>\n      "
    )
