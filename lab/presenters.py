"""What the lab and report pages show: names instead of ids, shares as percents, charts, downloads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import tablib
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.models import CounterRule
from cards.words import card_names
from events.models import Character, Event
from helpers.tables import neutralized
from lab import charts
from lab.codec import counter_from_dict, tally_from_dict
from lab.findings import (
    NEVER_MATTERED,
    ONE_SIDED,
    PARRIES_ALL,
    UNANSWERED,
    USELESS,
    Finding,
    Report,
    report,
)
from lab.models import LabRun
from lab.postgame_figures import PostGame
from lab.postgame_tables import kind_charts, kind_tables
from lab.simulate import Tally
from rules.cards import face_from_dict

ACTIVE = (LabRun.Status.QUEUED, LabRun.Status.RUNNING)
OUTCOME_NAMES = dict(CounterRule.Outcome.choices)


def _percent(share: float | None) -> str:
    return "—" if share is None else f"{round(100 * share)}%"


def _finding_text(finding: Finding, names: dict[int, str]) -> str:
    name = names.get(finding.card_id or 0, "?")
    if finding.kind == UNANSWERED:
        return _("No defence card parries or softens “%(card)s”.") % {"card": name}
    if finding.kind == PARRIES_ALL:
        return _("“%(card)s” parries every attack card of the catalogue.") % {"card": name}
    if finding.kind == USELESS:
        return _("“%(card)s” parries or softens no attack card of the catalogue.") % {"card": name}
    if finding.kind == NEVER_MATTERED:
        return _("“%(card)s” was played but never parried or softened anything.") % {"card": name}
    if finding.kind == ONE_SIDED:
        winner, loser = finding.labels
        return _("“%(winner)s” wins %(share)s of its duels against “%(loser)s”.") % {
            "winner": winner,
            "loser": loser,
            "share": _percent(finding.share),
        }
    return finding.kind


def _matrix_cell(event_id: int, finding: Finding, defence_ids: set[int]) -> str:
    """The counter-matrix cell that causes a finding (the row of a defence card, or an attack card's column)."""
    url = reverse("cards:counter-matrix", args=[event_id])
    if finding.card_id is None:
        return url
    if finding.card_id in defence_ids and finding.other_card_id is not None:
        return f"{url}#c-{finding.card_id}-{finding.other_card_id}"
    return f"{url}#card-{finding.card_id}"


@dataclass
class LabPage:
    result: Report
    heat: Any
    labels: list[str]
    attacks: list[dict[str, Any]] = field(default_factory=list)
    defences: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, str]] = field(default_factory=list)
    instant: list[dict[str, str]] = field(default_factory=list)


def lab_report(run: LabRun) -> LabPage:
    # The catalogue and counter rules as they were when the run started (the run's snapshot).
    faces = {int(face["card_id"]): face_from_dict(face) for face in run.faces}
    for arsenal in run.arsenals:
        for face in arsenal["cards"]:
            faces.setdefault(int(face["card_id"]), face_from_dict(face))
    counters = [counter_from_dict(c) for c in run.counters]
    tally = tally_from_dict(run.tally) if run.tally else Tally()
    result = report(tally, list(faces.values()), counters)
    names = {cid: face.name for cid, face in faces.items()}
    labels = [a["label"] for a in run.arsenals]
    page = LabPage(
        result=result,
        labels=labels,
        heat=charts.heat_map(
            labels,
            {pair: shares["a"] for pair, shares in result.heat.items()},
            title=_("Win share of the arsenal that declared the fight (rows) against its opponent (columns)"),
        ),
    )
    for card_id, shares in sorted(result.attack_rates.items(), key=lambda i: names.get(i[0], "")):
        page.attacks.append(
            {"name": names.get(card_id, "?"), "n": int(shares["n"])}
            | {key: _percent(shares.get(key)) for key in ("not_parried", "softened", "parried", "timed_out")}
        )
    for card_id, shares in sorted(result.defence_rates.items(), key=lambda i: names.get(i[0], "")):
        page.defences.append(
            {"name": names.get(card_id, "?"), "n": int(shares["n"])}
            | {key: _percent(shares.get(key)) for key in ("parried", "softened", "useless")}
        )
    defence_ids = {cid for cid, f in faces.items() if f.is_defence}
    for finding in result.findings:
        page.findings.append(
            {"text": _finding_text(finding, names), "url": _matrix_cell(run.event_id, finding, defence_ids)}
        )
    for key, label in (("blind", _("blind draw")), ("focused", _("focused victim"))):
        instant = result.instant.get(key)
        if instant:
            page.instant.append(
                {"label": label, "n": str(int(instant["n"])), "succeeded": _percent(instant.get("succeeded"))}
            )
    return page


def comparison(before: LabRun, after: LabRun) -> dict[str, Any]:
    """What moved between two runs: each match-up's win share and each card's outcome shares."""
    a, b = lab_report(before), lab_report(after)
    pairs = sorted(set(a.result.heat) | set(b.result.heat))
    rows = []
    for pair in pairs:
        old, new = a.result.heat.get(pair, {}).get("a"), b.result.heat.get(pair, {}).get("a")
        delta = None if old is None or new is None else new - old
        rows.append({"pair": pair, "before": _percent(old), "after": _percent(new), "delta": _delta(delta)})
    findings_before = {f["text"] for f in a.findings}
    findings_after = {f["text"] for f in b.findings}
    return {
        "before": before,
        "after": after,
        "rows": rows,
        "gone": sorted(findings_before - findings_after),
        "new": sorted(findings_after - findings_before),
    }


def _delta(value: float | None) -> str:
    if value is None:
        return "—"
    points = round(100 * value)
    return f"+{points}" if points > 0 else str(points)


# --- the post-game report -----------------------------------------------------------------------------


def postgame_page(event: Event, figures: PostGame) -> dict[str, Any]:
    cards = card_names(set(figures.attack_cards) | set(figures.defence_cards) | _override_cards(figures))
    people = dict(Character.objects.filter(event=event).values_list("pk", "name"))
    hours = sorted(figures.per_hour.items())
    kinds = {
        "aggression": _("aggression"),
        "instant_attack": _("instant attack"),
        "battle": _("battle"),
        "mass_battle": _("mass battle"),
    }
    tables = {
        "timeline": (
            [_("hour"), _("fights")],
            [[timezone.localtime(hour).strftime("%d.%m %H:00"), n] for hour, n in hours],
        ),
        "referees": ([_("referee"), _("fights")], [[name, n] for name, n in figures.per_referee.most_common()]),
        "kinds": ([_("how the fight started"), _("fights")], [[kinds.get(k, k), n] for k, n in figures.kinds.items()]),
        "attack_cards": (
            [_("attack card"), _("not parried"), _("softened"), _("parried"), _("answer too late")],
            [
                [cards.get(cid, "?"), c["not_parried"], c["softened"], c["parried"], c["timed_out"]]
                for cid, c in sorted(figures.attack_cards.items(), key=lambda i: cards.get(i[0], ""))
            ],
        ),
        "defence_cards": (
            [_("defence card"), _("parried"), _("softened"), _("did nothing")],
            [
                [cards.get(cid, "?"), c["parried"], c["softened"], c["not_parried"]]
                for cid, c in sorted(figures.defence_cards.items(), key=lambda i: cards.get(i[0], ""))
            ],
        ),
        "overrides": (
            [_("answer card"), _("attack card"), _("proposed"), _("recorded"), _("times")],
            [
                [
                    cards.get(defence, _("no answer")) if defence else _("no answer"),
                    cards.get(attack, "?"),
                    OUTCOME_NAMES.get(proposed, proposed),
                    OUTCOME_NAMES.get(outcome, outcome),
                    n,
                ]
                for (defence, attack, proposed, outcome), n in figures.override_cells.most_common()
            ],
        ),
        "characters": (
            [
                _("character"),
                _("fights"),
                _("attacks not parried"),
                _("attacks parried"),
                _("attacks softened"),
                _("cards played"),
                _("reactions"),
            ],
            [
                [
                    people.get(cid, "?"),
                    c["fights"],
                    c["attacks_won"],
                    c["attacks_parried"],
                    c["attacks_softened"],
                    sum(figures.cards_played.get(cid, {}).values()),
                    c["reactions"],
                ]
                for cid, c in sorted(figures.characters.items(), key=lambda i: people.get(i[0], ""))
            ],
        ),
        **kind_tables(figures),
    }
    instant = {focused: {o: n for (f, o), n in figures.instant.items() if f == focused} for focused in (False, True)}
    return {
        "figures": figures,
        "tables": tables,
        "charts": kind_charts(figures),
        "timeline_chart": charts.bars(
            [(timezone.localtime(h).strftime("%H:00"), n) for h, n in hours], title=_("Fights per hour")
        ),
        "instant": [
            {
                "label": _("focused victim") if focused else _("blind draw"),
                "n": sum(counts.values()),
                "succeeded": _percent(counts.get("not_parried", 0) / sum(counts.values()) if counts else None),
            }
            for focused, counts in instant.items()
        ],
    }


def _override_cards(figures: PostGame) -> set[int]:
    return {cid for (d, a, _p, _o) in figures.override_cells for cid in (d, a) if cid is not None}


def download(event: Event, page: dict[str, Any], table: str, file_format: str) -> HttpResponse:
    if table not in page["tables"] or file_format not in ("csv", "xlsx"):
        return HttpResponse(_("Unknown table or format."), status=400, content_type="text/plain; charset=utf-8")
    headers, rows = page["tables"][table]
    dataset = neutralized(tablib.Dataset(*rows, headers=[str(h) for h in headers]))
    if file_format == "csv":
        response = HttpResponse(dataset.export("csv"), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(
            dataset.export("xlsx"),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
    response["Content-Disposition"] = f'attachment; filename="sumrak-{event.pk}-{table}.{file_format}"'
    return response
