"""A sampled mutation run over the battle and mass engines (issue 25); not a test, not collected by pytest.

Each mutant changes one node of one engine module's AST: a comparison flipped
(``<`` <-> ``<=``, ``==`` <-> ``!=``, ``in`` <-> ``not in``...), ``+`` <-> ``-``,
an integer constant +1, a boolean constant swapped, ``and`` <-> ``or``, a
``not`` removed, a returned value replaced by ``None``, or a statement deleted.
The mutation points of all the files are listed in a fixed order, a fixed-seed
sample is drawn, and each mutant is written into a scratch copy of the tree
(never into the work tree) and the kind's engine tests run against it with
``-x`` and a timeout: a failing or hanging run kills the mutant.

    python scripts/mutation_sample.py --sample 200 --seed 25 --out /tmp/mutants.jsonl
    python scripts/mutation_sample.py --report /tmp/mutants.jsonl   # counts and the survivors

``--only ID`` reruns chosen mutants (after adding tests); ``--show ID`` prints a mutant's diff.
Results go to docs/testing.md with the equivalent survivors and why.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(
    str(p.relative_to(ROOT))
    for pattern in ("rules/battle/*.py", "rules/mass/*.py")
    for p in ROOT.glob(pattern)
    if p.name != "__init__.py"
)
# The example tests first (a second or two); a mutant they miss meets the property tests too.
QUICK = {
    "rules/battle": [
        "tests/rules/battle/test_reactions.py",
        "tests/rules/battle/test_turns.py",
        "tests/rules/battle/test_referee.py",
        "tests/rules/battle/test_situation_clock.py",
        "tests/rules/battle/test_checks.py",
        "tests/rules/battle/test_edges.py",
        "tests/rules/battle/test_instant.py",
    ],
    "rules/mass": [
        "tests/rules/mass/test_phase.py",
        "tests/rules/mass/test_printed_decks.py",
        "tests/rules/mass/test_kept_mutants.py",
        "tests/rules/mass/test_checks.py",
        "tests/rules/mass/test_edges.py",
    ],
}
SLOW = {
    "rules/battle": [
        "tests/rules/battle/test_apply_properties.py",
        "tests/rules/battle/test_properties.py",
        "tests/rules/battle/test_situation_properties.py",
    ],
    "rules/mass": [
        "tests/rules/mass/test_apply_properties.py",
        "tests/rules/mass/test_properties.py",
    ],
}
FLIP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


@dataclass(frozen=True)
class Point:
    file: str
    index: int  # the node's position in ast.walk order
    kind: str
    line: int

    @property
    def id(self) -> str:
        return f"{self.file}:{self.index}:{self.kind}"


def _docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _returns_none(node: ast.Return) -> bool:
    return isinstance(node.value, ast.Constant) and node.value.value is None


def _points_of(file: str, root: Path = ROOT) -> list[Point]:
    tree = ast.parse((root / file).read_text())
    in_class_body = {id(s) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for s in c.body}
    in_annotation = {
        id(n)
        for a in ast.walk(tree)
        for ann in [getattr(a, "annotation", None), getattr(a, "returns", None)]
        if ann is not None
        for n in ast.walk(ann)
    }
    # Decorator arguments (``frozen=True``) shape the class, not a rule.
    in_annotation |= {
        id(n)
        for d in ast.walk(tree)
        if isinstance(d, ast.FunctionDef | ast.ClassDef)
        for dec in d.decorator_list
        for n in ast.walk(dec)
    }
    found: list[Point] = []
    for index, node in enumerate(ast.walk(tree)):
        line = getattr(node, "lineno", 0)

        def add(kind: str, index: int = index, line: int = line) -> None:
            found.append(Point(file, index, kind, line))

        if id(node) in in_annotation:
            continue
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in FLIP:
                    add(f"compare{i}")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            add("arith")
        elif isinstance(node, ast.BoolOp):
            add("boolop")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            add("not")
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            add("bool")
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            add("int")
        elif isinstance(node, ast.Return) and node.value is not None and not _returns_none(node):
            add("return")
        if (
            isinstance(node, ast.stmt)
            and not isinstance(node, ast.FunctionDef | ast.ClassDef | ast.Import | ast.ImportFrom | ast.Pass)
            and not _docstring(node)
            and id(node) not in in_class_body
            and node not in tree.body
        ):
            add("delete")
    return found


class _Mutate(ast.NodeTransformer):
    def __init__(self, point: Point, tree: ast.AST) -> None:
        self.target = list(ast.walk(tree))[point.index]
        self.kind = point.kind
        self.done = False

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        if node is not self.target:
            return node
        self.done = True
        k = self.kind
        if k.startswith("compare"):
            assert isinstance(node, ast.Compare)
            i = int(k[len("compare") :])
            node.ops[i] = FLIP[type(node.ops[i])]()
        elif k == "arith":
            assert isinstance(node, ast.BinOp)
            node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
        elif k == "boolop":
            assert isinstance(node, ast.BoolOp)
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif k == "not":
            assert isinstance(node, ast.UnaryOp)
            return node.operand
        elif k == "bool":
            assert isinstance(node, ast.Constant)
            node.value = not node.value
        elif k == "int":
            assert isinstance(node, ast.Constant) and isinstance(node.value, int)
            node.value = node.value + 1
        elif k == "return":
            assert isinstance(node, ast.Return)
            node.value = ast.Constant(None)
        elif k == "delete":
            return ast.Pass()
        return node


def mutant_source(point: Point, root: Path = ROOT) -> str:
    tree = ast.parse((root / point.file).read_text())
    mutate = _Mutate(point, tree)
    tree = mutate.visit(tree)
    assert mutate.done, point
    ast.fix_missing_locations(tree)
    return ast.unparse(tree) + "\n"


def all_points(root: Path = ROOT) -> list[Point]:
    return [p for f in FILES for p in _points_of(f, root)]


def sample(n: int, seed: int, root: Path = ROOT) -> list[Point]:
    # In the sample's own (random) order: a run stopped half-way has still tested a random sample.
    points = all_points(root)
    return random.Random(seed).sample(points, min(n, len(points)))


def _scratch() -> Path:
    work = Path(tempfile.mkdtemp(prefix="sumrak-mutants-")) / "tree"
    shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns(".git", "__pycache__", "var", "node_modules"))
    # Compiled once, checked by the source's hash: a mutated module never runs from a stale cache.
    compile_all = [sys.executable, "-m", "compileall", "-q", "--invalidation-mode", "checked-hash", str(work)]
    subprocess.run(compile_all, check=False, capture_output=True)
    return work


def _pytest(work: Path, tests: list[str], timeout: int, *, plain: bool = False) -> str:
    # ``plain``: the engine's example tests are plain Python - without Django and the project's conftest a
    # run starts in a blink. The property tests run with them, as the suite does (without the conftest a
    # coverage check of the random battles draws other examples and fails on the real engine).
    bare = ["-p", "no:django", "--confcutdir=tests/rules"] if plain else []
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *bare, *tests]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "PYTHONDONTWRITEBYTECODE": "1",
        "HYPOTHESIS_STORAGE_DIRECTORY": str(work / ".hyp"),
    }
    try:
        done = subprocess.run(cmd, cwd=work, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if done.returncode == 0 else "killed"


def _tests_for(file: str, work: Path, table: dict[str, list[str]]) -> list[str]:
    kind_dir = "rules/battle" if file.startswith("rules/battle") else "rules/mass"
    return [t for t in table[kind_dir] if (work / t).exists()]


def run(point: Point, work: Path, timeout: int) -> str:
    target = work / point.file
    original = target.read_text()
    try:
        target.write_text(mutant_source(point, work))
        result = _pytest(work, _tests_for(point.file, work, QUICK), timeout, plain=True)
        if result == "survived":
            result = _pytest(work, _tests_for(point.file, work, SLOW), 3 * timeout)
        return result
    finally:
        target.write_text(original)


def show(point_id: str) -> str:
    point = next(p for p in all_points() if p.id == point_id)
    before = ast.unparse(ast.parse((ROOT / point.file).read_text())).splitlines()
    after = mutant_source(point).splitlines()
    return "\n".join(difflib.unified_diff(before, after, point.file, "mutant", n=1, lineterm=""))


def report(path: Path, equivalent: Path | None) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    latest = {r["id"]: r for r in rows}
    same = json.loads(equivalent.read_text()) if equivalent else {}
    killed = [r for r in latest.values() if r["result"] in ("killed", "timeout")]
    survived = [r for r in latest.values() if r["result"] == "survived"]
    eq = [r for r in survived if r["id"] in same]
    live = [r for r in survived if r["id"] not in same]
    counted = len(latest) - len(eq)
    print(f"mutants {len(latest)}  killed {len(killed)}  equivalent {len(eq)}  surviving {len(live)}")
    print(f"killed of the non-equivalent: {len(killed)}/{counted} = {100 * len(killed) / max(1, counted):.1f} %")
    for r in live:
        print("SURVIVOR", r["id"], "line", r["line"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("/tmp/sumrak-mutants.jsonl"))
    parser.add_argument("--only", nargs="*", help="mutant ids to (re)run")
    parser.add_argument("--show", help="print one mutant's diff")
    parser.add_argument("--report", type=Path, help="summarize a results file")
    parser.add_argument("--equivalent", type=Path, help="JSON {mutant id: reason} of equivalent mutants")
    parser.add_argument("--count", action="store_true", help="how many mutation points there are")
    args = parser.parse_args()
    if args.count:
        print(len(all_points()))
        return
    if args.show:
        print(show(args.show))
        return
    if args.report:
        report(args.report, args.equivalent)
        return
    # Scratch copies are taken first and every mutant is made from one: editing the tree meanwhile is safe.
    works = [_scratch() for _ in range(args.workers)]
    points = sample(args.sample, args.seed, works[0])
    if args.only:
        # By name among all the points: an edit of one module changes the sample, not the other modules' names.
        points = [p for p in all_points(works[0]) if p.id in set(args.only)]
    elif args.out.exists():
        # Resume: a mutant already in the results file is not run again.
        done = {json.loads(line)["id"] for line in args.out.read_text().splitlines() if line.strip()}
        points = [p for p in points if p.id not in done]
    try:
        for kind_dir in QUICK:
            # A mutant is killed only by tests that pass on the real engine.
            if _pytest(works[0], _tests_for(kind_dir, works[0], QUICK), 10 * args.timeout, plain=True) != "survived":
                raise SystemExit(f"the tests of {kind_dir} fail on the unmutated tree")
        lock = threading.Lock()
        todo = list(enumerate(points, start=1))

        def worker(work: Path) -> None:
            while True:
                with lock:
                    if not todo:
                        return
                    n, point = todo.pop(0)
                result = run(point, work, args.timeout)
                with lock, args.out.open("a") as out:
                    out.write(json.dumps({"id": point.id, "line": point.line, "result": result}) + "\n")
                    print(f"[{n}/{len(points)}] {result:8} {point.id} line {point.line}", flush=True)

        threads = [threading.Thread(target=worker, args=(w,)) for w in works]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        for work in works:
            shutil.rmtree(work.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
