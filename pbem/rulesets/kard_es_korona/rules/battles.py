"""Phase IV, battles and sieges (rulebook 3.6, p. 9-11; advanced 6.3, p. 15; spec 5.10,
5.11, 5.12): the order of battles, the owners' battle instructions, fighting each battle
(`combat.py`) and what follows: captures, the 7-unit overflow, organized retreats (with
forced battles), flight destinations, lone lords and the winner's extra step.

Instructions: a FIGHT answer for this battle (decisions=ask, a player side without any
standing battle line is asked before the battle), else the standing orders (LEAD, TARGET,
REROLL, FLEE, RETREAT), else the documented defaults. Defeated lords: `defeat.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pbem.core.dice import Dice
from pbem.core.i18n import Msg, _, join
from pbem.core.kit import Ask, Context, Log
from pbem.rulesets.kard_es_korona.data import ARMS, BATTLE_KINDS, MP
from pbem.rulesets.kard_es_korona.orders import GRAMMAR, Fight, RerollPolicy
from pbem.rulesets.kard_es_korona.rules import defeat
from pbem.rulesets.kard_es_korona.rules.combat import Battle as Fought
from pbem.rulesets.kard_es_korona.rules.combat import Side, duel, fight
from pbem.rulesets.kard_es_korona.rules.control import (
    allied,
    battle_at,
    controller,
    gmap,
    in_play,
    is_neutral,
    lord_at,
    owner_of_units,
    passable_for,
    turn_order,
)
from pbem.rulesets.kard_es_korona.rules.economy import card_effect
from pbem.rulesets.kard_es_korona.rules.movement import castle_fits, new_battle
from pbem.rulesets.kard_es_korona.rules.victory import check_victory
from pbem.rulesets.kard_es_korona.state import (
    Army,
    Battle,
    State,
    add_units,
    empty_army,
    fmt_army,
    remove_units,
    total,
)

DEFAULT_LEAD = {"open": ("arch", "cav", "inf"), "terrain": ("arch", "inf", "cav"),
                "siege": ("arch", "inf", "cav")}
DEFAULT_TARGET = {"open": ("cav", "arch", "inf"), "terrain": ("arch", "inf", "cav"),
                  "siege": ("arch", "inf", "cav")}
DEFAULT_VOLLEY = ("inf", "cav", "arch")  # kill those who fight in the first melee first
DEFAULT_REROLL = 2

Answers = Mapping[str, Fight]  # seat -> its FIGHT answer for the battle being fought


def kind_of(state: State, county: str) -> str:
    t = gmap(state).counties[county].terrain
    return "siege" if t == "castle" else ("open" if t == "plain" else "terrain")


def has_lord(state: State, b: Battle) -> bool:
    return b["lord"] or lord_at(state, b["county"]) is not None


def next_battle(state: State) -> Battle | None:
    """Rulebook p. 11; spec 5.10: battles with a lord first, in the order of their steps;
    then open and terrain battles, then sieges, each in the attackers' rotation from the
    start player (a player fights his own battles in the order of his steps, DP8)."""
    bs = state["battles"]
    if not bs:
        return None
    lordly = [b for b in bs if has_lord(state, b)]
    if lordly:
        return min(lordly, key=lambda b: b["seq"])
    stage = "open" if any(kind_of(state, b["county"]) != "siege" for b in bs) else "siege"
    rot = state["rotation"]
    start = rot["next"] if rot is not None and rot["stage"] == stage else 0
    order = turn_order(state)
    for k in range(len(order)):
        i = (start + k) % len(order)
        mine = [b for b in bs if b["attacker"] == order[i]
                and (kind_of(state, b["county"]) == "siege") == (stage == "siege")]
        if mine:
            state["rotation"] = {"stage": "open" if stage == "open" else "siege",
                                 "next": (i + 1) % len(order)}
            return min(mine, key=lambda b: b["seq"])
    # attackers no longer in the rotation (cannot happen, but never loop)
    return min(bs, key=lambda b: b["seq"])


@dataclass(frozen=True)
class Instructions:
    """One side's instructions for one battle."""

    lead: tuple[str, ...]
    target: tuple[str, ...]
    volley: tuple[str, ...]
    reroll: RerollPolicy
    flee: int
    retreat: tuple[str, ...] = field(default=())


def instructions(state: State, seat: str, kind: str, answer: Fight | None = None) -> Instructions:
    """The seat's battle instructions: its FIGHT answer for this battle, else its standing
    orders, else the documented defaults."""
    st = state["players"][seat]["standing"]
    lead = st.get("lead", {})
    target = st.get("target", {})
    once = answer or Fight()
    return Instructions(
        lead=once.lead or tuple(lead.get(kind) or lead.get("all") or DEFAULT_LEAD[kind]),
        target=once.target or tuple(target.get(kind) or target.get("all")
                                    or DEFAULT_TARGET[kind]),
        volley=once.target or tuple(target.get("volley") or target.get(kind)
                                    or target.get("all") or DEFAULT_VOLLEY),
        reroll=once.reroll or RerollPolicy(st.get("reroll", DEFAULT_REROLL),
                                           st.get("reroll_hits", 0), st.get("reroll_arm", "")),
        flee=st.get("flee", 0) if once.flee is None else once.flee,
        retreat=once.retreat or tuple(st.get("retreat", [])))


def make_side(state: State, owner: str, army: Army, lord: bool, kind: str,
              answers: Answers) -> Side:
    if is_neutral(state, owner):
        return Side(owner, _("royal troops") if owner == "royal" else
                    _("neutral {province}", province=owner[2:]), dict(army), False, True)
    ins = instructions(state, owner, kind, answers.get(owner))
    return Side(owner, owner, dict(army), lord, False, ins.lead, ins.target, ins.volley,
                ins.reroll, ins.flee)


def retreat_prefs(state: State, seat: str, answers: Answers) -> tuple[str, ...]:
    if is_neutral(state, seat):
        return ()
    once = answers.get(seat)
    if once is not None and once.retreat:
        return once.retreat
    return tuple(state["players"][seat]["standing"].get("retreat", []))


def battle_question(state: State, b: Battle) -> Msg:
    """The battle question (decisions=ask): which battle, both armies (face up in phase
    IV), and the parts of a FIGHT line that apply (REROLL only for the Judge Royal, FLEE
    only with the flight rule)."""
    gm = gmap(state)
    county = b["county"]
    kind = kind_of(state, county)
    owner = owner_of_units(state, county)
    defender: str = owner or _("nobody")
    if owner == "royal":
        defender = _("royal troops")
    elif owner is not None and owner.startswith("n_"):
        defender = _("neutral troops of {province}", province=owner[2:])
    here = state["board"].get(county)
    d_army = fmt_army(here["units"] if here else {}, lord_at(state, county) is not None)
    args = {"county": gm.counties[county].name, "seat": b["attacker"],
            "army": fmt_army(b["army"], b["lord"]), "defender": defender, "defence": d_army}
    if kind == "open":
        return _("Open battle at {county}: {seat} attacks with {army} against {defender} "
                 "{defence}.", **args)
    if kind == "terrain":
        return _("Battle in the mountain/swamp at {county}: {seat} attacks with {army} against "
                 "{defender} {defence}.", **args)
    return _("Siege at {county}: {seat} attacks with {army} against {defender} {defence}.",
             **args)


def _fight_parts(state: State, seat: str) -> Msg:
    parts = [_("LEAD <arms> (the arm your lord leads, +1)"),
             _("TARGET <arms> (your casualty priority)")]
    if state["offices"]["judge"] == seat:
        parts.append(_("REROLL <dice> [HITS <hits>] [ARM <arm>]|NEVER (Judge Royal)"))
    if state["options"]["flight"]:
        parts.append(_("FLEE <percent>|ALWAYS|NEVER"))
    parts.append(_("RETREAT <county...>"))
    return join(parts)


def battle_answers(ctx: Context, b: Battle) -> dict[str, Fight]:
    """decisions=ask: the player sides of this battle that sent no standing battle line are
    asked for a FIGHT line for it, both at once (DP9-DP13)."""
    state = ctx.state
    if state["options"]["decisions"] != "ask":
        return {}
    defender = owner_of_units(state, b["county"])
    if defender is None:  # nobody to fight, or a lone lord defeated without dice (PR-22)
        return {}
    kind = kind_of(state, b["county"])
    default = str(Fight(lead=DEFAULT_LEAD[kind], target=DEFAULT_TARGET[kind]))
    asks: dict[str, Ask] = {}
    for seat in (b["attacker"], defender):
        if is_neutral(state, seat) or seat in asks:
            continue
        if state["players"][seat]["standing"].get("battle_set"):
            continue
        asks[seat] = Ask(
            _("{battle} Send one line for this battle: FIGHT with any of {parts}; a plain FIGHT "
              "uses the defaults (or standing lines sent with it).",
              battle=battle_question(state, b), parts=_fight_parts(state, seat)),
            default, options=(default,), exhaustive=False,
            public=_("battle instructions for {county}",
                     county=gmap(state).counties[b["county"]].name),
            data={"county": b["county"]})
    if not asks:
        return {}
    got = ctx.decide_all("battle", asks)
    out: dict[str, Fight] = {}
    for seat, line in got.items():
        order = GRAMMAR.parse_line(state, seat, line)
        assert isinstance(order, Fight)
        out[seat] = order
    return out


def run_battles(ctx: Context) -> bool:
    """Phase IV: fight every pending battle, settling defeated lords' oaths between them.
    Returns True when the game is over."""
    state = ctx.state
    while True:
        if check_victory(state, ctx.log):
            return True
        if state["oaths"]:
            defeat.settle_oath(ctx)
            continue
        b = next_battle(state)
        if b is None:
            state["rotation"] = None
            return False
        answers = battle_answers(ctx, b)
        fight_one(state, ctx.log, ctx.dice, b, answers)


def fight_one(state: State, log: Log, dice: Dice, b: Battle, answers: Answers,
              forced: bool = False) -> str:
    """Fight battle `b` and apply its result. Returns who won: "attacker"/"defender"/""."""
    county = b["county"]
    name = gmap(state).counties[county].name
    if b in state["battles"]:
        state["battles"].remove(b)
    attacker = b["attacker"]
    kind = kind_of(state, county)
    d_owner = owner_of_units(state, county)
    d_lord = lord_at(state, county)
    d_army = dict(state["board"][county]["units"]) if d_owner else empty_army()
    defender = d_owner or d_lord
    if b["lord"]:
        state["players"][attacker]["lord_attacking"] = False
    if defender is None or defender == attacker:
        # the defenders vanished (e.g. replaced after a lord's defeat): the attackers move in
        _occupy(state, log, dice, attacker, b, b["army"], answers, forced)
        log.public("battle", _("No defenders are left in {county}: {seat} moves in.",
                               county=name, seat=attacker), county=county)
        return "attacker"
    if allied(state, attacker, defender):
        # The defender swore fealty to the attacker (or the reverse) after the step: the two
        # never fight (rulebook p. 11), so the attack is called off and the army retreats.
        log.public("battle", _("{attacker} and {defender} are now overlord and vassal: the "
                               "attack on {county} is called off.", attacker=attacker,
                               defender=defender, county=name), county=county)
        retreat(state, log, dice, attacker, b["army"], b["lord"], b["origins"], county,
                retreat_prefs(state, attacker, answers), forced=forced)
        return ""
    if d_owner is None and d_lord is not None:
        # PR-22: a lone lord who is attacked is defeated without dice.
        log.public("battle", _("{attacker} attacks the lone lord of {defender} in {county}.",
                               attacker=attacker, defender=d_lord, county=name), county=county)
        _occupy(state, log, dice, attacker, b, b["army"], answers, forced)
        defeat.defeat_lord(state, log, dice, d_lord, attacker, county, killed=False)
        return "attacker"
    if kind == "siege" and card_effect(state) == "rain" and not forced:
        if _rained_off(state, log, dice, b, answers):
            return "defender"
    att = make_side(state, attacker, b["army"], b["lord"], kind, answers)
    dfn = make_side(state, defender, d_army, d_lord is not None, kind, answers)
    bt = Fought(county, name, kind, att, dfn, vintage=card_effect(state) == "vintage",
                flight=state["options"]["flight"] and not forced)
    if bt.flight:
        bt.can_flee = {"att": bool(flight_destination(state, attacker, b, county, True)),
                       "dfn": bool(flight_destination(state, defender, b, county, False))}
    sides = {"county": name, "kind": BATTLE_KINDS[kind], "attacker": attacker,
             "army": fmt_army(att.army, att.lord), "defender": dfn.name,
             "defence": fmt_army(dfn.army, dfn.lord)}
    log.public("battle", _("Siege of {county} ({kind}): {attacker} {army} against {defender} "
                           "{defence}.", **sides) if kind == "siege" else
               _("Battle of {county} ({kind}): {attacker} {army} against {defender} {defence}.",
                 **sides), county=county, battle_kind=kind)
    fight(bt, dice, state["offices"]["judge"])
    for line in bt.log:
        log.public("combat", line, county=county)
    return _aftermath(state, log, dice, b, bt, defender, d_lord, answers, forced)


def _rained_off(state: State, log: Log, dice: Dice, b: Battle, answers: Answers) -> bool:
    """Card Esős ősz (spec 2.5, an assumption): before a siege the besieger rolls; on 1-2
    it is called off. The Judge Royal rerolls his own failed roll once (p. 12)."""
    attacker, county = b["attacker"], b["county"]
    name = gmap(state).counties[county].name
    roll = dice.roll(6, _("{county}, Esős ősz: does the siege go ahead ({seat})", county=name,
                          seat=attacker))
    if roll <= 2 and state["offices"]["judge"] == attacker:
        roll = dice.roll(6, _("{county}, Esős ősz: Judge Royal reroll ({seat})", county=name,
                              seat=attacker))
    if roll <= 2:
        log.public("battle", _("Rainy autumn: {seat}'s siege of {county} is called off (rolled "
                               "{roll}); the besiegers retreat.", seat=attacker, county=name,
                               roll=roll), county=county, roll=roll)
        retreat(state, log, dice, attacker, b["army"], b["lord"], b["origins"], county,
                retreat_prefs(state, attacker, answers), forced=False)
        return True
    log.public("battle", _("Rainy autumn: {seat} rolls {roll}; the siege of {county} goes "
                           "ahead.", seat=attacker, roll=roll, county=name), county=county,
               roll=roll)
    return False


def _aftermath(state: State, log: Log, dice: Dice, b: Battle, bt: Fought, defender: str,
               d_lord: str | None, answers: Answers, forced: bool) -> str:
    county = b["county"]
    name = bt.place
    attacker = b["attacker"]
    # the defenders' survivors stay (they have fought: used)
    state["board"].pop(county, None)
    if bt.outcome == "fled":
        return _after_flight(state, log, dice, b, bt, defender, d_lord, answers)
    if bt.dfn.units > 0:
        add_units(state, county, defender, bt.dfn.army, used=True)
    if bt.outcome == "attacker":
        log.public("battle_end", _("{seat} wins at {county}: {army} remain.", seat=attacker,
                                   county=name, army=fmt_army(bt.att.army, bt.att.lord)),
                   county=county)
        _occupy(state, log, dice, attacker, b, bt.att.army, answers, forced)
        if d_lord is not None:
            defeat.defeat_lord(state, log, dice, d_lord, attacker, county, killed=False)
        return "attacker"
    if bt.outcome == "siege_failed":
        log.public("battle_end", _("The siege of {county} fails; {seat} holds.", county=name,
                                   seat=defender), county=county)
        if forced:
            log.public("battle_end", _("{seat}'s forced attackers are lost.", seat=attacker),
                       county=county)
            if b["lord"]:
                defeat.defeat_lord(state, log, dice, attacker, defender, county, killed=False)
            return "defender"
        retreat(state, log, dice, attacker, bt.att.army, b["lord"], b["origins"], county,
                retreat_prefs(state, attacker, answers))
        return "defender"
    if bt.outcome == "defender":
        log.public("battle_end", _("{seat} holds {county} with {army}.", seat=bt.dfn.name,
                                   county=name, army=fmt_army(bt.dfn.army, bt.dfn.lord)),
                   county=county)
        if b["lord"]:
            defeat.defeat_lord(state, log, dice, attacker, defender, county, killed=False)
        return "defender"
    return _wiped_out(state, log, dice, b, bt, d_lord)


def _wiped_out(state: State, log: Log, dice: Dice, b: Battle, bt: Fought,
               d_lord: str | None) -> str:
    """Both armies gone in the same exchange (rulebook p. 9 and p. 11): the lords fight a
    duel, a lone surviving lord holds the county, or it is left masterless."""
    county, name, attacker = b["county"], bt.place, b["attacker"]
    if b["lord"] and d_lord is not None:
        log.public("battle_end", _("Both armies at {county} are wiped out: the lords of "
                                   "{attacker} and {defender} fight a duel.", county=name,
                                   attacker=attacker, defender=d_lord), county=county)
        win = duel(bt, dice, state["offices"]["judge"])
        winner, loser = (attacker, d_lord) if win == "att" else (d_lord, attacker)
        for line in bt.log:
            if line.startswith("Duel exchange"):
                log.public("combat", line, county=county)
        log.public("duel", _("{winner}'s lord wins the duel at {county}; {loser}'s lord is "
                             "killed.", winner=winner, county=name, loser=loser),
                   winner=winner, loser=loser)
        state["players"][winner]["lord"] = county
        defeat.defeat_lord(state, log, dice, loser, winner, county, killed=True)
        extra_step(state, log, winner)
        return "attacker" if winner == attacker else "defender"
    if b["lord"]:
        log.public("battle_end", _("Both armies at {county} are wiped out; {seat}'s lord "
                                   "survives alone and holds the county.", county=name,
                                   seat=attacker), county=county)
        state["players"][attacker]["lord"] = county
        extra_step(state, log, attacker)
        return "attacker"
    if d_lord is not None:
        log.public("battle_end", _("Both armies at {county} are wiped out; {seat}'s lord "
                                   "survives alone and holds the county.", county=name,
                                   seat=d_lord), county=county)
        extra_step(state, log, d_lord)
        return "defender"
    # Rulebook p. 9: "minden harcos fűbe harap, s a vitatott vármegye gazdátlanul marad" -
    # when everyone falls in the last exchange the county is left masterless.
    state["claims"].pop(county, None)
    log.public("battle_end", _("Both armies at {county} are wiped out; the county is empty and "
                               "masterless.", county=name), county=county)
    return ""


def _occupy(state: State, log: Log, dice: Dice, seat: str, b: Battle, army: Army,
            answers: Answers, forced: bool) -> None:
    """The winners take the county; at most 7 stay in a castle (advanced: 4 of an arm),
    the rest retreat to where they came from (rulebook p. 11; spec 5.11, 5.13)."""
    county = b["county"]
    keep, out = fit_castle(state, county, army)
    if total(keep):
        add_units(state, county, seat, keep, used=True)
    if b["lord"]:
        state["players"][seat]["lord"] = county
    if total(out):
        log.public("overflow", _("Only {n} may stay in the castle of {county}; {army} retreat.",
                                 n=total(keep), county=gmap(state).counties[county].name,
                                 army=fmt_army(out)), county=county)
        retreat(state, log, dice, seat, out, False, b["origins"], county,
                retreat_prefs(state, seat, answers), forced=forced)


# SPEC-AMBIGUITY (DP13 default): "the strongest units stay" read as the best castle
# defenders: archers (they shoot first, at +1), then infantry, then cavalry (dismounted).
KEEP_ORDER = ("arch", "inf", "cav")


def fit_castle(state: State, county: str, army: Army,
               base: Army | None = None) -> tuple[Army, Army]:
    """Split `army` into what may stand in `county` (on top of `base`) and the excess."""
    keep = empty_army()
    base = base or empty_army()
    for a in KEEP_ORDER:
        for _i in range(army.get(a, 0)):
            trial = {x: base[x] + keep[x] + (1 if x == a else 0) for x in ARMS}
            if not castle_fits(state, county, trial):
                keep[a] += 1
    out = {a: army.get(a, 0) - keep[a] for a in ARMS}
    return keep, out


def retreat(state: State, log: Log, dice: Dice, seat: str, army: Army, lord: bool,
            origins: dict[str, Army], county: str, prefs: tuple[str, ...],
            forced: bool = False) -> None:
    """Organized retreat (rulebook p. 11; spec 5.11, PR-23, PR-38): to an origin county if
    it is still own or empty, else any adjacent own or empty county, within castle limits;
    if every neighbour is held by others, a forced attack on the first of them in his RETREAT
    list, else on the weakest (DP14)."""
    gm = gmap(state)
    left = dict(army)
    adj = [c for c in gm.adjacent(county) if in_play(state, c)]

    def ok(c: str) -> bool:
        return battle_at(state, c) is None and controller(state, c) in (None, seat)

    def units_there(c: str) -> int:
        s = state["board"].get(c)
        return total(s["units"]) if s and s["owner"] == seat else 0
    origin_list = sorted([c for c in origins if c in adj and ok(c)],
                         key=lambda c: (-units_there(c), c))
    others = sorted([c for c in adj if ok(c) and c not in origin_list],
                    key=lambda c: (-units_there(c), c))
    cands = [c for c in prefs if c in origin_list] + [c for c in origin_list if c not in prefs]
    if not origin_list:
        cands = [c for c in prefs if c in others] + [c for c in others if c not in prefs]
    lord_dest = None
    for c in cands:
        if total(left) == 0:
            break
        base = dict(state["board"][c]["units"]) if units_there(c) else empty_army()
        keep, rest = fit_castle(state, c, left, base)
        if total(keep):
            add_units(state, c, seat, keep, used=True)
            log.public("retreat", _("{seat} retreats {army} from {county} to {to}.", seat=seat,
                                    army=fmt_army(keep), county=gm.counties[county].name,
                                    to=gm.counties[c].name), seat=seat, to=c)
            lord_dest = lord_dest or c
        left = rest
    if lord and lord_dest:
        state["players"][seat]["lord"] = lord_dest
        lord = False
    if total(left) == 0 and not lord:
        return
    _surrounded(state, log, dice, seat, left, lord, county, adj, prefs, forced)


def _surrounded(state: State, log: Log, dice: Dice, seat: str, left: Army, lord: bool,
                county: str, adj: list[str], prefs: tuple[str, ...], forced: bool) -> None:
    """Retreating units with nowhere to go attack a neighbour at once (rulebook p. 11)."""
    gm = gmap(state)
    hostile = [c for c in adj if battle_at(state, c) is None
               and controller(state, c) not in (None, seat)
               and not allied(state, seat, controller(state, c) or "")]
    # SPEC-AMBIGUITY: units of a forced battle that must retreat again, or that find no
    # legal county at all (e.g. only full own castles around), are lost.
    if forced or not hostile or total(left) == 0:
        log.public("retreat", _("{seat}'s {army} at {county} find no way out and are lost.",
                                seat=seat, army=fmt_army(left, lord),
                                county=gm.counties[county].name), seat=seat)
        if lord:
            state["players"][seat]["lord"] = county
            winner = controller(state, county) or owner_of_units(state, county) or "royal"
            defeat.defeat_lord(state, log, dice, seat, winner, county, killed=False)
        return
    # DP14: the first hostile county of the player's RETREAT list, else the weakest.
    listed = [c for c in prefs if c in hostile]
    target = listed[0] if listed else min(hostile, key=lambda c: (
        total(state["board"][c]["units"]) if c in state["board"] else 0, c))
    log.public("retreat", _("{seat}'s {army} are surrounded and must attack {county} at once.",
                            seat=seat, army=fmt_army(left, lord),
                            county=gm.counties[target].name), seat=seat)
    nb = new_battle(state, target, seat, left, {county: dict(left)}, lord)
    if lord:
        state["players"][seat]["lord"] = target
        state["players"][seat]["lord_attacking"] = True
    fight_one(state, log, dice, nb, {}, forced=True)


def flight_destination(state: State, seat: str, b: Battle, county: str,
                       attacking: bool) -> str | None:
    """Advanced 6.3 (p. 15; spec 5.12): an attacker flees to a county one of its units came
    from, a defender to an adjacent own or empty county other than the attackers' origins;
    failing that any adjacent empty county. Never into others' units (PR-26)."""
    if is_neutral(state, seat):
        return None
    gm = gmap(state)
    adj = [c for c in gm.adjacent(county) if in_play(state, c) and battle_at(state, c) is None]
    own_or_empty = [c for c in adj if controller(state, c) in (None, seat)
                    and (owner_of_units(state, c) in (None, seat))]
    if attacking:
        first = [c for c in sorted(b["origins"]) if c in own_or_empty]
    else:
        first = [c for c in own_or_empty if c not in b["origins"]]
    if first:
        return first[0]
    empty = [c for c in adj if owner_of_units(state, c) is None and controller(state, c) is None]
    return empty[0] if empty else None


def _after_flight(state: State, log: Log, dice: Dice, b: Battle, bt: Fought, defender: str,
                  d_lord: str | None, answers: Answers) -> str:
    gm = gmap(state)
    county = b["county"]
    attacker = b["attacker"]
    fled_att = bt.fled == "att"
    seat = attacker if fled_att else defender
    stayer = defender if fled_att else attacker
    army = dict(bt.att.army if fled_att else bt.dfn.army)
    lord = b["lord"] if fled_att else d_lord is not None
    stay_army = bt.dfn.army if fled_att else bt.att.army
    if fled_att:
        if total(stay_army):
            add_units(state, county, stayer, stay_army, used=True)
    else:  # the attackers take the county, within the castle limits
        _occupy(state, log, dice, attacker, b, stay_army, answers, False)
    dest = flight_destination(state, seat, b, county, fled_att)
    if dest is None or total(army) == 0:
        log.public("flight", _("{seat}'s fleeing army is destroyed.", seat=seat), seat=seat)
        if lord:
            state["players"][seat]["lord"] = county
            defeat.defeat_lord(state, log, dice, seat, stayer, county, killed=False)
        return "defender" if fled_att else "attacker"
    if gm.counties[dest].obstacle or gm.river[(county, dest)]:
        n = total(army)
        arrive = n // 2  # rulebook p. 15: halved, rounded down (PR-27)
        losses = n - arrive
        order = state["players"][seat]["standing"].get("losses", ["inf", "arch", "cav"])
        for a in order:
            k = min(losses, army[a])
            army[a] -= k
            losses -= k
        log.public("flight", _("Fleeing across an obstacle into {county}: only {arrive} of {n} "
                               "units arrive.", county=gm.counties[dest].name, arrive=arrive,
                               n=n), seat=seat)
    base = dict(state["board"][dest]["units"]) if owner_of_units(state, dest) == seat else \
        empty_army()
    keep, _rest = fit_castle(state, dest, army, base)
    if total(keep):
        add_units(state, dest, seat, keep, used=True)
    log.public("flight", _("{seat} flees from {county} to {to} with {army}.", seat=seat,
                           county=gm.counties[county].name, to=gm.counties[dest].name,
                           army=fmt_army(keep, lord)), seat=seat, to=dest)
    if total(keep) == 0 and lord:
        state["players"][seat]["lord"] = county
        defeat.defeat_lord(state, log, dice, seat, stayer, county, killed=False)  # PR-49
    elif lord:
        state["players"][seat]["lord"] = dest
    return "defender" if fled_att else "attacker"


def extra_step(state: State, log: Log, seat: str) -> None:
    """Rulebook p. 11 (DP19): the lone winning lord moves up to 4 MP to the first county of
    his standing REJOIN list he can reach, else (default) to the own county with most
    units; if none is in reach, the unmoved units of the strongest own county that can
    reach him join him."""
    p = state["players"][seat]
    here = p["lord"]
    if here is None or p["status"] != "active":
        return
    gm = gmap(state)
    passable = passable_for(state, seat)
    # Standing order REJOIN: the first listed own county the lord can reach.
    for c in p["standing"].get("rejoin", []):
        s = state["board"].get(c)
        if (s is not None and s["owner"] == seat and c != here
                and battle_at(state, c) is None
                and gm.shortest(here, c, passable, MP["lord"]) is not None):
            p["lord"] = c
            log.public("extra_step", _("{seat}'s lord rejoins his army in {county} (REJOIN).",
                                       seat=seat, county=gm.counties[c].name), seat=seat, to=c)
            return
    best = None
    for c, s in sorted(state["board"].items()):
        if s["owner"] != seat or c == here or battle_at(state, c) is not None:
            continue
        if gm.shortest(here, c, passable, MP["lord"]) is not None:
            if best is None or total(s["units"]) > total(state["board"][best]["units"]):
                best = c
    if best is not None:
        p["lord"] = best
        log.public("extra_step", _("{seat}'s lord rejoins his army in {county}.", seat=seat,
                                   county=gm.counties[best].name), seat=seat, to=best)
        return
    for c, s in sorted(state["board"].items(), key=lambda kv: -total(kv[1]["units"])):
        if s["owner"] != seat or battle_at(state, c) is not None:
            continue
        free = {a: s["units"][a] - s["used"][a] for a in ARMS}
        reach = {a: n for a, n in free.items()
                 if n and gm.shortest(c, here, passable, MP[a]) is not None}
        keep, _rest = fit_castle(state, here, {a: reach.get(a, 0) for a in ARMS})
        if total(keep):
            remove_units(state, c, keep)
            add_units(state, here, seat, keep, used=True)
            log.public("extra_step", _("{seat} brings {army} from {county} to the lord.",
                                       seat=seat, army=fmt_army(keep),
                                       county=gm.counties[c].name), seat=seat)
            return
    log.public("extra_step", _("{seat}'s lord stays alone in {county}.", seat=seat,
                               county=gm.counties[here].name), seat=seat)
