"""Every table import of an event, recorded and written in short batches (issue 27; docs/import.md).

``models`` records each import (``TableImport``: the file as read, its progress, its
errors and the journal of what it wrote); ``kinds`` is the registry the apps fill with
what they import (characters here, cards and arsenals in ``cards``); ``runner`` checks
every row, then writes in batches of well under a second each; ``tasks`` runs a long
import in the Celery worker; ``journal`` undoes a write that stopped half-way.
"""
