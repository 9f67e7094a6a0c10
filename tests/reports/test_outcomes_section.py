"""Every report lists what became of each line of its seat's own order file, and only its
own (DESIGN, "Outcomes"), in the text and the HTML part."""

from __future__ import annotations

from clock import T0

from pbem.reports.context import report_context
from pbem.reports.render import render_report
from pbem.rulesets import register
from pbem.service.games import create_game
from pbem.service.orders import submit_orders
from pbem.service.turns import process_turn
from pbem.store.db import session_scope
from tests.core.kit.duel import Duel

register(Duel())


def test_the_report_shows_each_line_s_outcome_to_its_seat_only(engine) -> None:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        pw = create_game(s, ruleset_id="duel", name="o1", seed="o",
                         seats={"red": "r@example.org", "blue": "b@example.org"},
                         now=T0).passwords
        submit_orders(s, f"GAME o1\nSEAT red\nPASSWORD {pw['red']}\nBID 2\nBID 3\n", now=T0)
        submit_orders(s, f"GAME o1\nSEAT blue\nPASSWORD {pw['blue']}\nBID 1\nHEAL\n", now=T0)
        process_turn(s, "o1", now=T0)
        red = render_report(report_context(s, "o1", seat="red"), fmt="text")
        blue = render_report(report_context(s, "o1", seat="blue"), fmt="text")
        html = render_report(report_context(s, "o1", seat="blue"), fmt="html")
        public = render_report(report_context(s, "o1", seat=None), fmt="text")
    assert "== Your orders and what became of them (step 1) ==" in red
    assert "- line 4: BID 2 -> carried out" in red
    assert "- line 5: BID 3 -> refused: only the first bid counts" in red
    assert "- line 5: HEAL -> refused: HEAL is not part of this step" in blue
    assert "BID 2" not in blue and "HEAL" not in red
    assert 'class="outcome refused"' in html and "<code>HEAL</code>" in html
    assert "became of them" not in public
