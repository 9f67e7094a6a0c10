"""Board pictures made smaller for mail, drawing exactly the same.

A ruleset draws its board as plain SVG: every field a polygon with its own coordinates and
colours. In a report mail that picture is most of the bytes, so before it is put in a
report it is compacted, for any ruleset, without changing what is drawn:

- polygons of the same shape (hexes, triangles) become one definition and `<use>` copies
  moved into place (`x`, `y`: exact, decimal arithmetic);
- presentation attributes that repeat (`fill="#aaa" font-size="5" ...`) become CSS classes
  in one `<style>`;
- `12.0` is written `12`.

A picture it cannot read, or one that has its own styles, classes or `pb`-prefixed ids, is
left as it is. Not here: drawing (each ruleset's `board_svg`).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from decimal import Decimal, InvalidOperation
from functools import lru_cache

NS = "http://www.w3.org/2000/svg"
_TAG = re.compile(r"^\{" + re.escape(NS) + r"\}")
_WHOLE = re.compile(r"(?<![\d.])(-?\d+)\.0+(?![\d.])")
_NUMERIC = {"points", "d", "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry",
            "width", "height", "transform"}
# Presentation attributes that may become CSS (property name = attribute name); values of
# the `_LENGTHS` need a unit in CSS when they are bare numbers.
_PRESENTATION = {"fill", "stroke", "stroke-width", "font-size", "font-family", "font-weight",
                 "font-style", "text-anchor", "opacity", "fill-opacity", "stroke-opacity",
                 "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "dominant-baseline"}
_LENGTHS = {"stroke-width", "font-size"}
_CONTAINERS = {"svg", "g", "a"}  # where a polygon may become a <use> (not clipPath, defs...)


def compact_svg(svg: str | None) -> str | None:
    """The same picture in fewer bytes (see the module docstring); None stays None."""
    return None if svg is None else _compact(svg)


@lru_cache(maxsize=64)  # the seats of one step often share a picture
def _compact(svg: str) -> str:
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return svg
    if root.tag != f"{{{NS}}}svg" or not _plain(root):
        return svg
    for element in root.iter():  # plain tag names; the root states the namespace
        element.tag = _TAG.sub("", element.tag)
    root.set("xmlns", NS)
    for element in root.iter():
        for key in _NUMERIC & element.attrib.keys():
            element.attrib[key] = _WHOLE.sub(r"\1", element.attrib[key])
    _share_shapes(root)
    _classes(root)
    out = ET.tostring(root, encoding="unicode")
    out = out.replace(" />", "/>")
    return out if len(out) < len(svg) else svg


def _plain(root: ET.Element) -> bool:
    """No styles, classes or ids of ours already: then the rewrite cannot collide."""
    for element in root.iter():
        if _TAG.sub("", element.tag) == "style" or "style" in element.attrib \
                or "class" in element.attrib or element.attrib.get("id", "").startswith("pb"):
            return False
        if any(k.startswith("{") for k in element.attrib):  # xlink:href and the like
            return False
    return True


def _points(text: str) -> list[tuple[Decimal, Decimal]] | None:
    numbers = text.replace(",", " ").split()
    if len(numbers) < 4 or len(numbers) % 2:
        return None
    try:
        values = [Decimal(n) for n in numbers]
    except InvalidOperation:
        return None
    return list(zip(values[0::2], values[1::2], strict=True))


def _number(d: Decimal) -> str:
    text = format(d.normalize(), "f")
    return "0" if text in ("-0", "") else text


def _share_shapes(root: ET.Element) -> None:
    """Polygons of one shape: one definition, the rest `<use>` copies at their place."""
    found = []
    for parent in root.iter():
        if parent.tag not in _CONTAINERS:
            continue
        for element in parent:
            if element.tag != "polygon" or "id" in element.attrib:
                continue
            points = _points(element.attrib.get("points", ""))
            if points is None:
                continue
            ox, oy = min(p[0] for p in points), min(p[1] for p in points)
            shape = " ".join(f"{_number(x - ox)},{_number(y - oy)}" for x, y in points)
            found.append((element, shape, ox, oy))
    counts = Counter(shape for _, shape, _, _ in found)
    ids: dict[str, str] = {}
    for element, shape, ox, oy in found:
        if counts[shape] < 2:
            continue
        ids.setdefault(shape, f"pbp{len(ids)}")
        rest = {k: v for k, v in element.attrib.items() if k != "points"}
        element.tag = "use"
        element.attrib.clear()
        element.attrib.update({"href": "#" + ids[shape], "x": _number(ox), "y": _number(oy),
                               **rest})
    if ids:
        defs = ET.Element("defs")
        for shape, shape_id in ids.items():
            ET.SubElement(defs, "polygon", {"id": shape_id, "points": shape})
        root.insert(0, defs)


def _css(key: str, value: str) -> str:
    if key in _LENGTHS and re.fullmatch(r"-?[\d.]+", value):
        value += "px"
    return f"{key}:{value}"


def _classes(root: ET.Element) -> None:
    """Repeated sets of presentation attributes become classes, where that saves bytes."""
    def style_of(element: ET.Element) -> tuple[tuple[str, str], ...]:
        return tuple(sorted((k, v) for k, v in element.attrib.items() if k in _PRESENTATION))

    elements = [e for e in root.iter() if e is not root]
    counts = Counter(s for s in map(style_of, elements) if s)
    names: dict[tuple[tuple[str, str], ...], str] = {}
    rules = []
    for style, n in counts.most_common():
        name = f"pbc{len(names)}"
        rule = f".{name}{{{';'.join(_css(k, v) for k, v in style)}}}"
        as_attributes = sum(len(k) + len(v) + 4 for k, v in style)
        if n * (as_attributes - len(f' class="{name}"')) > len(rule):
            names[style] = name
            rules.append(rule)
    if not names:
        return
    for element in elements:
        style = style_of(element)
        if style in names:
            for key, _ in style:
                del element.attrib[key]
            element.attrib["class"] = names[style]
    sheet = ET.Element("style")
    sheet.text = "".join(rules)
    root.insert(0, sheet)
