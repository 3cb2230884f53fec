"""What each viewer of a mass battle may see, built from the engine's state (rules/mass).

Kept cards and the decks' order are the secrets here: the referee (and the
event's organizers) see both sides' kept cards and every deck's order; a
commander sees only their own side's kept cards and no order; a spectator
sees neither. A drawn card that its side may still keep is shown only to
those who may see that side's kept cards. Nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

import rules.mass as magic
from cards import catalogue_version
from cards.mass_names import MagicCardWords, magic_card_words, warrior_type_names
from cards.models_mass import MagicType

REFEREE = "referee"
COMMANDER = "commander"
SPECTATOR = "spectator"

STAGE_LABELS = {
    magic.INITIATIVE: _("initiative roll (M4)"),
    magic.CHOOSE: _("the winner chooses who starts (M4)"),
    magic.TURNS: _("the sides act with their magic points (M5)"),
    magic.OVER: _("magic phase over: the battle goes on, then the next cycle"),
}
PLACE_LABELS = {
    magic.FIELD: _("on the field"),
    magic.HOSPITAL: _("in hospital"),
    magic.DEAD: _("dead"),
}
POINTS_LABELS = {
    1: _("1: one wounded warrior of the side's hospital dies"),
    2: _("2: take a card from deck 2 and carry it out, or keep it if it says “use when you see fit”"),
    3: _("3: one wounded warrior returns from hospital to the field"),
    4: _("4: the side may take a card from deck 4 and carry it out"),
    5: _("5: the side may take a card from deck 5 and carry it out, or keep it if it says so"),
    6: _("6: the side may take a card from deck 6 and carry it out"),
}
SOURCE_LABELS = {magic.SERVER: _("rolled by the server"), magic.REFEREE: _("entered by the referee")}


@dataclass(frozen=True)
class MassViewer:
    kind: str
    side: str | None = None  # the commander's side

    def sees_kept_of(self, side: str) -> bool:
        return self.kind == REFEREE or (self.kind == COMMANDER and self.side == side)

    @property
    def sees_deck_order(self) -> bool:
        return self.kind == REFEREE

    @property
    def etag_part(self) -> str:
        return f"mass-{self.kind}-{self.side or ''}"


@dataclass(frozen=True)
class MagicCardView:
    uid: str
    card_id: int
    name: str
    text: str
    magic_type: str
    type_label: str
    acts_on_protected: bool  # M3: the organizer's exception, shown on the tablet
    keepable: bool
    deck: int


@dataclass
class WarriorView:
    wid: str
    name: str
    type_name: str
    place: str
    protections: list[str]
    protected: bool = False  # from the card being carried out (M3)

    @property
    def place_label(self) -> str:
        return str(PLACE_LABELS[self.place])


@dataclass
class SideView:
    key: str
    name: str
    commander: str
    points: int | None
    on_field: list[WarriorView] = field(default_factory=list)
    hospital: list[WarriorView] = field(default_factory=list)
    dead: list[WarriorView] = field(default_factory=list)
    kept: list[tuple[MagicCardView, int, bool]] | None = None  # (card, cycle kept, usable now); None: not shown

    @property
    def alive(self) -> list[WarriorView]:
        return self.on_field + self.hospital

    @property
    def warriors(self) -> list[WarriorView]:
        return self.on_field + self.hospital + self.dead

    @property
    def points_use(self) -> str:
        """M5: what the points do (the engine's answer): "dies", "returns", "draw" or "may_draw"."""
        return magic.points_use(self.points) if self.points else ""

    @property
    def points_label(self) -> str:
        return str(POINTS_LABELS[self.points]) if self.points else ""


@dataclass
class EffectView:
    card: MagicCardView
    side: str
    cycle: int
    ends_cycle: int
    affected: list[str]
    unaffected: list[str]
    target_side: str | None


@dataclass
class MassView:
    cycle: int
    stage: str
    ended: bool
    sides: dict[str, SideView]
    winner: str | None
    whose_turn: str | None
    points_used: bool
    rolls: list[tuple[int, int, int, str]]  # this cycle's rolls: (a, b, ...) with the source label
    pending: MagicCardView | None
    pending_side: str | None
    may_keep: bool
    from_kept: bool
    effects: list[EffectView]
    deck_sizes: dict[int, int]
    deck_order: dict[int, list[MagicCardView]] | None
    printed: bool = False  # M1: the decks are the printed ones; the referee records each draw
    drawable: list[MagicCardView] = field(default_factory=list)  # printed: what may come up now (referee only)

    @property
    def stage_label(self) -> str:
        return str(STAGE_LABELS[self.stage])

    @property
    def turn_side(self) -> SideView | None:
        return self.sides[self.whose_turn] if self.whose_turn else None

    @property
    def pending_turn_side(self) -> SideView | None:
        """The side carrying out the card (outside the turns: a kept card used in the battle, M5)."""
        return self.sides[self.pending_side] if self.pending_side else None

    @property
    def sides_pending_name(self) -> str:
        return self.sides[self.pending_side].name if self.pending_side else ""

    @property
    def sides_winner_name(self) -> str:
        return self.sides[self.winner].name if self.winner else ""

    @property
    def sides_loser_name(self) -> str:
        loser = next((k for k in self.sides if k != self.winner), None) if self.winner else None
        return self.sides[loser].name if loser else ""

    @property
    def deck_summary(self) -> str:
        return ", ".join(
            ngettext("deck %(deck)s: %(n)s card", "deck %(deck)s: %(n)s cards", n) % {"deck": d, "n": n}
            for d, n in self.deck_sizes.items()
        )


def magic_cards(card_ids: Iterable[int], version: str | None = None) -> dict[int, MagicCardWords]:
    """The magic cards' names and texts, kept per catalogue version (cards/mass_names.py)."""
    return magic_card_words(card_ids, version)


def state_cards(state: magic.MassBattle, version: str | None = None) -> dict[int, MagicCardWords]:
    """The words of every magic card in the battle (each card id once, however many copies)."""
    return magic_cards({face.card_id for face in state.cards.values()}, version)


def _type_labels() -> dict[str, str]:
    """M2: the five types' labels in the active language (made once per language and process)."""
    language = get_language() or ""
    labels = _TYPE_LABELS.get(language)
    if labels is None:
        labels = _TYPE_LABELS[language] = {str(value): str(label) for value, label in MagicType.choices}
    return labels


_TYPE_LABELS: dict[str, dict[str, str]] = {}


class _Faces:
    """The state's magic cards as shown, each card's view made once per page (a uid may show twice)."""

    def __init__(self, state: magic.MassBattle, rows: dict[int, MagicCardWords]) -> None:
        self.state = state
        self.labels = _type_labels()
        english = (get_language() or "ru").startswith("en")
        self.words = {
            card_id: (row.name_en if english and row.name_en else row.name_ru, row.text)
            for card_id, row in rows.items()
        }
        self.views: dict[str, MagicCardView] = {}

    def __call__(self, uid: str) -> MagicCardView:
        view = self.views.get(uid)
        if view is None:
            face = self.state.cards[uid]
            # A card deleted from the catalogue mid-battle still shows what the rules know of it.
            name, text = self.words.get(face.card_id, (f"#{face.card_id}", ""))
            view = self.views[uid] = MagicCardView(
                uid=uid,
                card_id=face.card_id,
                name=name,
                text=text,
                magic_type=face.magic_type,
                type_label=self.labels[face.magic_type],
                acts_on_protected=face.acts_on_protected,
                keepable=face.keepable,
                deck=face.deck,
            )
        return view


def present(
    state: magic.MassBattle,
    viewer: MassViewer,
    rows: dict[int, MagicCardWords] | None = None,
    version: str | None = None,
) -> MassView:
    """What ``viewer`` sees; ``rows``: the state's magic cards when the caller has read them already;
    ``version``: the catalogue's (cards/catalogue_version.py) when the caller has read it already."""
    version = catalogue_version.current() if version is None else version
    if rows is None:
        rows = state_cards(state, version)
    card = _Faces(state, rows)
    type_names = _type_names(state, version)
    labels = card.labels
    pending_face = state.cards[state.pending.uid] if state.pending else None
    sides: dict[str, SideView] = {}
    for key, side in state.sides.items():
        view = SideView(key=key, name=side.name, commander=side.commander, points=state.points.get(key))
        places = {magic.FIELD: view.on_field, magic.HOSPITAL: view.hospital, magic.DEAD: view.dead}
        for warrior in state.warriors.values():
            if warrior.side != key:
                continue
            w = WarriorView(
                wid=warrior.wid,
                name=warrior.name,
                type_name=type_names.get(warrior.wid, warrior.type_name),
                place=warrior.place,
                protections=[labels[p] for p in warrior.protections],
                protected=bool(pending_face and warrior.protected_from(pending_face)),
            )
            places[warrior.place].append(w)
        if viewer.sees_kept_of(key):
            view.kept = [(card(k.uid), k.cycle, magic.kept_usable(state, key, k.uid)) for k in side.kept]
        sides[key] = view
    pending = state.pending
    may_keep = magic.may_keep(state)  # M5: the engine's answer, never recomputed here
    # A card its side may still keep is that side's secret until it is carried out.
    shown = pending is not None and (not may_keep or viewer.sees_kept_of(pending.side))
    effects = [
        EffectView(
            card=card(e.uid),
            side=e.side,
            cycle=e.cycle,
            ends_cycle=e.ends_cycle,
            affected=[state.warriors[w].name for w in e.affected],
            unaffected=[state.warriors[w].name for w in e.unaffected],
            target_side=e.target_side,
        )
        for e in state.effects
    ]
    return MassView(
        cycle=state.cycle,
        stage=state.stage,
        ended=state.ended,
        sides=sides,
        winner=state.winner,
        whose_turn=state.whose_turn(),
        points_used=state.whose_turn() in state.used_points,
        rolls=[(r.a, r.b, r.cycle, str(SOURCE_LABELS[r.source])) for r in state.rolls if r.cycle == state.cycle],
        pending=card(pending.uid) if shown and pending else None,
        pending_side=pending.side if pending else None,
        may_keep=may_keep,
        from_kept=bool(pending and pending.from_kept),
        effects=effects,
        deck_sizes={d: len(state.decks[d]) for d in magic.DECKS},
        deck_order=(
            {d: [card(u) for u in state.decks[d]] for d in magic.DECKS}
            if viewer.sees_deck_order and not state.settings.printed_decks
            else None
        ),
        printed=state.settings.printed_decks,
        drawable=_drawable(state, card) if viewer.sees_deck_order else [],
    )


def _drawable(state: magic.MassBattle, card: _Faces) -> list[MagicCardView]:
    """Printed decks (M1): the cards the record says may be drawn now by the side whose turn it is (the engine's)."""
    side = state.whose_turn()
    points = state.points.get(side or "")
    if not state.settings.printed_decks or side is None or side in state.used_points or points not in magic.DECKS:
        return []
    first = {state.cards[uid].card_id: uid for uid in reversed(state.decks[points])}
    return [card(first[card_id]) for card_id in magic.drawable(state, points)]


@dataclass
class DeckBelief:
    """M1, M7: what the record says one printed deck holds (the table checks it against the real deck)."""

    deck: int
    shuffled: list[tuple[MagicCardView, int]]  # (card, copies) in the part shuffled by hand, any order
    known: list[MagicCardView]  # then, top first, the cards put under it since
    kept: list[tuple[MagicCardView, str]]  # out of the deck: kept by a side (side name)
    pending: MagicCardView | None  # out of the deck: being carried out

    @property
    def size(self) -> int:
        return sum(n for _card, n in self.shuffled) + len(self.known)


def deck_beliefs(state: magic.MassBattle) -> list[DeckBelief]:
    """Every deck as the record has it (the engine's ``deck_belief``); the referee's only, never a player's."""
    card = _Faces(state, state_cards(state))
    first = {face.card_id: uid for uid, face in reversed(list(state.cards.items()))}
    out = []
    for deck in magic.DECKS:
        shuffled, known = magic.deck_belief(state, deck)
        counts: dict[int, int] = {}
        for card_id in shuffled:
            counts[card_id] = counts.get(card_id, 0) + 1
        kept = [
            (card(k.uid), side.name)
            for side in state.sides.values()
            for k in side.kept
            if state.cards[k.uid].deck == deck
        ]
        pending = state.pending if state.pending and state.cards[state.pending.uid].deck == deck else None
        out.append(
            DeckBelief(
                deck=deck,
                shuffled=[(card(first[c]), n) for c, n in counts.items()],
                known=[card(first[c]) for c in known],
                kept=kept,
                pending=card(pending.uid) if pending else None,
            )
        )
    return out


def _type_names(state: magic.MassBattle, version: str | None = None) -> dict[str, str]:
    """Warrior types in the reader's language (the state keeps the Russian name it started with)."""
    found = warrior_type_names((int(wid) for wid in state.warriors if wid.isdigit()), version)
    return {str(wid): name for wid, name in found.items()}
