"""The board picture as PNG, for mail clients that show no SVG (Gmail, Outlook).

It is rendered from the very SVG a ruleset draws (`Ruleset.board_svg`), at the SVG's own
size, on white, by resvg (`resvg-py`, a Rust renderer shipped as a wheel: no system
library), then reduced to a palette of `COLOURS` colours by Pillow so that a report mail
stays small (docs/performance.md). Text uses the machine's fonts: Liberation Sans and DejaVu
Sans when found (handed to resvg by file, which saves it scanning every font on each
picture, a third of its time), else whatever fonts it finds; a host with no fonts at all
gets the picture without its labels. Why resvg: docs/architecture.md.

Not here: drawing (each ruleset's `board_svg`), putting the picture in a mail
(`pbem.service.mailflow`). The SVG itself stays in the archive.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import resvg_py
from PIL import Image

# 32 colours: a board's flat fills and the anti-aliased edges of its text, at 10-20 KB a
# picture (64 colours cost about 40% more bytes for no visible gain).
COLOURS = 32


FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")
# Liberation Sans first: Arial's widths, which the games' legends are laid out for.
SANS = (("Liberation Sans", ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf")),
        ("DejaVu Sans", ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")))


@cache
def _font_options() -> dict[str, Any]:
    """resvg's font options: the known sans-serif families found, the first one the default
    and the others for the signs it lacks (DejaVu has the games' stars and swords), else
    the system's fonts."""
    found: dict[str, Path] = {}
    for folder in FONT_DIRS:
        root = Path(folder).expanduser()
        if root.is_dir():
            for path in root.rglob("*.ttf"):
                found.setdefault(path.name, path)
    families = [(family, files) for family, files in SANS if all(f in found for f in files)]
    if not families:
        return {}
    return {"skip_system_fonts": True,
            "font_files": [str(found[f]) for _, files in families for f in files],
            "sans_serif_family": families[0][0], "font_family": families[0][0]}


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
        rgba = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="white",
                                           **_font_options()))
    except (ValueError, RuntimeError):
        return None
    with Image.open(io.BytesIO(rgba)) as image:
        small = image.convert("RGB").quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return Picture(out.getvalue(), small.width, small.height)
