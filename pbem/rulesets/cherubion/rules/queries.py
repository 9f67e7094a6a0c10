"""Read-only questions about a state: where pieces are, who is hostile, who holds a special
field, a piece's values with its modifiers. No dice, no changes of state.

A piece's `loc` is a field label ("F12"), "base:<side>", "nml", "prison:<seat>" (held in
that seat's Base) or "gone" (state.py's glossary).
"""

from __future__ import annotations

from typing import Any

from pbem.core.i18n import Msg, _
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.board import Board, get_board
from pbem.rulesets.cherubion.state import Piece, State


def board(state: State) -> Board:
    return get_board(state["board_size"])


def on_board(loc: str) -> bool:
    return loc[0].isalpha() and loc[0].isupper() and ":" not in loc and loc not in ("nml", "gone")


def in_base(loc: str) -> bool:
    return loc.startswith("base:")


def base_side(loc: str) -> int:
    return int(loc.split(":")[1])


def alive_seats(state: State) -> list[str]:
    return [s for s in state["order"] if state["players"][s]["alive"]]


def hostile(state: State, s1: str, s2: str) -> bool:
    """Pieces of different players are hostile unless allied (Diplomacy; spec §5.8)."""
    if s1 == s2:
        return False
    return s2 not in state["players"][s1]["allies"]


def merged(state: State, a: str, b: str) -> bool:
    """Has one of the two joined the other's team (JOIN/ADOPT)? Then they count as one."""
    return state["players"][a]["joined"] == b or state["players"][b]["joined"] == a


def cut_short(state: State) -> bool:
    """Has the active player left the game in the middle of his turn (a surrender sent
    with an answer to a question)? Then the rest of his turn lapses."""
    active = state["active"]
    return active is not None and not state["players"][active]["alive"]


def pieces_at(state: State, field: str) -> list[Piece]:
    return [p for p in state["pieces"].values() if p["loc"] == field]


def by_place(state: State) -> dict[str, list[Piece]]:
    """Every piece indexed by its `loc`, for a read-only scan of many fields (one pass
    instead of `pieces_at` per field). Stale as soon as a piece moves."""
    out: dict[str, list[Piece]] = {}
    for p in state["pieces"].values():
        out.setdefault(p["loc"], []).append(p)
    return out


def visible_hostiles_at(state: State, seat: str, field: str) -> list[Piece]:
    """Hostile pieces on `field` that engage a piece of `seat` (hidden ones do not until
    they are revealed)."""
    return [p for p in pieces_at(state, field)
            if hostile(state, seat, p["owner"]) and not p["hidden"] and not p["captive"]]


def hostile_fields(state: State, seat: str) -> frozenset[str]:
    """The board fields holding a piece `visible_hostiles_at` counts, in one pass (routes
    around the enemies a seat knows of)."""
    return frozenset(p["loc"] for p in state["pieces"].values()
                     if on_board(p["loc"]) and not p["hidden"] and not p["captive"]
                     and hostile(state, seat, p["owner"]))


def engaged(state: State, piece: Piece) -> bool:
    """A piece sharing a field with a visible hostile piece is engaged (spec §5.8 [A])."""
    if not on_board(piece["loc"]) or piece["hidden"] or piece["captive"]:
        return False
    return bool(visible_hostiles_at(state, piece["owner"], piece["loc"]))


def is_body(p: Piece) -> bool:
    """A captive taken at -9..0 ÉP (a body, not yet revived)."""
    return p["captive"] is not None and p["captive"]["dead"]


def carrier_of(p: Piece) -> str:
    """The transport piece carrying `p` home, or ""."""
    return p["captive"]["carrier"] if p["captive"] else ""


def is_character(p: Piece) -> bool:
    """Team pieces and converted prisoners; not summoned pieces (spec §5.18)."""
    return not p["summoned"]


def characters_of(state: State, seat: str) -> list[Piece]:
    """The characters keeping `seat` in the game: its own team pieces and converted pieces,
    anywhere (board, Base, NML, carried), but not those held prisoner by someone else."""
    return [p for p in state["pieces"].values()
            if p["owner"] == seat and is_character(p) and p["loc"] != "gone"
            and not p["loc"].startswith("prison:")
            and (not p["captive"] or _healable_body(state, p))]


def _healable_body(state: State, p: Piece) -> bool:
    """A body captured at exactly 0 ÉP this turn: its owner may still heal it back until
    the end step (Rulebook "Fegyveres harc"), so it is still his character until then."""
    c = p["captive"]
    return c is not None and c["dead"] and p["ep"] == 0 and \
        c["turn_no"] == state["turn_no"] and p["loc"] != "nml" and \
        not p["loc"].startswith(("base:", "prison:"))


def special_at(state: State, field: str) -> str | None:
    return board(state).special_fields().get(field)


def holder(state: State, effect: str) -> str | None:
    """Who holds the special field `effect` now: one player's pieces on it, nobody else's,
    and no combat on it this turn (Rulebook "Speciális jelzések a játéktéren"; spec §5.16)."""
    for f, e in board(state).special_fields().items():
        if e != effect:
            continue
        owners = {p["owner"] for p in pieces_at(state, f) if not p["captive"]}
        if len(owners) != 1:
            return None
        if f in state["turn"].get("combat_fields", []):
            return None
        return next(iter(owners))
    return None


def effective_tk(state: State, p: Piece) -> int:
    tk = p["tk"] + sum(m.get("tk", 0) for m in _mods(state, p))
    if holder(state, "rally") == p["owner"] and special_at(state, p["loc"]) != "rally":
        tk += 2  # Rulebook: RALLY gives the team's other members +2 TK
    return tk


def effective_vsz(state: State, p: Piece) -> int:
    return p["vsz"] + sum(m.get("vsz", 0) for m in _mods(state, p))


def fe_bonus(state: State, p: Piece) -> int:
    bonus = sum(m.get("fe", 0) for m in _mods(state, p))
    if holder(state, "rally") == p["owner"] and special_at(state, p["loc"]) != "rally":
        bonus += 1  # Rulebook: RALLY +1 FÉ
    return bonus


def _mods(state: State, p: Piece) -> list[dict[str, int]]:
    out = [a["mods"] for a in p["attached"]]
    out += list(state["turn"].get("mods", {}).get(p["id"], []))
    return out


def has_flag(p: Piece, flag: str) -> bool:
    if flag in p["flags"]:
        return True
    return any(a["grant"] == flag for a in p["attached"])


def status(p: Piece, name: str) -> bool:
    return name in p["status"]


def can_act(p: Piece) -> bool:
    """Asleep or bound pieces cannot attack, strike back or cast (cards n03, n20 [A])."""
    return not status(p, "asleep") and not status(p, "bound") and not p["captive"] \
        and not p["loc"].startswith("prison:")


def can_step(p: Piece) -> bool:
    return can_act(p) and not status(p, "immobile")


def pieces_on_board(state: State, seat: str) -> list[Piece]:
    return [p for p in state["pieces"].values()
            if p["owner"] == seat and on_board(p["loc"]) and not p["captive"]]


def side_owner(state: State, side: int) -> str | None:
    for s, pl in state["players"].items():
        if side in pl["bases"]:
            return s
    return None


def new_id(state: State, prefix: str) -> str:
    c = state["id_counters"]
    c[prefix] = c.get(prefix, 0) + 1
    return f"{prefix}{c[prefix]}"


def resource_count(state: State, seat: str) -> int:
    return sum(1 for r in state["resources"].values() if r["owner"] == seat)


SIZE_NAME = {"small": _("small"), "medium": _("medium"), "large": _("large")}


def size_name(size: str) -> Msg:
    """A resource's size as a word of the reader's language."""
    return SIZE_NAME[size]


def piece_name(name: str) -> Msg:
    """A piece's (English) name as a message: the catalog holds every piece's and card's
    name (names.py) with the rulebook's Hungarian one."""
    return Msg(name)


def either(items: list[Any]) -> str:
    """"A or B or C", the "or" in the reader's language."""
    out: str = items[0] if items else ""
    for x in items[1:]:
        out = _("{a} or {b}", a=out, b=x)
    return out


def both(items: list[Any]) -> str:
    """"A and B and C", the "and" in the reader's language."""
    out: str = items[0] if items else ""
    for x in items[1:]:
        out = _("{a} and {b}", a=out, b=x)
    return out


def team_label(team: str) -> Msg:
    """A team's (English) name as a message; the catalog holds its rulebook name (names.py)."""
    return Msg(data.teams()["teams"][team]["name_en"])


def card_label(cid: str) -> Msg:
    """A card as events name it: its Hungarian name, with the English one in English (the
    catalog holds every card's label, names.py)."""
    c = data.card(cid)
    return Msg(f"{c['name_hu']} ({c['name_en']})")


def name_of(state: State, pid: str) -> str:
    p = state["pieces"].get(pid)
    if p is None:
        return pid
    if p["hidden"]:
        return p["hidden"]
    return Msg("{name} ({id})", name=piece_name(p["name"]), id=pid)


def option(state: State, key: str) -> object:
    return state["config"]["options"].get(key)


def ask_mode(state: State) -> bool:
    return state["config"]["options"]["decisions"] == "ask"


def after(state: State, seat: str) -> list[str]:
    """The seats in turn order after `seat` (the next opponent first)."""
    order = state["order"]
    i = order.index(seat)
    return order[i + 1:] + order[:i]


def classify_target(state: State, tid: str) -> str:
    """What a card's target id names: piece, resource, marker, field, seat or unknown."""
    if tid in state["pieces"] and state["pieces"][tid]["loc"] != "gone":
        return "piece"
    if tid in state["resources"]:
        return "resource"
    if tid in state["markers"]:
        return "marker"
    if tid in board(state).fields:
        return "field"
    if tid in state["players"]:
        return "seat"
    return "unknown"


def in_own_base(state: State, seat: str, p: Piece) -> bool:
    loc = p["loc"]
    if loc == f"prison:{seat}":
        return True
    return in_base(loc) and base_side(loc) in state["players"][seat]["bases"]
