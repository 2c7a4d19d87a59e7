#!/usr/bin/python3
# browser_check.py NETLOG PNG [MIN_COLOURS]: what a headless Chromium saw
# when it rendered a report (tests/e2e/html.sh).
#
#  - The page's own requests, from Chromium's --log-net-log JSON: every
#    URL_REQUEST_START_JOB whose network isolation key (or site for
#    cookies) is the file:// page; Chromium's background requests
#    (updates, time, dictionaries) have other keys and are not the page's.
#    Each is printed as "request URL".
#  - Whether the screenshot (PNG: 8-bit RGB or RGBA, read here with zlib,
#    no imaging library) has at least MIN_COLOURS (default 16) distinct
#    colours; a blank or failed render has one or two.  Prints
#    "colours N".
# Exit status 1 when the page made a request or the screenshot is blank.
# Only the standard library: the PNG format is RFC 2083 (filters in 6.).
import json, struct, sys, zlib

def page_requests(path):
    with open(path) as f:
        log = json.load(f)
    types = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    urls = []
    for e in log["events"]:
        if types.get(e.get("type")) != "URL_REQUEST_START_JOB":
            continue
        p = e.get("params", {})
        key = str(p.get("network_isolation_key", "")) + str(p.get("site_for_cookies", ""))
        if "file://" in key:
            urls.append(p.get("url", "?"))
    return urls

def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c

def colours(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError("unsupported PNG (depth %d, type %d)" % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    seen = set()
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4: line[i] = (line[i] + paeth(a, b, c)) & 255
        if y % 4 == 0:
            for x in range(0, stride, bpp * 2):
                seen.add(bytes(line[x:x + 3]))
        prev = line
    return len(seen)

def main():
    net, png = sys.argv[1], sys.argv[2]
    need = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    bad = False
    for u in page_requests(net):
        print("request", u)
        bad = True
    n = colours(png)
    print("colours", n)
    if n < need:
        bad = True
    sys.exit(1 if bad else 0)

main()
