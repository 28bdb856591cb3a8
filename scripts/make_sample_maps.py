#!/usr/bin/env python3
"""Writes the sample worlds in maps/ (box brushes only, Quake standard format).

figure1_rooms.map: the article's Figure 1 (two rooms joined by a corridor), 2D
coordinates scaled by 4, 256 units high. low_tunnel.map: two rooms joined by a tunnel
48 units high that a crouching agent fits through and a standing one does not.
sealed_box.map: one closed room (no leak). leaky_box.map: the same room with a 128 x 128
hole in its east wall, through which every Quake hull leaks into the void.
q2_clip_room.map: a Quake 2 room crossed by a player clip wall (x 160..176) and a monster
clip wall (x 336..352): the player and crouch poses stop at the first, the monster pose
at the second, shots at neither. hl_clip_room.map: a Half-Life room with a CLIP wall
(x 160..176: the hulls stop, the point does not), a func_illusionary wall (x 288..304:
nothing stops) and a crawlspace 40 high and 64 wide (x 400..432, y 224..288) that the
head hull (crouching, 36 high) passes and the human hull (72 high) does not.
q3_patch_room.map: a Quake 3 room (brushDef brushes) with a common/playerclip wall (x 160..176:
the player and crouch poses stop, shots do not), a common/botclip wall (x 336..352: blocks
no pose of Quake 3's), a trigger_multiple (common/trigger) and a 3 x 5 patch arching over
x 208..288 from y 64 to y 448, 192 high at its top: drawn, never collided with.
"""
import pathlib

# Outward normal axis/sign -> (u, v) axes with u x v = normal, so that Quake's
# normal = (p1 - p2) x (p3 - p2) points out of the brush for p1 = p2 + u, p3 = p2 + v.
FRAMES = {(0, 1): (1, 2), (0, -1): (2, 1), (1, 1): (2, 0), (1, -1): (0, 2), (2, 1): (0, 1), (2, -1): (1, 0)}


def box(mins, maxs, texture="shallot/wall", params="0 0 0 1 1", brushdef=False):
    lines = ["{", "brushDef", "{"] if brushdef else ["{"]
    for axis in range(3):
        for sign in (1, -1):
            p2 = list(mins if sign < 0 else maxs)
            u, v = FRAMES[(axis, sign)]
            p1 = list(p2); p1[u] += 64
            p3 = list(p2); p3[v] += 64
            pts = " ".join("( %d %d %d )" % tuple(p) for p in (p1, p2, p3))
            if brushdef:  # Quake 3: a texture matrix before the shader
                lines.append(f"{pts} ( ( 0.0078125 0 0 ) ( 0 0.0078125 0 ) ) {texture} {params}")
            else:
                lines.append(f"{pts} {texture} {params}")
    lines += ["}", "}"] if brushdef else ["}"]
    return "\n".join(lines)


def patch(shader, groups):
    """A patchDef2: groups[w][h] = (x, y, z), each point given texture coordinates 0 0."""
    lines = ["{", "patchDef2", "{", shader, f"( {len(groups)} {len(groups[0])} 0 0 0 )", "("]
    for g in groups:
        lines.append("( " + " ".join("( %g %g %g 0 0 )" % p for p in g) + " )")
    lines += [")", "}", "}"]
    return "\n".join(lines)


def write(name, comment, brushes, keys=(), header=(), entities=(), brushdef=False, patches=(),
          start="info_player_start"):
    """brushes: (mins, maxs[, texture[, params]]); entities: (classname, brushes)."""
    out = list(header) + [f"// {comment}", "{", '"classname" "worldspawn"']
    out += [f'"{k}" "{v}"' for k, v in keys]
    out += [box(*b, brushdef=brushdef) for b in brushes]
    out += list(patches)
    out.append("}")
    for classname, entity_brushes in entities:
        out += ["{", f'"classname" "{classname}"'] + [box(*b, brushdef=brushdef) for b in entity_brushes] + ["}"]
    angle = '\n"angle" "%d"' % start_angles[name] if name in start_angles else ""
    out.append('{\n"classname" "%s"\n"origin" "%d %d %d"%s\n}' % ((start,) + brushes_start[name] + (angle,)))
    path = pathlib.Path(__file__).resolve().parent.parent / "maps" / name
    path.write_text("\n".join(out) + "\n")


brushes_start = {"figure1_rooms.map": (400, 300, 24), "low_tunnel.map": (128, 128, 24),
                  "sealed_box.map": (128, 128, 24), "leaky_box.map": (128, 128, 24),
                  "q2_clip_room.map": (64, 48, 24), "hl_clip_room.map": (64, 48, 36),
                  "q3_patch_room.map": (320, 24, 24)}
# Where a start looks (its eye is where the editor's 3D view opens): at the arch.
start_angles = {"q2_clip_room.map": 60, "hl_clip_room.map": 60, "q3_patch_room.map": 110}

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


# Quake 2: Standard faces with CONTENTS FLAGS VALUE (0: solid, 65536 player clip, 131072
# monster clip), headed as TrenchBroom writes it.
Q2_WALL = ("e1u1/wall", "0 0 0 1 1 0 0 0")
q2_room = [r + Q2_WALL for r in room + [((512, -16, 0), (528, 528, 256))]]
write("q2_clip_room.map", "A Quake 2 room: a player clip wall, then a monster clip wall", q2_room + [
    ((160, 0, 0), (176, 512, 256), "e1u1/clip", "0 0 0 1 1 65536 0 0"),    # player clip
    ((336, 0, 0), (352, 512, 256), "e1u1/clip", "0 0 0 1 1 131072 0 0"),   # monster clip
], header=["// Game: Quake 2", "// Format: Quake2"])

# Half-Life: Valve 220 faces and a wad list (the texture axes do not matter here).
HL = "[ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1"
hl_room = [r + ("c1a0_labw", HL) for r in room + [((512, -16, 0), (528, 528, 256))]]
crawlspace = [  # x 400..432 closed but for a gap y 224..288, z 0..40
    ((400, 0, 40), (432, 512, 256), "c1a0_labw", HL),
    ((400, 0, 0), (432, 224, 40), "c1a0_labw", HL),
    ((400, 288, 0), (432, 512, 40), "c1a0_labw", HL),
]
write("hl_clip_room.map", "A Half-Life room: a CLIP wall, a func_illusionary wall and a crawlspace",
      hl_room + [((160, 0, 0), (176, 512, 256), "CLIP", HL)] + crawlspace,
      keys=[("mapversion", "220"), ("wad", "halflife.wad")],
      header=["// Game: Half-Life", "// Format: Valve"],
      entities=[("func_illusionary", [((288, 0, 0), (304, 512, 256), "c1a0_labw", HL)])])

# Quake 3: brushDef brushes (shader, then CONTENTS FLAGS VALUE: 0, contents from the shader
# name) and a patch. The arch: three groups along x, each two quadratic spans in y and z
# (a round arch from the floor at y 64 up to z 192 at y 256 and down to the floor at y 448).
Q3 = ("base_wall/concrete", "0 0 0")
q3_room = [r + Q3 for r in room + [((512, -16, 0), (528, 528, 256))]]
arch = [[(x, 64, 0), (x, 64, 192), (x, 256, 192), (x, 448, 192), (x, 448, 0)] for x in (208, 248, 288)]
write("q3_patch_room.map", "A Quake 3 room: a player clip wall, a bot clip wall, a trigger and an arched patch",
      q3_room + [((160, 0, 0), (176, 512, 256), "common/playerclip", "0 0 0"),
                 ((336, 0, 0), (352, 512, 256), "common/botclip", "0 0 0")],
      header=["// Game: Quake 3", "// Format: Quake3"], brushdef=True,
      patches=[patch("shallot/arch", arch)],
      entities=[("trigger_multiple", [((400, 192, 0), (464, 320, 64), "common/trigger", "0 0 0")])],
      start="info_player_deathmatch")
