#!/usr/bin/env python3
# Smallest autopartition BSPs in 2D, found by exhaustive search, for small worlds of
# axis-aligned solid boxes and three poses (pose p grows every box by 16p on each side,
# p = 0, 1, 2): the onion tree (leaves uniform for every pose; splitters are lines carrying
# a face of some pose inside the cell) against the per-pose trees (each split by its own
# pose's faces, leaves uniform for that pose). It asks whether issue #8's "the onion tree
# should not exceed the sum of the map trees" can hold for trees like ours; see
# docs/performance.md, "Tree quality".
# With --free-lines every axial line on the 8-unit grid may split too, face or not (for the
# onion and the per-pose trees alike): a partition that is not an autopartition.
#   scripts/smallest_onion_2d.py [--free-lines] ["room with pillar" ...]   (default: every
#   case; ~30 s, much longer with --free-lines on the larger worlds)
from fractions import Fraction as F
from functools import lru_cache
import sys

G = 16  # growth per pose

def make_world(boxes, W, poses=3):
    grown = [[(x0 - G * p, y0 - G * p, x1 + G * p, y1 + G * p) for (x0, y0, x1, y1) in boxes] for p in range(poses)]
    def solid(p, x, y):
        return any(x0 < x < x1 and y0 < y < y1 for (x0, y0, x1, y1) in grown[p])
    lines = set()
    for p in range(poses):
        for (x0, y0, x1, y1) in grown[p]:
            for v in (x0, x1):
                if 0 < v < W: lines.add((p, 'x', v))
            for v in (y0, y1):
                if 0 < v < W: lines.add((p, 'y', v))
    return solid, sorted(lines), poses

def clip(poly, a, b, c):
    out = []
    n = len(poly)
    for k in range(n):
        p, q = poly[k], poly[(k + 1) % n]
        dp, dq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if dp <= 0: out.append(p)
        if (dp < 0 < dq) or (dq < 0 < dp):
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    res = []
    for v in out:
        if not res or res[-1] != v: res.append(v)
    if len(res) > 1 and res[0] == res[-1]: res.pop()
    return res

def area(poly):
    return sum(poly[k][0] * poly[(k + 1) % len(poly)][1] - poly[(k + 1) % len(poly)][0] * poly[k][1] for k in range(len(poly))) / 2

def canon(poly):
    if area(poly) < 0: poly = poly[::-1]
    k = poly.index(min(poly))
    return tuple(poly[k:] + poly[:k])

def solve(boxes, W, poses=3, free_lines=False):
    solid, lines, n = make_world(boxes, W, poses)
    eps = F(1, 64)
    # cells of the 8-unit grid: every cell of these trees is a union of them (lines on the 16 grid)
    def cell_points(poly):
        xs = [p[0] for p in poly]; ys = [p[1] for p in poly]
        pts = []
        x = (min(xs) // 8) * 8 + 4
        while x < max(xs):
            y = (min(ys) // 8) * 8 + 4
            while y < max(ys):
                if inside(poly, (x, y)): pts.append((x, y))
                y += 8
            x += 8
        return pts
    def inside(poly, pt):
        for k in range(len(poly)):
            p, q = poly[k], poly[(k + 1) % len(poly)]
            if (q[0] - p[0]) * (pt[1] - p[1]) - (q[1] - p[1]) * (pt[0] - p[0]) <= 0: return False
        return True
    def face_in(poly, p, axis, v):
        # a boundary of pose p lies on the line inside the cell
        xs = [q[0] for q in poly]; ys = [q[1] for q in poly]
        lo, hi = (min(ys), max(ys)) if axis == 'x' else (min(xs), max(xs))
        t = (lo // 8) * 8 + 4
        while t < hi:
            pt = (F(v), F(t)) if axis == 'x' else (F(t), F(v))
            if inside(poly, pt):
                a = (pt[0] - eps, pt[1]) if axis == 'x' else (pt[0], pt[1] - eps)
                b = (pt[0] + eps, pt[1]) if axis == 'x' else (pt[0], pt[1] + eps)
                if solid(p, *a) != solid(p, *b): return True
            t += 8
        return False
    def make_best(which):
        @lru_cache(maxsize=None)
        def best(poly):
            poly = list(poly)
            pts = cell_points(poly)
            if len({tuple(solid(p, *pt) for p in which) for pt in pts}) <= 1: return 0
            result = None
            candidates = [(p, axis, v) for (p, axis, v) in lines if p in which and face_in(poly, p, axis, v)]
            if free_lines:
                candidates += [(None, axis, F(v)) for axis in 'xy' for v in range(8, W, 8)]
            for (p, axis, v) in candidates:
                a, b = (1, 0) if axis == 'x' else (0, 1)
                left, right = clip(poly, a, b, v), clip(poly, -a, -b, -v)
                if len(left) < 3 or len(right) < 3 or area(left) == 0 or area(right) == 0: continue
                m = 1 + best(canon(left)) + best(canon(right))
                if result is None or m < result: result = m
            return result
        return best
    square = canon([(F(0), F(0)), (F(W), F(0)), (F(W), F(W)), (F(0), F(W))])
    onion = make_best(tuple(range(n)))(square)
    per = [make_best((p,))(square) for p in range(n)]
    return onion, per

CASES = {
    'concave corner': ([(-100, -100, 0, 200), (-100, -100, 200, 0)], 96),
    'nested concave corners': ([(-100, -100, 16, 200), (-100, -100, 200, 16)], 64),
    'pillar': ([(40, 40, 56, 56)], 96),
    'room': ([(-100, -100, 0, 300), (-100, -100, 300, 0), (128, -100, 300, 300), (-100, 128, 300, 300)], 128),
    'room with pillar': ([(-100, -100, 0, 300), (-100, -100, 300, 0), (160, -100, 300, 300), (-100, 160, 300, 300), (96, 96, 112, 112)], 160),
    'pillar 32 from a wall': ([(-100, -100, 0, 300), (32, 48, 48, 64)], 112),
    'pillar 48 from a wall': ([(-100, -100, 0, 300), (48, 48, 64, 64)], 128),
    'two close pillars': ([(32, 32, 48, 48), (64, 40, 80, 56)], 112),
    'step in a corner': ([(-100, -100, 0, 300), (-100, -100, 300, 0), (0, 0, 32, 64)], 128),
}
args = sys.argv[1:]
free = '--free-lines' in args
names = [a for a in args if a != '--free-lines'] or list(CASES)
for name in names:
    boxes, W = CASES[name]
    onion, per = solve(boxes, W, free_lines=free)
    print(f"{name:20s} onion {onion:3d}  per-pose {per} sum {sum(per)}  ratio {onion / sum(per):.2f}")
