"""The Kard és Korona ruleset: the protocol surface (pbem.core.ruleset) over the rules
modules. Parsing checks grammar, names and what the current step accepts; the rules
modules decide legality when a command is carried out.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from typing import Any

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.core.orders import OrderLine, Parsed, Prompt, order_lines
from pbem.core.ruleset import GameConfig, Option, Result, Ruleset, Variant
from pbem.rulesets.kard_es_korona import bot, flow
from pbem.rulesets.kard_es_korona import view as view_mod
from pbem.rulesets.kard_es_korona.board import OFFICES
from pbem.rulesets.kard_es_korona.economy import regular_election
from pbem.rulesets.kard_es_korona.elections import current_office, to_ask
from pbem.rulesets.kard_es_korona.orders import (
    Bid,
    Cede,
    Deploy,
    Fealty,
    Flee,
    Give,
    Lead,
    LordAt,
    Move,
    Neutral,
    OrderError,
    Pass,
    Prefer,
    Ransom,
    Recruit,
    Reroll,
    Resign,
    Retreat,
    Target,
    parse_line,
)
from pbem.rulesets.kard_es_korona.setup import (
    DEFAULT_SEATS,
    default_deployment,
    new_state,
    played_problems,
)
from pbem.rulesets.kard_es_korona.state import gmap, turn_order

# Rulebook ch. 6 (p. 14-15): the advanced game's differences. The lord freeze is printed there
# too (a tip inside 6.2 pinning), so it is an advanced rule; the rulebook wins over spec PR-14.
ADVANCED_RULES = ("pinning", "flight", "arm_limits", "lord_freeze")


class KardEsKorona(Ruleset):
    id = "kard-es-korona"
    state_is_plain_json = True  # the engine parses stored states without a copy
    title = "Kard és Korona (Sword and Crown)"
    rulebook = "001_561befb6be5e49a8.txt"
    min_players = 2
    max_players = 6
    variants = (
        Variant("basic", "Basic game", "Small map (7 counties per province), 8 years."),
        Variant("advanced", "Advanced game", "Large map (10 counties per province), 12 years, "
                "pinning, flight, arm limits around castles, cavalry quota."),
    )
    options = (
        *Ruleset.options,
        Option("years", 0, (), "number of years; 0 = 8 (basic) or 12 (advanced)"),
        Option("fealty", True, (True, False), "a defeated lord may swear fealty (p. 11)"),
        Option("escape_roll", False, (True, False), "a defeated lord escapes on a 6 (p. 11)"),
        Option("lord_freeze", None, (None, True, False), "an attacked lord's player may "
               "not step; default per variant (advanced on, basic off: rulebook p. 14)"),
        Option("cavalry_cap", True, (True, False), "cavalry recruitment caps / quota"),
        Option("movement", "interleaved", ("interleaved", "strict", "traditional"),
               "strict = a player whose step list runs out before PASS is asked for his next "
               "steps; traditional = rulebook 6.5: each player moves and fights all at once, "
               "the start player is rolled every year"),
        Option("neutral_placement", "random", ("random", "players"),
               "2-3 players: the neutral units of the unplayed provinces are placed at random "
               "or by the players (each gets provinces dealt in seating order)"),
        Option("control_model", "presence", ("presence", "persistent"),
               "persistent: the last occupier keeps an empty county for victory and the final "
               "ranking (income and movement always follow the units)"),
        Option("pinning", None, (None, True, False), "advanced pinning; default per variant"),
        Option("flight", None, (None, True, False), "advanced flight; default per variant"),
        Option("arm_limits", None, (None, True, False),
               "advanced arm limits around castles; default per variant"),
    )

    # --- set-up ----------------------------------------------------------------------
    def seat_ids(self, players: int, variant: str) -> tuple[str, ...]:
        return DEFAULT_SEATS[players]

    def check_config(self, config: GameConfig) -> list[str]:
        if config.variant not in {v.id for v in self.variants}:
            return [f"unknown variant {config.variant!r}; choose basic or advanced"]
        n = len(config.seats)
        if not 2 <= n <= 6:
            return [f"{self.id} takes 2-6 players, not {n}"]
        probs = played_problems(tuple(config.seats))
        years = config.options.get("years", 0)
        if not isinstance(years, int) or not 0 <= years <= 30:
            probs.append("option years must be a whole number from 1 to 30 (0 = default)")
        return probs + self.option_problems(config)

    def setup(self, config: GameConfig, dice: Dice) -> dict[str, Any]:
        opts = {o.key: config.options.get(o.key, o.default) for o in self.options}
        adv = config.variant == "advanced"
        for k in ADVANCED_RULES:
            if opts.get(k) is None:
                opts[k] = adv
        state = new_state(tuple(config.seats), config.variant, opts)
        # Rulebook p. 7: the first start player by die roll or lot.
        state["start"] = dice.choice(state["seats"], "first start player")
        return state

    # --- the step loop ---------------------------------------------------------------
    def awaiting(self, state: dict[str, Any]) -> dict[str, Prompt]:
        ph = state["phase"]
        if ph == "over":
            return {}
        if ph == "deploy":
            out = {}
            for s in state["seats"]:
                deploys, lord = default_deployment(gmap(state), state["version"], s)
                sk = [f"DEPLOY {c} " + " ".join(f"{n} {a}" for a, n in army.items() if n)
                      for c, army in deploys.items()] + [f"LORD {lord}"]
                if state["opts"].get("neutral_placement") == "players":
                    from pbem.rulesets.kard_es_korona.setup import neutral_assignment
                    provs = neutral_assignment(state).get(s, [])
                    if provs:
                        sk.append("# NEUTRAL <plain county> <arm> for the neutral units of "
                                  + ", ".join(provs))
                out[s] = Prompt("Place your lord and starting army in your home province.",
                                tuple(sk))
            return out
        if ph == "orders":
            out = {}
            for s in turn_order(state):
                p = state["players"][s]
                if p["status"] == "out":
                    continue
                gm = gmap(state)
                castles = sorted(c for c, x in state["board"].items()
                                 if x["owner"] == s and gm.counties[c].has_castle)
                sk = self._orders_skeleton(state, s, castles)
                out[s] = Prompt(f"Year {state['year']}: send recruitment, ransom, transfers, "
                                "your steps with a PASS point and battle instructions.",
                                tuple(sk))
            return out
        if ph == "ask":
            ask = state["ask"]
            if ask["kind"] == "move":
                p = state["players"][ask["seats"][0]]
                text = (f"Movement, your turn ({p['steps_left']} steps left): send your next "
                        "MOVE lines (tried in order until one can be made) and/or PASS.")
                sk = ("PASS",)
            elif ask["kind"] == "battle":
                text = self._battle_question(state, ask)
                from pbem.rulesets.kard_es_korona.battles import (
                    DEFAULT_LEAD,
                    DEFAULT_TARGET,
                    kind_of,
                )
                kind = kind_of(state, ask["county"])
                sk = ("LEAD all " + " ".join(DEFAULT_LEAD[kind]),
                      "TARGET all " + " ".join(DEFAULT_TARGET[kind]))
            elif ask["kind"] == "palatine":
                from pbem.rulesets.kard_es_korona.board import OFFICE_NAMES
                tied = ask["tied"]
                text = (f"As Palatine you choose who gets the office {OFFICE_NAMES[ask['office']]}"
                        f": {', '.join(tied)} tied with the highest bid (rulebook p. 12; you may "
                        "pick yourself if tied). Send PREFER <player>; no answer: yourself if "
                        "tied, else the first of them in turn order.")
                sk = (f"PREFER {ask['seats'][0] if ask['seats'][0] in tied else tied[0]}",)
            else:
                text = (f"Your lord was defeated by {ask['victor']}: FEALTY YES to swear "
                        "fealty, FEALTY NO to be eliminated.")
                sk = ("FEALTY YES",)
            return {s: Prompt(text, sk) for s in ask["seats"]}
        if ph == "bid":
            office = current_office(state)
            return {s: Prompt(self._bid_question(state, s), (f"BID {office} 0",))
                    for s in to_ask(state)}
        raise AssertionError(f"no step awaited in phase {ph}")

    @staticmethod
    def _bid_question(state: dict[str, Any], seat: str) -> str:
        """The sealed-bid step (rulebook p. 12): the office, its power and the auction rules."""
        from pbem.rulesets.kard_es_korona.board import OFFICE_NAMES
        office = current_office(state)
        power = {"judge": "once per battle he rerolls all dice of one arm, and his own other "
                          "rolls once",
                 "treasurer": "his castles pay 5 garas instead of 3",
                 "palatine": "recruits at 7/4/4 and, from the second election on, chooses "
                             "between tied bidders"}[office]
        holder = state["offices"][office]
        pal = state["offices"]["palatine"]
        if state["elections_held"] >= 1 and pal is not None:
            tie = f"else the Palatine {pal} chooses"
        else:
            tie = "else a die roll-off"
        return (f"Election at the end of {state['year']}, auction "
                f"{state['election']['office'] + 1} of 3: {OFFICE_NAMES[office]}: {power}. "
                f"Now held by {holder or 'nobody'}. Your sealed bid, 0 to "
                f"{state['players'][seat]['treasury']} garas: every bid is paid; a tied "
                f"bidder who does not get the office gets half his bid back; ties: the holder "
                f"keeps it, {tie}. All bids 0: nothing changes.")

    @staticmethod
    def _battle_question(state: dict[str, Any], ask: dict[str, Any]) -> str:
        """The battle step (decisions=ask): which battle, both armies (face up in phase IV),
        and the lines that apply to it (REROLL only for the Judge Royal, FLEE only with the
        flight rule)."""
        from pbem.rulesets.kard_es_korona.battles import kind_of
        from pbem.rulesets.kard_es_korona.state import fmt_army, lord_at, owner_of_units
        gm = gmap(state)
        county = ask["county"]
        b = next(x for x in state["battles"] if x["seq"] == ask["seq"])
        kind = kind_of(state, county)
        label = {"open": "Open battle", "terrain": "Battle in the mountain/swamp",
                 "siege": "Siege"}[kind]
        defender = owner_of_units(state, county) or "nobody"
        if defender == "royal":
            defender = "royal troops"
        elif defender.startswith("n_"):
            defender = f"neutral troops of {defender[2:]}"
        here = state["board"].get(county)
        d_army = fmt_army(here["u"] if here else {}, lord_at(state, county) is not None)
        lines = ["LEAD all <arms> (the arm your lord leads, +1)",
                 "TARGET all <arms> (your casualty priority)"]
        if any(state["offices"]["judge"] == s for s in ask["seats"]):
            lines.append("REROLL <n>|NEVER (Judge Royal)")
        if state["opts"].get("flight"):
            lines.append("FLEE <percent>|NEVER")
        lines.append("RETREAT <county...>")
        return (f"{label} at {gm.counties[county].name}: {b['attacker']} attacks with "
                f"{fmt_army(b['army'], bool(b['lord']))} against {defender} {d_army}. "
                "Send for this battle: " + ", ".join(lines) + ". The skeleton holds the "
                "defaults for this battle; standing LEAD/TARGET lines in your year orders skip "
                "this step.")

    @staticmethod
    def _orders_skeleton(state: dict[str, Any], seat: str, castles: list[str]) -> list[str]:
        """The year-orders skeleton: what may be sent now, as comments (rulebook p. 7-8)."""
        p = state["players"][seat]
        year = state["year"]
        sk = [f"# treasury {p['treasury']} garas"]
        if year == 1301:  # rulebook p. 7: no income and no recruitment in the first year
            sk.append("# no income and no recruitment in 1301")
        else:
            sk[0] += ("; cavalry 9, infantry/archer 5"
                      + (" (Palatine 7/4)" if state["offices"]["palatine"] == seat else ""))
            sk.append("# RECRUIT <n> <arm> IN <castle>; your castles: "
                      + (", ".join(castles) or "none"))
            if state["opts"].get("cavalry_cap", True):
                if state["version"] == "basic":  # rulebook p. 8
                    sk.append("# cavalry: at most 2 per castle and 4 in all this year")
                else:  # rulebook p. 15 (6.4)
                    sk.append(f"# cavalry: at most 3 per castle; {state['quota']} new cavalry "
                              "in all players' recruitment this year (at least 1 for you)")
        if p["status"] == "captive" and p["captive_until"]:
            sk.append("# your lord is captive: RANSOM <county with your units> (20 garas) "
                      f"before {p['captive_until']}, or he dies")
        if regular_election(state, year) or state.get("extra_election"):
            sk.append(f"# election at the end of {year}: you may pre-bid here, e.g. "
                      "BID judge 5, BID treasurer 3 IF LOST judge")
        sk += [f"# up to {min(6, len(castles) + 2)} steps in order, then PASS: "
               "MOVE TO <county> FROM <county> <n> <arm> [; <county> ...]",
               "PASS"]
        return sk

    ALLOWED = {
        "deploy": (Deploy, LordAt, Neutral),
        "orders": (Recruit, Ransom, Give, Cede, Move, Pass, Bid, Resign),
        "battle": (Lead, Target, Reroll, Flee, Retreat),
        "move": (Move, Pass),
        "fealty": (Fealty,),
        "palatine": (Prefer,),
        "bid": (Bid, Prefer),
    }

    def _step_kind(self, state: dict[str, Any]) -> str:
        if state["phase"] == "ask":
            return state["ask"]["kind"]
        return state["phase"]

    def parse(self, state: dict[str, Any], seat: str, text: str) -> Parsed:
        gm = gmap(state)
        kind = self._step_kind(state)
        allowed = self.ALLOWED.get(kind, ())
        standing_ok = kind in ("deploy", "orders")
        from pbem.rulesets.kard_es_korona.orders import STANDING
        lines = []
        for no, line in order_lines(text):
            try:
                o = parse_line(gm, state["seats"], line)
                if not isinstance(o, allowed) and not (standing_ok and isinstance(o, STANDING)):
                    raise OrderError(f"{type(o).__name__.upper()} is not accepted now; this "
                                     "step takes " + ", ".join(
                                         t.__name__.upper() for t in allowed) +
                                     (" and standing orders" if standing_ok else ""))
                self._check(state, seat, o)
                lines.append(OrderLine(no, line, o))
            except OrderError as e:
                lines.append(OrderLine(no, line, None, str(e)))
        return Parsed.of(lines)

    def _check(self, state: dict[str, Any], seat: str, o: Any) -> None:
        gm = gmap(state)
        if isinstance(o, (Deploy, LordAt)) and gm.counties[o.county].province != seat:
            raise OrderError(f"{o.county} is not in your home province {seat}")
        if isinstance(o, Neutral):
            from pbem.rulesets.kard_es_korona.setup import neutral_assignment
            if state["opts"].get("neutral_placement") != "players":
                raise OrderError("NEUTRAL is used only with option neutral_placement=players")
            mine = neutral_assignment(state).get(seat, [])
            if gm.counties[o.county].province not in mine or \
                    gm.counties[o.county].terrain != "plain":
                raise OrderError(f"{o.county} is not a plain county of the neutral provinces "
                                 "dealt to you (" + (", ".join(mine) or "none") + ")")
        if isinstance(o, Bid) and state["phase"] == "orders":
            from pbem.rulesets.kard_es_korona.elections import election_due
            if not election_due(state):
                raise OrderError(f"no election at the end of {state['year']}; pre-bids are "
                                 "accepted only in election years")
        elif isinstance(o, Bid):
            office = current_office(state)
            if o.office != office:
                raise OrderError(f"this auction is for {office}, not {o.office}")
            have = state["players"][seat]["treasury"]
            if o.amount > have:
                raise OrderError(f"you have only {have} garas; bid 0 to {have}")
        if isinstance(o, Give) and o.seat == seat:
            raise OrderError("you cannot give money to yourself")

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Parsed],
                dice: Dice) -> tuple[dict[str, Any], list[Event]]:
        events = flow.resolve(state, dict(orders), dice)
        return state, events

    def default_orders(self, state: dict[str, Any], seat: str) -> Parsed:
        """NMR: the default placement; in a year only PASS (standing orders stay); in a
        battle the standing/default instructions; fealty YES; bid 0."""
        kind = self._step_kind(state)
        if kind == "deploy":
            deploys, lord = default_deployment(gmap(state), state["version"], seat)
            text = "".join(f"DEPLOY {c} " + " ".join(f"{n} {a}" for a, n in army.items() if n)
                           + "\n" for c, army in deploys.items()) + f"LORD {lord}\n"
        elif kind == "orders":
            text = "PASS\n"
        elif kind == "fealty":
            text = "FEALTY YES\n"
        elif kind == "move":
            text = "PASS\n"
        elif kind == "bid":
            text = f"BID {current_office(state)} 0\n"
        else:
            text = ""
        return self.parse(state, seat, text)

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        return view_mod.view(state, seat)

    def result(self, state: dict[str, Any]) -> Result | None:
        r = state["result"]
        if r is None:
            return None
        return Result(tuple(r["winners"]), dict(r["scores"]), r["reason"], tuple(r["ranking"]))

    def legal_orders(self, state: dict[str, Any], seat: str, rng: random.Random) -> list[str]:
        return bot.orders_for(state, seat, rng)

    def redeal_hidden(self, state: dict[str, Any], seat: str | None,
                      rng: random.Random) -> dict[str, Any]:
        """Other seats' standing orders and (during an election) treasuries are hidden."""
        new = copy.deepcopy(state)
        if view_mod.moving(new):  # the arms of others' face-down units
            for stack in new["board"].values():
                if stack["owner"] != seat and sum(stack["used"].values()):
                    n = sum(stack["used"].values())
                    fresh = {a: 0 for a in stack["used"]}
                    for _ in range(n):
                        fresh[rng.choice(sorted(fresh))] += 1
                    for a in stack["u"]:
                        stack["u"][a] += fresh[a] - stack["used"][a]
                    stack["used"] = fresh
            for b in new["battles"]:
                if b["attacker"] != seat:
                    n = sum(b["army"].values())
                    b["army"] = {a: 0 for a in b["army"]}
                    for _ in range(n):
                        b["army"][rng.choice(sorted(b["army"]))] += 1
        for s, p in new["players"].items():
            if s == seat:
                continue
            p["standing"] = bot.random_standing(new, s, rng)
            if new["phase"] == "bid":
                p["treasury"] = rng.randint(0, 60)
        return new

    def dump(self, state: dict[str, Any]) -> Any:
        return state

    def load(self, data: Any) -> dict[str, Any]:
        return json.loads(json.dumps(data))

    def round_number(self, state: dict[str, Any]) -> int:
        return state["year"] - 1300

    def phase_label(self, state: dict[str, Any]) -> str:
        return view_mod.phase_label(state)

    def board_text(self, view: Mapping[str, Any]) -> str:
        return view_mod.board_text(dict(view))

    def board_svg(self, view: Mapping[str, Any]) -> str | None:
        return view_mod.board_svg(dict(view))


OFFICE_IDS = OFFICES
