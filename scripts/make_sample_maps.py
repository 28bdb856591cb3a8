#!/usr/bin/env python3
"""Writes the sample worlds in maps/ (box brushes only, Quake standard format).

figure1_rooms.map: the article's Figure 1 (two rooms joined by a corridor), 2D
coordinates scaled by 4, 256 units high. low_tunnel.map: two rooms joined by a tunnel
48 units high that a crouching agent fits through and a standing one does not.
sealed_box.map: one closed room (no leak). leaky_box.map: the same room with a 128 x 128
hole in its east wall, through which every Quake hull leaks into the void.
"""
import pathlib

# Outward normal axis/sign -> (u, v) axes with u x v = normal, so that Quake's
# normal = (p1 - p2) x (p3 - p2) points out of the brush for p1 = p2 + u, p3 = p2 + v.
FRAMES = {(0, 1): (1, 2), (0, -1): (2, 1), (1, 1): (2, 0), (1, -1): (0, 2), (2, 1): (0, 1), (2, -1): (1, 0)}


def box(mins, maxs, texture="shallot/wall"):
    lines = ["{"]
    for axis in range(3):
        for sign in (1, -1):
            p2 = list(mins if sign < 0 else maxs)
            u, v = FRAMES[(axis, sign)]
            p1 = list(p2); p1[u] += 64
            p3 = list(p2); p3[v] += 64
            pts = " ".join("( %d %d %d )" % tuple(p) for p in (p1, p2, p3))
            lines.append(f"{pts} {texture} 0 0 0 1 1")
    lines.append("}")
    return "\n".join(lines)


def write(name, comment, brushes, keys=()):
    out = [f"// {comment}", "{", '"classname" "worldspawn"']
    out += [f'"{k}" "{v}"' for k, v in keys]
    out += [box(*b) for b in brushes]
    out.append("}")
    out.append('{\n"classname" "info_player_start"\n"origin" "%d %d %d"\n}' % brushes_start[name])
    path = pathlib.Path(__file__).resolve().parent.parent / "maps" / name
    path.write_text("\n".join(out) + "\n")


brushes_start = {"figure1_rooms.map": (400, 300, 24), "low_tunnel.map": (128, 128, 24),
                  "sealed_box.map": (128, 128, 24), "leaky_box.map": (128, 128, 24)}

figure1 = [
    ((184, 184, -16), (616, 816, 0)),     # floor
    ((184, 184, 256), (616, 816, 272)),   # ceiling
    ((184, 184, 0), (200, 416, 256)),     # lower room: west
    ((600, 184, 0), (616, 416, 256)),     # east
    ((200, 184, 0), (600, 200, 256)),     # south
    ((200, 400, 0), (300, 416, 256)),     # north, left of the corridor
    ((500, 400, 0), (600, 416, 256)),     # north, right of the corridor
    ((284, 416, 0), (300, 584, 256)),     # corridor: west
    ((500, 416, 0), (516, 584, 256)),     # east
    ((200, 584, 0), (300, 600, 256)),     # upper room: south, left
    ((500, 584, 0), (600, 600, 256)),     # south, right
    ((184, 584, 0), (200, 816, 256)),     # west
    ((600, 584, 0), (616, 816, 256)),     # east
    ((200, 800, 0), (600, 816, 256)),     # north
]
write("figure1_rooms.map", "Golodetz, Onion BSPs, Figure 1: two rooms and a corridor (x4, 256 high)", figure1)

tunnel = [
    ((-16, -16, -16), (656, 272, 0)),     # floor
    ((-16, -16, 192), (656, 272, 208)),   # ceiling
    ((-16, -16, 0), (0, 272, 192)),       # west
    ((640, -16, 0), (656, 272, 192)),     # east
    ((0, -16, 0), (640, 0, 192)),         # south
    ((0, 256, 0), (640, 272, 192)),       # north
    ((256, 0, 0), (384, 96, 192)),        # block between the rooms, south of the tunnel
    ((256, 160, 0), (384, 256, 192)),     # north of the tunnel
    ((256, 96, 48), (384, 160, 192)),     # above the tunnel: 48 units of headroom
]
write("low_tunnel.map", "Two rooms joined by a tunnel 64 wide and 48 high: crouch fits, stand does not",
      tunnel, keys=[("_shallot_pose1", "point 0 0 0 0 0 0"),
                    ("_shallot_pose2", "stand -16 -16 -24 16 16 32"),
                    ("_shallot_pose3", "crouch -16 -16 -24 16 16 8")])


# A room 512 x 512 x 256 inside, walls 16 thick.
room = [
    ((-16, -16, -16), (528, 528, 0)),     # floor
    ((-16, -16, 256), (528, 528, 272)),   # ceiling
    ((-16, -16, 0), (0, 528, 256)),       # west
    ((0, -16, 0), (512, 0, 256)),         # south
    ((0, 512, 0), (512, 528, 256)),       # north
]
write("sealed_box.map", "A sealed room: no leak for any pose", room + [((512, -16, 0), (528, 528, 256))])

east_wall_with_hole = [
    ((512, -16, 0), (528, 192, 256)),     # south of the hole
    ((512, 320, 0), (528, 528, 256)),     # north of the hole
    ((512, 192, 128), (528, 320, 256)),   # above the hole (y 192..320, z 0..128)
]
write("leaky_box.map", "The sealed room with a 128 x 128 hole in its east wall: every pose leaks",
      room + east_wall_with_hole)
