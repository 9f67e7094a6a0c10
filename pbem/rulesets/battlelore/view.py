"""What each seat sees (rulebook p.7, spec §7), the prompts, and the board as text and SVG.

A view is built from the state by picking what the seat may see, never by copying and
deleting. Hidden: the other player's Command and Lore hands (their counts are public),
deck contents, the other's standing orders, a sealed War Council before it is revealed.
Not here: rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.orders import Prompt

from .board import ALL_HEXES, physical_sections
from .cards import card_name
from .state import SEATS, data, hkey, terrain_data, utype

TERRAIN_CH = {"countryside": ".", "forest": "F", "hill": "H", "river": "~", "ford": "=",
              "bridge": "#"}
LANDMARK_CH = {"rampart": "R", "pentagram": "P", "hideout": "D", "training_camp": "T",
               "healing_spring": "S", "stronghold": "K", "secret_exit": "X"}


def _units(s: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for u in sorted(s["units"].values(), key=lambda u: (u["id"][0], int(u["id"][1:]))):
        t = utype(u)
        out.append({"id": u["id"], "owner": u["owner"], "type": u["type"], "name": t["name"],
                    "class": t["class"], "colour": u["colour"], "figures": u["fig"],
                    "full": u["max"], "hex": hkey(u["hex"]), "weapon": t["weapon"],
                    "webbed": bool(u.get("web")), "poisoned": bool(u.get("poison")),
                    "stored_lore": int(u.get("stored", 0))})
    return out


def make_view(s: dict[str, Any], seat: str | None) -> dict[str, Any]:
    v: dict[str, Any] = {
        "scenario": s["scenario"], "scenario_name": data("scenarios")[s["scenario"]]["name"],
        "mode": s["mode"], "phase": s["phase"], "phase_label": phase_label(s),
        "turn": s["turn"], "active": s["active"], "sides": s["sides"], "seat": seat,
        "terrain": dict(sorted(s["terrain"].items())),
        "landmarks": {k: dict(v) for k, v in sorted(s["landmarks"].items())},
        "units": _units(s), "banners": dict(s["banners"]), "victory": dict(s["victory"]),
        "hand_counts": {x: len(s["hands"][x]) for x in SEATS},
        "hand_size": dict(s["hand_size"]), "deck_count": len(s["deck"]),
        "discard": sorted(s["discard"]), "last_card": dict(s["last_card"]),
        "result": s.get("result"),
    }
    if seat in SEATS:
        v["hand"] = [{"id": c, "name": card_name(c)} for c in sorted(s["hands"][seat])]
        v["standing"] = dict(sorted(s["standing"].get(seat, {}).items()))
    if s["phase"] == "decision":
        p = s["resume"]["pending"]
        v["waiting_for"] = p["seat"]
        if seat == p["seat"]:
            v["question"] = {"text": p["question"], "options": p["options"], "default": p["default"]}
    if s["mode"] == "lore":
        from .council import lore_view
        v["lore"] = lore_view(s, seat)
    return v


def phase_label(s: dict[str, Any]) -> str:
    ph = s["phase"]
    if ph == "over":
        return f"Game over after turn {s['turn'] - 1}"
    if ph == "council":
        return "Setup: War Councils"
    if ph == "keep":
        return "Setup: starting Lore cards"
    if ph == "place":
        return "Setup: landmarks"
    if ph == "decision":
        return f"Turn {s['turn']} ({s['active']}), {s['resume']['pending']['seat']} decides"
    return f"Turn {s['turn']}, {s['active']} to play"


def prompts(s: dict[str, Any]) -> dict[str, Prompt]:
    ph = s["phase"]
    if ph == "over":
        return {}
    if ph in ("council", "keep", "place"):
        from .council import setup_prompts
        return setup_prompts(s)
    if ph == "decision":
        p = s["resume"]["pending"]
        return {p["seat"]: Prompt(p["question"], (f"ANSWER {p['default']}",),
                                  tuple(f"ANSWER {o}" for o in p["options"]),
                                  {"kind": p["kind"]})}
    a = s["active"]
    hand = sorted(set(s["hands"][a]))
    mine = [u for u in sorted(s["units"].values(), key=lambda u: (u["id"][0], int(u["id"][1:])))
            if u["owner"] == a]
    sk = [f"# Your hand: {', '.join(hand)}", f"PLAY {hand[0]}" if hand else "# no card",
          "# ORDER <unit> ...   (units named below are ordered too)"]
    if mine:
        sk.append(f"# MOVE {mine[0]['id']} <hex> OR <hex>")
        sk.append(f"# BATTLE {mine[0]['id']} <enemy unit> OR ANY")
    sk += ["# standing orders for your units when attacked:", "# IGNORE ALL", "# RETREAT SAFE",
           "# BATTLEBACK ALWAYS"]
    if s["mode"] == "lore":
        sk += ["# LORE <card> [ON <unit>] [TO <hex>]", "# REPLENISH CARD_TOKEN"]
    return {a: Prompt(f"Turn {s['turn']}: play a Command card and give your orders.", tuple(sk),
                      tuple(f"PLAY {c}" for c in hand))}


# --- board rendering ------------------------------------------------------------------

def _cell(v: Mapping[str, Any], key: str, occ: dict[str, dict[str, Any]]) -> str:
    u = occ.get(key)
    if u is not None:
        col = u["colour"][0].upper() if u["owner"] == "north" else u["colour"][0]
        return f"{u['id']}{col}{u['figures']}"
    lm = v["landmarks"].get(key)
    t = v["terrain"].get(key, "countryside")
    return LANDMARK_CH.get(lm["kind"], "L") if lm else TERRAIN_CH.get(t, "?")


def board_text(v: Mapping[str, Any]) -> str:
    """Rows 9 (North's edge) to 1; each cell is a hex, even rows shifted half a cell.
    A unit shows as id + banner colour (capital for North) + figures, e.g. N3b4."""
    occ = {u["hex"]: u for u in v["units"]}
    lines = [f"{v['scenario_name']} - {v['phase_label']}",
             "Banners: " + ", ".join(f"{s} {v['banners'][s]}/{v['victory'][s]}" for s in SEATS),
             "Legend: N3b4 = unit N3, blue banner (capital letter: North), 4 figures;",
             "  . countryside  F forest  H hill  ~ water  = ford  # bridge;",
             "  landmarks R rampart P pentagram D hideout T camp S spring K stronghold X exit;",
             "  hexes 8-r and 18-r (even rows) lie on the dashed section lines.",
             "        " + "".join(f"{c:<6}" for c in range(1, 26, 2))]
    for r in range(9, 0, -1):
        cells = [_cell(v, f"{c}-{r}", occ).center(6) for c in range(1 if r % 2 else 2, 26, 2)]
        pad = "" if r % 2 else "   "
        lines.append((f"r{r}  {pad}" + "".join(cells)).rstrip())
        if r % 2 == 0:
            pass
    lines.append("           " + "".join(f"{c:<6}" for c in range(2, 25, 2)))
    lines.append("(top numbers: columns of odd rows; bottom numbers: columns of even rows; "
                 "South's left flank is c<=8, centre 8-18, right c>=18)")
    return "\n".join(lines) + "\n"


_COLOURS = {"green": "#2e8b3a", "blue": "#2955c8", "red": "#c8322b"}
_TFILL = {"countryside": "#e9e4c8", "forest": "#7fa86a", "hill": "#c9a46a", "river": "#8fc3e8",
          "ford": "#b8dcf0", "bridge": "#a68a64"}


def board_svg(v: Mapping[str, Any]) -> str:
    """A pure SVG: hexes with terrain, the two dashed section lines, units with banner
    colour and figure count, landmarks, and both Victory Banner tracks."""
    size = 26.0
    w3 = 3 ** 0.5
    hw = w3 * size / 2  # half a hex width = one c step

    def centre(c: int, r: int) -> tuple[float, float]:
        return (20 + c * hw, 40 + (9 - r) * size * 1.5 + size)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{int(40 + 27 * hw)}" '
           f'height="{int(90 + 9 * size * 1.5 + size)}" font-family="sans-serif" font-size="10">']
    out.append(f'<text x="10" y="16" font-size="13">{v["scenario_name"]} - '
               f'{v["phase_label"]}</text>')
    out.append(f'<text x="10" y="32">North banners {v["banners"]["north"]}/'
               f'{v["victory"]["north"]}   South banners {v["banners"]["south"]}/'
               f'{v["victory"]["south"]}</text>')
    occ = {u["hex"]: u for u in v["units"]}
    for c, r in ALL_HEXES:
        x, y = centre(c, r)
        key = f"{c}-{r}"
        t = v["terrain"].get(key, "countryside")
        pts = " ".join(f"{x + size * _cos(a):.1f},{y + size * _sin(a):.1f}"
                       for a in (30, 90, 150, 210, 270, 330))
        out.append(f'<polygon points="{pts}" fill="{_TFILL.get(t, "#ddd")}" stroke="#777" '
                   f'stroke-width="0.8"><title>{key} {terrain_data(t)["name"]}</title></polygon>')
        lm = v["landmarks"].get(key)
        if lm:
            out.append(f'<text x="{x - 4:.1f}" y="{y - 12:.1f}" font-weight="bold">'
                       f'{LANDMARK_CH.get(lm["kind"], "L")}</text>')
        u = occ.get(key)
        if u is not None:
            fill = _COLOURS[u["colour"]]
            shape = (f'<rect x="{x - 11:.1f}" y="{y - 9:.1f}" width="22" height="18" rx="3" '
                     if u["owner"] == "north" else f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11" ')
            out.append(shape + f'fill="{fill}" stroke="#000"><title>{u["id"]} {u["name"]} '
                       f'{u["figures"]}/{u["full"]}</title></' + ("rect>" if u["owner"] == "north"
                                                                  else "circle>"))
            out.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" fill="#fff" text-anchor="middle">'
                       f'{u["id"]}:{u["figures"]}</text>')
        elif "centre" in physical_sections((c, r)) and len(physical_sections((c, r))) > 1:
            pass
    for c in (8, 18):
        x = 20 + c * hw
        out.append(f'<line x1="{x:.1f}" y1="30" x2="{x:.1f}" y2="{40 + 9 * size * 1.5 + size:.1f}" '
                   f'stroke="#c00" stroke-dasharray="6,4" stroke-width="1.5"/>')
    out.append(f'<text x="10" y="{int(75 + 9 * size * 1.5 + size)}">Squares: north units; '
               f'circles: south units; label = id:figures; dashed red lines: sections.</text>')
    out.append("</svg>")
    return "".join(out)


def _cos(a: float) -> float:
    import math
    return math.cos(math.radians(a))


def _sin(a: float) -> float:
    import math
    return math.sin(math.radians(a))


__all__ = ["make_view", "prompts", "phase_label", "board_text", "board_svg", "hkey"]
