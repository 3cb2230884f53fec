"""[M5] The engine's kept-card check is the only one (presenters ask ``kept_usable``), so a mutant of it must fail.

Each mutant of ``rules.mass.phase._usable_kept`` drops one of its statements or flips one
comparison (the AST of the real function, so a clause added later is mutated too); the
M5 scenario below passes on the real engine and fails on every mutant. Issue 21: a
mutant dropping one clause of the presenter's old copy of this rule survived 268 tests.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

import rules.mass as magic
from rules.errors import RuleError
from rules.mass import phase
from tests.rules.mass.kit import edge_battle, edge_ready, edge_run

FLIPS = {ast.GtE: ast.Gt, ast.Gt: ast.GtE, ast.NotEq: ast.Eq, ast.Eq: ast.NotEq, ast.In: ast.NotIn, ast.NotIn: ast.In}


def usable(state, side, uid):
    """Both ways of asking: the pages' question and the command itself agree."""
    answer = magic.kept_usable(state, side, uid)
    try:
        magic.apply(state, magic.UseKept(side, uid))
    except RuleError as err:
        assert err.rule_id == "M5"
        assert not answer
        return False
    assert answer
    return True


def m5_scenario() -> None:
    """[M5] Where a card kept in cycle 1 may be used, step by step."""
    state = edge_run(edge_ready(edge_battle(), 2, 1), magic.UsePoints("a"))
    assert not usable(state, "a", "21.1")  # not kept yet: drawn and pending
    state = edge_run(state, magic.KeepCard("a"))
    assert not usable(state, "a", "21.1")  # the cycle it was drawn in, own turn
    assert not usable(state, "b", "21.1")  # not b's card
    state = edge_run(state, magic.EndTurn("a"), magic.UsePoints("b", warrior="5"), magic.EndTurn("b"))
    assert not usable(state, "a", "21.1")  # same cycle, its other phases
    state = edge_run(state, magic.NextCycle())
    assert not usable(state, "a", "21.1")  # before the initiative roll
    state = edge_run(state, magic.RollInitiative("referee", (2, 4)))
    assert not usable(state, "a", "21.1")  # the winner is choosing
    state = edge_run(state, magic.ChooseStarter("b", starts=True))
    assert not usable(state, "a", "21.1")  # the other side's magic-phase turn
    assert not usable(state, "b", "21.1")
    state = edge_run(state, magic.UsePoints("b", take=True), magic.CarryOut("b"), magic.EndTurn("b"))
    assert usable(state, "a", "21.1")  # a's own turn, a later cycle
    assert not magic.kept_usable(state, "c", "21.1")  # no such side
    with pytest.raises(RuleError):
        magic.apply(state, magic.UseKept("c", "21.1"))
    state = edge_run(state, magic.UsePoints("a"))  # 2 points: the fire card of deck 2 is drawn
    assert state.pending is not None and not usable(state, "a", "21.1")  # carry it out first
    state = edge_run(state, magic.CarryOut("a"))
    assert usable(state, "a", "21.1")  # after its points too
    state = edge_run(state, magic.EndTurn("a"))
    assert state.stage == magic.OVER
    assert usable(state, "a", "21.1")  # the cycle's other phases, recorded as a's action
    state = edge_run(state, magic.UseKept("a", "21.1"))
    assert not usable(state, "a", "21.1")  # being carried out
    state = edge_run(state, magic.CarryOut("a", target_side="a"))
    assert not usable(state, "a", "21.1")  # used: back under deck 2 (M7)


def test_M5_the_scenario_holds_on_the_real_engine():
    m5_scenario()


class _Mutate(ast.NodeTransformer):
    def __init__(self, target: int) -> None:
        self.target, self.seen = target, 0

    def _hit(self) -> bool:
        self.seen += 1
        return self.seen - 1 == self.target

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        body: list[ast.stmt] = []
        for stmt in node.body:
            droppable = isinstance(stmt, ast.If | ast.Expr) and not (
                isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)  # the docstring
            )
            if droppable and self._hit():
                body.append(ast.Pass())
            else:
                body.append(self.visit(stmt))
        node.body = body
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.Compare:
        self.generic_visit(node)
        flipped = FLIPS.get(type(node.ops[0]))
        if flipped is not None and self._hit():
            node.ops = [flipped(), *node.ops[1:]]
        return node


def _mutants() -> list[tuple[int, str]]:
    source = textwrap.dedent(inspect.getsource(phase._usable_kept))
    out: list[tuple[int, str]] = []
    n = 0
    while True:
        mutator = _Mutate(n)
        tree = mutator.visit(ast.parse(source))
        if n >= mutator.seen:
            return out
        out.append((n, ast.unparse(tree)))
        n += 1


MUTANTS = _mutants()


def test_M5_there_are_mutants_of_every_clause():
    assert len(MUTANTS) >= 6  # four checks, the pending check, and flipped comparisons


@pytest.mark.parametrize("number,source", MUTANTS, ids=[f"mutant{n}" for n, _ in MUTANTS])
def test_M5_every_mutant_of_the_engines_kept_card_check_fails_the_scenario(monkeypatch, number, source):
    namespace = dict(vars(phase))
    exec(compile(source, f"<mutant {number}>", "exec"), namespace)
    monkeypatch.setattr(phase, "_usable_kept", namespace["_usable_kept"])
    with pytest.raises((AssertionError, RuleError, AttributeError, TypeError, KeyError)):
        m5_scenario()
