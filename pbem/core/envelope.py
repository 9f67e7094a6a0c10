"""The order-file envelope (DESIGN section 4, a contract): GAME, SEAT, PASSWORD, TURN, END.

```
GAME  <game name>
SEAT  <seat id>            (PLAYER is accepted as a synonym)
PASSWORD <password>
TURN  <step number>        (optional)
<ruleset order lines>
END                        (optional; what follows is ignored)
```
`STATUS`, `CLEAR`, `WAIT` and `CONFIRM` are envelope commands in every game, and so is
`SETTINGS <key> <value>` (a player's own settings; `SETTINGS` alone asks for them). Text
before the first header line and quoted reply lines ('>') are ignored; mail-client debris
is normalised. A reply to a report (its reply address names game and seat) may have no
header at all: `parse_envelope(text, headerless=True)` reads every line as the body.
This module only reads text; checking the password or the game is the service's job.
"""

from __future__ import annotations

import quopri
import re
from dataclasses import dataclass, field

from pbem.core.i18n import _

HEADER_KEYS = {"GAME": "game", "SEAT": "seat", "PLAYER": "seat", "PASSWORD": "password",
               "TURN": "turn"}
CONTROL_WORDS = ("STATUS", "CLEAR", "WAIT", "CONFIRM")
SETTINGS_WORDS = ("SETTINGS", "SETTING")

_DEBRIS = str.maketrans({
    "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u2009": " ", "\u200b": "", "\ufeff": "",
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',
    "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2026": "...", "\t": " ",
})
_QP_SOFT_BREAK = re.compile(r"=\r?\n")
_QP_ESCAPE = re.compile(r"=([0-9A-F]{2})")


def normalise(text: str) -> str:
    """Undo common mail-client debris: NBSPs, smart quotes, quoted-printable leftovers."""
    if _QP_SOFT_BREAK.search(text) or _QP_ESCAPE.search(text):
        try:
            text = quopri.decodestring(text.encode("utf-8")).decode("utf-8")
        except UnicodeDecodeError:
            pass  # not quoted-printable after all: keep the text as it came
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.translate(_DEBRIS)


@dataclass
class Envelope:
    game: str | None = None
    seat: str | None = None
    password: str | None = None
    turn: int | None = None
    body: str = ""  # the order lines, line-numbered as in the original file
    controls: list[str] = field(default_factory=list)  # STATUS/CLEAR/WAIT/CONFIRM, in order
    problems: list[str] = field(default_factory=list)
    first_line: int = 1  # line number of the first body line in the original file
    # SETTINGS lines: (line number, "key value"); "" for a bare SETTINGS (show them).
    settings: list[tuple[int, str]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return bool(self.game and self.seat) and not self.problems


def _header(env: Envelope, key: str, rest: str, line: str) -> None:
    value = rest.strip()
    field_name = HEADER_KEYS[key]
    if field_name == "password":
        # Passwords may contain '#'; take the raw rest of the line.
        value = line.partition(" ")[2].strip()
    if not value:
        env.problems.append(_("{key} needs a value", key=key))
    elif field_name == "turn":
        if value.isascii() and value.isdigit() and len(value) <= 9:
            env.turn = int(value)
        else:
            env.problems.append(_('TURN must be a step number, not "{value}"', value=value))
    else:
        setattr(env, field_name, value)


def parse_envelope(text: str, *, headerless: bool = False) -> Envelope:
    """Split an order file into its header, control words and order body.

    Body lines keep their original line numbers: the body is padded with empty lines so
    that line N of `body` is line N of the file (a ruleset error "line 7" points right).
    `headerless`: the game and seat are known from elsewhere (a reply token), so every
    line is read, none is skipped as text before the header, and no header is required.
    """
    env = Envelope()
    lines = normalise(text).split("\n")
    started = headerless
    body: list[str] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith(">"):
            body.append("")
            continue
        bare = line.split("#", 1)[0].strip()
        word, _sep, rest = bare.partition(" ")
        key = word.upper().rstrip(":")
        if key in HEADER_KEYS:
            started = True
            _header(env, key, rest, line)
            body.append("")
            continue
        if not started:
            body.append("")
            continue
        if key == "END" and not rest.strip():
            break
        if key in CONTROL_WORDS and not rest.strip():
            env.controls.append(key)
            body.append("")
            continue
        if key in SETTINGS_WORDS:
            env.settings.append((number, rest.strip()))
            body.append("")
            continue
        body.append(raw.rstrip())
    if headerless:
        pass  # game and seat come from the reply token
    elif not started:
        env.problems.append(_("no GAME/SEAT header found; an order file starts with "
                              "'GAME <name>' and 'SEAT <seat>'"))
    else:
        if not env.game:
            env.problems.append(_("missing GAME line"))
        if not env.seat:
            env.problems.append(_("missing SEAT line"))
    env.body = "\n".join(body).rstrip("\n") + ("\n" if any(b.strip() for b in body) else "")
    if not env.body.strip():
        env.body = ""
    return env


def render_envelope(*, game: str, seat: str, password: str | None, turn: int | None,
                    body: str) -> str:
    """An order file in canonical form (used by bots, skeletons and tests)."""
    head = [f"GAME {game}", f"SEAT {seat}"]
    if password is not None:
        head.append(f"PASSWORD {password}")
    if turn is not None:
        head.append(f"TURN {turn}")
    text = "\n".join(head) + "\n" + body
    if not text.endswith("\n"):
        text += "\n"
    return text + "END\n"
