"""Board pictures are compacted for mail and draw the same: exact geometry in the markup,
and the same pixels in headless Chromium for every hosted game."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

import pytest
from browser import need_chromium
from png import difference

from pbem.reports.svg import compact_svg

NS = "{http://www.w3.org/2000/svg}"
TRIANGLES = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60" font-size="7">'
    '<polygon points="10.0,40.5 44.0,40.5 27.0,11.1" fill="#f4f1ea" stroke="#999" '
    'stroke-width="0.6"><title>A1</title></polygon>'
    '<polygon points="27.0,11.1 61.0,11.1 44.0,40.5" fill="#f4f1ea" stroke="#999" '
    'stroke-width="0.6"/>'
    '<polygon points="44.0,40.5 78.0,40.5 61.0,11.1" fill="#f4f1ea" stroke="#999" '
    'stroke-width="0.6"/>'
    '<text x="27.0" y="35.0" text-anchor="middle" fill="#aaa" font-size="5">A1</text>'
    '<text x="61.0" y="35.0" text-anchor="middle" fill="#aaa" font-size="5">A3</text>'
    '<text x="44.0" y="20.0" text-anchor="middle" fill="#aaa" font-size="5">A2</text></svg>')


def _polygons(svg: str) -> list[list[tuple[Decimal, Decimal]]]:
    """Every polygon as drawn: a <use> of a defined shape is the shape moved by x, y."""
    root = ET.fromstring(svg)
    shapes = {p.get("id"): p.get("points") for p in root.iter(f"{NS}polygon") if p.get("id")}

    def pts(text: str, dx: Decimal = Decimal(0), dy: Decimal = Decimal(0)):  # type: ignore[no-untyped-def]
        pairs = [p.split(",") for p in text.split()]
        return [(Decimal(x) + dx, Decimal(y) + dy) for x, y in pairs]

    out = []
    for e in root.iter():
        if e.tag == f"{NS}polygon" and not e.get("id"):
            out.append(pts(e.get("points")))
        elif e.tag == f"{NS}use":
            out.append(pts(shapes[e.get("href")[1:]], Decimal(e.get("x")), Decimal(e.get("y"))))
    return out


def test_shapes_become_uses_and_styles_classes_with_the_same_geometry() -> None:
    small = compact_svg(TRIANGLES)
    assert small is not None and len(small) < len(TRIANGLES)
    # the two upward triangles share a shape; the downward one is alone and stays a polygon
    assert small.count("<use ") == 2 and small.count("<polygon ") == 2
    assert "<title>A1</title>" in small
    assert ".pbc" in small and "font-size:5px" in small and "10.0" not in small
    assert _polygons(small) == _polygons(TRIANGLES)


@pytest.mark.parametrize("svg", [
    None, "not xml <", '<svg xmlns="http://www.w3.org/2000/svg"><style>p{}</style></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><polygon class="x" points="0,0 1,1 1,0"/></svg>',
    '<html><p>not a picture</p></html>'])
def test_what_it_cannot_rewrite_safely_is_left_alone(svg: str | None) -> None:
    assert compact_svg(svg) == svg


def hosted_boards() -> list[tuple[str, str]]:
    from pbem.core.ruleset import GameConfig
    from pbem.core.selfplay import play
    from pbem.rulesets import _discover

    boards = []
    for rid, ruleset in sorted(_discover().items()):
        variant = ruleset.default_variant()
        config = GameConfig(ruleset.seat_ids(ruleset.max_players, variant), variant)
        outcome = play(ruleset, config, 3, keep=True).outcomes[6]
        seat = config.seats[0]
        svg = ruleset.board_svg(ruleset.view(outcome.state, seat))
        if svg:
            boards.append((rid, svg))
    return boards


@pytest.mark.browser
def test_compacted_boards_draw_the_same_in_chromium(tmp_path: Path) -> None:
    browser = need_chromium()
    boards = hosted_boards()
    assert len(boards) == 5
    for rid, svg in boards:
        small = compact_svg(svg)
        assert small is not None and len(small) < 0.85 * len(svg), rid
        shots = []
        for name, text in (("plain", svg), ("compact", small)):
            page = tmp_path / f"{rid}-{name}.svg"
            page.write_text(text, encoding="utf-8")
            shot = tmp_path / f"{rid}-{name}.png"
            subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                            "--hide-scrollbars", "--window-size=1200,800",
                            f"--user-data-dir={tmp_path / 'profile'}",
                            f"--screenshot={shot}", page.as_uri()],
                           capture_output=True, timeout=120, check=True)
            shots.append(shot)
        largest, differ, total = difference(*shots)
        # moving a shape with x/y may shift anti-aliasing by a level or two on an edge
        assert largest <= 4 and differ <= total // 200, (rid, largest, differ)
