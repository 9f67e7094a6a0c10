"""What each seat sees (rulebook p.7, spec §7), and the board as text and SVG.

A view is built from the state by picking what the seat may see, never by copying and
deleting. Hidden: the other player's Command and Lore hands (their counts are public),
deck contents, the other's standing orders, a sealed War Council before it is revealed,
the question put to the other seat. `redeal` re-deals exactly those for the leak test.
Not here: rules, prompts (phases.py).
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Mapping
from typing import Any

from pbem.core.i18n import Msg, Translator, _, join
from pbem.core.kit import Question
from pbem.core.kit.picture import words

from .board import ALL_HEXES
from .data import SEATS, card_name, lore_card, scenario, term, terrain_data
from .rules.council import hand_limit, level_of
from .state import State, hkey, unit_sort, utype

TERRAIN_CH = {"countryside": ".", "forest": "F", "hill": "H", "river": "~", "ford": "=",
              "bridge": "#"}
LANDMARK_CH = {"rampart": "R", "pentagram": "P", "hideout": "D", "training_camp": "T",
               "healing_spring": "S", "stronghold": "K", "secret_exit": "X"}
ANSWER = "ANSWER "


def _units(s: State) -> list[dict[str, Any]]:
    out = []
    for u in sorted(s["units"].values(), key=unit_sort):
        t = utype(u)
        out.append({"id": u["id"], "owner": u["owner"], "type": u["type"], "name": t["name"],
                    "class": t["class"], "colour": u["colour"], "figures": u["figures"],
                    "full": u["full"], "hex": hkey(u["hex"]), "weapon": t["weapon"],
                    "webbed": u["webbed"], "poisoned": u["poisoned"],
                    "stored_lore": u["stored_lore"]})
    return out


def question(s: State) -> Question | None:
    """The question a paused turn waits for (one seat at a time in BattleLore)."""
    pause = s["pause"]
    return Question.from_json(pause["questions"][0]) if pause else None


def make_view(s: State, seat: str | None) -> dict[str, Any]:
    q = question(s)
    v: dict[str, Any] = {
        "scenario": s["scenario"], "scenario_name": scenario(s["scenario"])["name"],
        "mode": s["mode"], "phase": "decision" if q else s["phase"],
        "phase_label": phase_label(s),
        "turn": s["turn"], "active": s["active"], "sides": s["sides"], "seat": seat,
        "terrain": dict(sorted(s["terrain"].items())),
        "landmarks": {k: dict(v) for k, v in sorted(s["landmarks"].items())},
        "units": _units(s), "banners": dict(s["banners"]), "victory": dict(s["victory"]),
        "hand_counts": {x: len(s["hands"][x]) for x in SEATS},
        "hand_size": dict(s["hand_size"]), "deck_count": len(s["deck"]),
        "discard": sorted(s["discard"]), "last_card": dict(s["last_card"]),
        "result": s["result"],
        "shields": [dict(x) for x in s["shields"]],
    }
    if seat in SEATS:
        v["hand"] = [{"id": c, "name": card_name(c)} for c in sorted(s["hands"][seat])]
        v["standing"] = dict(sorted(s["standing"].get(seat, {}).items()))
    if q is not None:
        v["waiting_for"] = q.seat
        if seat == q.seat:
            v["question"] = {"text": q.text, "options": [o[len(ANSWER):] for o in q.options],
                             "default": q.default[len(ANSWER):]}
    if s["lore"] is not None:
        v["lore"] = lore_view(s, seat)
    return v


def lore_view(s: State, seat: str | None) -> dict[str, Any]:
    lo = s["lore"]
    assert lo is not None
    council = s["phase"] != "council"
    v: dict[str, Any] = {
        "pool": lo["pool"], "goblet": dict(lo["goblet"]), "on_cards": dict(lo["on_cards"]),
        "hand_counts": {x: len(lo["hands"][x]) for x in SEATS}, "deck_count": len(lo["deck"]),
        "discard": sorted(lo["discard"]),
        "council": {x: dict(lo["council"][x]) for x in SEATS} if council else {},
        "hand_limit": {x: hand_limit(s, x) for x in SEATS} if council else {},
    }
    if seat in SEATS:
        v["hand"] = [{"id": c, "name": lore_card(c)["name"], "cost": level_of(s, seat, c)[1],
                      "level": level_of(s, seat, c)[0], "phase": lore_card(c)["phase"]}
                     for c in sorted(lo["hands"][seat])]
        if lo["offer"][seat]:
            v["offer"] = sorted(lo["offer"][seat])
    return v


def phase_label(s: State | None) -> Msg:
    if s is None:  # step 0, the set-up, keeps no state of its own
        return _("set-up")
    q = question(s)
    if q is not None:
        return _("Turn {turn} ({seat}), {decider} decides", turn=s["turn"], seat=s["active"],
                 decider=q.seat)
    if s["phase"] == "over":
        return _("Game over after turn {turn}", turn=s["turn"] - 1)
    return {"council": _("Setup: War Councils"), "keep": _("Setup: starting Lore cards"),
            "place": _("Setup: landmarks"),
            }.get(s["phase"], _("Turn {turn}, {seat} to play", turn=s["turn"], seat=s["active"]))


def redeal(state: State, seat: str | None, rng: random.Random) -> State:
    """Re-deal what `seat` cannot see: the other hands (Command and Lore) from the cards
    not visible to `seat` (deck + those hands), the other seat's standing orders, and the
    paused turn's snapshot (never shown)."""
    s = copy.deepcopy(state)
    hidden_seats = [x for x in SEATS if x != seat]
    pile = list(s["deck"])
    for h in hidden_seats:
        pile += s["hands"][h]
    rng.shuffle(pile)
    for h in hidden_seats:
        n = len(s["hands"][h])
        s["hands"][h] = sorted(pile[:n])
        pile = pile[n:]
    s["deck"] = sorted(pile)
    lo = s["lore"]
    if lo is not None:
        lpile = list(lo["deck"])
        for h in hidden_seats:
            lpile += lo["hands"][h]
            lpile += lo["offer"][h]
        rng.shuffle(lpile)
        for h in hidden_seats:
            n = len(lo["hands"][h])
            lo["hands"][h] = sorted(lpile[:n])
            lpile = lpile[n:]
            if lo["offer"][h]:
                m = len(lo["offer"][h])
                lo["offer"][h] = sorted(lpile[:m])
                lpile = lpile[m:]
        lo["deck"] = sorted(lpile)
    for h in hidden_seats:
        s["standing"][h] = {"retreat": rng.choice(["safe", "left", "right"])}
    pause = s["pause"]
    if pause:
        pause["snapshot"]["hands"] = {x: [] for x in SEATS}
    return s


# --- board rendering ------------------------------------------------------------------

def _cell(v: Mapping[str, Any], key: str, occ: dict[str, dict[str, Any]]) -> str:
    u = occ.get(key)
    if u is not None:
        col = u["colour"][0].upper() if u["owner"] == "north" else u["colour"][0]
        return f"{u['id']}{col}{u['figures']}"
    lm = v["landmarks"].get(key)
    t = v["terrain"].get(key, "countryside")
    if any(sh["hex"] == key for sh in v.get("shields", [])):
        return "V"
    return LANDMARK_CH.get(lm["kind"], "L") if lm else TERRAIN_CH.get(t, "?")


def board_text(v: Mapping[str, Any]) -> Msg:
    """Rows 9 (North's edge) to 1; each cell is a hex, even rows shifted half a cell.
    A unit shows as id + banner colour (capital for North) + figures, e.g. N3b4."""
    occ = {u["hex"]: u for u in v["units"]}
    lines: list[Any] = [
        join([v["scenario_name"], v["phase_label"]], " - "),
        _("Banners: {banners}", banners=", ".join(f"{s} {v['banners'][s]}/{v['victory'][s]}"
                                                  for s in SEATS)),
        _("Legend: N3b4 = unit N3, blue banner (capital letter: North), 4 figures;"),
        join(["", _(". countryside  F forest  H hill  ~ water  = ford  # bridge;")], "  "),
        join(["", _("landmarks R rampart P pentagram D hideout T camp S spring K stronghold X "
                    "exit;")], "  "),
        join(["", _("V Victory Shield (see the adventure);")], "  "),
        join(["", _("hexes 8-r and 18-r (even rows) lie on the dashed section lines.")], "  "),
        "        " + "".join(f"{c:<6}" for c in range(1, 26, 2))]
    for r in range(9, 0, -1):
        cells = [_cell(v, f"{c}-{r}", occ).center(6) for c in range(1 if r % 2 else 2, 26, 2)]
        pad = "" if r % 2 else "   "
        lines.append((f"r{r}  {pad}" + "".join(cells)).rstrip())
    lines.append("           " + "".join(f"{c:<6}" for c in range(2, 25, 2)))
    lines.append(_("(top numbers: columns of odd rows; bottom numbers: columns of even rows; "
                   "South's left flank is c<=8, centre 8-18, right c>=18)"))
    return join([*lines, ""], "\n")


_COLOURS = {"green": "#2e8b3a", "blue": "#2955c8", "red": "#c8322b"}
_TFILL = {"countryside": "#e9e4c8", "forest": "#7fa86a", "hill": "#c9a46a",
          "river": "#8fc3e8", "ford": "#b8dcf0", "bridge": "#a68a64"}


_LEGEND = (("countryside", _("countryside")), ("forest", _("forest")), ("hill", _("hill")),
           ("river", _("water")), ("ford", _("ford")), ("bridge", _("bridge")))


def board_svg(v: Mapping[str, Any], t: Translator | None = None) -> str:
    """A pure SVG: hexes with terrain and their c-r names, the two dashed section lines,
    landmarks, units (squares north, circles south) in their banner colour with id and
    figure count, markers (W web, P poison, stored Lore), and both Victory Banner tracks;
    its words in the language of `t`."""
    size = 26.0
    hw = 3 ** 0.5 * size / 2  # half a hex width = one c step
    top = 70.0

    def centre(c: int, r: int) -> tuple[float, float]:
        return (20 + c * hw, top + (9 - r) * size * 1.5 + size)

    height = top + 9 * size * 1.5 + size + 75
    width = 40 + 27 * hw
    title = join([v["scenario_name"], v["phase_label"]], " - ")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{int(width)}" height="{int(height)}" '
           f'font-family="sans-serif" font-size="10">',
           f'<text x="10" y="16" font-size="13">{words(title, t)}</text>']
    for i, seat in enumerate(("north", "south")):
        y0 = 26 + i * 18
        track = _("{seat} ({side}) Victory Banners {banners}/{victory}:",
                  seat=seat.capitalize(), side=term(v["sides"][seat]), banners=v["banners"][seat],
                  victory=v["victory"][seat])
        out.append(f'<text x="10" y="{y0 + 10}">{words(track, t)}</text>')
        for k in range(int(v["victory"][seat])):
            fill = "#d4a017" if k < int(v["banners"][seat]) else "none"
            out.append(f'<path d="M{330 + k * 16} {y0} v14 M{330 + k * 16} {y0} h11 l-3 4 l3 4 '
                       f'h-11 z" fill="{fill}" stroke="#555"/>')
    occ = {u["hex"]: u for u in v["units"]}
    for c, r in ALL_HEXES:
        x, y = centre(c, r)
        key = f"{c}-{r}"
        terrain = v["terrain"].get(key, "countryside")
        pts = " ".join(f"{x + size * _cos(a):.1f},{y + size * _sin(a):.1f}"
                       for a in (30, 90, 150, 210, 270, 330))
        tip = Msg("{hex} {terrain}", hex=key, terrain=terrain_data(terrain)["name"])
        out.append(f'<polygon points="{pts}" fill="{_TFILL.get(terrain, "#ddd")}" stroke="#777" '
                   f'stroke-width="0.8"><title>{words(tip, t)}</title></polygon>')
        out.append(f'<text x="{x:.1f}" y="{y + 19:.1f}" font-size="6.5" fill="#666" '
                   f'text-anchor="middle">{key}</text>')
        lm = v["landmarks"].get(key)
        if lm:
            name = terrain_data(lm["kind"])["name"]
            tip = Msg("{name} ({seat})", name=name, seat=lm["owner"]) if lm.get("owner") else name
            out.append(f'<text x="{x:.1f}" y="{y - 13:.1f}" font-weight="bold" text-anchor="middle">'
                       f'{LANDMARK_CH.get(lm["kind"], "L")}<title>{words(tip, t)}</title></text>')
        for sh in v.get("shields", []):
            if sh["hex"] == key:
                tip = _("Victory Shield for {side}", side=sh["side"])
                out.append(f'<path d="M{x - 7:.1f} {y - 16:.1f} h14 v6 q0 8 -7 10 q-7 -2 -7 -10 z" '
                           f'fill="#d4a017" stroke="#555"><title>{words(tip, t)}</title></path>')
        u = occ.get(key)
        if u is not None:
            fill = _COLOURS[u["colour"]]
            unit = Msg("{id} {name} {figures}/{full}", id=u["id"], name=u["name"],
                       figures=u["figures"], full=u["full"])
            hover = f"<title>{words(unit, t)}</title>"
            if u["owner"] == "north":
                out.append(f'<rect x="{x - 12:.1f}" y="{y - 9:.1f}" width="24" height="18" rx="3" '
                           f'fill="{fill}" stroke="#000">{hover}</rect>')
            else:
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11.5" fill="{fill}" '
                           f'stroke="#000">{hover}</circle>')
            out.append(f'<text x="{x:.1f}" y="{y + 3.5:.1f}" fill="#fff" text-anchor="middle" '
                       f'font-size="9.5">{u["id"]}:{u["figures"]}</text>')
            marks = ("W" if u["webbed"] else "") + ("P" if u["poisoned"] else "") + (
                f"+{u['stored_lore']}" if u["stored_lore"] else "")
            if marks:
                out.append(f'<text x="{x + 9:.1f}" y="{y - 9:.1f}" fill="#000" font-size="8" '
                           f'font-weight="bold">{marks}</text>')
    for c in (8, 18):
        x = 20 + c * hw
        out.append(f'<line x1="{x:.1f}" y1="{top:.1f}" x2="{x:.1f}" '
                   f'y2="{top + 9 * size * 1.5 + size:.1f}" stroke="#c00" stroke-dasharray="6,4" '
                   f'stroke-width="1.5"/>')
    ly = top + 9 * size * 1.5 + size + 18
    lx = 10.0
    for kind, name in _LEGEND:
        out.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" fill="{_TFILL[kind]}" '
                   f'stroke="#777"/><text x="{lx + 13}" y="{ly}">{words(name, t)}</text>')
        lx += 80
    units = _("Squares: north units, circles: south units (banner colour; id:figures; W web, "
              "P poison, +n stored Lore).")
    landmarks = _("Landmarks: R rampart, P pentagram, D hideout, T camp, S spring, K stronghold, "
                  "X secret exit; gold shield: Victory Shield. Dashed red lines: sections.")
    out.append(f'<text x="10" y="{ly + 18}">{words(units, t)}</text>')
    out.append(f'<text x="10" y="{ly + 32}">{words(landmarks, t)}</text>')
    out.append("</svg>")
    return "".join(out)


def _cos(a: float) -> float:
    return math.cos(math.radians(a))


def _sin(a: float) -> float:
    return math.sin(math.radians(a))
