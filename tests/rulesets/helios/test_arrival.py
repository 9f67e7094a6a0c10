"""Orders judged on arrival (arrival.py): the turn played now is judged for good, with the
reason and the legal choices; stored turns get notes; an alternative is refused whole;
set-up, Phase 2 and CATCHUP lines are checked against the board."""

from __future__ import annotations

from pbem.rulesets.helios import RULESET

from .helpers import new_game, set_board


def echo(state, seat, text):
    return RULESET.parse(state, seat, text).echo()


def verdicts(state, seat, text):
    """(ok, error or note) per line."""
    return [(ln.ok, ln.error or ln.note) for ln in RULESET.parse(state, seat, text)]


def game():
    state = new_game(2, start="north")  # north is on turn
    state["columns"]["sun"] = ["grey", "blue"]  # the lowest sun tile is blue
    state["columns"]["land"] = ["red", "grey"]  # the lowest land tile is grey
    set_board(state, "north", {(0, 0): ("granite", ["grey"])}, sun=(1, -1))
    return state


def test_under_with_a_coloured_tile_of_another_colour_is_refused_on_arrival():
    # Rulebook p. 4: "a piros lapka a saját játékostábla piros területe alá, a sárga lapka
    # a sárga területe alá és a kék lapka a kék területe alá tehető le ... Amikor egy
    # játékos szürke akciólapkát választ, akkor azt a három színes terület valamelyike alá
    # kell raknia." UNDER chooses the area of a grey tile only.
    state = game()
    v = verdicts(state, "north", "TAKE sun UNDER red\nSUN TO 1,0\nOR\nTAKE land UNDER red\nDECLINE")
    assert v[0] == (False, "the lowest sun tile is blue and goes under blue; UNDER red is for a "
                           "grey tile; columns with tiles: land (lowest grey), build (lowest "
                           + state["columns"]["build"][-1] + "), sun (lowest blue)")
    assert v[1] == (False, "its alternative is refused with line 1; an alternative is used "
                           "whole or not at all")
    assert v[2:] == [(True, None)] * 3  # a grey land tile may go under red
    # contradictions are refused in any turn, also a stored one
    v = verdicts(state, "east", "TAKE sun IF blue UNDER red\nDECLINE")
    assert v[0][0] is False and v[0][1].startswith("a blue tile cannot go under red")


def test_a_line_that_fails_to_parse_refuses_its_whole_alternative_not_the_tile_choice():
    # Issue 14: "TAKE land / PLCE ..." used to take the tile and decline. Now the
    # alternative is refused whole and the next one is played.
    state = game()
    text = "TAKE land\nPLCE granite AT 0,1\nOR\nTAKE sun\nSUN TO 1,0"
    v = verdicts(state, "north", text)
    assert [ok for ok, _ in v] == [False, False, True, True, True]
    assert v[0][1] == ("its alternative is refused with line 2; an alternative is used whole "
                       "or not at all")
    assert v[1][1].startswith('"PLCE" is not a command; did you mean "PLACE"?')


def test_a_mistyped_turn_has_no_valid_line():
    # Issue 14: a mistyped turn must not count as orders ("takes a grey land tile,
    # declines"): every line is refused.
    state = game()
    parsed = RULESET.parse(state, "north", "TAKE land\nPLACE granit AT 9,9")
    assert parsed.lines and not any(ln.ok for ln in parsed.lines)


def test_the_turn_played_now_names_the_legal_choices():
    state = game()
    text = "TAKE land\nPLACE granite AT 2,1\nOR\nTAKE build\nBUILD palace\nOR\nTAKE sun\nSUN TO 3,3"
    errors = [ln.error for ln in RULESET.parse(state, "north", text) if ln.error]
    assert "2,1 is not next to one of your tiles; you can place a tile on 0,-1, -1,0, -1,1, " \
           "1,0, 0,1" in errors
    assert "you cannot pay for palace (green + any + grey); you can build sun_hut" in errors
    assert "your Sun cannot reach 3,3; it can reach 1,0, 0,1" in errors


def test_stored_turns_get_notes_where_the_board_may_change():
    state = game()
    set_board(state, "east", {(0, 0): ("granite", ["grey"])}, sun=(1, -1))
    v = verdicts(state, "east", "TAKE land\nPLACE granite AT 2,1\nBONUS SUN TO 3,3")
    assert v[1] == (True, "if the board stays as it is: 2,1 is not next to one of your tiles")
    assert v[2] == (True, "as the board stands now: your Sun cannot reach 3,3; it can reach "
                          "1,0, 0,1; it is tried when the bonus action comes")
    # what can never become legal is refused also in a stored turn
    v = verdicts(state, "east", "TAKE land\nPLACE granite AT 4,0")
    assert v[1][0] is False and v[1][1].startswith("4,0 is a dark border cell")


def test_turns_beyond_the_round_are_refused():
    state = game()
    state["turn_index"] = 7  # 2 players, 4 turns each: east plays the last, north is done
    assert not any(ok for ok, _ in verdicts(state, "north", "TAKE sun\nDECLINE"))
    v = verdicts(state, "east", "TAKE land\nDECLINE\nNEXT\nTAKE sun\nDECLINE")
    assert [ok for ok, _ in v] == [True, True, False, False, False]
    assert v[2][1] == "you have 0 more turn(s) this round; this would be your coming turn no. 1"


def test_structure_errors():
    state = game()
    cases = {
        "TAKE sun\nTAKE land": "a second TAKE in one alternative",
        "TAKE land\nDECLINE\nOR": "OR must be followed by the TAKE of the next alternative",
        "TAKE land\nDECLINE\nNEXT": "NEXT must be followed by your next turn",
        "BONUS DECLINE": "BONUS must follow a TAKE",
        "TAKE sun\nPLACE granite AT 0,1": "a sun tile grants SUN (or DECLINE), not PLACE",
    }
    for text, error in cases.items():
        assert any(error in (ln.error or "") for ln in RULESET.parse(state, "north", text)), text


def test_a_turn_without_a_usable_alternative_is_announced_on_its_next_line():
    state = game()
    v = verdicts(state, "north", "TAKE sun IF red\nDECLINE\nNEXT\nTAKE land\nDECLINE")
    assert v[2] == (True, "no usable alternative for your turn now: unless you send a better "
                          "one, the default turn is played (TAKE sun, DECLINE)")


def test_set_up_lines():
    state = new_game(4, start="north")
    state["phase"] = "setup"  # south and west are seats 3 and 4
    assert verdicts(state, "east", "START granite\nCATCHUP blue")[1] == (
        False, "only seats 3 and 4 after the start player get a set-up resource")
    assert verdicts(state, "south", "START granite\nCATCHUP blue AT 1,0")[1] == (
        False, "at set-up the extra resource goes on your start tile; write CATCHUP blue "
               "(or AT 0,0)")
    assert verdicts(state, "south", "START granite\nSTART bamboo")[1] == (
        False, "a second START: send one")
    state["options"]["setup_bonus_must_differ"] = "yes"
    assert verdicts(state, "south", "START granite\nCATCHUP grey")[1] == (
        False, "your granite start tile already holds grey; this game's extra resource must "
               "differ (option setup_bonus_must_differ)")


def test_a_resource_placed_on_a_temple_or_a_full_tile():
    # Rulebook p. 13: "A játékosnak soha nem lehet kettőnél több nyersanyaga egy föld- vagy
    # bónuszlapkán sem." p. 6: "Soha nem lehet egyszerre nyersanyag és templom ugyanazon a
    # föld- vagy bónuszlapkán."
    state = new_game(2, start="north")
    set_board(state, "north", {(0, 0): ("granite", [], True), (1, 0): ("granite", ["grey", "grey"]),
                               (0, 1): ("bamboo", ["green"])})
    v = verdicts(state, "north", "TAKE sun\nDECLINE\nCATCHUP blue AT 0,0\nCATCHUP blue AT 1,0")
    assert v[2] == (False, "0,0 holds a temple; tiles that can take a resource: 0,1")
    assert v[3] == (True, "1,0 already holds 2 resources now; if it still is, the resource goes "
                          "on the first tile that can take it (now: 0,1)")
    state["phase"] = "characters"
    state["characters"]["architect"]["owner"] = "north"
    v = verdicts(state, "north", "ACTIVATE architect BONUS blue AT 0,0\n"
                                 "ACTIVATE architect BONUS blue AT 1,0")
    assert v[0] == (False, "0,0 holds a temple; tiles that can take a resource: 0,1")
    assert v[1][0] is True and v[1][1].startswith("1,0 already holds 2 resources now")


def test_phase_2_lines():
    state = new_game(2, start="north")
    state["phase"] = "characters"
    state["characters"]["princess"]["owner"] = "east"
    assert verdicts(state, "north", "HIRE princess") == [
        (False, "the princess is taken by east; free now: architect, inventor, priestess, "
                "explorer, fortune_teller, cartographer, treasurer")]
    assert verdicts(state, "north", "ACTIVATE princess") == [(False, "the princess is east's")]
    assert verdicts(state, "north", "HIRE treasurer")[0] == (
        True, "the treasurer costs 4 mana, you have 1 (mana from activations earlier in your "
              "turn counts)")
    assert verdicts(state, "north", "ACTIVATE priestess")[0] == (
        True, "you do not own the priestess yet: this line waits until you hire it")
