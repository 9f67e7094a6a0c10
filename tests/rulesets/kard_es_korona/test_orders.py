"""The order language: canonical forms round-trip (also every line of random playouts),
aliases and accents, clear errors with an example, the sample order files, and pinned
counts of legal one-unit steps ("perft")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.engine import process, set_up
from pbem.core.kit import OrderError
from pbem.core.ruleset import GameConfig
from pbem.core.selfplay import play
from pbem.rulesets.kard_es_korona.board import game_map
from pbem.rulesets.kard_es_korona.data import ARMS, OFFICES
from pbem.rulesets.kard_es_korona.orders import (
    GRAMMAR,
    Bid,
    Choose,
    Deploy,
    Fealty,
    Fight,
    Flee,
    Give,
    Lead,
    LordAt,
    Losses,
    Move,
    Oath,
    Part,
    Pass,
    Place,
    Prefer,
    Ransom,
    Recruit,
    Rejoin,
    Reroll,
    RerollPolicy,
    Resign,
    Retreat,
    Target,
)
from pbem.rulesets.kard_es_korona.rules.movement import check_step
from pbem.rulesets.kard_es_korona.rules.setup import DEFAULT_SEATS

from .helpers import RULESET, bare

GM = game_map("basic")
STATE = bare(("felvidek", "tiszahat", "erdely"))
SEATS = STATE["seats"]
COUNTIES = sorted(GM.counties)
CASTLES = sorted(c for c, x in GM.counties.items() if x.has_castle)
ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "orders" / "examples" / "kard-es-korona"


def p(line: str):
    return GRAMMAR.parse_line(STATE, "felvidek", line)


arm_perm = st.permutations(list(ARMS)).map(tuple)
count = st.integers(1, 9)
counties = st.lists(st.sampled_from(COUNTIES), min_size=1, max_size=3).map(tuple)


@st.composite
def parts(draw, exclude: str):
    n = draw(st.integers(1, 3))
    origins = draw(st.lists(st.sampled_from([c for c in COUNTIES if c != exclude]),
                            min_size=n, max_size=n, unique=True))
    out = []
    for c in origins:
        if draw(st.booleans()):
            out.append(Part(c, all=True, lord=draw(st.booleans())))
        else:
            cav, inf, arch = (draw(st.integers(0, 4)) for _ in range(3))
            lord_ = draw(st.booleans()) or cav + inf + arch == 0
            out.append(Part(c, cav, inf, arch, lord=lord_))
    return tuple(out)


@st.composite
def moves(draw):
    t = draw(st.sampled_from(COUNTIES))
    cond = draw(st.sampled_from(["", "empty", "enemy"]))
    return Move(t, draw(parts(t)), cond, draw(st.integers(0, 9)) if cond == "enemy" else 0)


orders = st.one_of(
    moves(),
    st.builds(lambda c, a, b, d: Deploy(c, a, b, d), st.sampled_from(COUNTIES),
              st.integers(0, 5), st.integers(0, 5), st.integers(1, 5)),
    st.builds(LordAt, st.sampled_from(COUNTIES)),
    st.builds(Recruit, count, st.sampled_from(ARMS), st.sampled_from(CASTLES)),
    st.builds(Ransom, st.sampled_from(COUNTIES)),
    st.builds(Give, count, st.sampled_from(SEATS)),
    st.just(Pass()),
    st.just(Resign()),
    st.builds(Lead, st.sampled_from(["open", "terrain", "siege", "all"]), arm_perm),
    st.builds(Target, st.sampled_from(["open", "terrain", "siege", "volley", "all"]), arm_perm),
    st.builds(Reroll, st.builds(RerollPolicy, st.integers(0, 20), st.integers(0, 20),
                                st.sampled_from(("", *ARMS))).map(
        lambda p: p if p.dice else RerollPolicy(0))),
    st.builds(Flee, st.one_of(st.integers(-1, 1000))),
    st.builds(Fealty, st.sampled_from(["yes", "no", "castle"])),
    st.builds(Retreat, counties),
    st.builds(Rejoin, counties),
    st.builds(Place, arm_perm),
    st.builds(Losses, arm_perm),
    st.builds(Prefer, st.permutations(SEATS).map(tuple)),
    st.builds(Bid, st.sampled_from(OFFICES), st.integers(0, 99)),
    st.builds(Bid, st.sampled_from(["treasurer", "palatine"]), st.integers(0, 99),
              st.sampled_from(["won", "lost"]), st.just("judge")),
    st.builds(Fight, st.one_of(st.just(()), arm_perm), st.one_of(st.just(()), arm_perm),
              st.one_of(st.none(), st.builds(RerollPolicy, st.integers(1, 20))),
              st.one_of(st.none(), st.integers(-1, 1000)), st.one_of(st.just(()), counties)),
    st.builds(Oath, st.booleans()),
    st.builds(Choose, st.sampled_from(SEATS)),
)


@settings(max_examples=300, deadline=None)
@given(orders)
def test_canonical_round_trip(order):
    assert p(str(order)) == order


@pytest.mark.parametrize("seats,variant,options", [
    (DEFAULT_SEATS[3], "basic", {"decisions": "ask", "neutral_placement": "players"}),
    (DEFAULT_SEATS[4], "advanced", {"movement": "strict", "decisions": "ask"})])
def test_every_line_of_random_playouts_round_trips(seats, variant, options):
    """parse(str(order)) == order for the orders of whole random games (every step kind,
    every question)."""
    game = play(RULESET, GameConfig(seats, variant, options), 4, keep=True)
    rng = random.Random(4)
    checked = 0
    for out in game.outcomes:
        for seat in out.awaiting:
            for line in RULESET.legal_orders(out.state, seat, rng):
                order = GRAMMAR.parse_line(out.state, seat, line)
                assert str(order) == line
                assert GRAMMAR.parse_line(out.state, seat, str(order)) == order
                checked += 1
    assert checked > 50


def test_aliases_and_accents():
    assert p("lépés ide Abaúj innen Gömör 2 gyalogos; Szepes 1 íjász") == \
        Move("abauj", (Part("gomor", inf=2), Part("szepes", arch=1)))
    assert p("move to KASSA from gomor 2inf, 1cav lord") == \
        Move("abauj", (Part("gomor", 1, 2, lord=True),))
    assert p("toboroz 2 lovas be Trencsén") == Recruit(2, "cav", "trencsen")
    assert p("licit nádor 5") == Bid("palatine", 5)
    assert p("ad 3 neki Erdély") == Give(3, "erdely")
    assert p("give 3 to Kán László") == Give(3, "erdely")
    assert p("passz") == Pass()
    assert p("HŰBÉREKÜ igen") == Fealty("yes")
    assert p("vezet ostrom ijasz gyalogos lovas") == Lead("siege", ("arch", "inf", "cav"))
    assert p("MOVE TO abauj FROM gomor all IF ENEMY <= 3") == \
        Move("abauj", (Part("gomor", all=True),), "enemy", 3)
    assert p("eskü nem") == Oath(False)
    assert p("választ Kán László") == Choose("erdely")
    assert p("harc vezet íjász célpont lovas hátrál Gömör") == \
        Fight(lead=("arch",), target=("cav",), retreat=("gomor",))


@pytest.mark.parametrize("line,fragment", [
    ("MOVE TO Gomr FROM szepes 1 inf", 'did you mean "gomor"'),
    ("MOVE TO abauj FROM szepes 1 sword", "is not an arm"),
    ("MOVE abauj szepes", "write MOVE TO"),
    ("MOVE TO abauj FROM abauj 1 inf", "is the target"),
    ("MOVE TO abauj FROM szepes 1 inf IF FULL", "IF EMPTY or IF ENEMY"),
    ("RECRUIT 2 inf IN borsod", "has no castle"),
    ("RECRUIT two inf IN abauj", "is not a number"),
    ("BID king 5", 'unknown office "king"'),
    ("BID judge 5 IF WON palatine", "auctioned before judge"),
    ("ATTACK abauj", "is not a command"),
    ("FEALTY maybe", "FEALTY YES"),
    ("LEAD open cav cav", "each arm once"),
    ("GIVE 5 TO Bela", "unknown player"),
    ("PASS now", "takes nothing"),
    ("FIGHT LEAD cav LEAD inf", "LEAD is given twice"),
    ("OATH maybe", "OATH YES"),
])
def test_errors_say_what_is_right(line, fragment):
    with pytest.raises(OrderError) as e:
        p(line)
    assert fragment in str(e.value)
    assert "e.g." in str(e.value) or "write " in str(e.value) or "did you mean" in str(e.value)


KIND_OF_FILE = {"deploy": "deploy", "orders": "orders", "bid": "bid", "battle": "battle",
                "fealty": "oath", "move": "move", "palatine": "palatine"}


def _accepted(kind: str) -> tuple[type, ...]:
    """The order types a file of this kind may hold besides standing orders."""
    if kind in RULESET.phases:
        return RULESET.phases[kind].orders
    return RULESET.answers[kind]


def _files():
    return sorted(EXAMPLES.glob("*.txt"))


def test_example_files_exist():
    assert len(_files()) >= 5


@pytest.mark.parametrize("path", _files(), ids=lambda x: x.name)
def test_example_files_parse(path):
    """Every line parses and is a line of the step (or question) the file is for; the
    position decides the rest when the file is sent."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("GAME example") and lines[-1] == "END"
    seat = next(x.split()[1] for x in lines if x.startswith("SEAT "))
    body = "\n".join(x for x in lines if not x.startswith(("GAME ", "SEAT ", "PASSWORD ", "END")))
    parsed = GRAMMAR.parse(STATE, seat, body)
    assert parsed.ok, parsed.echo()
    accepted = _accepted(KIND_OF_FILE[path.stem.split("-")[0]])
    for ln in parsed.lines:
        assert ln.order.standing or isinstance(ln.order, accepted + (Bid,)), ln.text


def test_example_files_use_every_command():
    """RULESET-DONE 2: sample order files for every command (RESIGN only as a comment)."""
    used = set()
    for path in _files():
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.lstrip("# ").split()
            if words and not line.startswith("#"):
                used.add(words[0].upper())
    verbs = {cls.verbs[0] for cls in GRAMMAR.orders} - {"RESIGN"}
    hungarian = {"TOBOROZ", "VÁLTSÁG", "LÉPÉS", "PASSZ", "VEZET", "HŰBÉREKÜ"}
    assert verbs | hungarian <= used, sorted((verbs | hungarian) - used)
    assert any("RESIGN" in p.read_text(encoding="utf-8") for p in _files())


def test_docs_cover_every_command_and_option():
    docs = (ROOT / "docs" / "rulesets" / "kard-es-korona.md").read_text(encoding="utf-8")
    for cls in GRAMMAR.orders:
        assert f"`{cls.verbs[0]}" in docs, cls.verbs[0]
    for option in RULESET.options:
        assert f"`{option.key}`" in docs, option.key


# --- perft: legal one-unit steps --------------------------------------------------------------

def single_unit_steps(state, seat):
    """Every legal one-unit step (origin, arm, target) of `seat` in `state`."""
    out = []
    gm = game_map(state["version"])
    for c, stack in sorted(state["board"].items()):
        if stack["owner"] != seat:
            continue
        for a in ARMS:
            if not stack["units"][a]:
                continue
            for t in sorted(gm.counties):
                if t == c:
                    continue
                mv = Move(t, (Part(c, **{a: 1}),))
                if check_step(state, seat, mv)[0] == "":
                    out.append((c, a, t))
    return out


def _start(n, variant):
    out = set_up(RULESET, GameConfig(DEFAULT_SEATS[n], variant), b"pin")
    out = process(RULESET, out.state_json, {}, seed=b"pin-1")  # default placements
    return out.state


@pytest.mark.parametrize("n,variant,expected", [
    (2, "basic", {"felvidek": 54, "tiszahat": 73}),
    (4, "basic", {"felvidek": 55, "erdely": 74, "delvidek": 59, "pannonia": 79}),
    (6, "advanced", {"felvidek": 122, "tiszahat": 103, "erdely": 127, "delvidek": 108,
                     "szlavonia": 105, "pannonia": 89}),
])
def test_pinned_legal_step_counts(n, variant, expected):
    """Perft-like pins: legal one-unit steps per seat in the first year after the default
    placement. They change only when the map, the set-up or the movement rules change."""
    state = _start(n, variant)
    got = {s: len(single_unit_steps(state, s)) for s in state["seats"]}
    assert got == expected


def test_trencsen_steps_by_hand():
    """The pins above, checked by hand for one county: from Trencsén cavalry (4 MP) reaches
    8 counties, infantry and archers (2 MP) 5 (leaving the mountain Liptó costs nothing,
    entering it 2)."""
    state = _start(2, "basic")
    steps = [x for x in single_unit_steps(state, "felvidek") if x[0] == "trencsen"]
    assert sorted(t for c, a, t in steps if a == "cav") == [
        "bars", "borsod", "gomor", "lipto", "nograd", "nyitra", "pozsony", "szepes"]
    assert sorted(t for c, a, t in steps if a == "inf") == [
        "bars", "gomor", "lipto", "nyitra", "pozsony"]
