# Writes the PNG fixtures into the current folder (run here: python3 make-fixtures.py). Standard library only.
import struct, zlib, random
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
def png(w, h, depth, ctype, raw, interlace=0, extra=b''):
    ihdr = struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, interlace)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + extra + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')
def rows(h, rowfn):
    return b''.join(b'\x00' + rowfn(y) for y in range(h))

# RGBA 30x20: left half opaque red, right half fully transparent (blue, alpha 0)
w, h = 30, 20
def rgba_row(y):
    return b''.join(bytes([255,0,0,255]) if x < 15 else bytes([0,0,255,0]) for x in range(w))
open('rgba-alpha.png','wb').write(png(w, h, 8, 6, rows(h, rgba_row)))

# Palette 24x16, 2-bit, 4 colours, colour 3 transparent via tRNS; left half index 1 (green), right half index 3
w, h = 24, 16
plte = bytes([0,0,0, 0,200,0, 0,0,200, 10,20,30])
trns = bytes([255,255,255,0])
def pal_row(y):
    idx = [1 if x < 12 else 3 for x in range(w)]
    out = bytearray()
    for i in range(0, w, 4):
        b = 0
        for j in range(4):
            b |= idx[i+j] << (6 - 2*j)
        out.append(b)
    return bytes(out)
open('palette.png','wb').write(png(w, h, 2, 3, rows(h, pal_row), extra=chunk(b'PLTE', plte) + chunk(b'tRNS', trns)))

# 16-bit RGB 20x10, every pixel (0x8080, 0x4040, 0xC0C0)
w, h = 20, 10
open('rgb16.png','wb').write(png(w, h, 16, 2, rows(h, lambda y: struct.pack('>HHH', 0x8080, 0x4040, 0xC0C0) * w)))

# 8-bit grayscale 32x24, each row y has grey value y*10
w, h = 32, 24
open('gray.png','wb').write(png(w, h, 8, 0, rows(h, lambda y: bytes([y*10]) * w)))

# Interlaced (Adam7) RGB 33x17: left part (x < 16) red, rest blue
w, h = 33, 17
def px(x, y): return bytes([255,0,0]) if x < 16 else bytes([0,0,255])
passes = [(0,0,8,8),(4,0,8,8),(0,4,4,8),(2,0,4,4),(0,2,2,4),(1,0,2,2),(0,1,1,2)]
raw = bytearray()
for xs, ys, dx, dy in passes:
    xsl = list(range(xs, w, dx)); ysl = list(range(ys, h, dy))
    if not xsl or not ysl: continue
    for y in ysl:
        raw += b'\x00' + b''.join(px(x, y) for x in xsl)
open('interlaced.png','wb').write(png(w, h, 8, 2, bytes(raw), interlace=1))

# Noisy RGB 64x48 so the IDAT is several KB (for truncation tests)
rnd = random.Random(7)
w, h = 64, 48
open('noise.png','wb').write(png(w, h, 8, 2, rows(h, lambda y: bytes(rnd.randrange(256) for _ in range(w*3)))))

# Header claiming 100000x100000 RGB with a tiny IDAT
open('huge-header.png','wb').write(png(100000, 100000, 8, 2, b'\x00' * 64))
