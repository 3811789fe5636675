#!/usr/bin/env python3
"""Counts the pixels of given colours in a PNG file (8-bit RGB or RGBA, any filter) or an X window dump
(`xwd -root`, 32 bits per pixel), for the presenter tests.

usage: present-pngscan.py FILE RRGGBB [RRGGBB ...]   -> prints one count per colour, space-separated
       present-pngscan.py --region X,Y,W,H FILE RRGGBB ...  (count inside a rectangle only)
       present-pngscan.py --png OUT.png FILE.xwd            (convert a window dump to PNG)
       present-pngscan.py --digest X,Y,W,H FILE             (SHA-1 of the pixels inside a rectangle)
       present-pngscan.py --compare X,Y,W,H FILE REF.png    (the rectangle against a W×H reference, on a 16×9
                                                              grid: "same", or each differing cell as
                                                              COL,ROW:PIXELS:MAXDIFF)

A rectangle that is not entirely inside the image is an error (exit status 2), never a count of 0.
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
        for i in range(stride if f else 0):
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


def read_xwd(path):
    data = open(path, "rb").read()
    header = struct.unpack(">25I", data[:100])
    header_size, width, height = header[0], header[4], header[5]
    byte_order, bits, bytes_per_line, ncolors = header[7], header[11], header[12], header[19]
    step = bits // 8
    if step not in (3, 4) or bytes_per_line < width * step:
        sys.exit(f"{path}: only 24- and 32-bit window dumps are supported")
    offset = header_size + ncolors * 12
    rows = []
    for y in range(height):
        line = data[offset + y * bytes_per_line:offset + y * bytes_per_line + width * step]
        rgb = bytearray(width * 3)
        # LSBFirst: B G R (X) in memory; MSBFirst: (X) R G B.
        lead = step - 3 if byte_order else 0
        if byte_order == 0:
            rgb[0::3], rgb[1::3], rgb[2::3] = line[2::step], line[1::step], line[0::step]
        else:
            rgb[0::3], rgb[1::3], rgb[2::3] = line[lead::step], line[lead + 1::step], line[lead + 2::step]
        rows.append(rgb)
    return width, height, 3, rows


def write_png(path, width, height, bpp, rows):
    raw = b"".join(b"\0" + bytes(r[:width * bpp]) for r in rows)
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    head = struct.pack(">IIBBBBB", width, height, 8, 2 if bpp == 3 else 6, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw, 6))
                           + chunk(b"IEND", b""))


def read_image(path):
    with open(path, "rb") as f:
        magic = f.read(8)
    return read_png(path) if magic == b"\x89PNG\r\n\x1a\n" else read_xwd(path)


def inside(region, width, height):
    """Exits with status 2 unless the rectangle lies entirely inside the image: a region past the edge of the
    picture would otherwise count nothing and let a negative check pass vacuously."""
    x0, y0, w, h = region
    if w <= 0 or h <= 0 or x0 < 0 or y0 < 0 or x0 + w > width or y0 + h > height:
        sys.stderr.write(f"region {x0},{y0},{w},{h} is not inside the {width}x{height} image\n")
        sys.exit(2)


def main(argv):
    if argv and argv[0] == "--png":
        write_png(argv[1], *read_image(argv[2]))
        return
    region = None
    if argv and argv[0] == "--digest":
        import hashlib
        x0, y0, w, h = [int(v) for v in argv[1].split(",")]
        width, height, bpp, rows = read_image(argv[2])
        inside((x0, y0, w, h), width, height)
        digest = hashlib.sha1()
        for y in range(max(0, y0), min(height, y0 + h)):
            digest.update(bytes(rows[y][x0 * bpp:(x0 + w) * bpp]))
        print(digest.hexdigest())
        return
    if argv and argv[0] == "--compare":
        x0, y0, w, h = [int(v) for v in argv[1].split(",")]
        width, height, bpp, rows = read_image(argv[2])
        inside((x0, y0, w, h), width, height)
        rw, rh, rbpp, ref = read_image(argv[3])
        if (rw, rh) != (w, h):
            sys.stderr.write(f"the reference is {rw}x{rh}, the region {w}x{h}\n")
            sys.exit(2)
        cells = []
        for cy in range(9):
            for cx in range(16):
                differing, worst = 0, 0
                for y in range(cy * h // 9, (cy + 1) * h // 9):
                    a, b = rows[y0 + y], ref[y]
                    for x in range(cx * w // 16, (cx + 1) * w // 16):
                        i, j = (x0 + x) * bpp, x * rbpp
                        d = max(abs(a[i] - b[j]), abs(a[i + 1] - b[j + 1]), abs(a[i + 2] - b[j + 2]))
                        if d:
                            differing += 1
                            worst = max(worst, d)
                if differing:
                    cells.append(f"{cx},{cy}:{differing}:{worst}")
        print(" ".join(cells) if cells else "same")
        return
    if argv and argv[0] == "--region":
        region = [int(v) for v in argv[1].split(",")]
        argv = argv[2:]
    path, colours = argv[0], [bytes.fromhex(c) for c in argv[1:]]
    width, height, bpp, rows = read_image(path)
    x0, y0, w, h = region or (0, 0, width, height)
    inside((x0, y0, w, h), width, height)
    counts = [0] * len(colours)
    xs, xe = max(0, x0), min(width, x0 + w)
    for y in range(max(0, y0), min(height, y0 + h)):
        line = bytes(rows[y][xs * bpp:xe * bpp])
        # Pixels as 3-byte keys; a colour's count is how often it occurs among them.
        pixels = [line[i:i + 3] for i in range(0, len(line), bpp)]
        for i, c in enumerate(colours):
            counts[i] += pixels.count(c)
    print(" ".join(str(c) for c in counts))


if __name__ == "__main__":
    main(sys.argv[1:])
