"""The apps' layers (docs/architecture.md): one direction, no cycles, hooks filled by the layer above.

``lint-imports`` (scripts/test.sh) checks the contracts in pyproject.toml;
these tests check what it cannot: cycles through a package's ``__init__``,
and that the hooks the lower apps define are really filled at start-up.
"""

import ast
import sys
from pathlib import Path

import grimp
from celery import current_app

from cards import hooks as cards_hooks
from cards.views_player import character_page_part
from duels.services import in_active_situation
from duels.services.store import EXPIRE_TASK
from duels.services.timers import SWEEP_TASK, expire_situation, sweep_deadlines
from events import hooks as events_hooks

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "demo", "lab", "duels", "cards", "events", "rules", "helpers", "tests")


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _graph() -> grimp.ImportGraph:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def test_no_import_cycle_in_the_projects_packages():
    """Every import counts, also one inside a function: a cycle held apart that way is still a cycle."""
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for module in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(module)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.x")
    graph.add_import(importer="a.z", imported="a.x")
    assert _cycles(graph) == [["a.x", "a.y"]]


def test_the_launcher_imports_neither_django_nor_celery_nor_any_app():
    """It supervises the programs that do: a broken setting must not keep it from starting them (launcher.py)."""
    tree = ast.parse((ROOT / "launcher.py").read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    forbidden = {"django", "celery", *PACKAGES}
    assert imported, "the launcher's imports were not read"
    assert not imported & forbidden


def test_S2_AG2_the_fight_app_answers_the_arsenal_guard_through_the_cards_hook():
    assert in_active_situation in cards_hooks.fight_checks()


def test_the_cards_app_fills_the_character_page_through_the_events_hook():
    assert character_page_part in events_hooks._character_page_parts


def test_the_timer_tasks_keep_their_names_so_queued_timers_and_the_beat_still_work(settings):
    assert expire_situation.name == EXPIRE_TASK == "duels.tasks.expire_situation"
    assert sweep_deadlines.name == SWEEP_TASK == "duels.tasks.sweep_deadlines"
    # The services send the expiry by name: it must be registered in this (web) process too.
    assert current_app.tasks[EXPIRE_TASK].name == EXPIRE_TASK
    assert {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} == {SWEEP_TASK}


def _fixtures(path: Path) -> list[tuple[str, str]]:
    """(name, body without the name) of every fixture defined at the top of a module."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        # pytest.fixture / fixture, called or not (not Hypothesis's HealthCheck.function_scoped_fixture).
        fixture = ("pytest.fixture", "fixture")
        if isinstance(node, ast.FunctionDef) and any(
            ast.unparse(d).split("(")[0] in fixture for d in node.decorator_list
        ):
            body = ast.dump(ast.Module(body=node.body, type_ignores=[]))
            found.append((node.name, body))
    return found


def test_shared_fixtures_live_in_conftest_files_once():
    """No test imports another test module or a conftest (fixtures come from conftest.py); no fixture is a copy."""
    modules = sorted((ROOT / "tests").rglob("*.py"))
    for path in modules:
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if words[:1] == ["from"] and len(words) > 1 and words[1].startswith("tests."):
                last = words[1].rsplit(".", 1)[-1]
                assert not last.startswith("test_") and last != "conftest", f"{path}: {line}"
    bodies: dict[str, Path] = {}
    for path in modules:
        for name, body in _fixtures(path):
            assert body not in bodies, f"fixture {name} of {path} copies one of {bodies[body]}"
            bodies[body] = path
