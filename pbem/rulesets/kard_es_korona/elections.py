"""Elections (rulebook ch. 4, p. 12; spec 5.16): three sealed-bid auctions, Judge Royal,
Master of the Treasury, Palatine, each one simultaneous step of all eligible players.

All bids are paid to the bank; a tied top bidder who does not get the office gets half his
bid back (rounded down). Ties: the holder keeps his office; otherwise, from the second
election on, the Palatine chooses (his PREFER list; default himself, else the first tied
player in turn order); otherwise a die roll-off (PR-41).
"""

from __future__ import annotations

from pbem.core.dice import Dice
from pbem.core.events import Event
from pbem.rulesets.kard_es_korona.board import OFFICE_NAMES, OFFICES
from pbem.rulesets.kard_es_korona.economy import regular_election
from pbem.rulesets.kard_es_korona.state import St, turn_order


def election_due(state: St) -> bool:
    return regular_election(state, state["year"]) or state["extra_election"]


def eligible(state: St) -> list[str]:
    """Rulebook p. 11-12: vassals and captives may not bid."""
    return [s for s in turn_order(state) if state["players"][s]["status"] == "active"]


def start_election(state: St, events: list[Event]) -> bool:
    """Returns False when nobody may bid (the election is skipped)."""
    who = eligible(state)
    declared = {s: state["players"][s]["treasury"] for s in who}
    state["election"] = {"office": 0, "declared": declared, "results": []}
    events.append(Event("election", f"Election at the end of {state['year']}. Declared "
                        "treasuries: " + ", ".join(f"{s} {m}" for s, m in declared.items()) +
                        ".", {"declared": declared}))
    return bool(who)


def current_office(state: St) -> str:
    return OFFICES[state["election"]["office"]]


def palatine_choice(state: St, pal: str, tied: list[str]) -> str:
    # SPEC-AMBIGUITY (DP22 default): the Palatine picks himself if tied, else the first tied
    # player in turn order, unless his PREFER list says otherwise.
    prefs = state["players"][pal]["standing"].get("prefer", [])
    for s in prefs:
        if s in tied:
            return s
    if pal in tied:
        return pal
    return [s for s in turn_order(state) if s in tied][0]


def roll_off(state: St, tied: list[str], office: str, dice: Dice, events: list[Event]) -> str:
    judge = state["offices"]["judge"]
    rnd = 0
    while len(tied) > 1:
        rnd += 1
        rolls = {s: dice.roll(6, f"roll-off for {office}, round {rnd}: {s}") for s in tied}
        if judge in rolls and rolls[judge] < max(rolls.values()):
            rolls[judge] = dice.roll(6, f"roll-off for {office}, round {rnd}: {judge} "
                                        "Judge Royal reroll")
            judge = None
        events.append(Event("election", f"Roll-off for {office}: " + ", ".join(
            f"{s} {r}" for s, r in rolls.items()) + ".", {"rolls": rolls}))
        top = max(rolls.values())
        tied = [s for s in tied if rolls[s] == top]
    return tied[0]


def resolve_auction(state: St, bids: dict[str, int], dice: Dice, events: list[Event],
                    choice: str | None = None, resumed: bool = False) -> bool:
    """One auction (rulebook p. 12; spec 5.16.3, T17). Returns False when it waits for the
    Palatine's tie choice (decisions=ask, no standing PREFER): the capped bids are kept in
    `state["election"]["pending"]` and `state["ask"]` names him; nothing is paid yet. The
    engine resumes it with `choice` (his answer, or None for the default) and `resumed`."""
    office = current_office(state)
    if not resumed:
        for s in list(bids):
            bids[s] = max(0, min(bids[s], state["players"][s]["treasury"]))
        events.append(Event("bids", f"Bids for {OFFICE_NAMES[office]}: " + ", ".join(
            f"{s} {b}" for s, b in bids.items()) + ".", {"office": office, "bids": bids}))
    if not bids or max(bids.values()) == 0:
        events.append(Event("election", f"Nobody bids for {OFFICE_NAMES[office]}: nothing "
                            "changes.", {"office": office}))
        state["election"]["results"].append({"office": office, "winner": state["offices"][office]})
        return True
    top = max(bids.values())
    tied = [s for s in turn_order(state) if bids.get(s) == top]
    holder = state["offices"][office]
    pal = state["offices"]["palatine"]
    how = ""
    if len(tied) == 1:
        winner = tied[0]
    elif holder in tied:
        winner, how = holder, " (the holder keeps the office on a tie)"
    elif state["elections_held"] >= 1 and pal is not None \
            and state["players"][pal]["status"] == "active":
        if (not resumed and state["opts"].get("decisions") == "ask"
                and not state["players"][pal]["standing"].get("prefer")):
            # Rulebook p. 12: "ő dönthet közöttük" - ask him in a short step (DP22).
            state["election"]["pending"] = {"bids": dict(bids)}
            state["ask"] = {"kind": "palatine", "seats": [pal], "tied": tied,
                            "office": office}
            events.append(Event("election", f"Tie for {OFFICE_NAMES[office]} between "
                                + ", ".join(tied) + f": the Palatine {pal} chooses.",
                                {"office": office, "tied": tied}))
            return False
        winner = choice if choice in tied else palatine_choice(state, pal, tied)
        how = f" (the Palatine {pal} decides the tie)"
    else:
        winner = roll_off(state, tied, office, dice, events)
        how = " (roll-off)"
    for s, b in bids.items():
        state["players"][s]["treasury"] -= b
    for s in tied:
        if s != winner:
            back = top // 2
            state["players"][s]["treasury"] += back
            events.append(Event("refund", f"{s} gets {back} garas back (half of a tied bid).",
                                {"seat": s, "amount": back}))
    state["offices"][office] = winner
    state["election"]["results"].append({"office": office, "winner": winner})
    events.append(Event("office", f"{winner} becomes {OFFICE_NAMES[office]}{how}.",
                        {"office": office, "seat": winner}))
    state["election"].pop("pending", None)
    return True


def prebid(state: St, seat: str) -> int | None:
    """The seat's pre-bid for the office now auctioned (sent with this year's orders): the
    first BID line for it whose condition holds, or None."""
    office = current_office(state)
    results = {r["office"]: r["winner"] for r in state["election"]["results"]}
    for line in state["players"][seat]["standing"].get("prebids", {}).get(
            str(state["year"]), []):
        if line["office"] != office:
            continue
        if line["cond"] == "won" and results.get(line["cond_office"]) != seat:
            continue
        if line["cond"] == "lost" and results.get(line["cond_office"]) == seat:
            continue
        return int(line["amount"])
    return None


def to_ask(state: St) -> list[str]:
    """Eligible seats that have no pre-bid for the office now auctioned."""
    return [s for s in eligible(state) if prebid(state, s) is None]
