"""How fast the balance lab plays: N duels of the demo's prepared arsenals (issue 15's target: 10,000 in < 60 s).

    DEBUG=true .venv/bin/python -m bench.lab_speed [--duels 10000] [--processes 2] [--policy greedy]

Runs on a throw-away SQLite database under a temporary folder: it loads the demo
game there, makes one lab run and plays it with the real runner (one worker
process per core, lab/runner.py), then prints the wall time, the duels per
second and the CPU time of the worker processes. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=10_000)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--policy", default="greedy", choices=["greedy", "random"])
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="sumrak-lab-speed-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/lab.sqlite3"
    os.environ["SUMRAK_VAR_DIR"] = folder
    os.environ.setdefault("DEBUG", "true")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    import demo
    from lab.arsenals import arsenals_of, catalogue_faces, counters_of
    from lab.codec import arsenal_to_dict, counter_to_dict, settings_to_dict
    from lab.models import LabRun
    from lab.runner import execute
    from lab.simulate import LabSettings
    from rules.cards import face_to_dict

    call_command("migrate", verbosity=0)
    event = demo.load()
    lab = LabSettings(duels=args.duels, seed=2026, policy=args.policy)
    arsenals = arsenals_of(event, LabRun.Source.PREPARED, lab.seed)
    run = LabRun.objects.create(
        event=event,
        settings=settings_to_dict(lab),
        arsenals=[arsenal_to_dict(a) for a in arsenals],
        counters=[counter_to_dict(c) for c in counters_of(event)],
        faces=[face_to_dict(f) for f in catalogue_faces(event)],
        total=lab.duels,
    )
    settings.SUMRAK_LAB_PROCESSES = args.processes
    started = time.perf_counter()
    done = execute(run.pk)
    wall = time.perf_counter() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = children.ru_utime + children.ru_stime
    print(
        f"{done.status}: {done.total} duels of {len(arsenals)} arsenals ({args.policy}) in {wall:.1f} s "
        f"with {args.processes} processes = {done.total / wall:.0f} duels/s; workers' CPU {cpu:.1f} s; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    sys.exit(0 if done.status == LabRun.Status.DONE else 1)


if __name__ == "__main__":
    main()
