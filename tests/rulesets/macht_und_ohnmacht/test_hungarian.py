"""A whole game of Macht & Ohnmacht in Hungarian (`decisions = ask`, the most texts: sealed
bids, the lightning winner's effect, serpent and retreat questions): every report rendered,
no game text outside the catalog, no catalog message shown in English, no bare word in the
game's templates; and the texts a bot game does not reach (order errors, arrival notes)."""

from __future__ import annotations

from pathlib import Path

from languages import order_error, play_in_hungarian

from pbem.core.i18n import Msg, render
from pbem.core.kit import Note
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.locale import translator
from pbem.rulesets.macht_und_ohnmacht import RULESET, arrival, data, view
from pbem.rulesets.macht_und_ohnmacht.orders import GRAMMAR

from .helpers import RS

SEATS = {"orange": "ann@example.org", "white": "bob@example.org"}
ASK = {"decisions": "ask"}

# The rulebook's words, as a Hungarian player reads them in the reports.
WORDS = ("homokóra", "Egy szürke kocka lekerül a homokóráról", "Szomszédság most: közös határ",
         "azonos régiójelző", "Félretett régiójelzők", "MÁGIA", "ACÉL", "titkos aukció",
         "Régiójelző cseréje", "megszerzési kísérlete", "erősítésként felrak egy",
         "toboroz:", "kezdi a ciklust", "Időlapka:", "Összpontszám (győzelmi pont + aktív "
         "régiók)", "Vége a játéknak", "Befolyás (kastély)", "tengerparti", "Döntened kell",
         "Tartalék (K/M)")
# The board picture's words, as a Hungarian player reads them on the PNG of a report.
PICTURE = ("homokóra:", "GyP", "aktív", "tartalék", "összesen", "Vastag gyűrű: aktív régió",
           "kastély/sisak/sátor/kulcs jelző", "most szomszédos")

# An order line echoes the tile ids as the player typed them (PLAY strength-helmet).
ORDER_IDS = ("strength-",)


def test_a_whole_game_reads_in_hungarian(tmp_path: Path) -> None:
    found = play_in_hungarian("macht-und-ohnmacht", SEATS, tmp_path, options=ASK, every=2,
                              ignore=ORDER_IDS)
    assert found.finished, f"the game did not end in {found.steps} steps"
    assert found.plain == []
    assert found.leaks == set()
    assert found.picture == set()
    assert [w for w in PICTURE if w not in found.picture_text] == []
    assert found.bare == []
    assert [w for w in WORDS if w not in found.text] == []
    assert "Report-Msgid-Bugs-To" not in found.text  # no empty message (the catalog header)


def test_every_prompt_of_the_game_is_a_message() -> None:
    """Turn prompts and questions (bids, effects, serpent, retreat), whose text the kit
    stores as English: the game keeps their messages in the question's data."""
    texts = []
    for seed in (97, 5):
        p = play(RS, GameConfig(tuple(SEATS), "standard", ASK), seed, keep=True)
        texts += [pr.text for o in p.outcomes for pr in o.awaiting.values()]
    assert any("sealed auction" in t for t in texts)
    assert any("serpent" in t for t in texts)
    assert [t for t in texts if not isinstance(t, Msg)] == []


def test_the_words_between_game_words_are_hungarian_too() -> None:
    hu = translator("hu", "macht-und-ohnmacht")
    assert render(data.units_text(2, 1), hu) == "2 lovag és 1 mágus"
    assert render(data.both(["orange", "white"]), hu) == "orange és white"
    assert render(data.either(["BID 1", "BID 2", "BID 3"]), hu) == "BID 1 vagy BID 2 vagy BID 3"
    assert render(data.tile_name("strength-tent"), hu) == "Erő (sátor)"
    assert data.listed([]) == ""  # never an empty message: it would render the header


def test_the_board_text_keeps_its_columns_in_hungarian() -> None:
    p = play(RS, GameConfig(tuple(SEATS), "standard", {}), 3, keep=True)
    text = render(RULESET.board_text(view.view(p.outcomes[-1].state, None)), translator(
        "hu", "macht-und-ohnmacht"))
    rows = [ln for ln in text.splitlines() if "szomszédok:" in ln]
    assert len(rows) == 15
    assert len({ln.index("szomszédok:") for ln in rows}) == 1  # one column for every row
    assert "Eredmény:" in text and "pontot ér el" in text or "döntetlen" in text


def test_order_errors_and_arrival_notes_read_in_hungarian() -> None:
    hu = translator("hu", "macht-und-ohnmacht")
    state = play(RS, GameConfig(tuple(SEATS), "standard", {}), 3, keep=True).outcomes[0].state

    def error(line: str) -> str:
        return order_error(GRAMMAR, state, "orange", line, hu)

    assert error("PLAY sea ber rhe").startswith("hiányoznak az egységszámok")
    assert error("PLAY movement mer pow").startswith("a mozgás legalább egy egységet mozgat")
    assert error("TAKE castle BID 2").startswith("Befolyás (kastély): nem villámikonos lapka")
    assert error("PLAY vp").startswith("Győzelmi pont: elvételkor aukcióra kerül")
    assert error("RETREAT foo").startswith("„foo” nem egységválasztás")
    assert error("SERPENT NEXT nowhere").startswith("ismeretlen akciólapka")
    shown = {data.ttype(x) for x in state["display"]}
    strips = ["movement", "sea", *(f"strength-{m}" for m in ("castle", "helmet", "tent", "key"))]

    def judged(tile: str) -> str:
        order = GRAMMAR.parse_line(state, "orange", f"PLAY {tile} RECRUIT")
        verdict = arrival.judge(state, "orange", order, [])
        assert verdict is not None
        return render(verdict.text if isinstance(verdict, Note) else verdict, hu)

    gone = next(t for t in strips if t not in shown)
    assert judged(gone).startswith(f"nincs ilyen lapkád: {render(data.tile_name(gone), hu)}, "
                                   "és felcsapva sincs")
    there = next((t for t in strips if t in shown), None)
    if there is not None:
        assert judged(there).startswith("most nincs ilyen lapkád")


def test_the_hungarian_tile_words_are_words_the_orders_accept() -> None:
    """Tile lists in a Hungarian report name each tile type as the orders may write it."""
    hu = translator("hu", "macht-und-ohnmacht")
    state = play(RS, GameConfig(tuple(SEATS), "standard", {}), 3, keep=True).outcomes[0].state
    for ttype in data.tile_types():
        word = render(data.term(ttype), hu)
        assert word != ttype or ttype == "merlin"
        assert GRAMMAR.parse_line(state, "orange", f"TAKE {word}").tile == ttype
