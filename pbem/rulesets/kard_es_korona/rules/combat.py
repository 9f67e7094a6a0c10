"""Fighting one battle (rulebook 3.6, p. 9-11; spec 5.5-5.9, 5.12): dice, hit values,
casualty choice, the open, terrain and siege procedures, pursuit and the lords' duel.

Pure combat: it takes two sides (counts per arm, lord present or not, the owner's battle
instructions) and dice, fights until the battle ends and says how it ended. What the end
means for the board (capture, retreats, a defeated lord) is `battles.py`'s business.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.dice import Dice
from pbem.core.i18n import Msg, _, join
from pbem.rulesets.kard_es_korona.data import ARM_NAMES, ARMS
from pbem.rulesets.kard_es_korona.orders import ALWAYS, RerollPolicy

MAX_EXCHANGES = 2000


@dataclass
class Side:
    owner: str
    name: str  # display name used in logs and dice purposes
    army: dict[str, int]
    lord: bool = False
    neutral: bool = False
    lead_pref: tuple[str, ...] = ("arch", "cav", "inf")
    target: tuple[str, ...] = ("cav", "arch", "inf")
    target_volley: tuple[str, ...] = ("inf", "cav", "arch")  # victims of the archers' volley
    reroll: RerollPolicy = RerollPolicy(0)  # the Judge Royal's policy (only the Judge's side)
    flee: int = 0  # advanced: flee when own units <= flee% of the enemy's (ALWAYS: -1)
    lead: str | None = None
    rerolled: bool = False

    @property
    def units(self) -> int:
        return sum(self.army.values())


@dataclass(frozen=True)
class Die:
    arm: str
    face: int
    mod: int

    @property
    def value(self) -> int:
        return self.face + self.mod


@dataclass
class Battle:
    county: str
    place: str  # display name
    kind: str  # open | terrain | siege
    att: Side
    dfn: Side
    vintage: bool = False  # card Szüret: the defending side's dice +1 (assumption, spec 2.5)
    flight: bool = False  # advanced rule 6.3
    can_flee: dict[str, bool] = field(default_factory=lambda: {"att": False, "dfn": False})
    log: list[Msg] = field(default_factory=list)
    exchanges: int = 0
    outcome: str = ""  # attacker | defender | empty | siege_failed | fled
    fled: str = ""  # "att" | "dfn" when a side fled
    fled_army: dict[str, int] = field(default_factory=dict)

    @property
    def mounted(self) -> bool:
        """Cavalry is mounted only in open battles (rulebook p. 10-11; spec 5.5.2)."""
        return self.kind == "open"


def threshold(b: Battle, shooter: str, target: str) -> int:
    """Rulebook p. 4 unit profiles; spec 5.5.2: mounted cavalry is hit only on 6; mounted
    cavalry hits foot on 4, everyone else needs 5."""
    if target == "cav" and b.mounted:
        return 6
    if shooter == "cav" and b.mounted:
        return 4
    return 5


def side_mod(b: Battle, side: Side, arm: str, defending: bool) -> int:
    """+1 for the arm the lord leads; +1 to every defender die in mountains and swamps;
    +1 to the defenders with card Szüret. Modifiers add up (PR-16)."""
    m = 0
    if side.lord and side.lead == arm:
        m += 1
    if defending and b.kind == "terrain":
        m += 1
    if defending and b.vintage:
        m += 1
    return m


def choose_lead(side: Side) -> None:
    """Rulebook p. 11: before his side's first roll the lord names one arm present."""
    if side.lord and side.lead is None:
        for a in side.lead_pref:
            if side.army.get(a, 0) > 0:
                side.lead = a
                return
        for a in ARMS:
            if side.army.get(a, 0) > 0:
                side.lead = a
                return


def rolls(dice: Dice, count: int, sides: int, purpose: Msg) -> list[int]:
    """`dice.rolls` keeping each die's purpose a message ("<purpose> #2"), so the report
    shows it in the reader's language; the same dice in the same order."""
    return [dice.roll(sides, Msg("{purpose} #{i}", purpose=purpose, i=i + 1) if count > 1
                      else purpose) for i in range(count)]


def roll(b: Battle, side: Side, arms: dict[str, int], defending: bool, dice: Dice, label: str,
         extra: int = 0) -> list[Die]:
    out = []
    for a in ARMS:
        n = arms.get(a, 0)
        if n <= 0:
            continue
        mod = side_mod(b, side, a, defending) + extra
        faces = rolls(dice, n, 6, _("{county}, {round}: {side} {arm}", county=b.place,
                                   round=label, side=side.name, arm=ARM_NAMES[a]))
        out += [Die(a, f, mod) for f in faces]
    return out


def kills_possible(b: Battle, d: Die, enemy: dict[str, int], volley: bool) -> list[str]:
    return [t for t in ARMS if enemy.get(t, 0) > 0 and not (volley and t == "cav" and b.mounted)
            and d.value >= threshold(b, d.arm, t)]


def maybe_reroll(b: Battle, side: Side, rolled: list[Die], enemy: dict[str, int], volley: bool,
                 dice: Dice, label: str, defending: bool, judge: str | None,
                 extra: int = 0) -> list[Die]:
    """Rulebook p. 12: "Minden csatában egyszer újradobhatja egy fegyvernem részére egy
    összecsapás eredményét, de valamennyi kockát, nem csak azokat, amelyek nem találtak" -
    once per battle the Judge Royal rerolls, for one arm, an exchange's result: all its
    dice, also those that hit. His policy (REROLL) picks the arm: the named one, else the
    one with most dice, among those that rolled at least `dice` dice and hit at most `hits`
    times (spec 5.5.4, DP11)."""
    policy = side.reroll
    if judge is None or side.owner != judge or side.rerolled or policy.dice <= 0:
        return rolled
    best, best_n = None, 0
    for a in ARMS:
        ds = [d for d in rolled if d.arm == a]
        hits = sum(1 for d in ds if kills_possible(b, d, enemy, volley))
        if (policy.arm in ("", a) and len(ds) >= policy.dice and hits <= policy.hits
                and len(ds) > best_n):
            best, best_n = a, len(ds)
    if best is None:
        return rolled
    side.rerolled = True
    b.log.append(_("Judge Royal rerolls the {n} {arm} dice of {side}.", n=best_n,
                   arm=ARM_NAMES[best], side=side.name))
    mod = side_mod(b, side, best, defending) + extra
    faces = rolls(dice, best_n, 6, _("{county}, {round}: {side} {arm} reroll", county=b.place,
                                    round=label, side=side.name, arm=ARM_NAMES[best]))
    return [d for d in rolled if d.arm != best] + [Die(best, f, mod) for f in faces]


# SPEC-AMBIGUITY: the volley gets its own casualty priority (TARGET volley); by default it
# kills units that fight in the first melee (infantry, cavalry) before archers, which is
# what the rulebook's Zala example does (p. 10).
def allocate(b: Battle, hits: list[Die], enemy: dict[str, int], prio: tuple[str, ...],
             volley: bool) -> dict[str, int]:
    """The hitting side chooses the victims; each hit die kills one unit it can kill
    (rulebook p. 10; spec 5.5.3). For each wanted victim in priority order the weakest
    unused die that can kill it is used."""
    left = dict(enemy)
    kills = {a: 0 for a in ARMS}
    pool = sorted(hits, key=lambda d: (len(kills_possible(b, d, enemy, volley)), d.value))
    order = [a for a in prio if a in ARMS] + [a for a in ARMS if a not in prio]
    for t in order:
        while left.get(t, 0) > 0:
            usable = [d for d in pool if t in kills_possible(b, d, enemy, volley)]
            if not usable:
                break
            pool.remove(usable[0])
            left[t] -= 1
            kills[t] += 1
    return kills


def neutral_prio(b: Battle, neutral: Side, other: Side, wiped: bool) -> tuple[str, ...]:
    """Victims chosen for neutral troops (spec 5.14, PR-39): if they die this exchange, the
    most expensive attackers; in a siege against an army without lord, infantry first (to
    break the siege); otherwise cavalry, archers, infantry."""
    if wiped:
        return ("cav", "inf", "arch")
    if b.kind == "siege" and not other.lord:
        return ("inf", "cav", "arch")
    return ("cav", "arch", "inf")


def exchange(b: Battle, rolls: dict[str, dict[str, int]], dice: Dice, label: Msg,
             judge: str | None, volley: bool = False,
             extra: dict[str, int] | None = None) -> None:
    """One simultaneous exchange: every listed unit rolls, then both sides' victims are
    removed at once (rulebook p. 10; spec 5.5.3)."""
    b.exchanges += 1
    if b.exchanges > MAX_EXCHANGES:
        raise AssertionError(f"battle at {b.county} does not end")
    extra = extra or {}
    sides = {"att": b.att, "dfn": b.dfn}
    enemy_of = {"att": b.dfn, "dfn": b.att}
    rolled: dict[str, list[Die]] = {}
    for key in ("att", "dfn"):
        arms = rolls.get(key, {})
        if sum(arms.values()) > 0:
            rolled[key] = roll(b, sides[key], arms, key == "dfn", dice, label,
                               extra.get(key, 0))
    for key, ds in rolled.items():
        rolled[key] = maybe_reroll(b, sides[key], ds, enemy_of[key].army, volley, dice, label,
                                   key == "dfn", judge, extra.get(key, 0))
    hits = {k: [d for d in ds if kills_possible(b, d, enemy_of[k].army, volley)]
            for k, ds in rolled.items()}
    kills: dict[str, dict[str, int]] = {}
    order = sorted(rolled, key=lambda k: sides[k].neutral)  # players choose first
    for key in order:
        side, enemy = sides[key], enemy_of[key]
        prio = side.target_volley if volley else side.target
        if side.neutral:
            other_key = "dfn" if key == "att" else "att"
            lost = sum(kills.get(other_key, {}).values())
            prio = neutral_prio(b, side, enemy, lost >= side.units)
        kills[key] = allocate(b, hits[key], enemy.army, prio, volley)
    for key, ds in rolled.items():
        faces = " ".join(f"{d.face}" + (f"+{d.mod}" if d.mod else "") for d in ds)
        k = kills.get(key, {})
        killed = join([_("{n} {arm}", n=n, arm=ARM_NAMES[a]) for a, n in k.items() if n]) \
            if any(k.values()) else _("nothing")
        b.log.append(_("{round}: {side} rolls [{faces}], kills {killed}.", round=label,
                       side=sides[key].name, faces=faces, killed=killed))
    for key, k in kills.items():
        enemy = enemy_of[key]
        for a, n in k.items():
            enemy.army[a] -= n


def _ended(b: Battle) -> bool:
    return b.att.units == 0 or b.dfn.units == 0


def fight(b: Battle, dice: Dice, judge: str | None) -> None:
    """Fight the battle to its end; sets `b.outcome`."""
    choose_lead(b.att)
    choose_lead(b.dfn)
    for s in (b.att, b.dfn):
        if s.lord and s.lead:
            b.log.append(_("{side}'s lord leads the {arm} (+1).", side=s.name,
                           arm=ARM_NAMES[s.lead]))
    if b.kind == "siege":
        _siege(b, dice, judge)
    else:
        _open(b, dice, judge)
    if not b.outcome:
        if b.att.units == 0 and b.dfn.units == 0:
            b.outcome = "empty"
        elif b.dfn.units == 0:
            b.outcome = "attacker"
        else:
            b.outcome = "defender"


def _open(b: Battle, dice: Dice, judge: str | None) -> None:
    """Rulebook p. 10; spec 5.6-5.7: round 1 = archers' volley, then cavalry and infantry;
    later rounds everyone rolls."""
    volleyers = {}
    for key, side, enemy in (("att", b.att, b.dfn), ("dfn", b.dfn, b.att)):
        only_mounted = b.mounted and enemy.army["inf"] + enemy.army["arch"] == 0
        if side.army["arch"] > 0 and not only_mounted:
            volleyers[key] = {"arch": side.army["arch"]}
    if volleyers:
        exchange(b, volleyers, dice, _("round 1 volley"), judge, volley=True)
        if _ended(b):
            return
    melee = {}
    for key, side in (("att", b.att), ("dfn", b.dfn)):
        arms = {"cav": side.army["cav"], "inf": side.army["inf"]}
        if key not in volleyers:
            arms["arch"] = side.army["arch"]
        melee[key] = arms
    exchange(b, melee, dice, _("round 1 melee"), judge)
    rnd = 1
    while not _ended(b):
        if _flight(b, dice, judge, rnd):
            return
        rnd += 1
        exchange(b, {"att": dict(b.att.army), "dfn": dict(b.dfn.army)}, dice,
                 _("round {n}", n=rnd), judge)


def _siege(b: Battle, dice: Dice, judge: str | None) -> None:
    """Rulebook p. 10-11; spec 5.8: the defending archers shoot alone first (+1, hit on 4),
    then the assault: all attackers and the defenders except archers; the attacker needs
    infantry or his lord to keep up the siege."""
    rnd = 0
    while True:
        rnd += 1
        if b.dfn.army["arch"] > 0:
            exchange(b, {"dfn": {"arch": b.dfn.army["arch"]}}, dice,
                     _("round {n} castle archers", n=rnd), judge, extra={"dfn": 1})
            if b.att.units == 0:
                return
            if b.att.army["inf"] == 0 and not b.att.lord:
                b.outcome = "siege_failed"
                b.log.append(_("The besiegers have no infantry and no lord left: the siege "
                               "fails."))
                return
        exchange(b, {"att": dict(b.att.army), "dfn": {"cav": b.dfn.army["cav"],
                                                       "inf": b.dfn.army["inf"]}},
                 dice, _("round {n} assault", n=rnd), judge)
        if b.dfn.units == 0 or b.att.units == 0:
            return
        if b.att.army["inf"] == 0 and not b.att.lord:
            b.outcome = "siege_failed"
            b.log.append(_("The besiegers have no infantry and no lord left: the siege fails."))
            return
        if _flight(b, dice, judge, rnd):
            return


def wants_flee(b: Battle, key: str) -> bool:
    """Rulebook p. 15: "dönthet mind a támadó, mind a védekező fél, hogy ... nem kívánja
    folytatni a harcot, inkább visszavonul" - either side may flee after a full round,
    whatever the numbers: FLEE ALWAYS, or FLEE <percent> of the enemy's units (also above
    100)."""
    side = b.att if key == "att" else b.dfn
    enemy = b.dfn if key == "att" else b.att
    if not (b.flight and not side.neutral and side.flee != 0 and b.can_flee.get(key, False)):
        return False
    return side.flee == ALWAYS or side.units * 100 <= side.flee * enemy.units


def _flight(b: Battle, dice: Dice, judge: str | None, rnd: int) -> bool:
    """Advanced rule 6.3 (p. 15; spec 5.12): after a full round either side may flee; if
    both want to, only the attacker does (PR-24). The side that stays pursues with one die
    per unit (a fleeing besieger is shot at only by the castle archers, PR-25)."""
    key = "att" if wants_flee(b, "att") else ("dfn" if wants_flee(b, "dfn") else "")
    if not key:
        return False
    fleeing = b.att if key == "att" else b.dfn
    stayer_key = "dfn" if key == "att" else "att"
    stayer = b.dfn if key == "att" else b.att
    b.log.append(_("{side} flees after round {n}; {other} pursues.", side=fleeing.name, n=rnd,
                   other=stayer.name))
    if b.kind == "siege" and key == "att":
        arms = {"arch": stayer.army["arch"]}
        extra = {stayer_key: 1}
    else:
        arms = dict(stayer.army)
        extra = {}
    if sum(arms.values()) > 0:
        exchange(b, {stayer_key: arms}, dice, _("pursuit"), judge, extra=extra)
    b.outcome = "fled"
    b.fled = key
    b.fled_army = dict(fleeing.army)
    return True


def duel(b: Battle, dice: Dice, judge: str | None) -> str:
    """Rulebook p. 11: both lords fight as knights, only a 6 hits, a double 6 does not
    count; Szüret applies (defender +1) and the Judge Royal may reroll once. Returns the
    key ("att"/"dfn") of the winner."""
    rerolled = {"att": False, "dfn": False}
    n = 0
    while True:
        n += 1
        if n > MAX_EXCHANGES:
            raise AssertionError("duel does not end")
        faces = {}
        for key, side in (("att", b.att), ("dfn", b.dfn)):
            mod = 1 if (key == "dfn" and b.vintage) else 0
            faces[key] = dice.roll(6, _("{county}, duel exchange {n}: {side}", county=b.place,
                                        n=n, side=side.name)) + mod
        for key, side in (("att", b.att), ("dfn", b.dfn)):
            other = "dfn" if key == "att" else "att"
            if (judge == side.owner and not rerolled[key] and faces[key] < 6
                    and faces[other] >= 6):
                rerolled[key] = True
                mod = 1 if (key == "dfn" and b.vintage) else 0
                faces[key] = dice.roll(6, _("{county}, duel exchange {n}: {side} Judge Royal "
                                            "reroll", county=b.place, n=n, side=side.name)) + mod
        b.log.append(_("Duel exchange {n}: {attacker} {a}, {defender} {d}.", n=n,
                       attacker=b.att.name, a=faces["att"], defender=b.dfn.name, d=faces["dfn"]))
        hit_a, hit_d = faces["att"] >= 6, faces["dfn"] >= 6
        if hit_a != hit_d:
            return "att" if hit_a else "dfn"
