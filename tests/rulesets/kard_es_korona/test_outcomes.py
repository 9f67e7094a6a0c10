"""Every order line gets an outcome (issue 14): judged on arrival against the position
(illegal lines refused with the reason and the legal choices, lines that may still fail
accepted with a note), and at the step every line of every applied file ends with exactly
one outcome, seen by its seat only; random playouts with broken lines check it all."""

from __future__ import annotations

import hashlib
import random

import pytest

from pbem.core.dice import ScriptedDice, step_seed
from pbem.core.engine import process, set_up
from pbem.core.kit import OUTCOME
from pbem.core.ruleset import GameConfig
from pbem.rulesets.kard_es_korona.rules.setup import DEFAULT_SEATS

from .helpers import RULESET, bare, lord, put, run_step


def _outcomes(out, seat):
    return {e.data["line"]: (e.data["status"], e.data["why"]) for e in out.events
            if e.kind == OUTCOME and e.to == (seat,)}


# --- the findings of issue 14 -------------------------------------------------------------------

def test_a_deploy_line_with_more_than_the_starting_army_is_refused_on_arrival():
    s = RULESET.setup(GameConfig(("felvidek", "tiszahat"), "basic"), ScriptedDice([0]))
    parsed = RULESET.parse(s, "felvidek", "DEPLOY pozsony 5 cav\nLORD pozsony\n")
    assert parsed.lines[0].error == ("your starting army has 3 cav, not 5 (it is 3 cav, 5 inf, "
                                     "4 arch)")
    assert "your placement as a whole is not legal" in parsed.lines[1].error


def test_an_incomplete_placement_is_refused_as_a_whole_and_the_default_used():
    s = RULESET.setup(GameConfig(("felvidek", "tiszahat"), "basic"), ScriptedDice([0]))
    parsed = RULESET.parse(s, "felvidek", "DEPLOY pozsony 2 inf\nLORD pozsony\n")
    assert all("the starting army is exactly" in ln.error for ln in parsed.lines)
    assert "else the default placement is used" in parsed.lines[0].error
    out = run_step(s, {"felvidek": "DEPLOY pozsony 2 inf\nLORD pozsony", "tiszahat": ""},
                   [0] * 13)
    assert {n: st for n, (st, _) in _outcomes(out, "felvidek").items()} == \
        {1: "refused", 2: "refused"}
    assert out.state["players"]["felvidek"]["lord"] == "pozsony"  # the default placement
    assert out.state["board"]["trencsen"]["units"] == {"cav": 1, "inf": 2, "arch": 2}


def _year():
    s = bare(("felvidek", "tiszahat"), year=1303)
    put(s, "pozsony", "felvidek", inf=2, cav=1)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "abauj", "tiszahat", inf=2)
    lord(s, "tiszahat", "abauj")
    s["players"]["felvidek"]["treasury"] = 6
    return s


def test_moves_that_can_never_be_made_are_refused_on_arrival():
    s = _year()
    p = RULESET.parse(s, "felvidek", "MOVE TO zagrab FROM pozsony 1 cav\n"
                                     "MOVE TO nyitra FROM pozsony 9 inf\n"
                                     "MOVE TO nyitra FROM trencsen 1 inf lord\n"
                                     "MOVE TO nyitra FROM pozsony 1 inf lord\n"
                                     "MOVE TO abauj FROM pozsony 1 cav\n")
    assert p.lines[0].error.startswith("zagrab is out of reach of cav from pozsony (4 MP); "
                                       "it can reach ")
    assert "nyitra" in p.lines[0].error
    assert p.lines[1].error == "pozsony has 1 cav, 2 inf of yours that may still move, not 9 inf"
    assert p.lines[2].ok and p.lines[2].note is None
    assert p.lines[3].error == "your lord is in trencsen, not in pozsony"
    # may still change (the defenders may leave): accepted with a note
    assert p.lines[4].ok and p.lines[4].note == (
        "as the board stands now this step would be skipped: attacking the castle of abauj "
        "needs infantry or your lord")


def test_recruitment_transfers_and_offices_judged_on_arrival():
    s = _year()
    put(s, "pozsony", "felvidek", inf=4)  # 7 units: full
    p = RULESET.parse(s, "felvidek", "RECRUIT 1 inf IN pozsony\nRECRUIT 2 inf IN trencsen\n"
                                     "RECRUIT 1 inf IN abauj\nRANSOM trencsen\n"
                                     "GIVE 10 TO tiszahat\nCEDE judge TO tiszahat\n"
                                     "BID judge 10\n")
    errors = [ln.error for ln in p.lines]
    notes = [ln.note for ln in p.lines]
    assert errors[0] == ("no recruit fits: room for 0 more units in pozsony (7 in a castle "
                         "county)")
    assert notes[1] == "as things stand only 1 would be recruited: money for 1 (5 garas each)"
    assert errors[2] == "you do not hold abauj; your castle counties: pozsony, trencsen"
    assert errors[3] == "your lord is not a captive"
    assert notes[4] == "you have 6 garas now; at most what you have is given"
    assert errors[5] == "you do not hold the office judge; you hold no office"
    assert notes[6] == "you have 6 garas now; a bid above your treasury at its auction is cut to it"


def test_every_line_of_the_year_orders_ends_with_one_outcome():
    s = _year()
    out = run_step(s, {"felvidek": "GIVE 10 TO tiszahat\nLEAD open cav inf arch\n"
                                   "LEAD open inf cav arch\nMOVE TO nyitra FROM pozsony 1 cav\n"
                                   "MOVE TO abauj FROM pozsony 1 cav\nPASS\n"
                                   "MOVE TO bars FROM pozsony 1 inf\nBID judge 10\n",
                       "tiszahat": "BID judge 1\nBID treasurer 0\nBID palatine 0\nPASS\n"}, [])
    got = _outcomes(out, "felvidek")
    assert got[1] == ("changed", "only 6 garas given: all your treasury")
    assert got[2] == ("changed", "replaced by line 3 of this file")
    assert got[3] == ("carried out", "kept as your standing order")
    assert got[4] == ("carried out", "")
    assert got[5] == ("refused", "step skipped: pozsony has only 0 unmoved cav of yours, not 1")
    assert got[6] == ("carried out", "you passed")
    assert got[7] == ("not needed", "you had passed")
    # the election ran in the same step (every seat had pre-bids): the pre-bid was cut
    assert got[8] == ("changed", "cut to your treasury: you bid 0 garas")
    assert all(e.to in (("felvidek",), ("tiszahat",)) for e in out.events if e.kind == OUTCOME)
    # felvidek sent no treasurer bid: he is asked; tiszahat's later bids wait for that answer
    assert list(out.awaiting) == ["felvidek"] and out.state["pause"] is not None
    assert _outcomes(out, "tiszahat") == {1: ("carried out", ""), 4: ("carried out", "you passed")}
    out2 = run_step(out.state, {"felvidek": "BID treasurer 0"}, [])
    assert _outcomes(out2, "tiszahat") == {2: ("carried out", "")}
    out3 = run_step(out2.state, {"felvidek": "BID palatine 0"}, [0])  # then the card of 1304
    assert _outcomes(out3, "tiszahat") == {3: ("carried out", "")}


def test_bids_of_the_election_step_get_outcomes():
    s = bare(("felvidek", "tiszahat"), year=1303)
    put(s, "trencsen", "felvidek", inf=1)
    lord(s, "felvidek", "trencsen")
    put(s, "abauj", "tiszahat", inf=1)
    lord(s, "tiszahat", "abauj")
    s["players"]["felvidek"]["treasury"] = 10
    s["players"]["tiszahat"]["treasury"] = 10
    out = run_step(s, {"felvidek": "PASS\nBID treasurer 2", "tiszahat": "PASS"}, [])
    assert out.state["phase"] == "bid" and sorted(out.awaiting) == ["felvidek", "tiszahat"]
    assert _outcomes(out, "felvidek")[2] == (
        "carried out", "kept as your pre-bid: the auctions begin in the next step")
    p = RULESET.parse(out.state, "felvidek", "BID judge 11\nBID judge 4\nBID treasurer 20\n"
                                             "BID treasurer 3 IF WON judge\n")
    assert p.lines[0].error == "you have only 10 garas; bid 0 to 10"
    assert p.lines[2].note == "you have 10 garas now; a bid above your treasury is cut to it"
    out2 = run_step(out.state, {"felvidek": "BID judge 4\nBID judge 2\nBID treasurer 20\n"
                                             "BID treasurer 3 IF WON judge\n",
                                "tiszahat": "BID judge 3\nBID treasurer 1\nBID palatine 1"},
                    [])
    got = _outcomes(out2, "felvidek")
    assert got[1] == ("carried out", "")
    assert got[2] == ("not needed", "an earlier BID line for judge counted")
    assert got[3] == ("changed", "cut to your treasury: you bid 6 garas")
    assert got[4] == ("not needed", "an earlier BID line for treasurer counted")
    # felvidek sent no palatine bid: he alone is asked, in a question of the same step
    assert out2.state["pause"] is not None and list(out2.awaiting) == ["felvidek"]
    out3 = run_step(out2.state, {"felvidek": "BID palatine 0"}, [0])  # then the card of 1304
    assert _outcomes(out3, "felvidek") == {1: ("carried out", "your answer was used")}
    assert out3.state["year"] == 1304


# --- random playouts with broken lines ----------------------------------------------------------

def _broken(state, seat, rng, pool):
    """A line made to be refused: a wrong count, an unreachable target, a line of another
    step or question, another seat's units or office, nonsense."""
    mine = sorted(c for c, s in state["board"].items() if s["owner"] == seat) or ["pozsony"]
    theirs = sorted(c for c, s in state["board"].items() if s["owner"] != seat) or ["abauj"]
    far = rng.choice(sorted(state["board"]) or ["zagrab"])
    return rng.choice([
        f"MOVE TO {rng.choice(theirs)} FROM {rng.choice(mine)} 9 inf",
        f"MOVE TO {far} FROM {rng.choice(mine)} 1 inf",
        f"MOVE TO {rng.choice(mine)} FROM {rng.choice(theirs)} 1 cav",
        "DEPLOY pozsony 5 cav", "BID judge 999", "RECRUIT 9 cav IN abauj", "RANSOM abauj",
        "CEDE palatine TO " + rng.choice(state["seats"]), "FIGHT LEAD cav", "OATH YES",
        "CHOOSE felvidek", "GIVE 1 TO " + seat, "fly to the moon", rng.choice(pool or ["X"]),
    ])


def play_broken(config: GameConfig, seed: int) -> int:
    master = hashlib.sha256(f"kek-outcomes:{seed}".encode()).digest()
    rng = random.Random(seed)
    out = set_up(RULESET, config, master)
    pool: list[str] = []
    pending: dict[tuple[str, int, int], set[int]] = {}
    origin, checked = 0, 0
    for step in range(1, 400):
        if not out.awaiting:
            break
        before = out.state
        pause = before["pause"]
        origin = step if pause is None else origin
        k = len(pause["answers"]) + 1 if pause else 0
        texts = {}
        for seat in sorted(out.awaiting):
            lines = RULESET.legal_orders(before, seat, rng)
            pool.extend(lines)
            for _ in range(rng.randrange(4)):
                lines.insert(rng.randrange(len(lines) + 1), _broken(before, seat, rng, pool))
            if rng.random() > 0.1:  # else nothing: the NMR defaults need outcomes too
                texts[seat] = "".join(f"{x}\n" for x in lines)
        out = process(RULESET, out.state_json, texts, seed=step_seed(master, step))
        for seat, text in out.applied.items():
            pending[(seat, step, k)] = {ln.lineno for ln in RULESET.parse(before, seat, text).lines}
        for e in out.events:
            if e.kind != OUTCOME:
                continue
            seat, line, file = e.data["seat"], e.data["line"], e.data["file"]
            assert e.to == (seat,), e.text
            key = (seat, step if (pause is None or file == k) else origin, file)
            assert line in pending.get(key, set()), f"seed {seed} step {step}: {e.text}"
            pending[key].discard(line)
            checked += 1
        if out.awaiting and out.state["pause"] is None:
            assert not {key: v for key, v in pending.items() if v}, f"seed {seed} step {step}"
    assert not {key: v for key, v in pending.items() if v}, f"seed {seed}: lines without outcome"
    return checked


@pytest.mark.parametrize("seats,variant,options", [
    (DEFAULT_SEATS[2], "basic", {}),
    (DEFAULT_SEATS[4], "advanced", {"decisions": "ask"}),
    (DEFAULT_SEATS[3], "basic", {"movement": "strict", "decisions": "ask",
                                 "neutral_placement": "players"}),
    (DEFAULT_SEATS[6], "basic", {"movement": "traditional"}),
])
def test_broken_playouts_every_line_gets_exactly_one_outcome_seen_by_its_seat_only(
        seats, variant, options):
    total = sum(play_broken(GameConfig(seats, variant, options), seed) for seed in range(2))
    assert total > 100
