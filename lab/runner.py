"""Running a lab run: worker processes, progress, cancel (issue 15).

A run is played by one ``python -m lab.worker`` process per core, each taking
every n-th duel so that their progress stays even. Processes, not threads: the
engine is pure Python and a run must use both cores of the game laptop. They
are started as plain subprocesses (not multiprocessing) because Celery's
prefork workers are daemon processes that may not have children of their own.

While they play, the runner writes the number of duels played to the run's row
about twice a second (the page's progress bar polls it) and looks at the
cancel flag; a cancelled run's workers are killed and nothing is reported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue

from django.conf import settings
from django.utils import timezone

from lab.codec import tally_from_dict, tally_to_dict
from lab.models import LabRun
from lab.simulate import Tally

PROGRESS_EVERY_S = 0.5


def processes() -> int:
    return max(1, int(getattr(settings, "SUMRAK_LAB_PROCESSES", 0) or os.cpu_count() or 1))


def _read(worker: subprocess.Popen[str], queue: Queue[tuple[int, dict]], index: int) -> None:
    assert worker.stdout is not None
    for line in worker.stdout:
        queue.put((index, json.loads(line)))
    queue.put((index, {"end": True}))


def execute(run_id: int) -> LabRun:
    """Play the run's duels; the row says how it went (done, cancelled or failed)."""
    # Taking the run is one conditional UPDATE: of two deliveries of the same task (a broker that
    # redelivers, a worker restarted mid-ack) exactly one finds it queued and plays it.
    taken = LabRun.objects.filter(pk=run_id, status=LabRun.Status.QUEUED).update(status=LabRun.Status.RUNNING)
    run = LabRun.objects.get(pk=run_id)
    if not taken:
        return run  # a repeated task: the run was already taken
    count = min(processes(), run.total)
    job = {"arsenals": run.arsenals, "counters": run.counters, "settings": run.settings}
    workers = []
    queue: Queue[tuple[int, dict]] = Queue()
    for index in range(count):
        worker = subprocess.Popen(
            [sys.executable, "-m", "lab.worker"],
            cwd=Path(settings.BASE_DIR),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert worker.stdin is not None
        worker.stdin.write(json.dumps({**job, "numbers": [index, run.total, count]}))
        worker.stdin.close()
        threading.Thread(target=_read, args=(worker, queue, index), daemon=True).start()
        workers.append(worker)
    tally, done, ended, last = Tally(), 0, 0, 0.0
    try:
        while ended < count:
            try:
                _index, message = queue.get(timeout=PROGRESS_EVERY_S)
            except Empty:
                message = {}
            if "done" in message:
                done += int(message["done"])
            elif "tally" in message:
                tally.add(tally_from_dict(message["tally"]))
            elif "end" in message:
                ended += 1
            if time.monotonic() - last >= PROGRESS_EVERY_S or ended == count:
                last = time.monotonic()
                LabRun.objects.filter(pk=run.pk).update(done=done)
                if LabRun.objects.filter(pk=run.pk, cancel_requested=True).exists():
                    LabRun.objects.filter(pk=run.pk).update(status=LabRun.Status.CANCELLED, finished_at=timezone.now())
                    return LabRun.objects.get(pk=run.pk)
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
            worker.wait()
    failed = [w for w in workers if w.returncode != 0]
    if failed or tally.duels != run.total:
        errors = "\n".join((w.stderr.read() if w.stderr else "")[-2000:] for w in failed)
        LabRun.objects.filter(pk=run.pk).update(
            status=LabRun.Status.FAILED, finished_at=timezone.now(), error=errors or "duels missing"
        )
    else:
        LabRun.objects.filter(pk=run.pk).update(
            status=LabRun.Status.DONE, done=run.total, tally=tally_to_dict(tally), finished_at=timezone.now()
        )
    return LabRun.objects.get(pk=run.pk)
