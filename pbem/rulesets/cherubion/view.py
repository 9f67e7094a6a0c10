"""What each seat may see, and the board drawn from a view (text and SVG).

Hidden information (spec §7): hands (others see counts), deck contents and order, energy
pools (others see production only), face-down markers (others see number and position),
hidden summoned pieces and invisible pieces (others see their marker), the Timed Death
Spell (others see a face-down permanent), standing triggers and policies, SCRY and Távcső
results. Everything else is public. Views are built field by field from what the seat may
see, never by deleting secrets from a copy.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from pbem.core.i18n import Msg, Translator, _, join
from pbem.core.kit import Question
from pbem.core.kit.picture import words
from pbem.rulesets.cherubion import data
from pbem.rulesets.cherubion.board import get_board
from pbem.rulesets.cherubion.data import RESOURCE_TABLE
from pbem.rulesets.cherubion.rules.diplomacy import visible_alliances
from pbem.rulesets.cherubion.rules.queries import piece_name, size_name
from pbem.rulesets.cherubion.state import Piece, State

COLOURS = {"melan": "#2f6fd6", "choler": "#222222", "sang": "#c62828", "otoaak": "#d4a017",
           "rominyarak": "#2e8b3d"}
SPECIAL_MARK = {"heal": "+", "rally": "!", "discount": "$", "scry": "?", "production": "*",
                "reach": "~"}
# Words that reach the report templates as data and pass their `term` filter (listed here
# so that they are in the catalog): line-ups, resource sizes, card types and icons, the
# binding statuses.
TERMS = (_("standard"), _("advanced"), _("small"), _("medium"), _("large"), _("general"),
         _("instant"), _("permanent"), _("base_only"), _("exclusive"), _("unique"),
         _("no_demigod"), _("asleep"), _("immobile"), _("bound"))
# the special fields' kinds as the board text names them
SPECIAL_NAME = {"heal": _("heal"), "rally": _("rally"), "discount": _("discount"),
                "scry": _("scry"), "production": _("production"), "reach": _("reach")}


def _piece_view(state: State, p: Piece, seat: str | None) -> dict[str, Any]:
    attached: list[str] = []
    for a in p["attached"]:
        if a.get("secret") and a["owner"] != seat:
            attached.append(_("face-down permanent"))
        else:
            attached.append(a["card"])
    out = {"id": p["id"], "name": p["name"], "owner": p["owner"], "loc": p["loc"],
           "ep": p["ep"], "max": p["max_ep"], "tk": p["tk"], "vsz": p["vsz"], "fe": p["fe"],
           "reach": p["reach"], "transport": p["transport"], "kk": p["kk"], "kind": p["kind"],
           "summoned": p["summoned"], "card": p["card"], "flags": sorted(p["flags"]),
           "status": sorted(p["status"]), "attached": attached,
           "team": state["players"][p["origin"]]["team"] if p["origin"] in state["players"] else "",
           "origin": p["origin"]}
    c = p["captive"]
    if c:
        out["captive"] = {"holder": c["captor"], "dead": c["dead"], "clock": c["clock"],
                          "by": c["carrier"], "unconvertible": c["unconvertible"]}
    if p["hidden"]:
        out["hidden_under"] = p["hidden"]
    if p.get("burn"):
        out["burn"] = p["burn"]
    return out


def view(state: State, seat: str | None) -> dict[str, Any]:
    pause = state["pause"]
    asked = pause["questions"] if pause else []
    pieces = []
    for pid in sorted(state["pieces"]):
        p = state["pieces"][pid]
        if p["loc"] == "gone":
            continue
        if p["hidden"] and p["owner"] != seat:
            continue
        pieces.append(_piece_view(state, p, seat))
    known = state["players"][seat]["known_markers"] if seat in state["players"] else {}
    markers = []
    for mid in sorted(state["markers"]):
        m = state["markers"][mid]
        mv: dict[str, Any] = {"id": mid, "kind": m["kind"], "field": m["field"],
                              "owner": m["owner"], "hidden": m["hidden"]}
        if m["owner"] == seat or not m["hidden"] or mid in known:
            mv["card"] = m["card"]
            if "piece" in m:
                mv["piece"] = m["piece"]
            if "uses" in m:
                mv["uses"] = m["uses"]
        markers.append(mv)
    resources = [{"id": r["id"], "owner": r["owner"], "field": r["field"], "size": r["size"],
                  "ep": r["ep"], "active": r["active"]} for _k, r in sorted(state["resources"].items())]
    players: dict[str, dict[str, Any]] = {}
    for s in state["order"]:
        pl = state["players"][s]
        if not pl["team"]:
            players[s] = {"team": None}  # not drafted yet
            continue
        players[s] = {
            "team": pl["team"], "bases": list(pl["bases"]), "alive": pl["alive"],
            "lineup": pl["lineup"], "hand": len(pl["hand"]),
            "deck": len(pl["deck"]) + (1 if pl["deck_top"] else 0), "grave": list(pl["grave"]),
            "skip": pl["skip_turns"], "herd": pl["herd"], "me": pl["me"], "me_dice": pl["me_dice"],
            "production": sum(RESOURCE_TABLE[r["size"]]["energy"]
                              for r in state["resources"].values() if r["owner"] == s),
            "transit": list(pl["transit"]), "turns": pl["turns"],
        }
    out: dict[str, Any] = {
        "n": state["board_size"], "nml": list(state["nml_sides"]), "phase": state["phase"], "round": state["round"],
        "active": state["active"], "order": list(state["order"]), "seat": seat,
        "special": get_board(state["board_size"]).special_fields(), "pieces": pieces, "markers": markers,
        "resources": resources, "players": players, "result": state.get("result"),
        "open_sides": list(state["open_sides"]),
        "asking": asked[0]["seat"] if asked else None,
        "combat_fields": sorted(state["turn"].get("combat_fields", [])),
        "alliances": visible_alliances(state, seat),
    }
    if seat in state["players"] and state["players"][seat]["team"]:
        pl = state["players"][seat]
        top = pl["deck_top"]
        deck = list(pl["deck"]) + ([top["card"]] if top else [])
        tops = {}
        for q in state["order"]:
            qt = state["players"][q]["deck_top"]
            if qt and seat in qt["seen_by"]:
                tops[q] = qt["card"]
        out["you"] = {"hand": sorted(pl["hand"]), "energy": pl["energy"],
                      "hand_cards": [_card_line(c) for c in sorted(pl["hand"])],
                      "deck": sorted(deck), "triggers": [dict(t) for t in pl["triggers"]],
                      "standing": dict(sorted(pl["standing"].items())),
                      "known": dict(sorted(known.items())), "scried": tops}
        mine = [q for q in asked if q["seat"] == seat]
        if mine:
            # the question's options without the PASS every question takes
            out["you"]["ask"] = {"text": Question.from_json(mine[0]).text,
                                 "options": [o for o in mine[0]["options"] if o != "PASS"]}
    return out


def _card_line(cid: str) -> dict[str, Any]:
    c = data.card(cid)
    return {"id": cid, "name_hu": c["name_hu"], "name_en": c["name_en"], "type": c["type"],
            "cost": c["cost"], "deity": c["deity"], "icons": list(c["icons"])}


def redeal(state: State, seat: str | None, rng: random.Random) -> State:
    """A copy with what `seat` cannot see re-dealt: other players' hands and decks
    (reshuffled between them, sizes kept), their energy, standing orders, and deck tops
    `seat` has not seen."""
    new: State = json.loads(json.dumps(state))
    for s, pl in new["players"].items():
        if s == seat:
            continue
        top = pl["deck_top"]
        top_hidden = top is not None and seat not in top["seen_by"]
        pool = pl["hand"] + pl["deck"] + ([top["card"]] if top is not None and top_hidden else [])
        rng.shuffle(pool)
        k = len(pl["hand"])
        pl["hand"] = sorted(pool[:k])
        if top is not None and top_hidden:
            top["card"] = pool[k]
            k += 1
        pl["deck"] = sorted(pool[k:])
        pl["energy"] = rng.randint(0, 30)
        pl["triggers"] = []
        pl["standing"] = {}
        pl["known_markers"] = {}
        _redeal_markers(new, s, seat, rng)
    return new


def _redeal_markers(state: State, owner: str, seat: str | None, rng: random.Random) -> None:
    """Swap the identity of `owner`'s face-down traps and hidden summons that `seat` does
    not know with like cards from `owner`'s hand or deck."""
    known = state["players"][seat]["known_markers"] if seat in state["players"] else {}
    pl = state["players"][owner]
    for mid in sorted(state["markers"]):
        m = state["markers"][mid]
        if m["owner"] != owner or not m["hidden"] or mid in known:
            continue
        if m["kind"] == "N" and "piece" not in m:
            kind = "trap"
        elif m["kind"] == "SZ" and "piece" in m:
            kind = "summon"
        else:
            continue
        for where in ("hand", "deck"):
            alike = [i for i, c in enumerate(pl[where])
                     if data.card(c)["effect"] == kind and c != m["card"]
                     and (kind == "trap" or (data.card(c)["summon"]["hidden"]
                                             and "unique" not in data.card(c)["icons"]))]
            if not alike:
                continue
            i = rng.choice(alike)
            old, new_card = m["card"], pl[where][i]
            pl[where][i] = old
            pl[where].sort()
            m["card"] = new_card
            c = data.card(new_card)
            if kind == "trap":
                m["uses"] = c["uses"]
            else:
                p = state["pieces"][m["piece"]]
                sm = c["summon"]
                p["card"], p["name"] = new_card, c["name_en"]
                p["ep"] = p["max_ep"] = sm["ep"]
                p["tk"], p["vsz"], p["fe"], p["reach"] = sm["tk"], sm["vsz"], sm["fe"], sm["reach"]
                p["own_me"], p["flags"] = sm["own_me"], list(sm.get("flags", []))
                p["kind"] = "tech" if sm["tech"] else "creature"
            break


# --- pictures -------------------------------------------------------------------------

def _loc_summary(v: Mapping[str, Any]) -> dict[str, list[str]]:
    by_field: dict[str, list[str]] = {}
    for p in v["pieces"]:
        tag = p["id"] + ("*" if p.get("captive") else "")
        by_field.setdefault(p["loc"], []).append(tag)
    for m in v["markers"]:
        if m["kind"] == "SZ" and m.get("piece") and any(p["id"] == m["piece"] for p in v["pieces"]):
            continue
        by_field.setdefault(m["field"], []).append(m["id"] + (f"={m['card']}" if m.get("card")
                                                              and m["kind"] != "T" else ""))
    for r in v["resources"]:
        by_field.setdefault(r["field"], []).append(f"{r['id']}:{r['size'][0].upper()}{r['ep']}")
    return by_field


def _indent(line: Msg) -> Msg:
    return Msg("  {line}", line=line)


def board_text(v: Mapping[str, Any]) -> Msg:
    """The board as text: every occupied field with its pieces, markers and resources, then
    Bases, No-Man's Land and prisons; special fields marked (+ heal, ! rally, $ discount,
    ? scry, * production, ~ reach)."""
    b = get_board(v["n"])
    by_field = _loc_summary(v)
    owner = {p["id"]: p["owner"] for p in v["pieces"]}
    lines: list[Any] = [_("Board (N={n}, {fields} fields); round {round}, active: {active}",
                          n=v["n"], fields=len(b.fields), round=v["round"],
                          active=v["active"] or _("None"))]
    for f in b.order:
        sp = v["special"].get(f)
        items = by_field.get(f)
        if not items and not sp:
            continue
        mark = f"[{SPECIAL_MARK[sp]}{sp}]" if sp else ""
        desc = ", ".join(f"{i}({owner[i.rstrip('*')]})" if i.rstrip("*") in owner else i
                         for i in sorted(items or []))
        # the kind's word in the reader's language, the columns as in English
        lines.append(Msg("  {f}[{sym}{kind}]{pad} {desc}", f=f"{f:<4}", sym=SPECIAL_MARK[sp],
                         kind=SPECIAL_NAME[sp], pad=" " * (13 - len(mark)), desc=desc) if sp
                     else f"  {f:<4}{mark:<13} {desc}")
    for s, pl in v["players"].items():
        if not pl.get("team"):
            continue
        for side in pl["bases"]:
            here = sorted(p["id"] for p in v["pieces"] if p["loc"] == f"base:{side}")
            lines.append(_indent(_("Base side {side} ({seat}, {team}): {pieces}", side=side, seat=s,
                           team=pl["team"], pieces=" ".join(here) or "-")))
        pris = sorted(p["id"] for p in v["pieces"] if p["loc"] == f"prison:{s}")
        body = {p["id"] for p in v["pieces"] if p.get("captive", {}).get("dead")}
        held = [_("{id}(body)", id=i) if i in body else i for i in pris]
        if pris:
            lines.append(_indent(_("Prisoners of {seat}: {pieces}", seat=s,
                                   pieces=join(held, " "))))
    nml = sorted(p["id"] for p in v["pieces"] if p["loc"] == "nml")
    lines.append(_indent(_("No-Man's Land (side {sides}): {pieces}",
                   sides="/".join(map(str, v["nml"])), pieces=" ".join(nml) or "-")))
    return join([*lines, ""], "\n")


def board_svg(v: Mapping[str, Any], t: Translator | None = None) -> str:
    """The triangle grid, pieces as team-coloured dots with their id, markers as labelled
    squares (face-down ones grey; their card shown only to the owner), resources as
    diamonds, special fields tinted; the names in their titles in the language of `t`
    (a card by its rulebook name)."""
    b = get_board(v["n"])
    s = 34.0
    h = s * 0.8660254
    n = v["n"]
    width = (2 * n + 1) * s / 2 * 2 + 40
    height = 2 * n * h + 40
    team_of = {q: pl.get("team") for q, pl in v["players"].items()}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="7">']
    centres: dict[str, tuple[float, float]] = {}
    for f, fld in b.fields.items():
        i = fld.row
        rl = b.row_len(i)
        x0 = width / 2 - (rl + 1) * s / 4
        xl = x0 + (fld.col - 1) * s / 2
        y0 = 20 + i * h
        if fld.up:
            pts = [(xl, y0 + h), (xl + s, y0 + h), (xl + s / 2, y0)]
            cy = y0 + 2 * h / 3
        else:
            pts = [(xl, y0), (xl + s, y0), (xl + s / 2, y0 + h)]
            cy = y0 + h / 3
        cx = xl + s / 2
        centres[f] = (cx, cy)
        sp = v["special"].get(f)
        fill = "#fff6cc" if sp else "#f4f1ea"
        combat = f in v.get("combat_fields", [])
        out.append('<polygon points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) +
                   f'" fill="{fill}" stroke="{"#c00" if combat else "#999"}" stroke-width="0.6"/>')
        label = f + (f" {SPECIAL_MARK[sp]}" if sp else "")
        out.append(f'<text x="{cx:.1f}" y="{cy + (5 if fld.up else -3):.1f}" '
                   f'text-anchor="middle" fill="#aaa" font-size="5">{label}</text>')
    stack: dict[str, int] = {}
    for r in v["resources"]:
        cx, cy = centres[r["field"]]
        col = COLOURS.get(team_of.get(r["owner"]) or "", "#777")
        out.append(f'<polygon points="{cx:.1f},{cy - 5:.1f} {cx + 5:.1f},{cy:.1f} '
                   f'{cx:.1f},{cy + 5:.1f} {cx - 5:.1f},{cy:.1f}" fill="none" stroke="{col}" '
                   f'stroke-width="1.2"><title>{words(_resource_tip(r), t)}</title>'
                   '</polygon>')
    for m in v["markers"]:
        if m.get("piece") and any(p["id"] == m["piece"] for p in v["pieces"]):
            continue
        cx, cy = centres[m["field"]]
        k = stack.get(m["field"], 0)
        stack[m["field"]] = k + 1
        fill = "#888" if m["hidden"] else "#5a3"
        title = m["id"] + (f" = {data.card(m['card'])['name_hu']}" if m.get("card") else "")
        out.append(f'<rect x="{cx - 6 + 4 * k:.1f}" y="{cy - 4:.1f}" width="12" height="7" '
                   f'fill="{fill}"><title>{words(title, t)}</title></rect>')
        out.append(f'<text x="{cx + 4 * k:.1f}" y="{cy + 1.5:.1f}" text-anchor="middle" '
                   f'fill="#fff" font-size="5">{m["id"]}</text>')
    for p in v["pieces"]:
        if p["loc"] not in centres:
            continue
        cx, cy = centres[p["loc"]]
        k = stack.get(p["loc"], 0)
        stack[p["loc"]] = k + 1
        col = COLOURS.get(p.get("team") or "", "#777")
        dx = (k % 3 - 1) * 7
        dy = (k // 3) * 7 - 2
        dash = ' stroke-dasharray="1.5,1"' if p.get("hidden_under") else ""
        out.append(f'<circle cx="{cx + dx:.1f}" cy="{cy + dy:.1f}" r="4" fill="{col}" '
                   f'stroke="#fff" stroke-width="0.8"{dash}><title>{words(_piece_tip(p), t)}'
                   '</title></circle>')
        out.append(f'<text x="{cx + dx:.1f}" y="{cy + dy + 2:.1f}" text-anchor="middle" '
                   f'fill="#fff" font-size="4">{p["id"]}</text>')
    out.append("</svg>")
    return "".join(out)


def _resource_tip(r: Mapping[str, Any]) -> Msg:
    # ÉP: the rulebook's energy points, as every report writes them
    return Msg("{id} {size} {ep} ÉP", id=r["id"], size=size_name(r["size"]), ep=r["ep"])


def _piece_tip(p: Mapping[str, Any]) -> Msg:
    return Msg("{id} {name} {ep}/{max} ÉP", id=p["id"], name=piece_name(p["name"]), ep=p["ep"],
               max=p["max"])
