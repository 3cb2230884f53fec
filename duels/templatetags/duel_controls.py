"""The referee's controls of one duel's phase, written in Python (issue 24): duels/duel/_controls.html and
_round_choice.html as they rendered (kept in tests/web/regions_reference/ and compared)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from duels.templatetags.fight_cards import card_buttons, chip
from duels.templatetags.fight_forms import Ctx, action_form, bt, e, quick_reasons, rule, t


def controls(ctx: Ctx, duel: Any) -> str:
    phase = duel.phase
    if phase == "await_attack":
        return _attack(ctx, duel)
    if phase == "await_answer":
        return _answer(ctx, duel)
    if phase == "await_result":
        return _result(ctx, duel)
    if phase == "between_rounds":
        return _between(ctx, duel)
    again = ""
    if not ctx["view"].ended:
        start = reverse("duels:start", args=[ctx["event"].pk])
        again = (
            f'\n    <a class="btn btn-outline-primary btn-lg" href="{e(start)}?a={e(duel.a.id)}&amp;b={e(duel.b.id)}">'
            f"{t('Start another fight between them')}</a>\n  "
        )
    reason = f" — {e(duel.end_reason)}" if duel.end_reason else ""
    return (
        f'\n\n  <p class="fs-4 mb-1 duel-result">{t("The duel has ended:")} <strong>{e(duel.result_label)}</strong>'
        f"{reason}</p>\n  {again}\n\n"
    )


def _attack(ctx: Ctx, duel: Any) -> str:
    return (
        f'\n  <h2 class="h5">{bt("%(name)s attacks: which card is shown?", name=duel.attacker.name)} {rule("D6")}'
        f"</h2>\n  "
        f"{action_form(ctx, 'attack', duel=duel)}\n"
        f'    <input type="hidden" name="fighter" value="{e(duel.attacker.id)}">\n'
        f'    <fieldset class="d-flex flex-wrap gap-2">\n     '
        f" {card_buttons(duel.attacker.attack_cards, 'btn-danger')}\n"
        "    </fieldset>\n  </form>\n\n"
    )


def _answer(ctx: Ctx, duel: Any) -> str:
    step = duel.step
    deadline = e(step.deadline_iso)
    return (
        '\n  <div class="answer-window d-flex flex-wrap align-items-center gap-3 mb-1">\n    <div'
        ' class="flex-grow-1">\n'
        f'      <div class="small text-muted">{bt("%(name)s shows", name=step.attacker.name)}</div>\n'
        f'      <div class="fs-4">{chip(step.attack_card)}</div>\n    </div>\n    <div class="text-center">\n'
        f'      <div class="small text-muted">{t("Seconds left to answer")} {rule("D8")}</div>\n'
        f'      <div class="countdown countdown-answer" data-deadline="{deadline}" role="timer"></div>\n'
        "    </div>\n  </div>\n"
        f'  <h2 class="h5">{bt("%(name)s answers with…", name=step.defender.name)} {rule("D7")}</h2>\n  '
        f"{action_form(ctx, 'answer', form_class='answer-form', duel=duel)}\n"
        f'    <input type="hidden" name="fighter" value="{e(step.defender.id)}">\n'
        f'    <fieldset class="d-flex flex-wrap gap-2" data-closes="{deadline}"'
        f' data-signal-key="{e(duel.number)}-{e(len(duel.records))}"\n'
        f'              data-closed-text="{t("Time is up: the attack takes full effect (D8).")}">\n'
        f"      {card_buttons(step.defender.hand)}\n"
        f'      <button type="submit" name="card" value="" class="btn btn-outline-dark btn-huge">{t("No answer")}'
        f"</button>\n"
        "    </fieldset>\n  </form>\n\n"
    )


def _answer_by(step: Any) -> str:
    if step.answer_card:
        by = ""
        if step.instant:
            if step.answer_by == "focus":
                how = f"{t('the focused card answers')} {rule('F1')}"
            elif step.answer_by == "real_cards":
                how = f"{t('drawn from the real cards')} {rule('IA3')}"
            else:
                how = f"{t('drawn blind')} {rule('IA3')}"
            by = f'<span class="small text-muted answer-by" data-answer-by="{e(step.answer_by)}">{how}</span>'
        return f"\n      {chip(step.answer_card)}\n      {by}\n    "
    if step.answer_by == "declined":
        return (
            '\n      <span class="text-muted answer-by" data-answer-by="declined">'
            f"{t('the victim does not try to parry')} {rule('IA3')}</span>\n    "
        )
    return f'\n      <span class="text-muted">{t("no answer")}</span>\n    '


def _result(ctx: Ctx, duel: Any) -> str:
    step = duel.step
    n = e(duel.number)
    outcomes = "".join(
        f'\n            <input type="radio" class="btn-check" name="outcome" value="{e(value)}"'
        f' id="outcome-{n}-{e(value)}" required>\n'
        f'            <label class="btn btn-outline-dark btn-lg" for="outcome-{n}-{e(value)}">{e(label)}</label>\n  '
        f"        "
        for value, label in ctx.get("outcomes") or ()
    )
    reasons = quick_reasons(ctx, "reason-", t("Another reason"), t("Override the result"), "btn-warning", duel.number)
    return (
        '\n  <div class="d-flex flex-wrap align-items-center gap-3 mb-1 fs-5">\n'
        f"    {chip(step.attack_card)}\n    <span>→</span>\n    {_answer_by(step)}\n"
        f'    <span class="ms-2">{t("Proposed result:")} <strong class="proposed" data-outcome="{e(step.proposed)}">'
        f"{e(step.proposed_label)}</strong> {rule('CR2')}</span>\n  </div>\n"
        '  <div class="d-flex flex-wrap flex-lg-nowrap gap-2 align-items-start">\n    '
        f"{action_form(ctx, 'confirm', duel=duel)}\n"
        '      <fieldset><button type="submit" class="btn btn-success btn-huge">'
        f"{bt('Confirm: %(outcome)s', outcome=step.proposed_label)}</button></fieldset>\n    </form>\n    "
        f"{action_form(ctx, 'override', form_class='override-form border rounded p-2 flex-grow-1', duel=duel)}\n"
        f'      <fieldset>\n        <legend class="fs-6 mb-1">{t("Override: the result, then a reason")}</legend>\n'
        f'        <div class="btn-group mb-2 flex-wrap" role="group">\n          {outcomes}\n        </div>\n'
        f"        \n        {reasons}\n      </fieldset>\n    </form>\n  </div>\n\n"
    )


def _between(ctx: Ctx, duel: Any) -> str:
    forms = "".join(
        '\n    <div class="col-lg-6">\n      '
        f"{action_form(ctx, 'round_choice', form_class='round-choice border rounded p-2', duel=duel, round_choice=c)}\n"
        f'        <input type="hidden" name="fighter" value="{e(c.fighter.id)}">\n        {_round_choice(duel, c)}\n'
        "      </form>\n    </div>\n    "
        for c in duel.choices
    )
    head = bt("Bout %(round)s has ended. Does each fighter go on?", round=duel.round)
    return (
        f'\n  <h2 class="h5">{head} {rule("D12")} {rule("D3")}</h2>\n  <div class="row g-2">\n    {forms}\n  </div>\n\n'
    )


def _checked(on: bool) -> str:
    return "checked" if on else ""


def _round_choice(duel: Any, choice: Any) -> str:
    fighter = choice.fighter
    who = f"{e(duel.number)}-{e(fighter.id)}"
    badge = ""
    if choice.chosen:
        if choice.go_on:
            arsenal = ""
            if choice.new_arsenal:
                if choice.label:
                    arsenal = " · " + bt("prepared arsenal “%(name)s”", name=choice.label)
                else:
                    arsenal = " · " + t("newly built arsenal")
            said = t("goes on") + arsenal
        else:
            said = t("stops")
        badge = f'<span class="badge text-bg-info">{said}</span>'
    yes = "disabled" if not fighter.can_fight else _checked(not choice.chosen or choice.go_on)
    no = _checked(not fighter.can_fight or (choice.chosen and not choice.go_on))
    prepared = "".join(
        '\n    <div class="form-check">\n'
        f'      <input class="form-check-input" type="radio" name="arsenal" value="prepared-{e(p.pk)}"'
        f' id="ars-{who}-p{e(p.pk)}" {_checked(choice.picked == p.pk)}>\n'
        f'      <label class="form-check-label" for="ars-{who}-p{e(p.pk)}">'
        f"{bt('Prepared arsenal “%(name)s”', name=p.name)}</label>\n    </div>\n    "
        for p in choice.prepared or ()
    )
    pool = ""
    if choice.pool:
        rows = "".join(
            f'\n        <tr>\n          <td><label for="pool-{who}-{e(entry.card_id)}">{e(entry.card.name)}</label>\n'
            f'            <span class="small text-muted">{e(entry.card.get_kind_display())}</span></td>\n'
            f'          <td class="w-25"><input type="number" class="form-control" min="0" max="{e(entry.copies)}"'
            f' value="0"\n                     name="card_{e(entry.card_id)}" id="pool-{who}-{e(entry.card_id)}">'
            f"</td>\n"
            f'          <td class="small text-muted">/ {e(entry.copies)}</td>\n        </tr>\n        '
            for entry in choice.pool
        )
        pool = (
            '\n    <div class="form-check">\n'
            f'      <input class="form-check-input" type="radio" name="arsenal" value="new" id="ars-{who}-new"'
            f" {_checked(choice.picked == 'new')}>\n"
            f'      <label class="form-check-label" for="ars-{who}-new">{t("Build a new arsenal")}</label>\n    '
            f"</div>\n"
            f'    <details class="mt-1" id="pool-{who}">\n'
            f"      <summary>{bt('Choose the cards (at most %(limit)s)', limit=choice.limit)}</summary>\n"
            f'      <table class="table table-sm table-tight mb-0">\n        {rows}\n      </table>\n    '
            f"</details>\n    "
        )
    return (
        f'\n<fieldset>\n  <legend class="fs-5">{e(fighter.name)}\n    {badge}\n  </legend>\n'
        '  <div class="btn-group mb-2" role="group">\n'
        f'    <input type="radio" class="btn-check" name="go_on" value="yes" id="go-{who}-yes" {yes}>\n'
        f'    <label class="btn btn-outline-success btn-lg" for="go-{who}-yes">{t("Goes on")}</label>\n'
        f'    <input type="radio" class="btn-check" name="go_on" value="no" id="go-{who}-no" {no}>\n'
        f'    <label class="btn btn-outline-danger btn-lg" for="go-{who}-no">{t("Stops")}</label>\n  </div>\n'
        '  <div class="mb-2">\n    <div class="form-check">\n'
        f'      <input class="form-check-input" type="radio" name="arsenal" value="keep" id="ars-{who}-keep"'
        f" {_checked(choice.picked == 'keep')}>\n"
        f'      <label class="form-check-label" for="ars-{who}-keep">{t("Keep the hand")}</label>\n    </div>\n'
        f"    {prepared}\n    {pool}\n  </div>\n"
        '  <button type="submit" class="btn btn-primary btn-lg">'
        f"{bt('Save the choice of %(name)s', name=fighter.name)}</button>\n</fieldset>"
    )
