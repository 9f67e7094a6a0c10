"""What a seat may see (spec 7), and the board as text and as an SVG picture.

The view is built field by field from the state (never a copy with secrets deleted). Hidden
from other seats: standing orders (battle instructions, retreat and loss preferences, the
Palatine's ranking) and, during an election, the current treasuries (only the declared
ones are public). The event deck's remaining order does not exist: cards are drawn from the
pile when they are turned up. Units that moved are never shown face down in a view, because
movement is resolved inside one step and the battle phase turns them face up before any
report is issued; the movement events name only the number of units moved.
"""

from __future__ import annotations

import unicodedata
from html import escape
from typing import Any

from pbem.core.i18n import Msg, Translator, _, join, render
from pbem.core.kit import Question
from pbem.core.kit.picture import words
from pbem.rulesets.kard_es_korona.board import County, GameMap, game_map
from pbem.rulesets.kard_es_korona.data import (
    ARMS,
    CENTRE,
    OFFICE_WORDS,
    OFFICES,
    TERRAINS,
    card,
    colour,
    lord_name,
    province_name,
    ring,
)
from pbem.rulesets.kard_es_korona.orders import Flee, Reroll, RerollPolicy
from pbem.rulesets.kard_es_korona.rules.control import camp, step_allowance
from pbem.rulesets.kard_es_korona.rules.elections import current_office

# counts shown for the victory conditions (they follow option control_model)
from pbem.rulesets.kard_es_korona.rules.victory import (
    held_castles,
    held_counties,
    held_provinces,
    holdings,
)
from pbem.rulesets.kard_es_korona.state import Standing, State, holder, total

ASKED = {"battle": _("battle phase, battle instructions"), "move": _("movement, next step"),
         "oath": _("battle phase, oath of fealty"),
         "palatine": _("election, the Palatine's tie choice")}
# A player's status (state) as the report shows it.
STATUSES = {"active": _("active"), "vassal": _("vassal"), "captive": _("captive"),
            "defeated": _("defeated"), "out": _("out")}


def asked(state: State) -> list[Question]:
    """The open questions other than sealed bids (those read as the election step)."""
    pause = state["pause"]
    qs = [Question.from_json(q) for q in pause["questions"]] if pause else []
    return [q for q in qs if q.kind != "bid"]


def phase_label(state: State) -> Msg:
    y = state["year"]
    n = y - 1300
    of = state["last_year"] - 1300
    ph = state["phase"]
    qs = asked(state)
    if qs:
        return _("Year {year} ({n} of {of}): {what}", year=y, n=n, of=of,
                 what=ASKED.get(qs[0].kind, qs[0].kind))
    if ph == "deploy":
        return _("Set-up: starting placement")
    if ph == "orders":
        return _("Year {year} ({n} of {of}): recruitment and movement orders", year=y, n=n,
                 of=of)
    if ph == "bid":
        return _("Year {year} ({n} of {of}): election, {office}", year=y, n=n, of=of,
                 office=OFFICE_WORDS[current_office(state)])
    if ph == "over":
        return _("Game over ({year})", year=y)
    return _("Year {year}", year=y)


def moving(state: State) -> bool:
    """True while the movement phase waits for a player's next step (option
    movement=strict): the units moved this year are face down until phase IV (p. 8)."""
    return any(q.kind == "move" for q in asked(state))


def bidding(state: State) -> bool:
    """During an election's auctions only the declared treasuries are public (p. 12)."""
    return state["phase"] == "bid" and not asked(state)


def view(state: State, seat: str | None) -> dict[str, Any]:
    gm = game_map(state["version"])
    hidden = bidding(state)
    held = holdings(state)
    players = {}
    for s in state["seats"]:
        p = state["players"][s]
        group = camp(state, s)
        players[s] = {
            "province": province_name(s), "lord_name": lord_name(s), "status": p["status"],
            "lord": p["lord"], "overlord": p["overlord"], "captive_until": p["captive_until"],
            "treasury": (p["treasury"] if (not hidden or s == seat) else None),
            "castles": len(held_castles(state, {s}, held)),
            "counties": len(held_counties(state, {s}, held)),
            "castles_with_vassals": len(held_castles(state, group, held)),
            "provinces": held_provinces(state, group, held),
            "offices": [o for o in OFFICES if holder(state, o) == s],
        }
    board = {}
    face_down = moving(state)
    for c in gm.counties:
        stack = state["board"].get(c)
        # who holds it: with persistent control also an empty county (rulebook p. 3)
        entry: dict[str, Any] = {"holder": held.get(c)}
        if stack:
            entry["owner"] = stack["owner"]
            entry["units"] = dict(stack["units"])
            if face_down and stack["owner"] != seat and total(stack["used"]):
                # units that moved this year lie face down: owner and count only (p. 8)
                entry["units"] = {a: stack["units"][a] - stack["used"][a] for a in ARMS}
                entry["face_down"] = total(stack["used"])
            elif face_down and stack["owner"] == seat and total(stack["used"]):
                entry["moved"] = dict(stack["used"])  # own units that may not move again
        if c in state["out_of_play"]:
            entry["out"] = True
        board[c] = entry
    v: dict[str, Any] = {
        "game": "kard-es-korona", "version": state["version"], "year": state["year"],
        "last_year": state["last_year"], "phase": state["phase"],
        "label": phase_label(state), "start": state["start"], "seats": list(state["seats"]),
        "nplayers": state["player_count"], "players": players, "offices": dict(state["offices"]),
        "card": state["card"], "card_name": card(state["card"])["name"] if state["card"] else "",
        "drawn": list(state["drawn"]), "guilds_from": state["guilds_from"],
        "board": board,
        "battles": [{"county": b["county"], "attacker": b["attacker"],
                     "army": (dict(b["army"]) if not face_down or b["attacker"] == seat
                              else None),
                     "size": total(b["army"]), "lord": b["lord"]} for b in state["battles"]],
        "ask": _asked_view(state),
        "result": state["result"], "seat": seat,
    }
    election = state["election"]
    if election:
        v["election"] = {"office": OFFICES[min(election["office"], 2)],
                         "declared": dict(election["declared"]),
                         "results": [dict(r) for r in election["results"]]}
    if seat is not None and seat in state["players"]:
        p = state["players"][seat]
        v["me"] = {"treasury": p["treasury"], "standing": p["standing"],
                   "standing_lines": standing_lines(p["standing"]),
                   "steps": step_allowance(state, seat)}
    return v


def _asked_view(state: State) -> dict[str, Any] | None:
    qs = asked(state)
    if not qs:
        return None
    return {"kind": qs[0].kind, "seats": [q.seat for q in qs]}


def standing_lines(st: Standing) -> list[str]:
    """A seat's standing orders as canonical order lines (to copy into the next mail)."""
    out = []
    for kind, arms in sorted(st.get("lead", {}).items()):
        out.append(f"LEAD {kind} " + " ".join(arms))
    for kind, arms in sorted(st.get("target", {}).items()):
        out.append(f"TARGET {kind} " + " ".join(arms))
    if "reroll" in st:
        policy = RerollPolicy(st["reroll"], st.get("reroll_hits", 0), st.get("reroll_arm", ""))
        out.append(str(Reroll(policy)))
    if "flee" in st:
        out.append(str(Flee(st["flee"])))
    if "fealty" in st:
        out.append(f"FEALTY {st['fealty'].upper()}")
    for key in ("retreat", "rejoin", "place", "losses", "prefer"):
        if st.get(key):
            out.append(f"{key.upper()} " + " ".join(st[key]))
    for what, counties in sorted(st.get("veto", {}).items()):
        out.append(f"VETO {what.upper()} " + (" ".join(counties) if counties else "NONE"))
    if "sequence" in st:
        out.append(f"SEQUENCE {st['sequence'].upper()}")
    for year, bids in sorted(st.get("prebids", {}).items()):
        for b in bids:
            cond = f" IF {b['cond'].upper()} {b['cond_office']}" if b["cond"] else ""
            line = f"BID {b['office']} {b['amount']}{cond}"
            out.append(_("{line}  # pre-bid for {year}", line=line, year=year))
    return out


def _units(u: dict[str, int]) -> str:
    return " ".join(f"{u[a]}{a[0]}" for a in ARMS if u.get(a))


def _name(owner: str | None) -> str:
    if owner is None:
        return "-"
    if owner == "royal":
        return _("royal")
    if owner.startswith("n_"):
        return _("neutral({province})", province=owner[2:])
    return owner


# Rulebook p. 5 and p. 8 (spec 5.4.3): what a MOVE line costs, for players without the board.
MP_LEGEND = _("Movement: cavalry and lords 4 MP, infantry and archers 2 MP; entering a county "
              "costs 1 MP, a mountain or swamp 2 MP, +1 MP across a wide river (shown in "
              "brackets after a neighbour).")
RIVER_NAMES = {"duna": "Duna", "tisza": "Tisza", "drava": "Dráva", "maros": "Maros"}


def _borders(v: dict[str, Any], county: Any) -> str:
    """The county's neighbours in play, with the wide river crossed to reach them."""
    gm = game_map(v["version"])
    out = []
    for b, river in county.neighbours:
        if v["board"][b].get("out"):
            continue
        name = gm.counties[b].name
        out.append(f"{name} ({RIVER_NAMES.get(river, river)})" if river else name)
    return ", ".join(sorted(out, key=_sort_key)) or "-"


def _sort_key(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower())
                   if not unicodedata.combining(c))


def _indented(line: Msg) -> Msg:
    return Msg("  {line}", line=line)  # no words: not a message to translate


def _county_line(v: dict[str, Any], cid: str, lords: dict[str, str]) -> Msg:
    """'Name [terrain (castle)] held by X: owner 2c 1i +lord Y | borders A, B'. The optional
    parts are messages with their leading space, so the English line stays as it was."""
    county = game_map(v["version"]).counties[cid]
    e = v["board"][cid]
    if e.get("out"):
        return _indented(_("{county}: out of play", county=county.name))
    terrain = TERRAINS[county.terrain]
    tag = Msg("{terrain} ({castle})", terrain=terrain, castle=county.castle) \
        if county.castle else terrain
    parts: list[Any] = []
    if e.get("units"):
        parts.append(Msg(" {owner} {units}", owner=_name(e.get("owner")), units=_units(e["units"])))
    if e.get("face_down"):
        parts.append(_(" +{n} face down", n=e["face_down"]))
    if e.get("moved"):
        parts.append(_(" (moved this year: {units})", units=_units(e["moved"])))
    stack = join(parts, "") if parts else _(" empty")
    lord = _(" +lord {seat}", seat=lords[cid]) if cid in lords else ""
    held = _(" held by {holder}", holder=_name(e["holder"])) if e["holder"] else ""
    return _indented(_("{county} [{tag}]{held}:{stack}{lord} | borders {borders}",
                       county=county.name, tag=tag, held=held, stack=stack, lord=lord,
                       borders=_borders(v, county)))


def _player_line(s: str, p: dict[str, Any]) -> Msg:
    money = "?" if p["treasury"] is None else str(p["treasury"])
    line = _("{seat} ({lord}): {status}, {money} garas, castles {castles}, counties {counties}",
             seat=s, lord=p["lord_name"], status=STATUSES.get(p["status"], p["status"]),
             money=money, castles=p["castles"], counties=p["counties"])
    extra: list[Msg] = []
    if p["offices"]:
        extra.append(_("offices {offices}", offices=join([OFFICE_WORDS[o] for o in p["offices"]],
                                                          "/")))
    if p["overlord"]:
        extra.append(_("vassal of {seat}", seat=p["overlord"]))
    if p["captive_until"]:
        extra.append(_("captive: dies at the start of {year} unless ransomed (RANSOM, 20 garas)",
                       year=p["captive_until"]))
    if extra:
        line = Msg("{line}; {extra}", line=line, extra=join(extra, "; "))
    return _indented(line)


def board_text(v: dict[str, Any]) -> Msg:
    gm = game_map(v["version"])
    lines: list[Any] = [_("{label}. Start player: {seat}. Event card: {card}.", label=v["label"],
                          seat=v["start"], card=v["card_name"] or "-"), MP_LEGEND]
    lords = {p["lord"]: s for s, p in v["players"].items() if p["lord"]}
    for prov in [*ring(), CENTRE]:
        lines.append(f"{province_name(prov)}:")
        for c in gm.provinces[prov]:
            lines.append(_county_line(v, c, lords))
    for b in v["battles"]:
        army = _units(b["army"]) if b["army"] is not None else \
            _("{n} face-down units", n=b["size"])
        where = {"county": gm.counties[b["county"]].name, "seat": b["attacker"], "army": army}
        lines.append(_("Pending battle at {county}: {seat} attacks with {army} +lord.", **where)
                     if b["lord"] else
                     _("Pending battle at {county}: {seat} attacks with {army}.", **where))
    lines.append(_("Players:"))
    for s, p in v["players"].items():
        lines.append(_player_line(s, p))
    return join([*lines, ""], "\n")


def _xy(pos: tuple[float, float]) -> tuple[float, float]:
    return ((pos[0] - 15.4) * 62 + 20, (49.5 - pos[1]) * 88 + 20)


def _spread(points: dict[str, tuple[float, float]], gap: float = 32.0,
            rounds: int = 40) -> dict[str, tuple[float, float]]:
    """Push apart county circles drawn closer than `gap` pixels (the BASIC map draws a county
    at the mean of the ADVANCED counties it merges, so some would overlap). Deterministic:
    pairs in sorted order, fixed number of rounds."""
    pts = {k: [x, y] for k, (x, y) in sorted(points.items())}
    keys = list(pts)
    for _i in range(rounds):
        moved = False
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                dx = pts[b][0] - pts[a][0]
                dy = pts[b][1] - pts[a][1]
                d = (dx * dx + dy * dy) ** 0.5
                if d >= gap:
                    continue
                if d < 1e-6:
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (gap - d) / 2
                pts[a][0] -= dx / d * push
                pts[a][1] -= dy / d * push
                pts[b][0] += dx / d * push
                pts[b][1] += dy / d * push
                moved = True
        if not moved:
            break
    return {k: (x, y) for k, (x, y) in pts.items()}


def _fill(holder: str | None, out: bool) -> str:
    if out:
        return "#999"
    if holder is None:
        return "#ffffff"
    if holder == "royal":
        return "#e8e8e8"
    return colour(holder[2:] if holder.startswith("n_") else holder)


def _svg_borders(gm: GameMap, xy: dict[str, tuple[float, float]]) -> list[str]:
    """Every border one segment of two paths (plain, wide river on top): a report mail
    carries the picture at every step, and a path is a quarter of the bytes of its lines."""
    plain: list[str] = []
    rivers: list[str] = []
    done = set()
    for a, c in gm.counties.items():
        for b, river in c.neighbours:
            if (b, a) in done:
                continue
            done.add((a, b))
            x1, y1 = xy[a]
            x2, y2 = xy[b]
            (rivers if river else plain).append(f"M{x1:.0f} {y1:.0f}L{x2:.0f} {y2:.0f}")
    return [f'<path d="{"".join(plain)}" fill="none" stroke="#bbb" stroke-width="1"/>',
            f'<path d="{"".join(rivers)}" fill="none" stroke="#3b7dd8" stroke-width="3"/>']


def _svg_county(c: County, x: float, y: float, e: dict[str, Any], label: str,
                t: Translator | None) -> list[str]:
    holder = e["holder"]
    stroke = {"mountain": "#8a5a2b", "swamp": "#2f8f5b"}.get(c.terrain, "#333")
    dash = ' stroke-dasharray="3,2"' if c.terrain == "swamp" else ""
    op = ' fill-opacity="0.45"' if holder and (holder == "royal" or holder.startswith("n_")) \
        else ""
    tip = Msg("{county} ({terrain})", county=c.name, terrain=TERRAINS[c.terrain])
    out = [f'<circle cx="{x:.0f}" cy="{y:.0f}" r="13" fill="{_fill(holder, bool(e.get("out")))}"'
           f'{op} stroke="{stroke}" stroke-width="2.5"{dash}><title>{words(tip, t)}'
           f'</title></circle>']
    if c.terrain == "mountain":
        out.append(f'<polygon points="{x - 5:.0f},{y - 6:.0f} {x:.0f},{y - 13:.0f} '
                   f'{x + 5:.0f},{y - 6:.0f}" fill="#8a5a2b"/>')
    if c.has_castle:
        out.append(f'<rect x="{x - 4:.0f}" y="{y - 17:.0f}" width="8" height="7" '
                   'fill="#222"/>')
    out.append(f'<text x="{x:.0f}" y="{y + 3:.0f}" text-anchor="middle" '
               f'font-size="7.5">{escape(c.name)}</text>')
    if label:
        out.append(f'<text x="{x:.0f}" y="{y + 23:.0f}" text-anchor="middle" '
                   f'font-weight="bold">{escape(label.strip())}</text>')
    return out


def _svg_label(v: dict[str, Any], cid: str, lords: dict[str, str]) -> str:
    """Under a county: its units, the lord's star, a pending attack's crossed swords."""
    e = v["board"][cid]
    label = _units(e["units"]) if e.get("units") else ""
    if e.get("face_down"):
        label += f" +{e['face_down']}?"
    if cid in lords:
        label += " \u2605" + lords[cid][:3]
    for b in v["battles"]:
        if b["county"] == cid:
            army = _units(b["army"]) if b["army"] is not None else f"{b['size']}?"
            label += f" \u2694{b['attacker'][:3]} {army}"
    return label


def _svg_legend(v: dict[str, Any], w: int, h: int, t: Translator | None) -> list[str]:
    """One colour swatch per seat (neutral provinces pale, royal grey); the line breaks
    where the words of the reader's language reach the edge."""
    items = [(colour(seat), f"{seat} ({p['lord_name']})") for seat, p in v["players"].items()]
    items.append(("", render(_("pale = neutral, light grey = royal, white = empty"), t)))
    out = []
    lx, ly = 10.0, h - 44
    for fill, text in items:
        width = 20 + 5.0 * len(text)
        if lx + width > w:
            lx, ly = 10.0, ly + 13
        if fill:
            out.append(f'<rect x="{lx:.0f}" y="{ly - 9:.0f}" width="10" height="10" '
                       f'fill="{fill}" stroke="#333"/>')
            lx += 13
        out.append(f'<text x="{lx:.0f}" y="{ly:.0f}">{escape(text)}</text>')
        lx += width - (13 if fill else 0)
    return out


def board_svg(v: dict[str, Any], t: Translator | None = None) -> str:
    """The counties on the map (holder's colour, terrain, castle), their units, lords and
    pending attacks, the seats' colours and a legend, in the language of `t`."""
    gm = game_map(v["version"])
    w, h = 720, 505
    xy = _spread({c: _xy(gm.pos[c]) for c in gm.counties}, gap=36.0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
           f'height="{h}" font-family="sans-serif" font-size="9">',
           f'<rect width="{w}" height="{h}" fill="#fbf8ef"/>']
    out += _svg_borders(gm, xy)
    lords = {p["lord"]: s for s, p in v["players"].items() if p["lord"]}
    for cid, c in gm.counties.items():
        out += _svg_county(c, *xy[cid], v["board"][cid], _svg_label(v, cid, lords), t)
    out += _svg_legend(v, w, h, t)
    legend = _("{label}; c=cavalry i=infantry a=archer, {star} lord, {swords} pending attack, "
               "square = castle, blue line = wide river", label=v["label"], star="\u2605",
               swords="\u2694")
    out.append(f'<text x="10" y="{h - 8}">{words(legend, t)}</text>')
    out.append("</svg>")
    return "".join(out)


def total_units(v: dict[str, Any]) -> int:
    return sum(total(e["units"]) for e in v["board"].values() if e.get("units"))
