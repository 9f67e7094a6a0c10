"""(i) Several hosts on one PostgreSQL: steps per second with 1, 2 and 4 host processes.

    python bench/bench_hosts.py [--games 60] [--hosts 1 2 4] [--repeat 2]

A private PostgreSQL cluster on loopback. For each host count: a fresh database with
`--games` whole two-player Helios games, each with both seats' orders for its open step
already in (random legal orders); then N host processes (tests/support/host_worker.py, the
real tick: the step, its reports queued, the outbox sent to a maildir) start, import and
connect, then get the go together (as `pbem serve` processes that are already running). The
time is from the go until every step is processed and every mail sent (read from the
database). Checked every run: each step processed once, each mail delivered once.
The baseline is one host, measured in the same run: the table gives steps/s and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import T0, median
from pg import cluster  # tests/support
from sqlalchemy import create_engine, func
from sqlmodel import select

from pbem.core.envelope import render_envelope
from pbem.rulesets import get as get_ruleset
from pbem.service.games import create_game, find_game, live_step
from pbem.service.orders import submit_orders
from pbem.store.db import connect, migrate, session_scope
from pbem.store.models import Audit, Outbox

WORKER = Path(__file__).resolve().parents[1] / "tests" / "support" / "host_worker.py"


def prepare(url: str, games: int) -> None:
    engine = connect(url)
    migrate(engine)
    rs = get_ruleset("helios")
    rng = random.Random(7)
    for i in range(games):
        with session_scope(engine) as s:
            pw = create_game(s, ruleset_id="helios", name=f"h{i}", seed=f"h{i}", now=T0,
                             seats={"north": f"n{i}@x.org", "east": f"e{i}@x.org"}).passwords
            step = live_step(s, find_game(s, f"h{i}"))
            state = rs.load(json.loads(step.state_json))
            for seat in json.loads(step.awaiting_json):
                # CONFIRM: a bot's line the arrival check refuses must not hold the step up
                body = "".join(f"{x}\n" for x in rs.legal_orders(state, seat, rng)) + "CONFIRM\n"
                submit_orders(s, render_envelope(game=f"h{i}", seat=seat, password=pw[seat],
                                                 turn=1, body=body), now=T0)
    engine.dispose()


def run(url: str, games: int, hosts: int) -> tuple[float, float, list[int]]:
    """Seconds from the go until every step is processed and every mail sent, the CPU
    seconds the hosts used after the go (PostgreSQL's own not included), and how many
    steps each host processed."""
    engine = connect(url)
    maildir = Path(tempfile.mkdtemp(prefix="pbem-hosts-"))
    procs = [subprocess.Popen([sys.executable, str(WORKER), url, str(maildir), "1", "--gate"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for _ in range(hosts)]
    for p in procs:  # each has started, imported and connected (as a running `pbem serve`)
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    started = time.perf_counter()
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    while True:
        with session_scope(engine) as s:
            done = s.exec(select(func.count()).select_from(Audit)
                          .where(Audit.action == "process")).one()
            unsent = s.exec(select(func.count()).select_from(Outbox)
                            .where(Outbox.status != "sent")).one()
        if done >= games and unsent == 0:
            elapsed = time.perf_counter() - started
            break
        if all(p.poll() is not None for p in procs):
            raise RuntimeError(f"the hosts stopped with {done} of {games} steps processed "
                               f"and {unsent} mails unsent")
        time.sleep(0.02)
    outputs = [json.loads(p.communicate(timeout=120)[0]) for p in procs]
    shares = [sum("processed" in line for line in out["lines"]) for out in outputs]
    with session_scope(engine) as s:
        mails = s.exec(select(func.count()).select_from(Outbox)).one()
    delivered = len(list((maildir / "new").iterdir()))
    assert done == games and delivered == mails, (done, games, delivered, mails)
    engine.dispose()
    return elapsed, sum(out["cpu"] for out in outputs), shares


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--hosts", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    load = [os.getloadavg()[0]]
    with cluster() as admin_url:
        admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
        times: dict[int, list[float]] = {n: [] for n in args.hosts}
        cpu: dict[int, list[float]] = {n: [] for n in args.hosts}
        shares: dict[int, list[int]] = {}
        for r in range(args.repeat):
            for n in args.hosts:  # alternately, so load drift hits every host count alike
                db = f"hosts_{n}_{r}"
                with admin.connect() as conn:
                    conn.exec_driver_sql(f"CREATE DATABASE {db}")
                url = admin_url.rsplit("/", 1)[0] + "/" + db
                prepare(url, args.games)
                seconds, used, shares[n] = run(url, args.games, n)
                times[n].append(seconds)
                cpu[n].append(used)
                load.append(os.getloadavg()[0])
        admin.dispose()
    base = args.games / median(times[args.hosts[0]])
    print(f"(i) {args.games} Helios steps with their reports and mail, PostgreSQL, "
          f"median of {args.repeat}; load average {min(load):.1f}-{max(load):.1f} "
          f"on {os.cpu_count()} cores")
    print(f"{'hosts':>6} {'seconds':>8} {'steps/s':>8} {'ratio':>6} {'CPU ms/step':>11}  "
          "runs (s); steps by host (last run)")
    for n in args.hosts:
        rate = args.games / median(times[n])
        runs = " ".join(f"{x:.2f}" for x in times[n])
        per_step = 1000 * median(cpu[n]) / args.games
        print(f"{n:>6} {median(times[n]):8.2f} {rate:8.1f} {rate / base:6.2f} {per_step:11.0f}  "
              f"{runs}; {'+'.join(map(str, shares[n]))}")
    for n in args.hosts[1:]:  # the same round ran under about the same load
        rounds = " ".join(f"{b / x:.2f}" for b, x in zip(times[args.hosts[0]], times[n], strict=True))
        print(f"steps/s of {n} hosts over {args.hosts[0]}, round by round: {rounds}")
    print("every step processed once and every mail delivered once in every run")


if __name__ == "__main__":
    main()
