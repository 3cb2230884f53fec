"""The mass battle tablet's stage controls, written in Python (issue 24).

The ``mass-action`` region of templates/duels/mass/tablet.html with
duels/mass/_pending.html and _card.html, as those templates rendered them;
compared with them in tests/web/test_mass_regions_python.py.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from duels.templatetags.fight_forms import Ctx, action_form, bt, e, t


def magic_card(card: Any) -> str:
    """One magic card, face up (its template was duels/mass/_card.html: tests/web/regions_reference/mass_card.html)."""
    kind = e(card.magic_type)
    protected = ""
    if card.acts_on_protected:
        protected = (
            f'<span class="badge text-bg-warning" data-acts-on-protected>{t("acts on protected warriors too")}</span>'
        )
    keepable = f'<span class="badge text-bg-info">{t("use when you see fit")}</span>' if card.keepable else ""
    text = f'<div class="fs-5 mt-1 magic-card-text">{e(card.text)}</div>' if card.text else ""
    return (
        f'\n<div class="card-face magic-card magic-{kind}" data-card="{e(card.uid)}">\n'
        '  <div class="d-flex flex-wrap justify-content-between gap-2">\n'
        f'    <strong class="fs-4 magic-card-name">{e(card.name)}</strong>\n    <span>\n'
        f'      <span class="badge magic-type-badge magic-{kind}">{e(card.type_label)}</span>\n      {protected}\n'
        f'      <span class="badge text-bg-dark">{bt("deck %(deck)s", deck=card.deck)}</span>\n'
        f'      <span class="badge text-bg-light border">№ {e(card.card_id)}</span>\n      {keepable}\n'
        f"    </span>\n  </div>\n  {text}\n</div>\n"
    )


def mass_action(ctx: Ctx) -> str:
    view = ctx["view"]
    if view.ended:
        export = reverse("duels:export", args=[ctx["situation"].pk])
        body = (
            f'\n        <div class="alert alert-secondary fs-5 mb-0">{t("This mass battle is over.")}\n'
            f'          <a class="btn btn-outline-dark ms-2" href="{e(export)}">{t("Download the record (JSON)")}'
            f"</a></div>\n      "
        )
    elif view.stage == "initiative":
        body = _initiative(ctx, view)
    elif view.stage == "choose":
        body = _choose(ctx, view)
    elif view.stage == "turns":
        body = _turns(ctx, view)
    elif view.stage == "over":
        body = _over(ctx, view)
    else:
        body = ""
    return (
        '<section class="card mb-3" id="mass-action" data-newest><div class="card-body">\n'
        f"      {body}\n      </div></section>"
    )


def _initiative(ctx: Ctx, view: Any) -> str:
    undone = ctx.get("undone_roll")
    said = ""
    if undone:
        words = bt(
            "The undone roll was %(a)s %(da)s — %(b)s %(db)s. Rolling again keeps these dice; enter real dice only"
            " as they lie on the table (M4).",
            a=view.sides["a"].name,
            da=undone.a,
            b=view.sides["b"].name,
            db=undone.b,
        )
        said = f'<div class="alert alert-info fs-5" id="undone-roll">{words}</div>'
    dice = "".join(
        f'\n              <div class="d-flex flex-wrap align-items-center gap-1 mb-2" role="group"'
        f' aria-label="{e(side.name)}">\n'
        f'                <span class="fw-bold me-2 dice-side">{e(side.name)}</span>\n                '
        + "".join(
            f'\n                  <input type="radio" class="btn-check" name="dice_{e(key)}" id="dice-{e(key)}-{n}"'
            f' value="{n}" required>\n'
            f'                  <label class="btn btn-outline-dark fs-4 px-3" for="dice-{e(key)}-{n}">{n}</label>\n '
            f"               "
            for n in "123456"
        )
        + "\n              </div>\n            "
        for key, side in view.sides.items()
    )
    return (
        f'\n        <h2 class="h4">{t("Initiative: each side rolls one die (M4)")}</h2>\n        {said}\n'
        f"        {action_form(ctx, 'roll_server', form_class='mb-3')}\n"
        f'          <fieldset><button type="submit" class="btn btn-primary btn-huge"'
        f' id="roll-server">{t("Roll both dice (server)")}</button></fieldset>\n'
        f"        </form>\n        {action_form(ctx, 'roll_entered', form_id='roll-entered')}\n          <fieldset>\n"
        f'            <p class="mb-1">{t("…or enter real dice (M8):")}</p>\n            {dice}\n'
        f'            <button type="submit" class="btn btn-outline-primary btn-huge">{t("Enter the dice")}</button>\n'
        "          </fieldset>\n        </form>\n      "
    )


def _choose(ctx: Ctx, view: Any) -> str:
    winner = bt("%(name)s won the initiative: who starts? (M4)", name=view.sides_winner_name)
    return (
        f'\n        <h2 class="h4">{winner}</h2>\n        {action_form(ctx, "choose")}\n'
        f'          <input type="hidden" name="side" value="{e(view.winner)}">\n'
        '          <fieldset class="d-flex flex-wrap gap-2">\n'
        '            <button type="submit" name="starts" value="yes" class="btn btn-primary btn-huge"'
        ' id="winner-starts">'
        f"{bt('%(name)s starts', name=view.sides_winner_name)}</button>\n"
        '            <button type="submit" name="starts" value="no" class="btn btn-outline-primary btn-huge"'
        ' id="other-starts">'
        f"{bt('%(name)s starts', name=view.sides_loser_name)}</button>\n          </fieldset>\n        </form>\n      "
    )


def _use_kept(ctx: Ctx, key: Any, card: Any, words: str) -> str:
    return (
        f"\n            {action_form(ctx, 'use_kept', form_class='mt-2 use-kept')}\n"
        f'              <input type="hidden" name="side" value="{e(key)}">\n'
        f'              <fieldset><button type="submit" name="uid" value="{e(card.uid)}" class="btn btn-info btn-huge">'
        f"{words}</button></fieldset>\n            </form>\n          "
    )


def _turns(ctx: Ctx, view: Any) -> str:
    side = view.turn_side
    if view.pending_side:
        body = pending(ctx, view, side)
    elif not view.points_used:
        body = (
            f"\n          {action_form(ctx, 'points', form_id='points-form')}\n"
            f'            <input type="hidden" name="side" value="{e(side.key)}">\n'
            f'            <fieldset class="d-flex flex-wrap gap-2">\n            {_points(view, side)}\n'
            "            </fieldset>\n          </form>\n        "
        )
    else:
        body = (
            f"\n          {action_form(ctx, 'end_turn')}\n"
            f'            <input type="hidden" name="side" value="{e(side.key)}">\n'
            '            <fieldset><button type="submit" class="btn btn-primary btn-huge" id="end-turn">'
            f"{bt("End %(name)s's turn", name=side.name)}</button></fieldset>\n          </form>\n        "
        )
    kept = ""
    if not view.pending_side:
        kept = "".join(
            _use_kept(ctx, side.key, card, bt("Use the kept card «%(name)s»", name=card.name))
            for card, _cycle, usable in side.kept or ()
            if usable
        )
    head = bt("%(name)s: %(points)s magic points", name=side.name, points=side.points)
    return (
        f'\n        <h2 class="h4">{head}</h2>\n'
        f'        <p class="fs-5 mb-2" id="points-meaning">{e(side.points_label)}</p>\n        {body}\n       '
        f" {kept}\n      "
    )


def _points(view: Any, side: Any) -> str:
    use = side.points_use
    if use in ("dies", "returns"):
        buttons = "".join(
            f'\n                <button type="submit" name="warrior" value="{e(w.wid)}" class="btn '
            f'{"btn-dark" if use == "dies" else "btn-success"} btn-huge">\n                  '
            f"{bt('%(name)s dies', name=w.name) if use == 'dies' else bt('%(name)s returns', name=w.name)}"
            f"</button>\n              "
            for w in side.hospital
        )
        return buttons or (
            f'\n                <button type="submit" class="btn btn-secondary'
            f' btn-huge">{t("The hospital is empty: nothing happens")}</button>\n              '
        )
    if view.printed:
        record = bt(
            "Record the card drawn from the real deck %(deck)s: tap it, type its number or scan its QR code.",
            deck=side.points,
        )
        drawable = "".join(
            f'\n                <button type="submit" name="card" value="{e(card.card_id)}" class="btn'
            f' btn-outline-primary btn-lg drawn-card">'
            f"№ {e(card.card_id)} «{e(card.name)}»</button>\n              "
            for card in view.drawable
        )
        decline = ""
        if use == "may_draw":
            decline = (
                '<button type="submit" name="take" value="no" class="btn btn-outline-secondary btn-huge" id="decline">'
                f"{t('Do not draw')}</button>"
            )
        return (
            f'\n              \n              <div class="w-100 fw-bold">{record}</div>\n              {drawable}\n'
            '              <div class="input-group input-group-lg w-auto">\n'
            '                <input type="text" name="card_entry" id="card-entry" class="form-control" maxlength="300"'
            f' inputmode="text" autocomplete="off" placeholder="{t("number or QR code")}"'
            f' aria-label="{t("number or QR code")}">\n'
            f'                <button type="submit" class="btn btn-primary" id="record-card">{t("Record this card")}'
            f"</button>\n"
            f"              </div>\n              {decline}\n            "
        )
    if use == "draw":
        return (
            '\n              <button type="submit" class="btn btn-primary btn-huge" id="draw">'
            f"{t('Draw from deck 2')}</button>\n            "
        )
    return (
        '\n              <button type="submit" name="take" value="yes" class="btn btn-primary btn-huge" id="draw">'
        f"{bt('Draw from deck %(deck)s', deck=side.points)}</button>\n"
        '              <button type="submit" name="take" value="no" class="btn btn-outline-secondary btn-huge"'
        ' id="decline">'
        f"{t('Do not draw')}</button>\n            "
    )


_CASUALTIES = (
    "Record the battle's casualties on the warriors' lists (to hospital, dead or back), then start the next cycle."
)


def _over(ctx: Ctx, view: Any) -> str:
    head = f'\n        <h2 class="h4">{t("The magic phase is over")}</h2>\n        '
    if view.pending_side:
        return head + pending(ctx, view, view.pending_turn_side)
    kept = "".join(
        _use_kept(ctx, key, card, bt("%(side)s uses the kept card «%(name)s»", name=card.name, side=s.name))
        for key, s in view.sides.items()
        for card, _cycle, usable in s.kept or ()
        if usable
    )
    return (
        f"{head}\n        <p>{t(_CASUALTIES)}</p>\n"
        f"        {action_form(ctx, 'next_cycle')}\n"
        '          <fieldset><button type="submit" class="btn btn-primary btn-huge" id="next-cycle">'
        f"{bt('Start cycle %(cycle)s', cycle=view.cycle + 1)}</button></fieldset>\n        </form>\n        {kept}\n"
        f"      "
    )


def pending(ctx: Ctx, view: Any, side: Any) -> str:
    """duels/mass/_pending.html: the card being carried out and whom it acts on."""
    source = t("Kept card in use") if view.from_kept else t("Drawn card")
    keep = ""
    if view.may_keep:
        keep = (
            f"\n  {action_form(ctx, 'keep', form_class='mb-3')}\n"
            f'    <input type="hidden" name="side" value="{e(side.key)}">\n'
            f'    <fieldset><button type="submit" class="btn btn-info btn-huge"'
            f' id="keep-card">{t("Keep it for a later cycle")}</button></fieldset>\n'
            "  </form>\n"
        )
    protected = bt("protected from %(type)s: not affected", type=view.pending.type_label)
    sides = "".join(
        '\n      <div class="mb-1 targets-side d-flex flex-wrap gap-1 align-items-stretch">\n'
        f'        <input type="radio" class="btn-check" name="target_side" id="whole-{e(key)}" value="{e(key)}">\n'
        f'        <label class="btn btn-outline-primary"'
        f' for="whole-{e(key)}">{bt("All of %(name)s on the field", name=s.name)}</label>\n        '
        + "".join(
            f'\n          <input type="checkbox" class="btn-check" name="targets" id="target-{e(w.wid)}"'
            f' value="{e(w.wid)}">\n'
            f'          <label class="btn flex-column'
            f' {"btn-outline-secondary target-protected" if w.protected else "btn-outline-dark"}"'
            f' for="target-{e(w.wid)}" data-warrior="{e(w.wid)}">\n            {e(w.name)}'
            f"{f'<span class="d-block small">{protected}</span>' if w.protected else ''}</label>\n        "
            for w in s.alive
        )
        + "\n      </div>\n    "
        for key, s in view.sides.items()
    )
    return (
        f'\n<div id="pending-card" class="mb-3">\n  <div class="small text-muted">{source}</div>\n '
        f" {magic_card(view.pending)}\n</div>\n"
        f"{keep}\n{action_form(ctx, 'carry_out', form_id='carry-out')}\n"
        f'  <input type="hidden" name="side" value="{e(side.key)}">\n  <fieldset>\n'
        f'    <p class="mb-1 fw-bold">{t("Whom does it act on? Tap the warriors, or a whole side.")}</p>\n'
        '    <div class="d-flex flex-wrap gap-1 mb-1">\n'
        '      <input type="radio" class="btn-check" name="target_side" id="whole-none" value="" checked>\n'
        f'      <label class="btn btn-outline-primary" for="whole-none">{t("only the warriors tapped")}</label>\n   '
        f" </div>\n"
        f'    {sides}\n    <p class="mb-1 mt-2 fw-bold">{t("Where does the card send them?")}</p>\n'
        '    <div class="d-flex flex-wrap gap-1 align-items-center">\n'
        '      <input type="radio" class="btn-check" name="move_to" id="move-none" value="" checked>'
        f'<label class="btn btn-outline-dark" for="move-none">{t("nowhere")}</label>\n'
        '      <input type="radio" class="btn-check" name="move_to" id="move-hospital" value="hospital">'
        f'<label class="btn btn-outline-hospital" for="move-hospital">{t("to hospital")}</label>\n'
        '      <input type="radio" class="btn-check" name="move_to" id="move-dead" value="dead">'
        f'<label class="btn btn-outline-dark" for="move-dead">{t("dead")}</label>\n'
        '      <input type="radio" class="btn-check" name="move_to" id="move-field" value="field">'
        f'<label class="btn btn-outline-success" for="move-field">{t("back to the field")}</label>\n'
        f'      <button type="submit" class="btn btn-danger btn-huge ms-auto"'
        f' id="carry-out-button">{t("Carry it out")}</button>\n'
        "    </div>\n  </fieldset>\n</form>\n"
    )
