"""One worker process of a lab run: ``python -m lab.worker`` (lab/runner.py starts one per core).

Reads one JSON object from standard input - arsenals, counter rules, settings
and the duel numbers as [start, stop, step] - plays those duels and writes JSON
lines to standard output: ``{"done": n}`` as it goes, then ``{"tally": ...}``.
Only the engine is imported: no Django, a fast start.
"""

import json
import sys

from lab.codec import arsenal_from_dict, counter_from_dict, settings_from_dict, tally_to_dict
from lab.simulate import Tally, batch

REPORT_EVERY = 25


def main() -> None:
    job = json.load(sys.stdin)
    arsenals = [arsenal_from_dict(a) for a in job["arsenals"]]
    counters = [counter_from_dict(c) for c in job["counters"]]
    settings = settings_from_dict(job["settings"])
    numbers = list(range(*job["numbers"]))
    tally = Tally()
    for start in range(0, len(numbers), REPORT_EVERY):
        part = numbers[start : start + REPORT_EVERY]
        tally.add(batch(arsenals, counters, settings, part))
        print(json.dumps({"done": len(part)}), flush=True)
    print(json.dumps({"tally": tally_to_dict(tally)}), flush=True)


if __name__ == "__main__":
    main()
