"""Rulebook examples kept as case files (cases/*.toml): prestate, dice, action, expected.
One parametrised test runs them all; each case names its TC number and rulebook page."""

from __future__ import annotations

import pathlib
import tomllib
from typing import Any

import pytest
from battlelore_helpers import blank, ctx, put

from pbem.rulesets.battlelore.board import distance
from pbem.rulesets.battlelore.combat import attack, battle
from pbem.rulesets.battlelore.state import uhex

CASES = [c for f in sorted((pathlib.Path(__file__).parent / "cases").glob("*.toml"))
         for c in tomllib.loads(f.read_text(encoding="utf-8"))["case"]]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['id']} {c['page']}" for c in CASES])
def test_rulebook_case(case: dict[str, Any]) -> None:
    s = blank(case.get("variant", "agincourt"))
    s["terrain"].update(case.get("terrain", {}))
    for key, kind in case.get("landmarks", {}).items():
        s["landmarks"][key] = {"kind": kind, "owner": None}
    s["standing"].update(case.get("standing", {}))
    for row in case["units"]:
        uid, owner, utype, c, r = row[:5]
        put(s, uid, owner, utype, (c, r), fig=row[5] if len(row) > 5 else None)
    att, tgt = s["units"][case["units"][0][0]], s["units"][case["units"][1][0]]
    cx = ctx(s, *case["dice"])
    if case["do"] == "attack":
        attack(cx, att, tgt, melee=distance(uhex(att), uhex(tgt)) == 1)
    else:
        battle(cx, att, tgt, case.get("opts", {}))
    assert cx.dice._dice.remaining == 0, "every scripted die is used"  # type: ignore[attr-defined]
    for key, want in case["expect"].items():
        if key == "banners":
            for seat, n in want.items():
                assert s["banners"][seat] == n, (key, s["banners"])
        elif want == "gone":
            assert key not in s["units"], key
        else:
            u = s["units"][key]
            if "fig" in want:
                assert u["fig"] == want["fig"], (key, u)
            if "hex" in want:
                assert u["hex"] == want["hex"], (key, u)
