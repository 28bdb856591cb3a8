#!/usr/bin/env python3
"""The Python module `shallot` against `shallot-cli query` on id_e1m1 (docs/runtime.md).

Environment (CTest sets it): PYTHONPATH holds the built module, SHALLOT_CLI the shallot-cli
binary, SHALLOT_MAP the level (../shared/maps/id_e1m1.map). NumPy is required: a missing
numpy is a failure, not a skip.

Every comparison is exact (no tolerance): the module and the CLI make the same core call
on the same bits, and the CLI writes each double as the shortest decimal that reads back
to it (Qt 6's JSON writer), so json.loads gives the very double the module returns.
"""
import json
import os
import subprocess
import tempfile
import threading
import unittest

import numpy as np

import shallot

CLI = os.environ["SHALLOT_CLI"]
MAP = os.environ["SHALLOT_MAP"]
ROWS = 2000  # per batch: enough to cross open space, floors, walls and the void


def cli_query(tree_path, queries):
    """Answers of `shallot-cli query TREE` to the queries, one dict each, in order."""
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run([CLI, "query", tree_path], input=text, capture_output=True, text=True, check=False)
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(queries), out.stderr
    return answers


class ShallotAgainstCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.obsp = os.path.join(cls.dir.name, "e1m1.obsp")
        subprocess.run([CLI, "compile", MAP, "-o", cls.obsp], check=True, capture_output=True)
        cls.tree = shallot.Tree.load(cls.obsp)
        rng = np.random.default_rng(32)
        # The level's box (id_e1m1's brushes span about -700..2700 x, -1900..1800 y, -400..500 z)
        # and a margin of void around it.
        lo, hi = np.array([-800.0, -2000.0, -500.0]), np.array([2800.0, 1900.0, 600.0])
        cls.starts = rng.uniform(lo, hi, size=(ROWS, 3)).round(3)  # a few decimals, as a game sends
        # Ends near the starts (up to 300 units away): most segments stay inside the level.
        cls.ends = (cls.starts + rng.uniform(-300, 300, size=(ROWS, 3))).round(3)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_poses_are_the_files(self):
        info = json.loads(subprocess.run([CLI, "info", self.obsp], capture_output=True, text=True).stdout)
        self.assertEqual(self.tree.poses, [p["name"] for p in info["poses"]])
        self.assertEqual(self.tree.poses, ["point", "player", "large"])
        self.assertTrue(self.tree.has_brushes)

    def test_classify_equals_cli(self):
        solid = self.tree.classify(self.starts)
        self.assertEqual(solid.shape, (ROWS, len(self.tree.poses)))
        self.assertEqual(solid.dtype, np.bool_)
        answers = cli_query(self.obsp, [{"op": "classify", "p": p.tolist()} for p in self.starts])
        expected = np.array([[a["solid"][name] for name in self.tree.poses] for a in answers])
        np.testing.assert_array_equal(solid, expected)
        self.assertTrue(expected.any() and not expected.all())  # both answers occur

    def check_traces(self, got, answers):
        for key in ("start_solid", "hit", "t"):
            np.testing.assert_array_equal(got[key], np.array([a[key] for a in answers]), err_msg=key)
        for key in ("point", "normal"):
            np.testing.assert_array_equal(got[key], np.array([a[key] for a in answers], dtype=float), err_msg=key)

    def test_trace_equals_cli_for_every_pose(self):
        for name in self.tree.poses:
            got = self.tree.trace(name, self.starts, self.ends)
            answers = cli_query(self.obsp, [{"op": "trace", "pose": name, "from": a.tolist(), "to": b.tolist()}
                                            for a, b in zip(self.starts, self.ends)])
            self.check_traces(got, answers)
            # Every outcome occurs: starts in solid, hits, free segments.
            clear = ~got["start_solid"] & ~got["hit"]
            for outcome in (got["start_solid"], got["hit"], clear):
                self.assertGreater(outcome.sum(), ROWS // 50, name)

    def test_threads_and_pose_indices_give_the_same_traces(self):
        one = self.tree.trace(1, self.starts, self.ends)
        two = self.tree.trace("player", self.starts, self.ends, threads=2)
        for key in one:
            np.testing.assert_array_equal(one[key], two[key], err_msg=key)

    def test_any_box_equals_cli_on_the_map(self):
        # The CLI sweeps a box that is no pose only on a .map (its world); the module reads
        # the same brushes from the .obsp.
        mins, maxs = [-10.0, -10.0, -20.0], [10.0, 10.0, 30.0]
        rows = slice(0, 400)
        got = self.tree.trace_box(mins, maxs, self.starts[rows], self.ends[rows])
        answers = cli_query(MAP, [{"op": "trace", "box": {"mins": mins, "maxs": maxs}, "from": a.tolist(),
                                   "to": b.tolist()} for a, b in zip(self.starts[rows], self.ends[rows])])
        self.check_traces(got, answers)

    def test_move_and_reach_equal_cli(self):
        for a, b in zip(self.starts[:100], self.ends[:100]):
            delta = (b - a).tolist()
            m = self.tree.move("player", a, delta, 18.0)
            r = self.tree.reach("large", a, b)
            [cm, cr] = cli_query(self.obsp, [
                {"op": "move", "pose": "player", "from": a.tolist(), "delta": delta, "step": 18},
                {"op": "reach", "pose": "large", "from": a.tolist(), "to": b.tolist()}])
            self.assertEqual(list(m["end"]), cm["end"])
            self.assertEqual([c["t"] for c in m["contacts"]], [c["t"] for c in cm["contacts"]])
            self.assertEqual((m["start_solid"], m["stepped"]), (cm["start_solid"], cm["stepped"]))
            self.assertEqual((r["reachable"], r["from_leaf"], r["to_leaf"]),
                             (cr["reachable"], cr["from_leaf"], cr["to_leaf"]))

    def test_path_equals_cli(self):
        # From the player start's hall to places around it (and random pairs, mostly void).
        start = np.array([480.0, -352.0, 100.0])
        around = start + np.random.default_rng(30).uniform([-400, -100, 0], [400, 700, 0], size=(30, 3)).round(3)
        pairs = [(start, b) for b in around] + list(zip(self.starts[:30], self.ends[:30]))
        found = 0
        for a, b in pairs:
            got = self.tree.path("player", a, b)
            [want] = cli_query(self.obsp, [{"op": "path", "pose": "player", "from": a.tolist(), "to": b.tolist()}])
            self.assertEqual((got["found"], got["length"]), (want["found"], want["length"]))
            self.assertEqual(got["points"].tolist(), want["points"])
            found += got["found"]
        self.assertGreater(found, 0)

    def test_move_batch_equals_cli(self):
        deltas = (self.ends - self.starts)[:300]
        got = self.tree.move_batch("player", self.starts[:300], deltas, step=18)
        answers = cli_query(self.obsp, [{"op": "move", "pose": "player", "from": a.tolist(), "delta": d.tolist(),
                                         "step": 18} for a, d in zip(self.starts[:300], deltas)])
        np.testing.assert_array_equal(got["end"], [a["end"] for a in answers])
        np.testing.assert_array_equal(got["start_solid"], [a["start_solid"] for a in answers])
        np.testing.assert_array_equal(got["stepped"], [a["stepped"] for a in answers])
        np.testing.assert_array_equal(got["contacts"], [len(a["contacts"]) for a in answers])
        self.assertTrue(got["stepped"].any() and got["contacts"].any() and not got["start_solid"].all())

    def test_leaves_and_reach_from_equal_cli(self):
        leaves = self.tree.leaves(self.starts[:300])
        self.assertEqual(leaves.dtype, np.int32)
        answers = cli_query(self.obsp, [{"op": "classify", "p": p.tolist()} for p in self.starts[:300]])
        np.testing.assert_array_equal(leaves, [a["leaf"] for a in answers])
        self.assertEqual(self.tree.leaf_count, len(self.tree.reach_from("point", self.starts[0])["reached"]))
        # From the player start (on the floor: nudged up 1/8), and from random points.
        for pose, start in [("player", (480, -352, 88))] + [("large", p) for p in self.starts[:6].tolist()]:
            got = self.tree.reach_from(pose, start)
            out = subprocess.run([CLI, "reach", self.obsp, "--pose", pose, "--from", ",".join(map(repr, start))],
                                 capture_output=True, text=True, check=True)
            want = json.loads(out.stdout)
            self.assertEqual((got["start_leaf"], got["reachable_leaves"], got["volume"], got["leak"]),
                             (want["start_leaf"], want["reachable_leaves"], want["volume"], want["leak"]))
            np.testing.assert_array_equal(got["leak_path"], np.array(want["leak_path"], dtype=float).reshape(-1, 3))
            self.assertEqual(int(got["reached"].sum()), want["reachable_leaves"])
        start = self.tree.reach_from("player", (480, -352, 88))
        self.assertFalse(start["leak"])  # id_e1m1 is sealed
        self.assertTrue(start["reached"][self.tree.leaves([[480, -352, 100]])[0]])

    def test_visible_equals_cli(self):
        # The PVS as `shallot-cli vis --fast` stores it (the base flow: a fraction of a second
        # on id_e1m1; the full flow takes 15-45 s), against the CLI's "visible" op.
        vis = os.path.join(self.dir.name, "e1m1_vis.obsp")
        subprocess.run([CLI, "vis", self.obsp, "-o", vis, "--fast", "--threads", "2"], check=True, capture_output=True)
        tree = shallot.Tree.load(vis)
        self.assertTrue(tree.has_pvs)
        self.assertFalse(self.tree.has_pvs)
        got = tree.visible_batch(self.starts, self.ends, threads=2)
        answers = cli_query(vis, [{"op": "visible", "from": a.tolist(), "to": b.tolist()}
                                  for a, b in zip(self.starts, self.ends)])
        for key in ("pvs", "pvs_known", "clear", "from_leaf", "to_leaf"):
            np.testing.assert_array_equal(got[key], np.array([a[key] for a in answers]), err_msg=key)
        self.assertEqual(got["from_leaf"].dtype, np.int32)
        for i in range(0, ROWS, 97):
            self.assertEqual(tree.visible(self.starts[i], self.ends[i]), answers[i])
        # Clear segments, segments the PVS culls and ends in solid all occur; never a miss.
        self.assertGreater(got["clear"].sum(), ROWS // 50)
        self.assertGreater((got["pvs_known"] & ~got["pvs"]).sum(), ROWS // 50)
        self.assertGreater((~got["pvs_known"]).sum(), ROWS // 50)
        self.assertFalse((got["clear"] & got["pvs_known"] & ~got["pvs"]).any())
        # Without a PVS nothing is known; the segments are the same.
        none = self.tree.visible_batch(self.starts, self.ends)
        self.assertFalse(none["pvs_known"].any())
        self.assertTrue(none["pvs"].all())
        np.testing.assert_array_equal(none["clear"], got["clear"])
        # with_pvs computes what vis stores, and save keeps it.
        fast = self.tree.with_pvs(fast=True, threads=2)
        self.assertTrue(fast.has_pvs)
        np.testing.assert_array_equal(fast.visible_batch(self.starts, self.ends)["pvs"], got["pvs"])
        path = os.path.join(self.dir.name, "with_pvs.obsp")
        fast.save(path)
        self.assertTrue(shallot.Tree.load(path).has_pvs)
        info = json.loads(subprocess.run([CLI, "info", path], capture_output=True, text=True, check=True).stdout)
        self.assertEqual(info["pvs"]["flow"], "base")

    def test_compile_writes_the_clis_file(self):
        compiled = shallot.compile(MAP)
        path = os.path.join(self.dir.name, "module.obsp")
        compiled.save(path)
        with open(path, "rb") as a, open(self.obsp, "rb") as b:
            self.assertTrue(a.read() == b.read())
        tiny = shallot.compile(MAP, poses={"tiny": ((-1, -1, -1), (1, 1, 1))})
        self.assertEqual(tiny.poses, ["tiny"])
        self.assertEqual(shallot.compile(MAP, poses=[("a", (0, 0, 0), (0, 0, 0)), ("b", (-8,) * 3, (8,) * 3)]).poses,
                         ["a", "b"])

    def test_movers_equal_cli(self):
        # id_e1m1's 31 movers (doors, the bridge, the lift, secret doors, buttons) stored in
        # the .obsp: at random states (as the JSON "movers" field names them, the same dict
        # given to with_movers), classify, trace (and the mover it hit), move and move_batch
        # from the module equal the CLI's lines on the .obsp, and those on the .map.
        movers = self.tree.movers
        info = json.loads(subprocess.run([CLI, "info", self.obsp], capture_output=True, text=True).stdout)
        self.assertEqual(len(movers), info["movers"]["objects"])
        self.assertEqual(movers[0]["entity"], 14)
        self.assertEqual((movers[0]["kind"], movers[0]["spawn"]), ("door", "closed"))
        self.assertEqual(self.tree.mover_states[14], "closed")
        rng = np.random.default_rng(40)
        # Starts near the movers' drawn places (their boxes grown by 64), ends up to 200 away.
        lo = np.array([m["mins"] for m in movers]) - 64
        hi = np.array([m["maxs"] for m in movers]) + 64
        hits = 0
        for round in range(6):
            states = {}
            for m in movers:
                pick = rng.integers(0, 4)
                if pick == 1:
                    states[str(m["entity"])] = "open"
                elif pick == 2:
                    states[str(m["entity"])] = float(rng.uniform(0, 1))
                elif pick == 3:
                    states[str(m["entity"])] = "corner %d" % (m["stops"] - 1)
            tree = self.tree.with_movers(states)
            which = rng.integers(0, len(movers), size=60)
            a = rng.uniform(lo[which], hi[which]).round(3)
            b = (a + rng.uniform(-200, 200, size=(60, 3))).round(3)
            queries = []
            for p, q in zip(a, b):
                queries += [{"op": "classify", "p": p.tolist(), "movers": states},
                            {"op": "trace", "pose": "player", "from": p.tolist(), "to": q.tolist(), "movers": states},
                            {"op": "move", "pose": "player", "from": p.tolist(), "delta": ((q - p) / 4).tolist(),
                             "step": 18, "movers": states}]
            answers = cli_query(self.obsp, queries)
            if round == 0:
                self.assertEqual(answers, cli_query(MAP, queries))
            solid = tree.classify(a)
            ends = tree.move_batch("player", a, (b - a) / 4, step=18)["end"]
            for i, (p, q) in enumerate(zip(a, b)):
                c, t, m = answers[3 * i: 3 * i + 3]
                self.assertEqual(list(solid[i]), [c["solid"][name] for name in tree.poses])
                got = tree.trace_mover("player", p, q)
                self.assertEqual((got["start_solid"], got["hit"], got["t"]), (t["start_solid"], t["hit"], t["t"]))
                self.assertEqual((list(got["point"]), list(got["normal"])), (t["point"], t["normal"]))
                self.assertEqual(got["mover"], t.get("mover"))
                hits += got["mover"] is not None
                moved = tree.move("player", p, (q - p) / 4, 18.0)
                self.assertEqual(list(moved["end"]), m["end"])
                self.assertEqual(list(ends[i]), m["end"])
                self.assertEqual([x["t"] for x in moved["contacts"]], [x["t"] for x in m["contacts"]])
            self.assertEqual(tree.mover_states[14], states.get("14", "closed"))
        self.assertGreater(hits, 10)

    def test_travel_path_equals_cli(self):
        # The path op with its default travel on the .obsp (the stored entities): from the
        # player start to the exit through the doors, the bridge and t10, and a few more.
        pairs = [((480.0, -352.0, 88.0), (1312.0, 548.0, -250.0)), ((480.0, -352.0, 88.0), (-544.0, 2606.0, 56.0)),
                 ((480.0, -352.0, 100.0), (480.0, 200.0, 100.0))]
        types = set()
        for a, b in pairs:
            got = self.tree.travel_path("player", a, b)
            [want] = cli_query(self.obsp, [{"op": "path", "pose": "player", "from": list(a), "to": list(b)}])
            self.assertEqual(got["found"], want["found"])
            self.assertEqual((got["length"], got["time"]), (want["length"], want["time"]))
            np.testing.assert_array_equal(got["points"], np.array(want["points"], dtype=float).reshape(-1, 3))
            self.assertEqual([{**s, "from": list(s["from"]), "to": list(s["to"])} for s in got["travel"]], want["travel"])
            types |= {s["type"] for s in got["travel"]}
        self.assertTrue({"door", "plat"} <= types, types)

    def test_reach_with_movers_equals_cli(self):
        # reach(movers=True) floods the world compiled with the movers at the tree's states,
        # as query's reach with "movers" on the .obsp (its stored brushes) and on the .map:
        # door 14 shut cuts the hall off from the room beyond it, opened with 15 it does not.
        a, b = (300.0, 540.0, 40.0), (100.0, 540.0, 40.0)
        self.assertTrue(self.tree.reach("player", a, b)["reachable"])  # the world alone
        answers = []
        for states in ({"14": "closed"}, {"14": "open", "15": "open"}, {"14": 0.5}):
            got = self.tree.with_movers(states).reach("player", a, b, movers=True)
            [want] = cli_query(self.obsp, [{"op": "reach", "pose": "player", "from": list(a), "to": list(b),
                                            "movers": states}])
            self.assertEqual(got, want)
            self.assertEqual([want], cli_query(MAP, [{"op": "reach", "pose": "player", "from": list(a),
                                                      "to": list(b), "movers": states}]))
            answers.append(got["reachable"])
        self.assertEqual(answers[:2], [False, True])
        # A box other than the poses meets the shut door as query's box trace does.
        hits = self.tree.trace_box((-8, -8, -8), (8, 8, 8), np.array([a]), np.array([b]))
        [want] = cli_query(self.obsp, [{"op": "trace", "box": {"mins": [-8, -8, -8], "maxs": [8, 8, 8]},
                                        "from": list(a), "to": list(b)}])
        self.assertEqual(want.get("mover"), 14)
        self.assertEqual((bool(hits["hit"][0]), float(hits["t"][0])), (want["hit"], want["t"]))
        # A file saved without its brushes cannot: the module raises, query says why, and an
        # arbitrary box needs them too.
        bare = os.path.join(self.dir.name, "bare.obsp")
        self.tree.save(bare, brushes=False)
        with self.assertRaisesRegex(shallot.Error, "reach with movers needs the brushes"):
            shallot.Tree.load(bare).reach("player", a, b, movers=True)
        reach, box = cli_query(bare, [{"op": "reach", "pose": "player", "from": list(a), "to": list(b),
                                       "movers": {"14": "open"}},
                                      {"op": "trace", "box": {"mins": [-8, -8, -8], "maxs": [8, 8, 8]},
                                       "from": list(a), "to": list(b)}])
        self.assertIn("saved without them", reach["error"])
        self.assertEqual(box["error"], "arbitrary boxes need the world: query a .map or .shallot")

    def test_bad_mover_states_raise(self):
        for states, message in (({13: "open"}, "no mover at entity 13"),
                                ({14: float("nan")}, "the state of entity 14 must be"),
                                ({14: 1.5}, "the state of entity 14 must be"),
                                ({14: "wide"}, "a mover state is"),
                                ({14: None}, "the state of entity 14 must be"),
                                ({14: True}, "the state of entity 14 must be"),
                                ({"x": "open"}, "a mover is named by its entity index"),
                                ({-1: "open"}, "no mover at entity -1")):
            with self.assertRaisesRegex(shallot.Error, message):
                self.tree.with_movers(states)
        # The door shut at spawn, open when asked: the trace through it names it, then passes.
        self.assertEqual(self.tree.trace_mover("player", (300, 540, 40), (100, 540, 40))["mover"], 14)
        opened = self.tree.with_movers({14: "open", "15": 1})
        self.assertFalse(opened.trace_mover("player", (300, 540, 40), (100, 540, 40))["hit"])
        self.assertEqual(opened.mover_states[15], 1.0)

    def test_round_poses_equal_cli(self):
        # An ellipsoid and a capsule added to the loaded .obsp (its stored brushes) answer
        # as `shallot-cli query MAP --pose ...` answers them on the .map (its tree in front).
        shapes = {"egg": "ellipsoid:16,28", "cap": "capsule:16,56"}
        tree = self.tree.with_round_poses(shapes)
        self.assertEqual(tree.poses, ["point", "player", "large", "egg", "cap"])
        self.assertEqual(tree.round_poses, {"egg": ("ellipsoid", 16.0, 28.0), "cap": ("capsule", 16.0, 56.0)})
        args = []
        for name, (mins, maxs) in self.tree.pose_boxes.items():
            args += ["--pose", "%s=%s" % (name, ",".join("%g" % v for v in mins + maxs))]
        for name, shape in shapes.items():
            args += ["--pose", "%s=%s" % (name, shape)]
        rows = slice(0, 300)
        a, b = self.starts[rows], self.ends[rows]
        queries = []
        for p, q in zip(a, b):
            queries.append({"op": "classify", "p": p.tolist()})
            for name in shapes:
                queries += [{"op": "trace", "pose": name, "from": p.tolist(), "to": q.tolist()},
                            {"op": "move", "pose": name, "from": p.tolist(), "delta": ((q - p) / 4).tolist(), "step": 18}]
        text = "".join(json.dumps(x) + "\n" for x in queries)
        out = subprocess.run([CLI, "query", MAP] + args, input=text, capture_output=True, text=True, check=False)
        answers = [json.loads(line) for line in out.stdout.splitlines()]
        self.assertEqual(len(answers), len(queries), out.stderr)
        solid = tree.classify(a)
        traced = {name: tree.trace(name, a, b) for name in shapes}
        moved = {name: tree.move_batch(name, a, (b - a) / 4, step=18)["end"] for name in shapes}
        k = 0
        for i, (p, q) in enumerate(zip(a, b)):
            c = answers[k]
            k += 1
            self.assertEqual([bool(v) for v in solid[i]], [c["solid"][name] for name in tree.poses])
            for name in shapes:
                t, m = answers[k], answers[k + 1]
                k += 2
                got = traced[name]
                self.assertEqual((bool(got["start_solid"][i]), bool(got["hit"][i]), got["t"][i]),
                                 (t["start_solid"], t["hit"], t["t"]))
                self.assertEqual(list(got["point"][i]), t["point"])
                self.assertEqual(list(moved[name][i]), m["end"])
                one = tree.move(name, p, (q - p) / 4, 18.0)
                self.assertEqual([x["t"] for x in one["contacts"]], [x["t"] for x in m["contacts"]])
        self.assertTrue(solid[:, 4].any() and not solid[:, 4].all())
        for shapes, message in (({"cap": "capsule:16,20"}, "shorter than its diameter"),
                                ({"cap": "capsule:0,56"}, "capsule"),
                                ({"cap": "ellipsoid:nan,28"}, "finite"),
                                ({"player": "capsule:16,56"}, "the name is taken"),
                                ({"cap": 16}, "round poses are")):
            with self.assertRaisesRegex(shallot.Error, message):
                self.tree.with_round_poses(shapes)
        with self.assertRaisesRegex(shallot.Error, "is round: reach and paths need a pose of the tree"):
            tree.reach("cap", self.starts[0], self.ends[0])

    def test_errors_raise_shallot_error(self):
        with self.assertRaisesRegex(shallot.Error, "unknown pose \"nobody\""):
            self.tree.trace("nobody", self.starts, self.ends)
        with self.assertRaisesRegex(shallot.Error, "pose index 7 out of range"):
            self.tree.trace(7, self.starts, self.ends)
        bad = self.starts.copy()
        bad[5, 2] = np.nan
        with self.assertRaisesRegex(shallot.Error, "row 5: from and to must be 3 finite numbers"):
            self.tree.trace("point", bad, self.ends)
        with self.assertRaisesRegex(shallot.Error, "point 5 must be 3 finite numbers"):
            self.tree.classify(bad)
        with self.assertRaisesRegex(ValueError, "N x 3"):
            self.tree.classify(np.zeros((4, 2)))
        with self.assertRaisesRegex(ValueError, "same number of rows"):
            self.tree.trace("point", self.starts, self.ends[:5])
        with self.assertRaisesRegex(shallot.Error, "cannot open"):
            shallot.Tree.load(os.path.join(self.dir.name, "missing.obsp"))
        with self.assertRaisesRegex(shallot.Error, "e1m1.obsp:1:1: "):
            shallot.compile(self.obsp)  # not a map
        with open(self.obsp, "rb") as f:
            data = f.read()
        for cut in (0, 4, 95, 96, 1000, len(data) // 2, len(data) - 1):
            with self.assertRaisesRegex(shallot.Error, "obsp: "):
                shallot.Tree.from_bytes(data[:cut])
        self.assertEqual(shallot.Tree.from_bytes(data).poses, self.tree.poses)

    def test_two_python_threads_trace_at_once(self):
        # Batches release the GIL; two threads tracing together get the answers of one.
        results = [None, None]

        def run(i):
            results[i] = self.tree.trace("large", self.starts, self.ends)

        threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for key in results[0]:
            np.testing.assert_array_equal(results[0][key], results[1][key])


if __name__ == "__main__":
    unittest.main()
