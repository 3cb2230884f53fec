"""The pieces every kind's tablet regions share, written in Python (issue 24).

A step's answer is the tablet's regions (duels/web/oob.py); as Django
templates they were ~30 % of a step's CPU. Each kind writes its regions in
its own module (``duel_regions``, ``battle_regions``, ``mass_regions``) from
these pieces: the opening of every state-changing form (what
``duels/_action_form.html`` rendered), the one-tap reasons, an alert, the log
list and the live part's mark. The markup is the templates' own, checked
against them (tests/web/regions_reference/, tests/web/test_regions_python.py).

A region builder takes one mapping, the tablet's context: the full page's
template context (a template tag with ``takes_context``) or the step
answer's plain dict (duels/web/oob.py). What a template resolved as missing
is empty here too (``ctx.get``).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext

from cards.rule_links import rule_link
from duels.templatetags.fight_log import log_items

register = template.Library()

Ctx = Mapping[str, Any]
Builder = Callable[[Ctx], str]


def e(value: Any) -> str:
    """``{{ value }}``: escaped as ``conditional_escape`` does (a number as is, safe text untouched).

    The regions call this a few hundred times a step: Django's ``escape`` goes through
    ``keep_lazy``'s wrapper each time, ``html.escape`` is the same escaping without it.
    """
    if type(value) is int:
        return str(value)
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return html.escape(str(value))


_WORDS: dict[tuple[str | None, str], str] = {}


def t(message: str) -> str:
    """``{% translate "..." %}``: translated; a template's literal is safe, and so is its translation (not escaped).

    Kept per language and message for the process (a catalogue is loaded once, at start).
    """
    key = (get_language(), message)
    word = _WORDS.get(key)
    if word is None:
        word = _WORDS[key] = gettext(message)
    return word


def bt(message: str, **values: Any) -> str:
    """``{% blocktranslate with name=... %}``: the translation as written, the values escaped."""
    return gettext(message) % {k: conditional_escape(v) for k, v in values.items()}


def rule(code: Any) -> str:
    """``{% rule_link code %}``."""
    return str(rule_link(code))


def nonce(ctx: Ctx) -> str:
    """``{{ new_nonce }}``: a fresh one-time token for one form (a mark, in a shared fragment)."""
    made = ctx.get("new_nonce")
    return e(made() if callable(made) else made)


def csrf_input(ctx: Ctx) -> str:
    """``{% csrf_token %}``."""
    token = ctx.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{e(token)}">'


def action_form(
    ctx: Ctx,
    action: str = "",
    *,
    url: str | None = None,
    form_class: str = "",
    form_id: str = "",
    id_suffix: Any = "",
    duel: Any = None,
    round_choice: Any = None,
) -> str:
    """``{% include "duels/_action_form.html" %}``: the form's opening and the fields every command carries."""
    live = e(ctx.get("live_id") or "fight")
    post_to = e(url or ctx.get("act_url") or "")
    if round_choice:
        form_ident = f' id="choice-{e(duel.number)}-{e(round_choice.fighter.id)}"'
    elif form_id:
        form_ident = f' id="{e(form_id)}{e(id_suffix)}"'
    else:
        form_ident = ""
    data_action = f' data-action="{e(action)}"' if action else ""
    hidden_action = f'\n<input type="hidden" name="action" value="{e(action)}">' if action else ""
    hidden_duel = f'\n<input type="hidden" name="duel" value="{e(duel.number)}">' if duel else ""
    return (
        f'<form method="post" action="{post_to}" hx-post="{post_to}" hx-target="#{live}" hx-swap="outerHTML"\n'
        f'      hx-disabled-elt="find fieldset" hx-sync="#{live}:replace" data-keep-tap'
        f' class="action-form {e(form_class)}"{form_ident}{data_action}>\n'
        f"{csrf_input(ctx)}\n"
        f'<input type="hidden" name="version" value="{e(ctx.get("version", ""))}">\n'
        f'<input type="hidden" name="nonce" value="{nonce(ctx)}">{hidden_action}{hidden_duel}\n'
    )


def quick_reasons(
    ctx: Ctx, field_id: str, placeholder: str, submit_label: str, submit_class: str, field_suffix: Any = ""
) -> str:
    """``{% include "duels/_quick_reasons.html" %}``; ``placeholder`` and ``submit_label`` already escaped."""
    buttons = "".join(
        f'\n    <button type="submit" formnovalidate name="quick_reason" value="{e(r)}"'
        f' class="btn btn-outline-dark quick-reason">{e(r)}</button>\n  '
        for r in ctx.get("reasons") or ()
    )
    field = f"{e(field_id)}{e(field_suffix)}"
    return (
        f'\n<div class="quick-reasons d-flex flex-wrap gap-2 mb-2" role="group" aria-label="{t("Quick reasons")}">\n'
        f"  {buttons}\n</div>\n"
        '<div class="d-flex flex-wrap gap-2">\n'
        f'  <label class="visually-hidden" for="{field}">{placeholder}</label>\n'
        f'  <input type="text" class="form-control form-control-lg w-auto flex-grow-1" name="reason" id="{field}"'
        f' required maxlength="500"\n         placeholder="{placeholder}">\n'
        f'  <button type="submit" class="btn {e(submit_class)} btn-lg reason-submit">{submit_label}</button>\n'
        "</div>\n"
    )


def alert_box(alert: Any, alert_id: str = "", show_rules: bool = False) -> str:
    """``{% include "duels/_alert.html" %}``."""
    rule_part = f" {rule(alert.rule)}" if show_rules and alert.rule else ""
    return (
        f'\n<div class="alert alert-{e(alert.level)} fs-5" role="alert" id="{e(alert_id or "fight-alert")}">'
        f"{e(alert.text)}{rule_part}</div>\n"
    )


def log_list(ctx: Ctx) -> str:
    """``{% include "duels/_log.html" %}``: the newest log lines."""
    return f'\n<ol class="list-unstyled log-lines mb-0">\n  {log_items(ctx.get("log_lines"))}\n</ol>\n'


def live_mark(ctx: Ctx) -> str:
    """``duels/_live_mark.html``: what the live root carries, for sumrak.js to copy onto it."""
    marks = "".join(f' data-{e(name)}="{e(value)}"' for name, value in ctx.get("live_marks") or ())
    return (
        f'<span hidden id="{e(ctx.get("live_id") or "fight")}-mark" data-live-mark data-etag="{e(ctx.get("etag", ""))}"'
        f' data-server-now="{e(ctx.get("server_now", ""))}" data-version="{e(ctx.get("version", ""))}"{marks}></span>'
    )


def more_played(ctx: Ctx, fighter: Any) -> str:
    """``duels/duel/_more_played.html``: live parts show the newest played cards; a link to the record for the rest."""
    hidden = getattr(fighter, "discards_hidden", 0)
    if not hidden:
        return ""
    link = reverse("duels:record", args=[ctx["situation"].pk])
    words = ngettext("and %(counter)s more", "and %(counter)s more", hidden) % {"counter": hidden}
    return f'<a class="small record-link align-self-center" href="{e(link)}">{words}</a>'


def joined(items: Iterable[Any], sep: str = ", ") -> str:
    """``{{ items|join:", " }}``: each item escaped."""
    return sep.join(e(i) for i in items)


def region_tag(library: template.Library, builder: Builder, name: str = "") -> Builder:
    """Register ``builder`` as ``{% name key=value %}``: a region written in Python inside the full page's template.

    The keywords are pushed on the template's context for the builder (a duel, a fighter, a side).
    """

    def tag(context: Any, **extra: Any) -> SafeString:
        if extra:
            with context.push(**extra):
                return mark_safe(builder(context))  # the builders escape every value
        return mark_safe(builder(context))  # the builders escape every value

    library.simple_tag(takes_context=True, name=name or builder.__name__)(tag)
    return builder
