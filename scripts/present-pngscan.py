#!/usr/bin/env python3
"""Counts the pixels of given colours in PNG files (8-bit RGB or RGBA, any filter), for the presenter tests.

usage: present-pngscan.py FILE.png RRGGBB [RRGGBB ...]   -> prints one count per colour, space-separated
       present-pngscan.py --region X,Y,W,H FILE.png RRGGBB ...  (count inside a rectangle only)
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, width, height, ctype = 8, b"", 0, 0, 2
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit(f"{path}: only 8-bit RGB/RGBA PNGs are supported")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main(argv):
    region = None
    if argv and argv[0] == "--region":
        region = [int(v) for v in argv[1].split(",")]
        argv = argv[2:]
    path, colours = argv[0], [bytes.fromhex(c) for c in argv[1:]]
    width, height, bpp, rows = read_png(path)
    x0, y0, w, h = region or (0, 0, width, height)
    counts = [0] * len(colours)
    for y in range(max(0, y0), min(height, y0 + h)):
        line = rows[y]
        for x in range(max(0, x0), min(width, x0 + w)):
            px = bytes(line[x * bpp:x * bpp + 3])
            for i, c in enumerate(colours):
                if px == c:
                    counts[i] += 1
    print(" ".join(str(c) for c in counts))


if __name__ == "__main__":
    main(sys.argv[1:])
