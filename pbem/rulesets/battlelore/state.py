"""Game data (TOML) and the state model: units, terrain and small queries on them.

The state is plain JSON data (a dict), so `dump`/`load` are exact. Layout:
  scenario, mode ("medieval" | "lore"), phase, active, turn, seats,
  terrain {"c-r": kind}, units {id: unit}, hands {seat: [card]}, deck [card], discard,
  last_card {seat: card}, banners {seat: n}, victory {seat: n}, standing {seat: {key: v}},
  tf (this turn's flags), resume (a paused turn), result.
A unit: id, owner, type, hex [c, r], fig, max, colour, web, poison, stored.

Not here: rules that change the state (movement.py, combat.py, turn.py).
"""

from __future__ import annotations

import json
import tomllib
from functools import cache
from importlib import resources
from typing import Any

from .board import Hex, hex_name, neighbours, valid

SEATS = ("north", "south")
FULL = {"foot": 4, "mounted": 3, "creature": 1}  # rulebook p.6, p.43
BASE_DICE = {"green": 2, "blue": 3, "red": 4}  # rulebook p.12
MOVE = {("foot", "green"): 2, ("foot", "blue"): 2, ("foot", "red"): 1,
        ("mounted", "green"): 4, ("mounted", "blue"): 3, ("mounted", "red"): 2}  # p.9-10
FACES = {1: "G", 2: "B", 3: "R", 4: "BS", 5: "F", 6: "L"}  # spec §2.3; die value -> face
FACE_NAMES = {"G": "green helmet", "B": "blue helmet", "R": "red helmet",
              "BS": "bonus strike", "F": "flag", "L": "lore"}
COLOUR_FACE = {"green": "G", "blue": "B", "red": "R"}


@cache
def data(name: str) -> dict[str, Any]:
    text = resources.files("pbem.rulesets.battlelore").joinpath("data", f"{name}.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


def utype(unit: dict[str, Any]) -> dict[str, Any]:
    return data("units")["types"][unit["type"]]


def weapon(unit: dict[str, Any]) -> dict[str, Any]:
    return data("units")["weapons"][utype(unit)["weapon"]]


def uclass(unit: dict[str, Any]) -> str:
    return str(utype(unit)["class"])


def race(unit: dict[str, Any]) -> str:
    return str(utype(unit)["race"])


def other(seat: str) -> str:
    return "south" if seat == "north" else "north"


def hkey(h: Hex | list[int]) -> str:
    return hex_name((h[0], h[1]))


def uhex(unit: dict[str, Any]) -> Hex:
    return (unit["hex"][0], unit["hex"][1])


def terrain_at(s: dict[str, Any], h: Hex) -> str:
    return str(s["terrain"].get(hkey(h), "countryside"))


def terrain_data(kind: str) -> dict[str, Any]:
    return data("terrain")[kind]


def landmark_at(s: dict[str, Any], h: Hex) -> dict[str, Any] | None:
    lm: dict[str, Any] | None = s.get("landmarks", {}).get(hkey(h))
    return lm


def features(s: dict[str, Any], h: Hex) -> list[dict[str, Any]]:
    """Terrain plus landmark rules on a hex (the more severe of both applies, p.37, p.42)."""
    out = [terrain_data(terrain_at(s, h))]
    lm = landmark_at(s, h)
    if lm is not None:
        out.append(terrain_data(lm["kind"]))
    return out


def feat(s: dict[str, Any], h: Hex, key: str) -> Any:
    k = hkey(h)
    lm = s.get("landmarks", {}).get(k)
    return _feat(str(s["terrain"].get(k, "countryside")), lm["kind"] if lm else "", key)


@cache
def _feat(terrain: str, landmark: str, key: str) -> Any:
    fs = [terrain_data(terrain)] + ([terrain_data(landmark)] if landmark else [])
    vals = [f.get(key) for f in fs if f.get(key)]
    if not vals:
        return 0
    if key.startswith("cap"):
        return min(vals)
    if isinstance(vals[0], bool):
        return True
    return max(vals)


def occupant(s: dict[str, Any], h: Hex) -> dict[str, Any] | None:
    k = [h[0], h[1]]
    for u in s["units"].values():
        if u["hex"] == k:
            return u
    return None


def occupancy(s: dict[str, Any]) -> dict[Hex, dict[str, Any]]:
    return {uhex(u): u for u in s["units"].values()}


def units_of(s: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    return sorted((u for u in s["units"].values() if u["owner"] == seat), key=unit_sort)


def unit_sort(u: dict[str, Any]) -> tuple[str, int]:
    return (u["id"][0], int(u["id"][1:]))


def enemies_adjacent(s: dict[str, Any], unit: dict[str, Any]) -> list[dict[str, Any]]:
    occ = occupancy(s)
    out = []
    for n in neighbours(uhex(unit)):
        o = occ.get(n)
        if o is not None and o["owner"] != unit["owner"]:
            out.append(o)
    return sorted(out, key=unit_sort)


def friends_adjacent(s: dict[str, Any], unit: dict[str, Any]) -> list[dict[str, Any]]:
    occ = occupancy(s)
    return [o for n in neighbours(uhex(unit)) if (o := occ.get(n)) is not None
            and o["owner"] == unit["owner"]]


def passable(s: dict[str, Any], h: Hex) -> bool:
    return valid(h) and not feat(s, h, "impassable")


def blocks_los(s: dict[str, Any], h: Hex, occ: dict[Hex, Any]) -> bool:
    return h in occ or bool(feat(s, h, "blocks_los"))


def new_unit(uid: str, owner: str, type_id: str, h: Hex) -> dict[str, Any]:
    t = data("units")["types"][type_id]
    full = FULL[t["class"]]
    return {"id": uid, "owner": owner, "type": type_id, "hex": [h[0], h[1]], "fig": full,
            "max": full, "colour": t["colour"], "web": False, "poison": False, "stored": 0}


def jcopy(x: Any) -> Any:
    """A deep copy of plain JSON data (faster than copy.deepcopy)."""
    return json.loads(json.dumps(x))
