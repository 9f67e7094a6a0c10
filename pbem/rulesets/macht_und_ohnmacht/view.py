"""What a seat may see (spec §7), and the board as text and as an SVG picture.

Everything on the table is public: board, markers, reserves, stocks, held tiles (spec
A20 proposal), display, discard, used time tiles, VP, strength bonuses. The draw piles
have no hidden order (tiles are drawn from what is still in them), so their contents
are public counts. Hidden: a seat's standing orders, its turn script and its sealed bid
and IFWIN choice; each is shown to its owner only. The view is built field by field,
never by copying the state and deleting secrets. While a decision is open, what the view
shows of it comes from the kit's pause record: the question's public facts
(`Question.data["pending"]`), the sealed bids (`data["sealed"]`, each to its bidder) and
the active seat's script (`pause["script"]`, after the line that led to the decision).
Not here: rules. board_text/board_svg read only the view.
"""

from __future__ import annotations

import json
import random
import textwrap
from collections import Counter
from html import escape
from math import cos, pi, sin
from typing import Any

from pbem.core.i18n import Msg, Translator, _, join, render
from pbem.core.kit import Log
from pbem.core.kit.picture import words
from pbem.core.orders import OrderLine

from . import board, bot, data
from .data import KNIGHT, MAGE, listed
from .orders import StandingBid, parse_line
from .rules import cycle, standing
from .state import State


def view(state: State, seat: str | None) -> dict[str, Any]:
    ctype = state["cycle_type"]
    regions = {}
    for rid in board.region_ids(state):
        reg, info = state["regions"][rid], state["map"][rid]
        regions[rid] = {
            "name": info["name"], "coastal": info["coastal"], "borders": list(info["borders"]),
            "x": info.get("x"), "y": info.get("y"), "marker": reg["marker"],
            "owner": reg["owner"], MAGE: reg[MAGE], KNIGHT: reg[KNIGHT],
            "active": board.is_active_region(state, rid),
            "adjacent": board.neighbours(state, rid),
        }
    players = {}
    for s in state["seats"]:
        players[s] = {
            "vp": state["vp"][s],
            "reserve": dict(state["reserve"][s]),
            "stock": dict(state["stock"][s]),
            "tiles": sorted(data.ttype(t) for t in state["held"][s]),
            "regions": len(board.controlled(state, s)),
            "active_regions": len(board.active_regions(state, s)),
            "total": state["vp"][s] + cycle.win_regions(state, s),
            "strength": dict(sorted(state["strength"][s].items())),
        }
    turn = state["turn"]
    pause = state["pause"]
    facts = pause["questions"][0]["data"] if pause else None
    out: dict[str, Any] = {
        "seat": seat,
        "seats": list(state["seats"]),
        "options": dict(state["options"]),
        "cycle": state["cycle"],
        "cycle_type": ctype,
        "active_unit": board.ACTIVE[ctype],
        "hourglass": state["hourglass"],
        "time_tile": state["time_tile"],
        "regions": regions,
        "aside": list(state["set_aside"]),
        "players": players,
        "display": sorted(data.ttype(t) for t in state["display"]),
        "pile": dict(sorted(Counter(data.ttype(t) for t in state["pile"]).items())),
        "pile_count": len(state["pile"]),
        "discard": dict(sorted(Counter(data.ttype(t) for t in state["discard"]).items())),
        "time_pile": list(state["time_pile"]),
        "time_used": list(state["time_used"]),
        "first_recruit_done": state["first_recruit_done"],
        "start_player": state["start_player"],
        "tied_start": state["tied_start"],
        "turn": None if turn is None else {"seat": turn["seat"], "actions": turn["actions"],
                                           "used": turn["used"], "no": turn["number"]},
        "phase": (facts["pending"]["kind"] if facts else
                  "over" if state["result"] is not None else "turn"),
        "pending": dict(facts["pending"]) if facts else None,
        "result": state["result"],
    }
    if seat is not None:
        mine = state["standing"][seat]
        out["standing"] = {"bid": list(mine["bid"]), "retreat": list(mine["retreat"]),
                           "serpent": list(mine["serpent"])}
        if turn is not None and turn["seat"] == seat:
            out["script_left"] = script_left(state, seat)
        if facts and seat in facts.get("sealed", {}):
            sealed = facts["sealed"][seat]
            out["my_bid"] = {"bid": sealed["bid"], "ifwin": sealed.get("ifwin")}
    return out


def script_left(state: State, seat: str) -> list[str]:
    """The active seat's action lines not yet reached while a decision is open."""
    pause = state["pause"]
    if not pause:
        return []
    line = pause["questions"][0]["data"]["line"]
    return [text for n, text in pause["script"].get(seat, [])
            if n > line and not parse_line(state, text, seat).standing]


def redeal_hidden(state: State, seat: str | None, rng: random.Random) -> State:
    """For the leak test: re-deal what `seat` cannot see: the other seats' standing
    orders, the active seat's script (when it is not `seat`) and the other seats' sealed
    bids."""
    new = json_copy(state)
    pause = new["pause"]
    for s in (s for s in new["seats"] if s != seat):
        lines = [*bot.random_standing(new, s, rng), str(StandingBid("any", rng.randint(0, 9)))]
        new["standing"][s] = {"bid": [], "serpent": [], "retreat": []}
        standing.absorb(new, Log(), s, [OrderLine(i, ln, parse_line(new, ln))
                                         for i, ln in enumerate(lines, start=1)])
        if not pause:
            continue
        line = pause["questions"][0]["data"]["line"]
        if s in pause["script"]:
            kept = [x for x in pause["script"][s] if x[0] <= line]
            filler = [str(o) for o in bot.legal_actions(new, s, full=False, rng=rng)]
            pause["script"][s] = kept + [[line + 1 + i, text] for i, text in
                                         enumerate(filler[:rng.randint(1, 4)])]
        for q in pause["questions"]:
            sealed = q["data"].get("sealed", {})
            if s in sealed:
                sealed[s] = {"bid": rng.randint(0, 9), **rng.choice([{}, {"ifwin": "DECLINE"}])}
    return new


def json_copy(state: Any) -> Any:
    """An exact copy of plain JSON data (faster than deepcopy)."""
    return json.loads(json.dumps(state))


def _units(r: dict[str, Any]) -> Msg | str:
    parts = []
    if r[KNIGHT]:
        parts.append(_("{n}K", n=r[KNIGHT]))  # K: knights, as orders count them (2K 1M)
    if r[MAGE]:
        parts.append(_("{n}M", n=r[MAGE]))
    return listed(parts, " ")


# One region's row of the board text: the layout is a message of its own, so that a
# translation can widen the columns for its longer words (the values are translated).
def _row(**args: Any) -> Msg:
    return _("  {rid:<4}{name:<{width}}  {marker:<7}{coast:<7}{owner:<7}{units:<7}{star} adj: "
             "{adj}", **args)


def board_text(v: dict[str, Any]) -> Msg:
    args = {"cycle": v["cycle"], "n": v["hourglass"],
            "type": _("MAGIC") if v["cycle_type"] == "magic" else _("STEEL"),
            "units": _("knights") if v["active_unit"] == KNIGHT else _("mages")}
    lines: list[Any] = [
        _("Cycle {cycle}: {type} (active: {units}); hourglass {n}; time tile {t}",
          t=v["time_tile"], **args) if v["time_tile"] else
        _("Cycle {cycle}: {type} (active: {units}); hourglass {n}", **args)]
    lines.append(_("Adjacency now: shared border. K = knights (cubes), M = mages (discs); "
                   "* = active region.") if v["cycle_type"] == "steel" else
                 _("Adjacency now: same region marker. K = knights (cubes), M = mages (discs); "
                   "* = active region."))
    width = max(len(r["name"]) for r in v["regions"].values())
    for rid, r in v["regions"].items():
        lines.append(_row(rid=rid, name=r["name"], width=width, marker=data.term(r["marker"]),
                          coast=_("coast") if r["coastal"] else _("inland"),
                          owner=r["owner"] or "-", units=_units(r),
                          star="*" if r["active"] else " ", adj=listed(list(r["adjacent"]))))
    if v["cycle_type"] == "magic":
        # Land borders matter in magic too (next cycle's adjacency, retreat planning).
        borders = "  ".join(f"{rid}:{'/'.join(r['borders'])}" for rid, r in v["regions"].items())
        lines.append(_("Land borders (adjacency in the steel cycle):"))
        lines.extend(textwrap.wrap(borders, 88, initial_indent="  ", subsequent_indent="  "))
    lines.append(_("Set-aside markers: {markers}",
                   markers=_terms(v["aside"]) if v["aside"] else _("none")))
    lines.append(_("Display: {tiles}; draw pile {n}, discard {m}",
                   tiles=_terms(v["display"]) if v["display"] else _("empty"),
                   n=v["pile_count"], m=sum(v["discard"].values())))
    for s, p in v["players"].items():
        strength = listed([Msg("{symbol}+{n}", symbol=data.term(k), n=n)
                         for k, n in p["strength"].items()])
        args = {"seat": s, "vp": p["vp"], "active": p["active_regions"], "total": p["total"],
                "k": p["reserve"][KNIGHT], "m": p["reserve"][MAGE], "sk": p["stock"][KNIGHT],
                "sm": p["stock"][MAGE], "tiles": _terms(p["tiles"]) if p["tiles"] else _("none")}
        lines.append(_("{seat}: VP {vp}, active regions {active}, total {total}; reserve {k}K "
                       "{m}M; stock {sk}K {sm}M; tiles: {tiles}; strength {strength}",
                       strength=strength, **args) if p["strength"] else
                     _("{seat}: VP {vp}, active regions {active}, total {total}; reserve {k}K "
                       "{m}M; stock {sk}K {sm}M; tiles: {tiles}", **args))
    t = v["turn"]
    if t:
        args = {"seat": t["seat"], "no": t["no"], "used": t["used"], "actions": t["actions"]}
        lines.append(_("Turn: {seat} (turn {no} of the cycle), {used}/{actions} actions used; "
                       "first recruit of the cycle done.", **args) if v["first_recruit_done"]
                     else _("Turn: {seat} (turn {no} of the cycle), {used}/{actions} actions "
                            "used; first recruit of the cycle still gives 3.", **args))
    if v["result"]:
        lines.append(_("Result: {seats} ({reason}).", seats=data.both(v["result"]["winners"]),
                       reason=cycle.reason_of(v["result"])))
    return join(lines, "\n")


def _terms(words: list[str]) -> Msg | str:
    return listed([data.term(w) for w in words])


_MARKER_COLOUR = {"castle": "#e0c020", "helmet": "#c83030", "tent": "#3060c0", "key": "#30a040"}
_SEAT_COLOUR = {"orange": "#f08020", "white": "#ffffff"}


def _positions(v: dict[str, Any]) -> dict[str, tuple[float, float]]:
    regs = v["regions"]
    if all(r["x"] is not None and r["y"] is not None for r in regs.values()):
        return {rid: (float(r["x"]), float(r["y"]) + 30) for rid, r in regs.items()}
    ids = sorted(regs)
    return {rid: (240 + 170 * cos(2 * pi * i / len(ids)), 300 + 200 * sin(2 * pi * i / len(ids)))
            for i, rid in enumerate(ids)}


# The markers' initials in their circles, in the order castle, helmet, tent, key: one
# message, so that a translation picks initials that tell its four words apart.
_MARKERS = ("castle", "helmet", "tent", "key")


def _initials(t: Translator | None) -> dict[str, str]:
    return dict(zip(_MARKERS, render(_("C/H/T/K"), t).split("/"), strict=False))


def board_svg(v: dict[str, Any], t: Translator | None = None) -> str:
    """The regions as rings on the map (the owner's colour, the marker's initial, the
    units), both seats' stocks and a legend, in the language of `t`."""
    pos = _positions(v)
    regs = v["regions"]
    initials = _initials(t)
    scores = join([_("{seat} {vp} VP", seat=s, vp=p["vp"]) for s, p in v["players"].items()],
                  " / ")
    title = _("Cycle {cycle} {type} - hourglass {n} - {scores}", cycle=v["cycle"],
              type=_("MAGIC") if v["cycle_type"] == "magic" else _("STEEL"),
              n=v["hourglass"], scores=scores)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="480" height="600" '
           'viewBox="0 0 480 600" font-family="sans-serif" font-size="11">',
           '<rect width="480" height="600" fill="#cfe3f0"/>',
           f'<text x="8" y="16" font-size="13">{words(title, t)}</text>']
    seen = set()
    for rid, r in regs.items():
        for b in r["borders"]:
            if b in pos and (b, rid) not in seen:
                seen.add((rid, b))
                (x1, y1), (x2, y2) = pos[rid], pos[b]
                out.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
                           'stroke="#888" stroke-width="2"/>')
    for rid, r in regs.items():
        x, y = pos[rid]
        fill = _SEAT_COLOUR.get(r["owner"] or "", "#d8d0b8")
        stroke = "#000" if r["active"] else "#666"
        width = 4 if r["active"] else 1.5
        out.append(f'<g id="region-{escape(rid)}">')
        dash = "" if r["coastal"] else ' stroke-dasharray="4 2"'
        out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="30" fill="{fill}" stroke="{stroke}" '
                   f'stroke-width="{width}"{dash}/>')
        colour = _MARKER_COLOUR.get(r["marker"] or "", "#999")
        out.append(f'<circle cx="{x + 28:.0f}" cy="{y - 24:.0f}" r="9" fill="{colour}" '
                   'stroke="#000"/>')
        initial = initials.get(r["marker"] or "", (r["marker"] or "?")[0].upper())
        out.append(f'<text x="{x + 28:.0f}" y="{y - 21:.0f}" text-anchor="middle" '
                   f'font-size="9">{escape(initial)}</text>')
        out.append(f'<text x="{x:.0f}" y="{y - 8:.0f}" text-anchor="middle" font-size="10">'
                   f'{words(r["name"], t)}</text>')
        if r["owner"]:
            out.append(f'<text x="{x:.0f}" y="{y + 8:.0f}" text-anchor="middle" '
                       f'font-weight="bold">{words(_units(r), t)}</text>')
        if r["active"]:
            out.append(f'<text x="{x:.0f}" y="{y + 22:.0f}" text-anchor="middle">'
                       f'{words(_("active"), t)}</text>')
        out.append("</g>")
    y = 552
    for s, p in v["players"].items():
        out.append(f'<rect x="8" y="{y - 11}" width="12" height="12" '
                   f'fill="{_SEAT_COLOUR.get(s, "#999")}" stroke="#000"/>')
        stock = _("{seat}: reserve {k}K {m}M, tiles {n}, total {total}", seat=s,
                  k=p["reserve"][KNIGHT], m=p["reserve"][MAGE], n=len(p["tiles"]),
                  total=p["total"])
        out.append(f'<text x="26" y="{y}">{words(stock, t)}</text>')
        y += 16
    adjacency = (_("same marker = adjacent now") if v["cycle_type"] == "magic"
                 else _("lines = borders = adjacent now"))
    rings = _("Thick ring: active region; dashed ring: inland (no sea voyage from it).")
    markers = _("{initials}: castle/helmet/tent/key marker; {adjacency}.",
                initials="/".join(initials[m] for m in _MARKERS), adjacency=adjacency)
    out.append(f'<text x="8" y="{y}" font-size="9">{words(rings, t)}</text>')
    out.append(f'<text x="8" y="{y + 11}" font-size="9">{words(markers, t)}</text>')
    out.append("</svg>")
    return "".join(out)
