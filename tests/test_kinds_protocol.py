"""mypy checks every kind of fight against the situation core's Protocol (issue 19).

The three kinds pass; a kind that lacks one of the Protocol's methods, or
answers one with the wrong type, fails the type check at its ``register``
call - the same check ``scripts/test.sh`` runs over ``duels/apps.py``.
"""

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from duels.battle.kind import BattleKind
from duels.duel.kind import DuelKind
from duels.mass.kind import MassBattleKind
from duels.services.kinds import KINDS, SituationKind
from duels.web.pages import PAGES, KindPages

ROOT = Path(__file__).resolve().parent.parent
MYPY = Path(sys.executable).with_name("mypy")

WHOLE = """
from duels.battle.kind import BattleKind
from duels.duel.kind import DuelKind
from duels.mass.kind import MassBattleKind
from duels.services.kinds import register

register(DuelKind())
register(BattleKind())
register(MassBattleKind())
"""

MISSING = """
from typing import Any

from duels.services.kinds import register


class Half:
    key = "half"

    def to_dict(self, state: Any) -> dict[str, Any]:
        return {}


register(Half())
"""

WRONG = """
from datetime import datetime

from duels.mass.kind import MassBattleKind
from duels.services.kinds import register


class ClockInText(MassBattleKind):
    def next_deadline(self, state: object) -> str:  # type: ignore[override]
        return "soon"


register(ClockInText())
"""


def _mypy(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    module = tmp_path / "kind_probe.py"
    module.write_text(source, encoding="utf-8")
    command = [str(MYPY), "--config-file", str(ROOT / "pyproject.toml"), str(module)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("kind", [DuelKind, BattleKind, MassBattleKind])
def test_every_kind_answers_every_method_of_the_protocol(kind):
    asked = {name for name, _ in inspect.getmembers(SituationKind) if not name.startswith("_")}
    assert asked <= set(dir(kind)), asked - set(dir(kind))


def test_the_app_registers_each_kind_and_its_pages_once():
    assert set(KINDS) == set(PAGES) == {"duel", "battle", "mass_battle"}
    for key, kind in KINDS.items():
        assert kind.key == PAGES[key].key == key
        asked = {name for name, _ in inspect.getmembers(KindPages) if not name.startswith("_")}
        assert asked <= set(dir(PAGES[key])), asked - set(dir(PAGES[key]))


def test_mypy_accepts_the_three_kinds_and_refuses_a_kind_missing_a_method_or_of_a_wrong_type(tmp_path):
    whole = _mypy(tmp_path, WHOLE)
    assert whole.returncode == 0, whole.stdout
    missing = _mypy(tmp_path, MISSING)
    assert missing.returncode == 1 and 'incompatible type "Half"; expected "SituationKind"' in missing.stdout
    wrong = _mypy(tmp_path, WRONG)
    assert wrong.returncode == 1 and 'incompatible type "ClockInText"; expected "SituationKind"' in wrong.stdout
