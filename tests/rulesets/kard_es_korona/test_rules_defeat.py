"""rules/defeat.py: elimination takes over the loser's pending battles (PR-28), a player
who resigns, a vassal's freed by his overlord's fall."""

from __future__ import annotations

from pbem.core.kit import Log
from pbem.rulesets.kard_es_korona.rules.defeat import eliminate

from .helpers import army, bare, lord, put, run_step, units_in


def test_t19_elimination_takes_over_a_pending_battle():
    s = bare(("felvidek", "tiszahat", "erdely"))
    put(s, "borsod", "tiszahat", inf=3)
    s["battles"].append({"county": "borsod", "attacker": "felvidek", "army": army(cav=2),
                         "origins": {"gomor": army(cav=2)}, "lord": False, "seq": 1,
                         "pinned": False, "free_owner": None, "free": 0})
    eliminate(s, Log(), "tiszahat", "felvidek")
    assert s["battles"] == []
    assert units_in(s, "borsod") == army(cav=2, inf=1)


def test_a_player_who_resigns_leaves_neutral_units():
    s = bare(("felvidek", "tiszahat", "erdely"), year=1304)
    for seat, c in (("felvidek", "trencsen"), ("tiszahat", "abauj"), ("erdely", "kolozs")):
        put(s, c, seat, inf=2)
        lord(s, seat, c)
    s["offices"]["judge"] = "tiszahat"
    out = run_step(s, {"felvidek": "PASS", "tiszahat": "RESIGN", "erdely": "PASS"}, [6])
    st = out.state
    assert st["players"]["tiszahat"]["status"] == "out"
    assert st["board"]["abauj"]["owner"] == "n_tiszahat" and st["offices"]["judge"] is None
    assert "tiszahat" not in out.awaiting
