"""Running commands at the same moment, each on its own thread and database connection."""

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def race(*calls: Callable[[], Any], timeout: float = 30) -> list[Any]:
    """Run the calls at the same moment, each on its own thread and database connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=timeout)
            results[i] = call()
        except Exception as err:
            results[i] = err
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a command hung: a lock was never released"
    return results
