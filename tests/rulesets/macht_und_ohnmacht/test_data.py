"""The data files: the spec's assumed map (§2.1: 15 regions, 28 symmetric borders, 12
coasts, connected), marker mix (§2.2), tile mix (§2.3) and time tiles (§2.4); every
entry names its source."""

from __future__ import annotations

from collections import Counter

from pbem.rulesets.macht_und_ohnmacht import data


def test_map() -> None:
    regions = {r["id"]: r for r in data.map_data()["region"]}
    assert len(regions) == 15
    edges = {frozenset((a, b)) for a, r in regions.items() for b in r["borders"]}
    assert len(edges) == 28
    for a, r in regions.items():
        assert a not in r["borders"]
        for b in r["borders"]:
            assert a in regions[b]["borders"], (a, b)
    assert sum(r["coastal"] for r in regions.values()) == 12
    assert {a for a, r in regions.items() if not r["coastal"]} == {"elm", "pow", "mer"}
    seen, todo = set(), ["str"]
    while todo:
        a = todo.pop()
        if a not in seen:
            seen.add(a)
            todo += regions[a]["borders"]
    assert seen == set(regions)
    assert all(r.get("source") for r in regions.values())


def test_components() -> None:
    comp = data.components()
    assert {s["id"]: s["markers"] for s in comp["symbol"]} == {
        "castle": 5, "helmet": 5, "tent": 4, "key": 4}
    tiles = data.tile_catalogue()
    assert len(tiles) == 40
    kinds = Counter(t["kind"] for t in tiles.values())
    assert kinds == {"influence": 20, "strength": 4, "movement": 3, "sea": 3, "merlin": 2,
                     "serpent": 2, "vp": 2, "rebellion": 2, "swap": 2}
    assert {t["kind"] for t in tiles.values() if t["lightning"]} == {"vp", "rebellion", "swap"}
    assert {t["kind"] for t in tiles.values() if t["recruit"]} == {
        "strength", "movement", "sea", "merlin", "serpent"}
    assert sorted(comp["time"]["values"]) == [3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]
    assert all(e.get("source") for e in comp["tile"] + comp["symbol"])
    assert comp["units"]["per_type"] == 16 and comp["cycle"]["win"] == 12
