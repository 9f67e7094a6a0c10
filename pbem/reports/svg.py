"""Board pictures made smaller for mail, drawing exactly the same.

A ruleset draws its board as plain SVG: every field a polygon with its own coordinates and
colours. In a report mail that picture is most of the bytes, so before it is put in a
report it is compacted, for any ruleset, without changing what is drawn:

- polygons of the same shape (hexes, triangles) become one definition and `<use>` copies
  moved into place (`x`, `y`: exact, in integer arithmetic on the decimals written);
- a run of presentation attributes that repeats (`fill="#aaa" font-size="5"` at the end of
  many tags) becomes a CSS class in one `<style>`;
- a copy's `x="12.0"` is written `x="12"`.

A report is built for every seat at every step, so this works on the text with a few
regular expressions, not through an XML tree (several times faster). A picture with its own
styles, classes, definitions, clip paths, `<use>`, comments or namespaced attributes is left
as it is. Not here: drawing (each ruleset's `board_svg`).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

# Anything that could make the rewrite unsafe: then the picture stays as it is.
_UNSAFE = ("<style", "<defs", "<clipPath", "<mask", "<pattern", "<marker", "<symbol", "<use",
           "<!", "<?", " class=", " style=", ' id="pb', "='", "xlink:", "xml:")
_POLYGON = re.compile(r'<polygon points="([^"]*)"([^<>]*?)(/>|>((?:(?!</?polygon)[\s\S])*)</polygon>)')
_PRESENTATION = ("fill", "stroke", "stroke-width", "font-size", "font-family", "font-weight",
                 "font-style", "text-anchor", "opacity", "fill-opacity", "stroke-opacity",
                 "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "dominant-baseline")
# The presentation attributes at the end of a tag, as one run of text.
_RUN = re.compile(r'((?:\s(?:' + "|".join(_PRESENTATION) + r')="[^"<>]*")+)(?=\s*/?>)')
_PAIR = re.compile(r'([\w-]+)="([^"]*)"')
_LENGTHS = {"stroke-width", "font-size"}


def compact_svg(svg: str | None) -> str | None:
    """The same picture in fewer bytes (see the module docstring); None stays None."""
    return None if svg is None else _compact(svg)


@lru_cache(maxsize=64)  # the seats of one step often share a picture
def _compact(svg: str) -> str:
    head = re.match(r'\s*<svg\b[^<>]*>', svg)
    if head is None or any(x in svg for x in _UNSAFE) or not svg.rstrip().endswith("</svg>"):
        return svg
    body = svg[head.end():]
    body, definitions = _share_shapes(body)
    body, rules = _classes(body)
    extra = ("<style>" + "".join(rules) + "</style>" if rules else "") + \
        ("<defs>" + "".join(f'<polygon id="{i}" points="{p}"/>' for i, p in definitions.items())
         + "</defs>" if definitions else "")
    small = svg[:head.end()] + extra + body
    return small if len(small) < len(svg) else svg


def _shape(points: str) -> tuple[tuple[int, ...], str, str, int] | None:
    """(the points moved to start at 0,0, in units of the last decimal written; the x and y
    they were moved by, as written; the decimals written): integer arithmetic, exact."""
    numbers = points.replace(",", " ").split()
    if len(numbers) < 4 or len(numbers) % 2:
        return None
    fracs = [n.partition(".")[2] for n in numbers]
    places = max(map(len, fracs))
    try:
        units = [int(n.replace(".", "") + "0" * (places - len(f)))
                 for n, f in zip(numbers, fracs, strict=True)]
    except ValueError:
        return None
    xs, ys = units[0::2], units[1::2]
    ox, oy = min(xs), min(ys)
    key = tuple(v - (oy if k % 2 else ox) for k, v in enumerate(units))
    return key, numbers[2 * xs.index(ox)], numbers[2 * ys.index(oy) + 1], places


def _trim(number: str) -> str:
    """`12.0` -> `12` (a copy's place)."""
    return number.rstrip("0").rstrip(".") if "." in number else number


def _written(value: int, places: int) -> str:
    """A whole number of 10**-places written as a decimal, without trailing zeros."""
    whole, frac = divmod(value, 10 ** places)
    return str(whole) + ("." + str(frac).rjust(places, "0").rstrip("0") if frac else "")


def _share_shapes(body: str) -> tuple[str, dict[str, str]]:
    """Polygons of a shape that occurs twice or more become `<use>` of one definition."""
    matches = list(_POLYGON.finditer(body))
    shapes = [_shape(m.group(1)) for m in matches]
    counts = Counter(shape[0] for shape in shapes if shape is not None)
    ids: dict[tuple[int, ...], str] = {}
    definitions: dict[str, str] = {}
    out, last = [], 0
    for m, shape in zip(matches, shapes, strict=True):
        if shape is None or counts[shape[0]] < 2:
            continue
        key, x, y, places = shape
        if key not in ids:
            ids[key] = f"pbp{len(ids)}"
            definitions[ids[key]] = " ".join(
                f"{_written(key[k], places)},{_written(key[k + 1], places)}"
                for k in range(0, len(key), 2))
        out.append(body[last:m.start()])
        last = m.end()
        x, y = _trim(x), _trim(y)
        out.append(f'<use href="#{ids[key]}" x="{x}" y="{y}"{m.group(2)}'
                   + (m.group(3) if m.group(4) is None else f">{m.group(4)}</use>"))
    out.append(body[last:])
    return "".join(out), definitions


def _css(run: str) -> str:
    out = []
    for key, value in _PAIR.findall(run):
        if key in _LENGTHS and re.fullmatch(r"-?[\d.]+", value):
            value += "px"
        out.append(f"{key}:{value}")
    return ";".join(out)


def _classes(body: str) -> tuple[str, list[str]]:
    """Runs of presentation attributes that repeat become classes, where that saves bytes."""
    names: dict[str, str] = {}
    rules = []
    for run, n in Counter(_RUN.findall(body)).most_common():
        name = f"pbc{len(names)}"
        rule = f".{name}{{{_css(run)}}}"
        if n * (len(run) - len(f' class="{name}"')) > len(rule):
            names[run] = name
            rules.append(rule)
    if names:
        body = _RUN.sub(lambda m: f' class="{names[m.group(1)]}"' if m.group(1) in names
                        else m.group(1), body)
    return body, rules
