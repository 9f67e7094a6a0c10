"""A whole Helios game in Hungarian: every report rendered, no game text outside the
catalog, no catalog message shown in English, no bare word in the game's templates."""

from __future__ import annotations

from pathlib import Path

from languages import play_in_hungarian

SEATS = {"north": "n@example.org", "east": "e@example.org", "south": "s@example.org",
         "west": "w@example.org"}

# The rulebook's words, as a Hungarian player must read them.
WORDS = ("Forduló", "akciólapka", "Nap", "mana", "győzelmi pont", "templom", "nyersanyag",
         "vörösfenyő", "gránit", "bambusz", "forrás", "obszidián", "Építő", "oszlop",
         "Végső pontozás", "Nyertes", "Saját helyzeted", "Jelmagyarázat")


def test_a_whole_game_reads_in_hungarian(tmp_path: Path) -> None:
    found = play_in_hungarian("helios", SEATS, tmp_path, every=12, steps=400)
    assert found.finished, f"the game did not end in {found.steps} steps"
    assert found.plain == []
    assert found.leaks == set()
    assert found.bare == []
    missing = [w for w in WORDS if w not in found.text]
    assert missing == []
