"""The post-game report's tables and plots of every kind (issue 20): results, conditions dealt,
reactions, magic cards, initiative rolls and warriors' moves, in the game's words."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.words import RESULT_LABELS, condition_label
from lab import charts
from lab.postgame_figures import PostGame

# The battle's and the mass battle's own results (rules.battle.ONE_SIDE_LEFT; the mass battle's end).
KIND_RESULTS = {
    "one_side_left": gettext_lazy("one side is left"),
    "mass_battle_ended": gettext_lazy("the mass battle ended"),
}
REACTION_LABELS = {
    "opportunity": gettext_lazy("opportunity attack"),
    "interrupt": gettext_lazy("immediate interrupt"),
    "response": gettext_lazy("immediate response"),
}
ROLL_LABELS = {
    "server": gettext_lazy("rolled by the server"),
    "referee": gettext_lazy("entered by the referee"),
    "tied": gettext_lazy("ties"),
}


def _result(code: str) -> str:
    return str(RESULT_LABELS.get(code) or KIND_RESULTS.get(code) or code or "—")


def _warrior_state(code: str) -> str:
    from cards.models_mass import Warrior

    return str(dict(Warrior.State.choices).get(code, code))


def kind_tables(figures: PostGame) -> dict[str, tuple[list[str], list[list[Any]]]]:
    from cards.models_mass import MagicCard

    magic = dict(MagicCard.objects.filter(pk__in=list(figures.magic_cards)).values_list("pk", "name_ru"))
    return {
        "results": (
            [_("how the fight ended"), _("fights")],
            [[_result(code), n] for code, n in figures.results.most_common()],
        ),
        "conditions": (
            [_("condition dealt"), _("times")],
            [[condition_label(code), n] for code, n in figures.conditions.most_common()],
        ),
        "reactions": (
            [_("reaction"), _("times")],
            [[str(REACTION_LABELS.get(role, role)), n] for role, n in figures.reactions.most_common()],
        ),
        "magic_cards": (
            [_("magic card"), _("drawn"), _("kept"), _("carried out")],
            [
                [magic.get(cid, "?"), c["drawn"], c["kept"], c["carried_out"]]
                for cid, c in sorted(figures.magic_cards.items(), key=lambda i: magic.get(i[0], ""))
            ],
        ),
        "rolls": (
            [_("initiative"), _("times")],
            [[str(ROLL_LABELS.get(source, source)), n] for source, n in figures.rolls.most_common()],
        ),
        "warriors": (
            [_("warriors moved to"), _("times")],
            [[_warrior_state(state), n] for state, n in figures.warriors_moved.most_common()],
        ),
    }


def kind_charts(figures: PostGame) -> dict[str, Any]:
    return {
        "results": charts.bars(
            [(_result(code), n) for code, n in figures.results.most_common()], title=_("How fights ended")
        ),
        "conditions": charts.bars(
            [(condition_label(code), n) for code, n in figures.conditions.most_common()], title=_("Conditions dealt")
        ),
    }
