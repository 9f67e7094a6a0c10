"""A small PNG reader (8-bit RGB or RGBA, the screenshots headless Chromium writes), so that
tests can compare pictures pixel by pixel with the standard library alone."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def read_png(path: Path) -> tuple[int, int, int, list[bytes]]:
    """(width, height, bytes per pixel, rows of raw channel bytes)."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    pos, idat = 8, b""
    width = height = kind = 0
    while pos < len(data):
        size, name = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + size]
        if name == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", chunk[:10])
            if depth != 8 or chunk[12] != 0:
                raise ValueError("only 8-bit, non-interlaced PNGs")
        elif name == b"IDAT":
            idat += chunk
        pos += 12 + size
    bpp = {2: 3, 6: 4}[kind]
    raw, stride = zlib.decompress(idat), width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    i = 0
    for _ in range(height):
        kind_of_filter, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind_of_filter == 1:
                line[x] = (line[x] + a) & 255
            elif kind_of_filter == 2:
                line[x] = (line[x] + b) & 255
            elif kind_of_filter == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind_of_filter == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def difference(a: Path, b: Path) -> tuple[int, int, int]:
    """(largest channel difference 0..255, channel values that differ, channel values)."""
    wa, ha, bpp, rows_a = read_png(a)
    wb, hb, _, rows_b = read_png(b)
    if (wa, ha) != (wb, hb):
        return 255, wa * ha * bpp, wa * ha * bpp
    largest = differ = 0
    for ra, rb in zip(rows_a, rows_b, strict=True):
        if ra == rb:
            continue
        for x, y in zip(ra, rb, strict=True):
            if x != y:
                differ += 1
                largest = max(largest, abs(x - y))
    return largest, differ, wa * ha * bpp
