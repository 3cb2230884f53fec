"""Everything that depends on the kind of a situation, behind one small interface.

The persistence code (lock, log, version, timers, write-back) is the same for
every kind of fight; what a state looks like, which commands exist and who
holds which card is the kind's business. Today there is one kind, the duel
situation; battles and mass battles will add their own ``SituationKind``.
"""

from __future__ import annotations

from duels.models import Situation
from duels.services.battle_kind import BattleKind
from duels.services.duel_kind import DuelKind, FighterResult

__all__ = ["KINDS", "DuelKind", "FighterResult", "kind_of"]

# The registry of fight kinds: the one place a new kind is added (docs/architecture.md).
KINDS: dict[str, DuelKind] = {Situation.Kind.DUEL: DuelKind(), Situation.Kind.BATTLE: BattleKind()}


def kind_of(situation: Situation) -> DuelKind:
    return KINDS[situation.kind]
