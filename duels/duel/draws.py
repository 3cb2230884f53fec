"""IA3: an undone instant attack keeps its draw - the core's, for every kind (duels/services/draws.py)."""

from duels.services.draws import REDRAWN, REUSED, Repeat, figures, related_undone, repeats, undone_draw

__all__ = ["REDRAWN", "REUSED", "Repeat", "figures", "related_undone", "repeats", "undone_draw"]
