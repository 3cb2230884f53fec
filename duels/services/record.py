"""A fight's whole record, rebuilt from its log (issue 24: "write only what changed").

The row a step rewrites keeps only what the rules and the live pages need now:
a duel its newest finished steps and their count (``rules.duel.RECORDS_KEPT``),
a battle its newest records, their count and the windows the clock closed
(``rules.battle.RECORDS_KEPT``), not the whole past. The past is durable in the append-only log, and the
engine rebuilds it exactly: ``state = replay(opening, log)`` (DESIGN §4), here
with ``whole_record`` so that no finished step is dropped. The log's stored
events alone could not: a step's record (attacker, cards, how the answer was
chosen, the round) is spread over several events and entries.

The record page and the post-game export read the whole log of their own
fight (one statement); the live pages never come here.
"""

from __future__ import annotations

import logging
from typing import Any

from duels.models import Situation
from duels.services.commands import ReplayRow, state_of
from duels.services.kinds import kind_of, replay

logger = logging.getLogger(__name__)


def whole_state(situation: Situation) -> Any:
    """The state with every finished step kept; the stored state if the log does not lead to it.

    The replay is checked against the stored row: what it keeps must read as
    the stored state does, so the record never shows a past that the fight's
    own state contradicts (a damaged log gets the newest steps only, and a
    warning in the server's log).
    """
    kind = kind_of(situation)
    stored = state_of(situation)
    if not kind.trims_record:
        return stored
    rows = situation.log.order_by("seq").values_list(*ReplayRow._fields)
    try:
        whole = replay(kind, situation.opening, [ReplayRow(*row) for row in rows], whole_record=True)
        # Written and read again, the whole state keeps what the stored one keeps.
        agrees = kind.to_dict(kind.from_dict(kind.to_dict(whole))) == kind.to_dict(stored)
    except Exception:  # a log the engine refuses: shown from the row, as a live page shows it
        logger.warning("the log of situation %s does not replay; its record shows the newest steps", situation.pk)
        return stored
    if not agrees:
        logger.warning("the log of situation %s replays to another state; its record shows the newest", situation.pk)
        return stored
    return whole
