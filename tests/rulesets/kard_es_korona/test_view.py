"""view.py: what a player needs to play from the report alone (RULESET-DONE 5): the text
board names every county's neighbours and wide rivers, a captive lord's deadline reads as
a deadline, the picture has a legend and no overlapping counties."""

from __future__ import annotations

import re

from pbem.rulesets.kard_es_korona.board import game_map
from pbem.rulesets.kard_es_korona.view import board_text

from .helpers import RULESET, bare, lord, put, standing


def _text(state, seat=None):
    return board_text(RULESET.view(state, seat))


def test_board_text_lists_neighbours_and_rivers():
    s = bare(("felvidek", "tiszahat"))
    put(s, "pozsony", "felvidek", inf=2)
    lord(s, "felvidek", "pozsony")
    text = _text(s, "felvidek")
    line = next(x for x in text.splitlines() if x.strip().startswith("Pozsony"))
    # basic map data: Pozsony borders Győr and Moson across the Duna, Nyitra by land
    assert "borders Győr (Duna), Moson (Duna), Nyitra" in line
    assert "MP" in text and "mountain" in text  # the movement-cost legend


def test_captive_line_reads_as_a_deadline():
    s = bare(("felvidek", "tiszahat"), year=1302)
    put(s, "abauj", "tiszahat", inf=2)
    s["players"]["tiszahat"]["status"] = "captive"
    s["players"]["tiszahat"]["captive_until"] = 1304
    text = _text(s, "tiszahat")
    assert "captive until" not in text
    assert "captive: dies at the start of 1304 unless ransomed (RANSOM, 20 garas)" in text


def test_board_picture_has_a_colour_legend_full_names_and_no_overlaps():
    for version in ("basic", "advanced"):
        s = bare(("felvidek", "tiszahat", "erdely"), version=version)
        svg = RULESET.board_svg(RULESET.view(s, "erdely"))
        assert "tiszahat (Aba Amadé)" in svg and "white = empty" in svg
        assert ">Trencsén</text>" in svg and ">Szabolcs</text>" in svg
        circles = [(float(x), float(y)) for x, y in
                   re.findall(r'<circle cx="([\d.-]+)" cy="([\d.-]+)" r="13"', svg)]
        closest = min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
                      for i, a in enumerate(circles) for b in circles[i + 1:])
        assert closest >= 28, (version, closest)


def test_board_picture_draws_every_border_once_rivers_in_blue():
    """The borders are two paths (a report mail carries the picture at every step): one
    segment per border, the wide-river ones in the thick blue path drawn last."""
    s = bare(("felvidek", "tiszahat"))
    svg = RULESET.board_svg(RULESET.view(s, "felvidek"))
    paths = dict((style, d) for d, style in re.findall(r'<path d="([^"]*)" ([^/]*)/>', svg))
    plain = paths['fill="none" stroke="#bbb" stroke-width="1"'].count("M")
    rivers = paths['fill="none" stroke="#3b7dd8" stroke-width="3"'].count("M")
    gm = game_map("basic")
    borders = {frozenset((a, b)): r for a, c in gm.counties.items() for b, r in c.neighbours}
    assert rivers == sum(1 for r in borders.values() if r) > 0
    assert plain + rivers == len(borders)
    assert "<line" not in svg


def test_standing_lines_in_the_view_parse_back():
    s = bare(("felvidek", "tiszahat"), year=1303)
    lines = ["LEAD open arch cav inf", "TARGET volley inf cav arch", "REROLL NEVER", "FLEE 40",
             "FEALTY CASTLE", "RETREAT nyitra gomor", "REJOIN pozsony", "PLACE cav arch inf",
             "LOSSES inf arch cav", "PREFER tiszahat felvidek", "VETO ATTACK heves",
             "SEQUENCE LAST"]
    standing(s, "felvidek", *lines)
    shown = RULESET.view(s, "felvidek")["me"]["standing_lines"]
    assert sorted(shown) == sorted(lines)
    assert "me" not in RULESET.view(s, None)
    assert "standing" not in str(RULESET.view(s, "tiszahat")["players"])
