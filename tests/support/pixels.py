"""One pixel of what Chromium drew, read from a 1x1 screenshot (no image library needed)."""
import struct
import zlib


def pixel(page, x, y):
    """(r, g, b) of the page's pixel at (x, y), CSS pixels from the viewport's top left."""
    png = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1}, scale="css")
    chunks, at = [], 8
    while at < len(png):                                  # PNG chunks: length, type, data, CRC
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        chunks.append((kind, png[at + 8:at + 8 + length]))
        at += 12 + length
    data = zlib.decompress(b"".join(d for k, d in chunks if k == b"IDAT"))
    return tuple(data[1:4])   # one row of one pixel: a filter byte, then the pixel
