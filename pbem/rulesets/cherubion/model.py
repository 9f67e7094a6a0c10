"""The state model and its read-only queries (no dice, no changes of state).

The state is one plain JSON dict (dump/load are identity + deep copy):

- `config`, `n` (board size), `phase` (draft | place | turn | ask | over), `round`,
  `order` (turn order = choice order, spec §3.1), `active`, `players` {seat: {...}},
  `pieces` {id: {...}}, `resources` {id: {...}}, `markers` {id: {...}}, `counters`,
  `turn` (this turn's flags), `script` (the active seat's remaining order lines),
  `queue` (tasks in progress: blows, card plays), `ask` (an open mid-turn question).

A piece's `loc` is a field label ("F12"), "base:<side>", "nml", "prison:<seat>" (held
in that seat's Base), or "gone". Rules live in the chapter modules, not here.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.cherubion.board import Board, get_board

State = dict[str, Any]


def board(state: State) -> Board:
    return get_board(state["n"])


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
    allies = state["players"][s1].get("allies", [])
    return s2 not in allies


def live_pieces(state: State) -> list[dict[str, Any]]:
    return [p for p in state["pieces"].values() if p["loc"] != "gone"]


def pieces_at(state: State, field: str) -> list[dict[str, Any]]:
    return [p for p in state["pieces"].values() if p["loc"] == field]


def by_place(state: State) -> dict[str, list[dict[str, Any]]]:
    """Every piece indexed by its `loc`, for a read-only scan of many fields (one pass
    instead of `pieces_at` per field). Stale as soon as a piece moves."""
    out: dict[str, list[dict[str, Any]]] = {}
    for p in state["pieces"].values():
        out.setdefault(p["loc"], []).append(p)
    return out


def visible_hostiles_at(state: State, seat: str, field: str) -> list[dict[str, Any]]:
    """Hostile pieces on `field` that engage a piece of `seat` (hidden ones do not until
    they are revealed)."""
    return [p for p in pieces_at(state, field)
            if hostile(state, seat, p["owner"]) and not p.get("hidden") and not p.get("body")]


def engaged(state: State, piece: dict[str, Any]) -> bool:
    """A piece sharing a field with a visible hostile piece is engaged (spec §5.8 [A])."""
    if not on_board(piece["loc"]) or piece.get("hidden") or piece.get("body"):
        return False
    return bool(visible_hostiles_at(state, piece["owner"], piece["loc"]))


def is_character(p: dict[str, Any]) -> bool:
    """Team pieces and converted prisoners; not summoned pieces (spec §5.18)."""
    return not p["summoned"]


def characters_of(state: State, seat: str) -> list[dict[str, Any]]:
    """The characters keeping `seat` in the game: its own team pieces and converted pieces,
    anywhere (board, Base, NML, carried), but not those held prisoner by someone else."""
    return [p for p in state["pieces"].values()
            if p["owner"] == seat and is_character(p) and p["loc"] != "gone"
            and not p["loc"].startswith("prison:")
            and (not p.get("body") or _healable_body(state, p))]


def _healable_body(state: State, p: dict[str, Any]) -> bool:
    """A body captured at exactly 0 ÉP this turn: its owner may still heal it back until
    the end step (Rulebook "Fegyveres harc"), so it is still his character until then."""
    body = p["body"]
    return bool(body.get("dead")) and p["ep"] == 0 and \
        body.get("turn_no") == state["turn_no"] and p["loc"] not in ("nml",) and \
        not p["loc"].startswith(("base:", "prison:"))


def special_at(state: State, field: str) -> str | None:
    return board(state).special_fields().get(field)


def holder(state: State, effect: str) -> str | None:
    """Who holds the special field `effect` now: one player's pieces on it, nobody else's,
    and no combat on it this turn (Rulebook "Speciális jelzések a játéktéren"; spec §5.16)."""
    for f, e in board(state).special_fields().items():
        if e != effect:
            continue
        owners = {p["owner"] for p in pieces_at(state, f) if not p.get("body")}
        if len(owners) != 1:
            return None
        if f in state["turn"].get("combat_fields", []):
            return None
        return next(iter(owners))
    return None


def effective_tk(state: State, p: dict[str, Any]) -> int:
    tk = p["tk"] + sum(m.get("tk", 0) for m in _mods(state, p))
    if holder(state, "rally") == p["owner"] and special_at(state, p["loc"]) != "rally":
        tk += 2  # Rulebook: RALLY gives the team's other members +2 TK
    return tk


def effective_vsz(state: State, p: dict[str, Any]) -> int:
    return p["vsz"] + sum(m.get("vsz", 0) for m in _mods(state, p))


def fe_bonus(state: State, p: dict[str, Any]) -> int:
    bonus = sum(m.get("fe", 0) for m in _mods(state, p))
    if holder(state, "rally") == p["owner"] and special_at(state, p["loc"]) != "rally":
        bonus += 1  # Rulebook: RALLY +1 FÉ
    return bonus


def _mods(state: State, p: dict[str, Any]) -> list[dict[str, int]]:
    out = [a.get("mods", {}) for a in p.get("attached", [])]
    out += [m for m in state["turn"].get("mods", {}).get(p["id"], [])]
    return out


def has_flag(p: dict[str, Any], flag: str) -> bool:
    if flag in p.get("flags", []):
        return True
    return any(a.get("grant") == flag for a in p.get("attached", []))


def status(p: dict[str, Any], name: str) -> bool:
    return name in p.get("status", {})


def can_act(p: dict[str, Any]) -> bool:
    """Asleep or bound pieces cannot attack, strike back or cast (cards n03, n20 [A])."""
    return not status(p, "asleep") and not status(p, "bound") and not p.get("body") \
        and not p["loc"].startswith("prison:")


def can_step(p: dict[str, Any]) -> bool:
    return can_act(p) and not status(p, "immobile")


def pieces_on_board(state: State, seat: str) -> list[dict[str, Any]]:
    return [p for p in state["pieces"].values()
            if p["owner"] == seat and on_board(p["loc"]) and not p.get("body")]


def own_bases(state: State, seat: str) -> list[int]:
    return list(state["players"][seat]["bases"])


def side_owner(state: State, side: int) -> str | None:
    for s, pl in state["players"].items():
        if side in pl["bases"]:
            return s
    return None


def new_id(state: State, prefix: str) -> str:
    c = state["counters"]
    c[prefix] = c.get(prefix, 0) + 1
    return f"{prefix}{c[prefix]}"


def resource_count(state: State, seat: str) -> int:
    return sum(1 for r in state["resources"].values() if r["owner"] == seat)


def field_has_other_resource(state: State, field: str) -> bool:
    return any(r["field"] == field for r in state["resources"].values())


class Ctx:
    """One resolution in progress: the state, the dice and the events so far."""

    def __init__(self, state: State, dice: Any, options: dict[str, Any] | None = None) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Any] = []

    def pub(self, kind: str, text: str, **data: Any) -> None:
        from pbem.core.events import Event
        self.events.append(Event(kind, text, data, None))

    def priv(self, seats: Any, kind: str, text: str, **data: Any) -> None:
        from pbem.core.events import Event
        self.events.append(Event(kind, text, data, tuple(sorted(set(seats)))))

    def option(self, key: str, default: Any) -> Any:
        return self.state["config"]["options"].get(key, default)


def name_of(state: State, pid: str) -> str:
    p = state["pieces"].get(pid)
    if p is None:
        return pid
    if p.get("hidden"):
        return p["hidden"]
    return f"{p['name']} ({pid})"
