"""rules/movement.py beyond the worked examples: vassals and overlords, the overlord's veto,
reverse pinning, the castle limits and the besieger ratio (rulebook p. 3, 11, 14)."""

from __future__ import annotations

from pbem.core.kit import Log
from pbem.rulesets.kard_es_korona.rules.defeat import make_vassal
from pbem.rulesets.kard_es_korona.rules.movement import besieger_ratio, castle_fits

from .helpers import army, bare, lord, put, standing, step


def test_vassal_may_not_attack_overlord_nor_pass_his_counties():
    s = bare(("felvidek", "tiszahat", "erdely"))
    put(s, "gomor", "tiszahat", inf=3)
    put(s, "borsod", "felvidek", inf=2)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    make_vassal(s, Log(), "tiszahat", "felvidek")
    assert "overlord or vassal" in step(s, "tiszahat", "MOVE TO borsod FROM gomor 1 inf")[0]
    assert "overlord or vassal" in step(s, "felvidek", "MOVE TO gomor FROM borsod 1 inf")[0]


def test_overlord_veto():
    s = bare(("felvidek", "tiszahat", "erdely"))
    put(s, "gomor", "tiszahat", inf=3)
    put(s, "nograd", "erdely", inf=1)
    put(s, "kolozs", "erdely", inf=1)
    lord(s, "erdely", "kolozs")
    make_vassal(s, Log(), "tiszahat", "felvidek")
    standing(s, "felvidek", "VETO ATTACK nograd", "VETO LEAVE gomor")
    assert "vetoes attacks" in step(s, "tiszahat", "MOVE TO nograd FROM gomor 1 inf")[0]
    assert "vetoes giving up" in step(s, "tiszahat", "MOVE TO bars FROM gomor 3 inf")[0]
    assert step(s, "tiszahat", "MOVE TO bars FROM gomor 2 inf")[0] == ""


def test_reverse_pinning_frees_the_lord():
    s = bare(("felvidek", "tiszahat"), "advanced")
    put(s, "borsod", "tiszahat", inf=5)
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "borsod")
    put(s, "gomor", "felvidek", inf=1)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    assert step(s, "felvidek", "MOVE TO borsod FROM gomor 1 inf")[0] == ""
    assert not s["players"]["tiszahat"]["frozen"]
    assert step(s, "tiszahat", "MOVE TO zemplen FROM borsod 3 inf lord")[0] == ""
    assert "attacked" in step(s, "tiszahat", "MOVE TO heves FROM borsod 1 inf")[0]


def test_t13_castle_limits_and_besieger_ratio_by_numbers():
    """Rulebook p. 14 (spec T13): garrisons 4 + 1, 4 + 2, 4 + 3 fit, 5 of an arm not;
    besiegers of 5 at most 3 of an arm, of 6 at most 3, of 7 at most 4; up to 4 free."""
    s = bare(version="advanced")
    assert castle_fits(s, "trencsen", army(inf=4)) == ""
    assert castle_fits(s, "trencsen", army(inf=5)) != ""
    assert castle_fits(s, "trencsen", army(inf=4, arch=1)) == ""
    assert castle_fits(s, "trencsen", army(arch=4, inf=2)) == ""
    assert castle_fits(s, "trencsen", army(arch=4, inf=3)) == ""
    assert castle_fits(s, "trencsen", army(arch=5, inf=2)) != ""
    assert besieger_ratio(s, army(inf=3, arch=2)) == ""
    assert besieger_ratio(s, army(inf=4, arch=1)) != ""
    assert besieger_ratio(s, army(inf=3, arch=3)) == ""
    assert besieger_ratio(s, army(inf=4, arch=2)) != ""
    assert besieger_ratio(s, army(inf=4, arch=3)) == ""
    assert besieger_ratio(s, army(inf=4)) == ""
    assert castle_fits(bare(version="basic"), "trencsen", army(inf=7)) == ""
