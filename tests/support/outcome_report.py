"""A report context built straight from a step outcome, without a database: what the
golden-replay tests render to check that a ruleset's templates work from its views."""

from __future__ import annotations

from typing import Any

from pbem.core.kit.log import OUTCOME
from pbem.core.ruleset import Ruleset


def outcome_context(ruleset: Ruleset, out: Any, seat: str | None) -> dict[str, Any]:
    v = ruleset.view(out.state, seat)
    prompt = out.awaiting.get(seat) if seat else None
    return {
        "game": {"name": "golden", "ruleset": ruleset.id, "title": ruleset.title,
                 "variant": "standard", "status": "running"},
        "seat": seat, "step": 5, "phase": ruleset.phase_label(out.state), "round": 1,
        # as pbem.reports.context.closing_of: outcomes apart from the other events
        "happened": {"number": 4, "phase": "",
                     "events": [e.text for e in out.events
                                if e.visible(seat) and e.kind != OUTCOME],
                     "outcomes": [dict(e.data) for e in out.events
                                  if e.visible(seat) and e.kind == OUTCOME],
                     "rolls": [], "defaulted": [], "file_hashes": {}, "orders_digest": "",
                     "seed": None, "commitment": ""},
        "view": v, "board_text": ruleset.board_text(v), "board_svg": ruleset.board_svg(v),
        "awaited": sorted(out.awaiting), "prompt": prompt.to_json() if prompt else None,
        "skeleton": "\n".join(prompt.skeleton) if prompt else None, "deadline": None,
        "commitment": "c" * 64, "master_seed": None,
        "result": out.result.to_json() if out.result else None,
    }
