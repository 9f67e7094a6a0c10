"""What a seat may see, and the board as text and SVG (spec §7).

Everything is public except each VP bag (private to its owner unless the option
`public_scores` is on, and revealed at the end) and each seat's stored orders.
Renderers take only a view, never the state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.i18n import Msg, Translator, _, join
from pbem.core.kit import Question
from pbem.core.kit.picture import words
from pbem.rulesets.helios import board, data
from pbem.rulesets.helios.board import key
from pbem.rulesets.helios.rules import sun
from pbem.rulesets.helios.rules.seats import current_seat
from pbem.rulesets.helios.state import Player, State
from pbem.rulesets.helios.words import idterm, idterms, term, terms


def view(state: State, seat: str | None, questions: Sequence[Question] = ()) -> dict[str, Any]:
    over = state["phase"] == "over"
    public_vp = over or state["options"]["public_scores"] == "yes"
    return {
        "seat": seat, "seats": state["seats"], "round": state["round"], "rounds": state["rounds"],
        # Phase 3 while its catch-up resources are asked
        "phase": "catchup" if any(q.kind == "catchup" for q in questions) else state["phase"],
        "start": state["start"],
        "current": current_seat(state) if state["phase"] == "actions" else None,
        "turn": state["turn_index"],
        "asking": [q.seat for q in questions if q.kind == "catchup"],
        "columns": state["columns"], "piles": {s: len(v) for s, v in state["piles"].items()},
        "discards": state["discards"], "display": state["display"],
        "display_cubes": state["display_cubes"],
        "type_piles": state["type_piles"], "extra_pile": len(state["extra_pile"]),
        "bonus_supply": state["bonus_supply"],
        "characters": state["characters"],
        "players": {s: _player_view(state, s, p, seat, public_vp)
                    for s, p in state["players"].items()},
        "final": state["final"] if over else None,
        "phase2": state["phase2"],
        "estate": _estate_view(questions, seat),
    }


def _player_view(state: State, s: str, p: Player, seat: str | None,
                 public_vp: bool) -> dict[str, Any]:
    pv: dict[str, Any] = {
        "tiles": p["tiles"], "sun": p["sun"], "sun_value": p["sun_value"],
        "sun_infinite": p["sun_infinite"], "mana": p["mana"], "temples": p["temples"],
        "buildings": p["buildings"], "under": p["under"], "laps": p["laps"],
        "circuit_round": p["circuit_round"]}
    pv["characters"] = {c: ("active" if v["active"] else "hired")
                        for c, v in state["characters"].items() if v["owner"] == s}
    if public_vp or s == seat:
        pv["vp"] = p["vp"]
    if s == seat:
        pv["pending"] = p["pending"]
        pv["catchup"] = p["catchup"]
    if state["phase"] != "setup" and state["phase"] != "over":
        dests = sun.destinations(state, s)
        pv["sun_reach"] = [key(c) for c in board.all_cells() if c in dests]
        pv["placements"] = [key(c) for c in board.legal_placements(
            board.tileset(p), board.sun_cell(p))]
    return pv


def _estate_view(questions: Sequence[Question], seat: str | None) -> dict[str, Any] | None:
    """The Estate Manager's drawn tiles while their seat is asked where they go."""
    q = next((q for q in questions if q.kind == "estate"), None)
    if q is None:
        return None
    out = {"seat": q.seat, "tiles": list(q.data["tiles"])}
    if seat == q.seat:
        out["rest_of_turn"] = list(q.data["rest_of_turn"])
    return out


def redeal_hidden(state: State, seat: str | None, rng: random.Random) -> State:
    """For the leak test: re-deal what `seat` cannot see: the other seats' VP bags (unless
    public), stored turns, standing catch-up orders, and the rest of an asked turn."""
    if state["phase"] == "over":
        return state
    for other, p in state["players"].items():
        if other == seat:
            continue
        if state["options"]["public_scores"] != "yes":
            p["vp"] = rng.randrange(0, 300)
        p["pending"] = [["TAKE sun", "DECLINE"]] * rng.randrange(0, 3)
        p["catchup"] = rng.choice([None, "CATCHUP black", "CATCHUP blue AT 0,0"])
    pause = state["pause"]
    for q in pause["questions"] if pause else []:
        if q["kind"] == "estate" and q["seat"] != seat:
            q["data"]["rest_of_turn"] = rng.choice([[], ["BONUS DECLINE"], ["BONUS SUN TO 1,0"]])
    return state


LAND_CODE = {"redwood": "Rw", "granite": "Gr", "bamboo": "Bm", "spring": "Sp", "obsidian": "Ob",
             "empty_spaces": "bE", "prepared_land": "bP", "resources": "bR", "temples": "bT"}
CUBE_CODE = {"brown": "n", "grey": "y", "green": "g", "blue": "u", "black": "k"}


def cell_code(p: Mapping[str, Any], c: tuple[int, int]) -> str:
    t = p["tiles"].get(key(c))
    if tuple(p["sun"]) == c:
        return "(SUN)"
    if t is not None:
        inner = "^T" if t["temple"] else "".join(CUBE_CODE[x] for x in t["cubes"])
        return f"{LAND_CODE[t['type']]}:{inner}".ljust(5) if inner else f" {LAND_CODE[t['type']]}  "
    if c in board.CORNERS:
        return "  C  "
    if c in board.YELLOW:
        return "  |  "
    if c in board.MANA_SPACES:
        return "  m  "
    if c in board.BONUS_SPACES:
        return "  +  "
    return "  .  " if board.is_light(c) else "  :  "


def hex_map(cellf: Any) -> list[str]:
    """Flat-topped hexes as text: column q at x = 6*(q+4), row y2 = 2r + q."""
    lines = []
    for y2 in range(-8, 9):
        row = [" "] * 56
        for q in range(-4, 5):
            if (y2 - q) % 2:
                continue
            c = (q, (y2 - q) // 2)
            if not board.on_board(c):
                continue
            text = cellf(c)
            x = 6 * (q + 4)
            row[x:x + len(text)] = list(text)
        lines.append("".join(row).rstrip())
    return lines


def coordinate_map() -> list[str]:
    return hex_map(lambda c: f"{c[0]},{c[1]}".center(5))


# The phase ids the board text shows (view["phase"]).
PHASE_IDS = {"setup": _("setup"), "actions": _("actions"), "characters": _("characters"),
             "catchup": _("catchup"), "over": _("over")}


def _fmt(pattern: str, **args: Any) -> Msg:
    """Words laid out in a fixed pattern (no words of its own: nothing to translate)."""
    return Msg(pattern, **args)


def board_text(v: Mapping[str, Any]) -> Msg:
    head = dict(n=v["round"], rounds=v["rounds"], phase=PHASE_IDS.get(v["phase"], v["phase"]),
                seat=v["start"])
    out: list[Any] = [
        _("HELIOS  round {n} of {rounds}, phase {phase}, start player {seat}, now: {current}",
          current=v["current"], **head) if v.get("current") else
        _("HELIOS  round {n} of {rounds}, phase {phase}, start player {seat}", **head)]
    out.append(_("Action columns (top ... lowest; only the lowest may be taken):"))
    for s in data.SYMBOLS:
        tiles = terms(v["columns"][s], " ") if v["columns"][s] else _("(empty)")
        count = f"{v['piles'][s]:2}"
        out.append(_fmt("  {column} {pile} {tiles}", column=_fmt("{w:5}", w=term(s)),
                        pile=_("[{n} in pile]", n=count), tiles=tiles))

    def offered(t: str, slot: str) -> Any:
        return term(t) if v["display_cubes"].get(slot) else _("{tile} (no resource)", tile=term(t))

    lands = [offered(t, t) for t in data.LANDS if v["display"][t]]
    extra = v["display"]["extra"]
    shown = join(lands) if lands else _("none")
    if extra:
        out.append(_("Land display (1 resource each): {tiles}; extra: {extra}; extra pile {n}",
                     tiles=shown, extra=offered(extra, "extra"), n=v["extra_pile"]))
    else:
        out.append(_("Land display (1 resource each): {tiles}; extra pile {n}", tiles=shown,
                     n=v["extra_pile"]))
    out.append(_("Bonus tiles: {tiles}", tiles=join(
        [_fmt("{tile} x{n}", tile=idterm(b), n=n) for b, n in v["bonus_supply"].items()])))
    chars = []
    for c, ch in v["characters"].items():
        if not ch["owner"]:
            chars.append(idterm(c))
        elif ch["active"]:
            chars.append(_("{character} ({seat}, day)", character=idterm(c), seat=ch["owner"]))
        else:
            chars.append(_("{character} ({seat}, night)", character=idterm(c), seat=ch["owner"]))
    out.append(_("Characters: {characters}", characters=join(chars)))
    out.append("")
    out.append(_("Cell coordinates (q,r):"))
    out.extend(coordinate_map())
    for s in v["seats"]:
        p = v["players"][s]
        out.append("")
        sun = _("inf") if p["sun_infinite"] else str(p["sun_value"])
        seat = dict(seat=s, mana=p["mana"], sun=sun, temples=p["temples"])
        out.append(_("== {seat}: mana {mana}, Sun distance {sun}, temples {temples}, VP {vp} ==",
                     vp=p["vp"], **seat) if "vp" in p else
                   _("== {seat}: mana {mana}, Sun distance {sun}, temples {temples} ==", **seat))
        out.extend(hex_map(lambda c, p=p: cell_code(p, c)))
        laid: list[Msg] = []
        for k, t in sorted(p["tiles"].items()):
            tile = _fmt("{cell} {tile}", cell=k, tile=idterm(t["type"]))
            if t["temple"]:
                tile = _("{tile} temple", tile=tile)
            if t["cubes"]:
                tile = _fmt("{tile} [{cubes}]", tile=tile, cubes=terms(t["cubes"], " "))
            laid.append(tile)
        out.append(_("Tiles: {tiles}", tiles=join(laid, "; ")))
        out.append(_("City: {buildings}", buildings=idterms(p["buildings"]) if p["buildings"]
                     else _("nothing built")))
        mine = [_fmt("{character} ({side})", character=idterm(c), side=term(st))
                for c, st in p["characters"].items()]
        out.append(_("Characters: {characters}", characters=join(mine) if mine else _("none")))
        out.append(_("Under the board: {areas}", areas=join(
            [_fmt("{area} {n}", area=term(a), n=len(p["under"][a])) for a in data.AREAS])))
        if "sun_reach" in p:
            out.append(_("Sun can reach: {cells}",
                         cells=" ".join(p["sun_reach"]) or _("nowhere")))
            out.append(_("Tiles can go on: {cells}",
                         cells=" ".join(p["placements"]) or _("nowhere")))
        if p.get("pending"):
            out.append(_("Your stored turns: {turns}",
                         turns=" | ".join("; ".join(b) for b in p["pending"])))
        if p.get("catchup"):
            out.append(_("Your standing catch-up order: {order}", order=p["catchup"]))
    if v.get("final"):
        out.append("")
        out.append(_("Final scores: {scores}; winner: {winners}", scores=", ".join(
            f"{s} {f['total']}" for s, f in v["final"]["scores"].items()),
            winners=", ".join(v["final"]["winners"])))
    out.append("")
    out.append(_("Legend: Rw Gr Bm Sp Ob land, bE bP bR bT bonus tiles; cubes n brown y grey "
                 "g green u blue k black (Gr:yu = granite with grey and blue); ^T temple; "
                 "(SUN); + bonus-resource, m mana, C corner, | circuit line; : dark border"))
    return join(out, "\n")


# The city board's buildings, abbreviated to fit their spaces: messages, so that a
# translation abbreviates its own names.
CITY_ABBR = {"observatory": _("Obs"), "shrine": _("Shr"), "sun_hut": _("Hut"),
             "sacred_grove": _("Grv"), "power_plant": _("Pow"), "town_hall": _("TwH"),
             "citadel": _("Cit"), "clock_tower": _("Clk"), "bazaar": _("Baz"),
             "warehouse": _("Whs"), "estate_manager": _("Est"), "palace": _("Pal")}

FILL = {"redwood": "#a0522d", "granite": "#9e9e9e", "bamboo": "#6aa84f", "spring": "#4a90d9",
        "obsidian": "#333333", "empty_spaces": "#f3e5ab", "prepared_land": "#e6c98f",
        "resources": "#d9b38c", "temples": "#f0d080"}
CUBE = {"brown": "#8b4513", "grey": "#c0c0c0", "green": "#2e8b57", "blue": "#1e90ff",
        "black": "#111111"}


def _hex_points(cx: float, cy: float, s: float) -> str:
    """A flat-topped hex around (cx, cy). Centre and corner offsets are rounded to one
    decimal first, so every hex has the very same shape (the report compacts equal shapes
    into one definition)."""
    cx, cy = round(cx, 1), round(cy, 1)
    w, h = round(s, 1), round(s * 0.866, 1)
    half = round(s / 2, 1)
    pts = [(cx + w, cy), (cx + half, cy + h), (cx - half, cy + h),
           (cx - w, cy), (cx - half, cy - h), (cx + half, cy - h)]
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def _svg_title(seat: str, p: Mapping[str, Any]) -> Msg:
    args = {"seat": seat, "mana": p["mana"], "sun": "∞" if p["sun_infinite"] else p["sun_value"]}
    return (_("{seat}: mana {mana}, Sun {sun}, VP {vp}", vp=p["vp"], **args) if "vp" in p
            else _("{seat}: mana {mana}, Sun {sun}", **args))


def _svg_notes(p: Mapping[str, Any]) -> list[Msg]:
    """Under a player's city: what lies under the board, then the characters, two a line."""
    under = join([_fmt("{area} {n}", area=term(a), n=len(p["under"][a])) for a in data.AREAS])
    chars = [_fmt("{character} ({side})", character=term(c),
                  side=_("day") if st == "active" else _("night"))
             for c, st in p["characters"].items()]
    return [_("Under board: {areas}", areas=under)] + [join(chars[k:k + 2])
                                                       for k in range(0, len(chars), 2)]


def _svg_supply(v: Mapping[str, Any]) -> list[Msg]:
    """The action columns, the land display and the bonus tiles left."""
    cols = join([_fmt("{symbol}: {tiles}", symbol=term(sym),
                      tiles=terms(v["columns"][sym], " ") if v["columns"][sym] else "-")
                 for sym in data.SYMBOLS], "; ")
    lands = [t for t in data.LANDS if v["display"][t]]
    extra = v["display"]["extra"]
    bonus = join([_fmt("{tile} x{n}", tile=idterm(b), n=n) for b, n in v["bonus_supply"].items()])
    args = {"lands": terms(lands) if lands else "-", "bonus": bonus}
    return [_("Columns (lowest last): {columns}", columns=cols),
            _("Land display: {lands}; extra {extra}; bonus tiles: {bonus}", extra=term(extra),
              **args) if extra else _("Land display: {lands}; bonus tiles: {bonus}", **args)]


def board_svg(v: Mapping[str, Any], t: Translator | None = None) -> str:
    """Each seat's board (tiles, resources, temples, the Sun) and city, then the supply, in
    the language of `t`."""
    s = 18.0
    w_board = 9 * 1.5 * s + 2 * s
    width = int(w_board * len(v["seats"])) + 20
    height = 475
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">']
    for i, seat in enumerate(v["seats"]):
        p = v["players"][seat]
        ox = 10 + i * w_board + w_board / 2
        oy = 190.0
        parts.append(f'<text x="{ox:.0f}" y="14" text-anchor="middle" font-weight="bold">'
                     f"{words(_svg_title(seat, p), t)}</text>")
        for c in board.all_cells():
            cx = ox + 1.5 * s * c[0]
            cy = oy + s * 1.7320508 * (c[1] + c[0] / 2)
            tile = p["tiles"].get(key(c))
            fill = FILL[tile["type"]] if tile else ("#fff8e1" if board.is_light(c) else "#e0a060")
            stroke = "#d4a017" if c in board.YELLOW else "#888"
            parts.append(f'<polygon points="{_hex_points(cx, cy, s * 0.97)}" fill="{fill}" '
                         f'stroke="{stroke}" stroke-width="{2 if c in board.YELLOW else 1}">'
                         f"<title>{key(c)}</title></polygon>")
            mark = ("C" if c in board.CORNERS else "m" if c in board.MANA_SPACES
                    else "+" if c in board.BONUS_SPACES else "")
            if mark and not tile:
                parts.append(f'<text x="{cx:.1f}" y="{cy + 3:.1f}" text-anchor="middle" '
                             f'fill="#7a4a00">{mark}</text>')
            if tile and tile["temple"]:
                parts.append(f'<path d="M{cx - 6:.1f},{cy + 5:.1f} h12 v-7 l-6,-5 l-6,5 z" '
                             'fill="white" stroke="black"/>')
            if tile:
                for j, cube in enumerate(tile["cubes"]):
                    parts.append(f'<rect x="{cx - 10 + 11 * j:.1f}" y="{cy - 5:.1f}" width="9" '
                                 f'height="9" fill="{CUBE[cube]}" stroke="#fff" '
                                 f'stroke-width="1.5"><title>{words(term(cube), t)}</title></rect>')
            if tuple(p["sun"]) == c:
                parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{s * 0.55:.1f}" '
                             'fill="#ffd700" stroke="#e65c00" stroke-width="2"/>')
        # the city board: 12 building spaces, a house on the built ones
        left = ox - w_board / 2 + 6
        for j, b in enumerate(data.BUILDINGS):
            bx = left + (j % 6) * (w_board - 12) / 6
            by = 338 + (j // 6) * 22
            built = b in p["buildings"]
            parts.append(f'<rect x="{bx:.1f}" y="{by}" width="{(w_board - 12) / 6 - 2:.1f}" '
                         f'height="20" fill="{"#f5deb3" if built else "#ffffff"}" stroke="#999"/>')
            parts.append(f'<text x="{bx + 2:.1f}" y="{by + 13}" font-size="8">'
                         f"{'&#8962; ' if built else ''}{words(CITY_ABBR[b], t)}</text>")
        y = 394
        for line in _svg_notes(p)[:3]:
            parts.append(f'<text x="{left:.0f}" y="{y}">{words(line, t)}</text>')
            y += 12
    y = 440
    columns, display = _svg_supply(v)
    parts.append(f'<text x="10" y="{y}">{words(columns, t)}</text>')
    parts.append(f'<text x="10" y="{y + 14}">{words(display, t)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
