"""(d) Bytes per step of whole real games, one per ruleset, through the real mail path.

    python bench/bench_storage.py [--seed 1] [--ruleset helios ...]

Each game: the most players, bots answering every report by mail (reply token), the tick
processing each step and mailing the reports to a maildir. Two games per ruleset in one
database (seeds S and S+1). Per step of the second game, once its archive is exported: what
each part takes (compressed) against its plain JSON or MIME size (the floor: storing it as
it is), and in brackets what is kept only until the export; the rows' other columns (ids,
times, statuses: not in the parts' total, added to it on the same line); how many more of the
database file's pages are in use after that game and its archive export (which ends the
default mail retention; the freed pages are reused, without VACUUM); and both games after
VACUUM, less the empty schema. Also the largest report mail.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import zlib
from pathlib import Path

from common import play_by_mail
from sqlmodel import select

from pbem.archive.export import export_game
from pbem.config import Settings
from pbem.rulesets import _discover
from pbem.service import retention
from pbem.service.games import find_game
from pbem.store.db import connect, migrate, session_scope
from pbem.store import steptexts
from pbem.store.models import Step
from pbem.store.types import ZHeaders, ZMail

PARTS = {  # name -> (table, columns)
    "state": ("step", ("state_json", "awaiting_json")),
    "events+rolls": ("step", ("events_json", "rolls_json")),
    "orders": ("step", ("applied_json",)),
    "step row": ("step", ("defaulted_json", "result_json", "seed",
                              "commitment", "state_digest", "orders_digest", "phase")),
    "submissions": ("submission", ("body", "echo", "message_id", "sender")),
    "audit": ("audit", ("detail", "action")),
    "mail in": ("inboundmessage", ("raw", "message_id", "sender", "sha256", "size")),
    "mail out kept": ("outbox", ("headers", "digest", "message_id", "subject", "recipient")),
}
COMPRESSED = {"body", "echo"}


HASHES = {"digest", "sha256", "commitment", "state_digest", "orders_digest"}  # 32 bytes each
OTHER = "rows' other columns"  # ids, times, statuses, kinds, seats, sizes
CHAINED = {f"{name}_json" for name in steptexts.TEXTS}


def plain_size(col: str, data: bytes) -> int:
    if col == "headers":
        return len(ZHeaders().process_result_value(data, None) or "")
    if col in HASHES:
        return 2 * len(data)  # as hex digits
    if col == "raw":
        return len(ZMail().process_result_value(data, None) or b"")
    return len(zlib.decompress(data)) if col in COMPRESSED and data else len(data)


def chained_plain_sizes(path: Path, gid: int) -> dict[str, int]:
    """The plain size of a game's step texts stored against their base step's (read as
    the host reads them)."""
    engine = connect(f"sqlite:///{path}")
    sizes = dict.fromkeys(CHAINED, 0)
    with session_scope(engine) as s:
        for step in s.exec(select(Step).where(Step.game_id == gid)):
            for col in CHAINED:
                sizes[col] += len((getattr(step, col) or "").encode())
    engine.dispose()
    return sizes


def part_sizes(path: Path, game: str) -> dict[str, tuple[int, int]]:
    """part -> (bytes stored, bytes as plain text), for one game's rows"""
    con = sqlite3.connect(path)
    (gid,) = con.execute("SELECT id FROM game WHERE name = ?", (game,)).fetchone()
    where = {"step": "game_id = ?", "audit": "game_id = ?", "outbox": "game_id = ?",
             "submission": "step_id IN (SELECT id FROM step WHERE game_id = ?)",
             "inboundmessage": "game_id = ? OR message_id LIKE '%' || ? || '%'"}
    chained = chained_plain_sizes(path, gid)
    out = {}
    for part, (table, cols) in PARTS.items():
        stored = plain = 0
        args: tuple[object, ...] = (gid, f"{game}-") if table == "inboundmessage" else (gid,)
        for col in cols:
            for (value,) in con.execute(f"SELECT {col} FROM {table} WHERE ({where[table]}) "
                                        f"AND {col} IS NOT NULL", args):
                data = value if isinstance(value, bytes) else str(value).encode()
                stored += len(data)
                plain += 0 if table == "step" and col in CHAINED else plain_size(col, data)
            if table == "step" and col in CHAINED:
                plain += chained[col]
        out[part] = (stored, plain)
    counted = {(table, col) for table, cols in PARTS.values() for col in cols} | {("outbox", "raw")}
    other = 0
    for table in where:
        args = (gid, f"{game}-") if table == "inboundmessage" else (gid,)
        cols = [c for (_, c, *_rest) in con.execute(f"PRAGMA table_info({table})")
                if (table, c) not in counted]
        for row in con.execute(f"SELECT {', '.join(cols)} FROM {table} WHERE {where[table]}",
                               args):
            other += sum(field_size(v) for v in row)
    out[OTHER] = (other, 0)
    (body,) = con.execute("SELECT COALESCE(SUM(LENGTH(raw)), 0) FROM outbox WHERE game_id = ?",
                          (gid,)).fetchone()
    out["mail out bodies (retained)"] = (body, 0)
    con.close()
    return out


def field_size(value: object) -> int:
    """Bytes of one field in an SQLite record (an integer takes 0-8 by its size)."""
    if value is None:
        return 0
    if isinstance(value, int):
        return next((n for n, top in ((0, 2), (1, 1 << 7), (2, 1 << 15), (3, 1 << 23),
                                      (4, 1 << 31), (6, 1 << 47)) if -top <= value < top), 8)
    return len(value if isinstance(value, bytes) else str(value).encode())


def file_size(path: Path, *, vacuum: bool = False) -> int:
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    if vacuum:
        con.execute("VACUUM")
    con.close()
    return path.stat().st_size


def in_use(path: Path) -> int:
    """The file's pages that hold data (free pages, e.g. of dropped mail bodies, are reused
    by later writes)."""
    file_size(path)
    con = sqlite3.connect(path)
    (pages,), (free,), (size,) = (con.execute(f"PRAGMA {p}").fetchone()
                                  for p in ("page_count", "freelist_count", "page_size"))
    con.close()
    return (pages - free) * size


def run(rid: str, seed: int, tmp: Path) -> dict[str, object]:
    empty = tmp / "empty.sqlite"
    empty.unlink(missing_ok=True)
    engine = connect(f"sqlite:///{empty}")
    migrate(engine)
    engine.dispose()
    empty_size = file_size(empty, vacuum=True)
    path = tmp / f"{rid}.sqlite"
    path.unlink(missing_ok=True)
    engine = connect(f"sqlite:///{path}")
    migrate(engine)
    settings = Settings(db=str(engine.url), maildir=str(tmp / f"{rid}-mail"))
    sizes, games, parts = [], [], {}
    for n in (seed, seed + 1):
        game = play_by_mail(engine, settings, rid, seed=n)
        during = part_sizes(path, f"{rid}-{n}")  # the last game's, while it is kept
        with session_scope(engine) as s:
            export_game(s, f"{rid}-{n}", tmp / f"{rid}-site")
            retention.archive_exported(s, find_game(s, f"{rid}-{n}"))
        # for good: after the export (received bodies go, sent bodies with the default)
        parts = {**part_sizes(path, f"{rid}-{n}"),
                 "mail in (until the export)": during["mail in"],
                 "mail out bodies (retained)": during["mail out bodies (retained)"]}
        sizes.append(in_use(path))
        games.append(game)
    engine.dispose()
    vacuumed = file_size(path, vacuum=True)
    return {"game": games[-1], "parts": parts, "grew": sizes[1] - sizes[0],
            "vacuumed": vacuumed - empty_size, "steps": sum(g.steps for g in games)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", action="append")
    args = ap.parse_args()
    rids = args.ruleset or sorted(_discover())  # the hosted games, not the bench's own
    with tempfile.TemporaryDirectory() as d:
        for rid in rids:
            r = run(rid, args.seed, Path(d))
            game, parts = r["game"], r["parts"]
            n = game.steps  # type: ignore[attr-defined]
            sizes = game.report_sizes  # type: ignore[attr-defined]
            print(f"\n(d) {rid}, {game.players} players, seed {args.seed + 1}: {n} steps, "  # type: ignore[attr-defined]
                  f"{game.mails_in} order mails, {game.seconds:.1f} s")  # type: ignore[attr-defined]
            for part, (stored, plain) in parts.items():  # type: ignore[attr-defined]
                ratio = f"  ({plain / n:8.0f} plain, x{stored / plain:.2f})" if plain else ""
                print(f"    {part:28} {stored / n:8.0f} B/step{ratio}")
            kept = sum(v[0] for k, v in parts.items() if k in PARTS)  # type: ignore[attr-defined]
            other = parts[OTHER][0]  # type: ignore[index]
            print(f"    {'kept for good (the parts)':28} {kept / n:8.0f} B/step; with the rows' "
                  f"other columns {(kept + other) / n:,.0f} B/step")
            print(f"    database pages in use grew by {r['grew'] / n:,.0f} B/step with this game "  # type: ignore[operator]
                  f"(no VACUUM); both games after VACUUM, less the empty schema: "
                  f"{r['vacuumed'] / r['steps']:,.0f} B/step")  # type: ignore[operator]
            print(f"    report mails: largest {max(sizes):,} B, mean {sum(sizes) / len(sizes):,.0f} B")


if __name__ == "__main__":
    main()
