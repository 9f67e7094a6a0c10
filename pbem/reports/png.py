"""The board picture as PNG, for mail clients that show no SVG (Gmail, Outlook).

It is rendered from the very SVG a ruleset draws (`Ruleset.board_svg`), at the SVG's own
size, on white, by resvg (`resvg-py`, a Rust renderer shipped as a wheel: no system
library), then reduced to a palette of `COLOURS` colours by Pillow so that a report mail
stays small (docs/performance.md). Text uses the machine's fonts; a host with no fonts at
all gets the picture without its labels. Why resvg: docs/architecture.md.

Not here: drawing (each ruleset's `board_svg`), putting the picture in a mail
(`pbem.service.mailflow`). The SVG itself stays in the archive.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

import resvg_py
from PIL import Image

# 32 colours: a board's flat fills and the anti-aliased edges of its text, at 10-20 KB a
# picture (64 colours cost about 40% more bytes for no visible gain).
COLOURS = 32


@dataclass(frozen=True)
class Picture:
    data: bytes
    width: int
    height: int


@lru_cache(maxsize=16)  # every seat of a step often sees the same board
def board_png(svg: str) -> Picture | None:
    """The SVG as a palette PNG, or None when resvg cannot read it (the mail then goes
    without a picture rather than not at all)."""
    try:
        rgba = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="white"))
    except (ValueError, RuntimeError):
        return None
    with Image.open(io.BytesIO(rgba)) as image:
        small = image.convert("RGB").quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return Picture(out.getvalue(), small.width, small.height)
