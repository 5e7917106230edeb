#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes input.png, the synthetic test picture of the image_blur example: a 96x64 greyscale
# image of a diagonal gradient, a bright disc and a checkerboard stripe. Standard library only,
# deterministic, so the PNG in the repository can always be regenerated bit for bit.
import struct
import zlib

W, H = 96, 64


def pixel(x, y):
    v = (x * 2 + y) % 256 // 2
    if (x - 60) ** 2 + (y - 28) ** 2 < 16 ** 2:
        v = 230
    if 8 <= y < 16:
        v = 255 if ((x // 4) + (y // 4)) % 2 else 20
    return v


rows = b"".join(b"\x00" + bytes(pixel(x, y) for x in range(W)) for y in range(H))


def chunk(tag, data):
    body = tag + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


png = (b"\x89PNG\r\n\x1a\n"
       + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 0, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(rows, 9))
       + chunk(b"IEND", b""))
with open("input.png", "wb") as f:
    f.write(png)
