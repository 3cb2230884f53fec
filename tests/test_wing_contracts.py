"""The wings' import contracts (pyproject.toml) hold today, and fail the moment a wing imports another
wing or the core imports a wing (issue 19): a contract that cannot fail checks nothing.

Each contract is read from pyproject.toml and checked on the project's real
import graph, then on the same graph with one import added that breaks it.
"""

import sys
import tomllib
from pathlib import Path

import grimp
import pytest
from importlinter.configuration import configure
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
TYPES = {"forbidden": ForbiddenContract, "independence": IndependenceContract}


def _contract(contract_id: str):
    options = next(c for c in CONFIG["contracts"] if c["id"] == contract_id)
    session = {"root_packages": CONFIG["root_packages"], "include_external_packages": True}
    fields = {k: v for k, v in options.items() if k not in ("id", "name", "type")}
    return TYPES[options["type"]](name=options["name"], session_options=session, contract_options=fields)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    configure()  # import-linter's own settings (its timer), as lint-imports makes them
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return grimp.build_graph(*CONFIG["root_packages"], include_external_packages=True, cache_dir=None)


def _kept(contract_id: str, graph: grimp.ImportGraph, extra: tuple[str, str] | None = None) -> bool:
    if extra is None:
        return _contract(contract_id).check(graph, verbose=False).kept
    graph.add_import(importer=extra[0], imported=extra[1])
    try:
        return _contract(contract_id).check(graph, verbose=False).kept
    finally:
        graph.remove_import(importer=extra[0], imported=extra[1])


@pytest.mark.parametrize(
    ("contract_id", "breaking"),
    [
        ("fight-wings", ("duels.battle.kind", "duels.duel.kind")),
        ("fight-wings", ("duels.mass.views", "duels.battle.presenters")),
        ("fight-core", ("duels.services.store", "duels.duel.kind")),
        ("fight-core", ("duels.web.submit", "duels.mass.views")),
        ("fight-core", ("duels.views_public", "duels.battle.presenters")),
        ("fight-services-below-pages", ("duels.services.commands", "duels.web.alerts")),
        ("rules-kinds", ("rules.battle.flow", "rules.duel.state")),
        ("rules-kernel", ("rules.conditions", "rules.mass.state")),
    ],
)
def test_a_wing_importing_another_or_the_core_importing_a_wing_breaks_a_contract(graph, contract_id, breaking):
    assert _kept(contract_id, graph), f"{contract_id} is broken today"
    assert not _kept(contract_id, graph, breaking), f"{contract_id} kept with {breaking[0]} -> {breaking[1]}"
