#!/usr/bin/env python3
"""The run report and the Python package (python/halfstep), headless:

    python3 tests/python/test_report.py --halfstep build/halfstep [--work DIR]

  * `halfstep run --report` of a small shell run (examples/circular_plate.inp) writes a
    report.html with every section, whose plots hold the CSVs' numbers (read back from the
    figures' lines, not only "the file exists"); its pictures are not blank and their colour
    range is the frame's |U| range (from the PNG's text chunks and the figure's colour bar);
  * solids, planar elements and beams give a picture too; a static run its load path and Newton
    iterations;
  * a failed run's report says so at the top, with the reason; an interrupted one too;
  * a folder that is not a result folder, or a half-written one, gets one line naming the file
    and what was expected, exit 2, no traceback; a missing Python gets exit 4 and a clear line;
  * the Python API reads the folder and runs a deck (RunError with the CLI's words on failure).
Exit 0 when all hold, 1 otherwise, also when numpy, pandas, matplotlib, meshio, PIL or pyvista
is missing or VTK cannot render off-screen (scripts/install-deps.sh installs them all, so a CI
run never skips them); HALFSTEP_RENDER=matplotlib, set by hand, skips the VTK picture only.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

try:
    import matplotlib  # noqa: F401
    import meshio
    import numpy as np
    import pandas  # noqa: F401
    from PIL import Image
except ImportError as e:
    print(f"test_report: FAILED: {e} (scripts/install-deps.sh installs the Python libraries in .venv; "
          "CMake's HALFSTEP_PYTHON must be that Python)")
    sys.exit(1)

import halfstep  # noqa: E402
from halfstep import plots, render, report  # noqa: E402

ARGS = None


def run(*cmd, env=None, check=None):
    """Runs cmd, returns the CompletedProcess (text); check: the expected exit code."""
    full_env = dict(os.environ, OMP_NUM_THREADS="1")
    full_env.update(env or {})
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=full_env, timeout=600)
    if check is not None and p.returncode != check:
        raise AssertionError(f"{cmd}: exit {p.returncode}, expected {check}\n{p.stdout}\n{p.stderr}")
    return p


def read_text(path):
    """The file's text."""
    with open(path, encoding="utf-8") as f:
        return f.read()


def write_text(path, text):
    """Writes text to path."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def work(name):
    """A fresh folder under the work folder."""
    path = os.path.join(ARGS.work, name)
    shutil.rmtree(path, ignore_errors=True)
    return path


def deck(name, *generator):
    """Writes a deck with one of examples/generate_*.py into the work folder."""
    path = os.path.join(ARGS.work, name + ".inp")
    run(sys.executable, os.path.join(ROOT, "examples", generator[0]), *generator[1:], "-o", path, check=0)
    return path


def lines_by_label(fig):
    """{label: Line2D} over every axes of the figure."""
    return {ln.get_label(): ln for ax in fig.axes for ln in ax.get_lines()}


class ShellRunReport(unittest.TestCase):
    """A completed explicit shell run with --report."""

    @classmethod
    def setUpClass(cls):
        """Runs the circular plate with --report, then rebuilds the report in-process for its figures."""
        cls.out = work("plate")
        cls.proc = run(ARGS.halfstep, "run", os.path.join(ROOT, "examples", "circular_plate.inp"), "-o", cls.out,
                       "--report", "--quiet", check=0)
        cls.html = read_text(os.path.join(cls.out, "report.html"))
        cls.built = report.build(cls.out)
        cls.result = halfstep.read(cls.out)

    def test_every_section(self):
        for section in report.SECTIONS:
            self.assertIn(f'<section id="{section}"', self.html, section)
        self.assertIn('class="status ok"', self.html)
        for name in ("energy", "energy_error", "increments", "history_CENTER", "reactions", "time",
                     "u_first", "u_middle", "u_last", "mises_last"):
            self.assertIn(f'id="img-{name}" src="data:image/png;base64,', self.html, name)
            self.assertTrue(os.path.getsize(os.path.join(self.out, "report", name + ".png")) > 1000, name)
        self.assertIn("report.html", self.proc.stderr)  # the CLI says where it is

    def test_summary_has_timings_and_steps(self):
        s = self.result.summary
        for key in ("read_seconds", "setup_seconds", "solve_seconds", "output_seconds", "wall_seconds"):
            self.assertGreaterEqual(s[key], 0.0, key)
        self.assertGreater(s["output_seconds"], 0.0)  # 11 frames, 200 energy rows were written
        self.assertLessEqual(s["read_seconds"] + s["setup_seconds"] + s["solve_seconds"], s["wall_seconds"] * 1.001)
        self.assertEqual(s["warnings"], [])
        self.assertEqual(s["energy_tolerance"], 0.05)
        (step,) = s["step_records"]
        self.assertEqual(step["increments"], s["steps"])
        self.assertEqual(step["increment"], s["time_increment"])
        self.assertIn(f"<td>{s['nodes']:,}</td>", self.html)
        # The model's facts: elements per type as the deck writes them, materials, mass, steps.
        self.assertEqual(s["element_types"], {"S4R": s["elements"]})
        self.assertEqual(s["materials"], 1)
        self.assertGreater(s["model_mass"], 0.0)
        self.assertIn(f"<th>element types</th><td>S4R {s['elements']:,}</td>", self.html)
        self.assertIn("<th>steps</th><td>", self.html)
        # The deck's *HEADING (its four lines, the units among them) travels to summary.json and
        # the report's top.
        self.assertTrue(s["heading"].startswith("halfstep example: simply supported circular plate"), s["heading"])
        self.assertEqual(len(s["heading"].split("\n")), 4)
        self.assertIn('<p class="heading">halfstep example: simply supported circular plate', self.html)
        self.assertIn("Units: mm / t / s / N / MPa", self.html)
        self.assertIn("in the deck's own units", self.html)

    def test_units_label_the_values(self):
        # A `** UNITS:` line in the deck names the system: the page says so and the axes carry
        # the units; --units overrides it; an unknown name is one line and exit 2.
        src = read_text(os.path.join(ROOT, "examples", "circular_plate.inp")).split("\n")
        path = os.path.join(ARGS.work, "plate_units.inp")
        write_text(path, "\n".join(src[:1] + ["** UNITS: mm-t-s"] + src[1:]))
        out = work("plate_units")
        run(ARGS.halfstep, "run", path, "-o", out, "--report", "--quiet", check=0)
        html = read_text(os.path.join(out, "report.html"))
        self.assertIn("Units: length mm, mass t, time s: force N, stress MPa, energy mJ (the deck's "
                      "<code>** UNITS: MM-T-S</code> line, plate_units.inp:2)", html)
        built = report.build(out, pictures=False)
        ax = built["figures"]["energy"].axes[0]
        self.assertEqual((ax.get_xlabel(), ax.get_ylabel()), ("time [s]", "energy [mJ]"))
        ax = built["figures"]["history_CENTER"].axes[0]
        self.assertEqual(ax.get_ylabel(), "U [mm]")
        built = report.build(out, pictures=False, units="SI")
        self.assertEqual(built["figures"]["energy"].axes[0].get_ylabel(), "energy [J]")
        self.assertIn("(--units SI)", read_text(os.path.join(out, "report.html")))
        p = run(ARGS.halfstep, "report", out, "--units", "furlongs", check=2)
        self.assertIn("unknown unit system 'furlongs' (expected one of SI, MM-T-S", p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        # Without a line or an option: the deck's own units, unnamed.
        self.assertIn("in the deck's own units", self.html)
        self.assertEqual(self.built["figures"]["energy"].axes[0].get_ylabel(), "energy")

    def test_energy_plot_holds_the_csv(self):
        csv = np.genfromtxt(os.path.join(self.out, "energy.csv"), delimiter=",", names=True)
        lines = lines_by_label(self.built["figures"]["energy"])
        for name in ("kinetic", "internal", "external_work", "damping_work", "hourglass", "total"):
            np.testing.assert_array_equal(lines[name].get_xdata(), csv["time"], name)
            np.testing.assert_array_equal(lines[name].get_ydata(), csv[name], name)

    def test_energy_error_plot(self):
        csv = np.genfromtxt(os.path.join(self.out, "energy.csv"), delimiter=",", names=True)
        scale = np.maximum.accumulate(np.max(np.abs([csv["kinetic"], csv["internal"], csv["external_work"]]), axis=0))
        drift = np.abs(csv["total"] - csv["total"][0])
        expect = np.where(scale > 0, drift / np.where(scale > 0, scale, 1), 0)
        lines = lines_by_label(self.built["figures"]["energy_error"])
        np.testing.assert_allclose(lines["relative to the energy so far (stop test)"].get_ydata(), expect,
                                   rtol=1e-12, atol=0)
        overall = lines["relative to the run's largest energy"].get_ydata()
        np.testing.assert_allclose(overall, drift / scale[-1], rtol=1e-12, atol=0)
        self.assertEqual(list(lines["tolerance 0.05"].get_ydata()), [0.05, 0.05])
        # summary.json's error takes every increment, the CSV only the samples: it bounds them.
        self.assertLessEqual(overall.max(), self.result.summary["energy_balance_error"] * (1 + 1e-6))
        self.assertGreater(overall.max(), 0.0)

    def test_history_and_reaction_plots_hold_the_csv(self):
        hist = np.genfromtxt(os.path.join(self.out, "history", "CENTER.csv"), delimiter=",", names=True)
        fig = self.built["figures"]["history_CENTER"]
        lines = lines_by_label(fig)
        title = fig.axes[0].get_title()
        drawn = zero = 0
        for var in ("U1", "U2", "U3", "RF1", "RF2", "RF3", "RM1", "RM2", "RM3", "UR1"):
            if not hist[var].any():  # zero throughout: named in the title, not drawn
                self.assertIn(var, title.split("zero throughout:")[1])
                self.assertFalse(any(k.startswith(var + " ") for k in lines), var)
                zero += 1
                continue
            for node in np.unique(hist["node"]).astype(int):
                rows = hist[hist["node"] == node]
                line = lines[f"{var} node {node}"]
                np.testing.assert_array_equal(line.get_xdata(), rows["time"])
                np.testing.assert_array_equal(line.get_ydata(), rows[var])
                drawn += 1
        self.assertGreater(drawn, 0)
        self.assertGreater(zero, 0)  # the centre of the plate has no in-plane motion
        total = np.genfromtxt(os.path.join(self.out, "history", "CENTER_total.csv"), delimiter=",", names=True)
        fig = self.built["figures"]["reactions"]
        lines = lines_by_label(fig)
        for var in ("RF1", "RF2", "RF3", "RM1", "RM2", "RM3"):
            if total[var].any():
                np.testing.assert_array_equal(lines[var].get_ydata(), total[var])
            else:
                self.assertIn(f"{var} (CENTER)", fig.axes[0].get_title())

    def test_increment_plot(self):
        s = self.result.summary
        lines = lines_by_label(self.built["figures"]["increments"])
        np.testing.assert_array_equal(lines["increment used"].get_ydata(), [s["time_increment"]] * 2)
        np.testing.assert_array_equal(lines["increment used"].get_xdata(), [0, s["final_time"]])
        stable = lines[f"stable estimate (element {s['controlling_element']})"]
        self.assertEqual(stable.get_ydata()[0], s["stable_increment_estimate"])

    def test_pictures_show_the_frames_range(self):
        frames = self.result.frames
        self.assertEqual(len(frames), self.result.summary["frames"])
        for label, index in (("first", 0), ("middle", len(frames) // 2), ("last", len(frames) - 1)):
            mesh = meshio.read(frames[index].path)  # independently of the package's reader
            umag = np.linalg.norm(mesh.point_data["U"], axis=1)
            png = os.path.join(self.out, "report", f"u_{label}.png")
            image = Image.open(png)
            self.assertEqual(float(image.text["Halfstep-vmin"]), umag.min(), label)
            self.assertEqual(float(image.text["Halfstep-vmax"]), umag.max(), label)
            # The range the renderer itself holds (matplotlib's colour bar, VTK's mapper).
            info = self.built["pictures"][f"u_{label}"]
            self.assertEqual((info["vmin"], info["vmax"]), (umag.min(), umag.max()), label)
            self.assertEqual(image.text["Halfstep-renderer"], info["renderer"])
            pixels = np.asarray(image.convert("RGB"), dtype=float)
            self.assertGreater(pixels.std(), 20.0, label)  # not blank
        # The last frame is deformed: its picture holds many colours of the map, not one.
        pixels = np.asarray(Image.open(os.path.join(self.out, "report", "u_last.png")).convert("RGB"))
        self.assertGreater(len(np.unique(pixels.reshape(-1, 3), axis=0)), 50)
        self.assertIn("deformation scale x", self.html)

    def test_python_api(self):
        r = halfstep.read(self.out)
        self.assertEqual(r.status, "completed")
        self.assertEqual(list(r.histories), ["CENTER"])
        self.assertEqual(list(r.reactions), ["CENTER"])
        e = halfstep.energy(self.out)
        self.assertEqual(list(e.columns[:6]), ["time", "kinetic", "internal", "external_work", "damping_work", "total"])
        mesh = r.frame(-1)
        self.assertEqual(len(mesh.points), r.summary["nodes"])
        self.assertEqual(halfstep.summary(self.out)["elements"], 48)
        self.assertEqual(len(halfstep.frames(self.out)), 11)


def colour_bar_range(fig):
    """(low, high) of a matplotlib picture's colour bar axis."""
    (bar,) = [a for a in fig.axes if a.get_ylabel().startswith(("|U|", "Mises"))]
    return bar.get_ylim()


class HistoryPanels(unittest.TestCase):
    """plots.history on a made-up set: zero components are named, not drawn; a crowded panel
    names components in its legend, not node lines."""

    def frame(self, nodes):
        import pandas as pd
        t = np.linspace(0.0, 1.0, 5)
        rows = [{"time": ti, "node": n, "U1": 0.0, "U2": 0.0, "U3": n * ti, "RF1": ti, "RF2": 0.0, "RF3": 0.0}
                for n in nodes for ti in t]
        return pd.DataFrame(rows)

    def test_zero_components_and_crowded_legends(self):
        from types import SimpleNamespace
        few = plots.history(SimpleNamespace(histories={"S": self.frame([1, 2])}), "S")
        lines = lines_by_label(few)
        self.assertEqual(sorted(lines), ["RF1 node 1", "RF1 node 2", "U3 node 1", "U3 node 2"])
        self.assertIn("zero throughout: U1, U2, RF2, RF3", few.axes[0].get_title())
        np.testing.assert_array_equal(lines["U3 node 2"].get_ydata(), 2 * np.linspace(0.0, 1.0, 5))
        crowded = plots.history(SimpleNamespace(histories={"S": self.frame(list(range(1, 11)))}), "S")
        legend = [t.get_text() for ax in crowded.axes for t in ax.get_legend().get_texts()]
        self.assertEqual(legend, ["U3, 8 nodes", "RF1, 8 nodes"])  # the first 8 of 10 nodes are drawn
        self.assertIn("first 8 of 10 nodes", crowded.axes[0].get_title())
        self.assertEqual(sum(len(ax.get_lines()) for ax in crowded.axes), 16)


class Renderers(unittest.TestCase):
    """The same frame drawn by matplotlib and, where it works off-screen, by VTK (pyvista)."""

    @classmethod
    def setUpClass(cls):
        """The circular plate's last frame."""
        cls.out = work("render")
        run(ARGS.halfstep, "run", os.path.join(ROOT, "examples", "circular_plate.inp"), "-o", cls.out, "--quiet",
            check=0)
        cls.mesh = halfstep.read(cls.out).frame(-1)
        cls.umag = np.linalg.norm(cls.mesh.point_data["U"], axis=1)

    def test_matplotlib(self):
        fig, info = render.deformed(self.mesh, "U")
        self.assertEqual(colour_bar_range(fig), (self.umag.min(), self.umag.max()))
        self.assertEqual((info["vmin"], info["vmax"]), (self.umag.min(), self.umag.max()))
        top = np.maximum(self.mesh.cell_data["Mises_top"][0], self.mesh.cell_data["Mises_bottom"][0]).ravel()
        fig, info = render.deformed(self.mesh, "Mises")
        self.assertEqual(colour_bar_range(fig), (top.min(), top.max()))

    def test_vtk(self):
        from halfstep import render_vtk
        if os.environ.get("HALFSTEP_RENDER") == "matplotlib":
            self.skipTest("HALFSTEP_RENDER=matplotlib asks for no VTK pictures")
        ok, why = render_vtk.usable()
        # pyvista and EGL come with scripts/install-deps.sh: without them the report's pictures
        # fall back to matplotlib, which must not pass unnoticed as a skip.
        self.assertTrue(ok, f"VTK cannot render off-screen: {why} (scripts/install-deps.sh installs pyvista and EGL)")
        image, info = render_vtk.deformed(self.mesh, "U")
        self.assertEqual((info["vmin"], info["vmax"]), (self.umag.min(), self.umag.max()))
        self.assertIn("VTK", info["renderer"])
        self.assertGreater(image.astype(float).std(), 20.0)
        # The model's pixels are viridis colours: the deformed plate was drawn, not only the text.
        self.assertGreater(len(np.unique(image.reshape(-1, image.shape[-1]), axis=0)), 50)


class OtherModels(unittest.TestCase):
    """Pictures of solids, planar elements and beams; a static run's path."""

    def picture(self, out, kinds):
        built = report.build(out)
        info = built["pictures"]["u_last"]
        mesh = halfstep.read(out).frame(-1)
        umag = np.linalg.norm(mesh.point_data["U"], axis=1)
        self.assertEqual((info["vmin"], info["vmax"]), (umag.min(), umag.max()))
        _, drawn = render.deformed(mesh, "U")  # what matplotlib finds to draw, whichever drew the report
        self.assertTrue(all(drawn[k] > 0 for k in kinds), drawn)
        built["drawn"] = drawn
        pixels = np.asarray(Image.open(built["images"]["u_last"]).convert("RGB"), dtype=float)
        self.assertGreater(pixels.std(), 20.0)
        return built

    def test_solid(self):
        path = deck("bar", "generate_solid_deck.py", "bar", "--element", "C3D8R", "--nx", "6", "--ny", "2", "--nz",
                    "2", "--loading", "impact")
        # The second field request names nothing: the deck's warning must reach the report.
        text = read_text(path).replace("*END STEP", "*OUTPUT, FIELD, NUMBER INTERVAL=2\n*NODE OUTPUT\nU\n"
                                                       "*ELEMENT OUTPUT\nS\n*OUTPUT, FIELD, NUMBER INTERVAL=2\n"
                                                       "*END STEP")
        write_text(path, text)
        out = work("bar")
        run(ARGS.halfstep, "run", path, "-o", out, "--quiet", check=0)
        built = self.picture(out, ["faces"])
        self.assertEqual(built["drawn"]["faces"], 2 * (6 * 2 + 6 * 2 + 2 * 2))  # the outer faces
        self.assertIn("mises_last", built["images"])
        warnings = halfstep.summary(out)["warnings"]
        self.assertEqual(len(warnings), 1)
        self.assertIn("requests no variables and was dropped", warnings[0])
        html = read_text(built["html"])
        self.assertIn(f"<li>{warnings[0]}</li>", html)

    def test_contact(self):
        path = deck("bars", "generate_contact_deck.py", "bars", "--elements", "8")
        out = work("bars")
        run(ARGS.halfstep, "run", path, "-o", out, "--quiet", check=0)
        built = self.picture(out, ["faces"])
        csv = np.genfromtxt(os.path.join(out, "history", "contact.csv"), delimiter=",", names=True)
        lines = lines_by_label(built["figures"]["contact"])
        for var in ("CFN1", "CFN2", "CFN3", "CFS1", "CFS2", "CFS3"):
            np.testing.assert_array_equal(lines[f"{var} contact 1"].get_ydata(), csv[var])

    def test_planar_static(self):
        path = deck("plane", "generate_plane_deck.py", "--nx", "8", "--ny", "2", "--static", "--nlgeom",
                    "--increments", "4")
        out = work("plane")
        run(ARGS.halfstep, "run", path, "-o", out, "--quiet", check=0)
        built = self.picture(out, ["faces"])
        html = read_text(built["html"])
        self.assertIn('<section id="implicit"', html)
        result = halfstep.read(out)
        per = result.summary["static"]["newton_iterations_per_attempt"]
        self.assertEqual(sum(per), result.summary["static"]["newton_iterations"])
        bars = [p.get_height() for p in built["figures"]["newton"].axes[0].patches]
        self.assertEqual(bars, per)
        u, load, _, _ = plots.load_displacement_series(result)
        line = built["figures"]["load_displacement"].axes[0].get_lines()[0]
        np.testing.assert_array_equal(line.get_xdata(), u)
        np.testing.assert_array_equal(line.get_ydata(), load)
        self.assertEqual(len(u), 5)  # the start and 4 increments

    def test_beam(self):
        path = deck("beam", "generate_beam_deck.py", "cantilever", "--elements", "8", "--v0-y", "0.01",
                    "--field-number", "2")
        out = work("beam")
        run(ARGS.halfstep, "run", path, "-o", out, "--quiet", check=0)
        built = self.picture(out, ["segments"])
        self.assertEqual(built["drawn"]["segments"], 8)


class RunsFromPython(unittest.TestCase):
    """halfstep.run shows the CLI's progress line; a distributed run's report has its ranks."""

    def test_progress_line(self):
        import io
        kept, sys.stderr = sys.stderr, io.StringIO()
        try:
            r = halfstep.run(os.path.join(ROOT, "examples", "circular_plate.inp"), out=work("progress"),
                             executable=ARGS.halfstep, args=["--threads", "1"], progress=True)
            text = sys.stderr.getvalue()
        finally:
            sys.stderr = kept
        self.assertTrue(r.completed)
        self.assertIn("ETA", text)  # the CLI's own progress line, through a pseudo-terminal
        self.assertIn("increments of", text)

    def test_distributed_report(self):
        mpirun = shutil.which("mpirun")
        if not mpirun:
            self.skipTest("no mpirun")
        out = work("ranks")
        flags = ["--allow-run-as-root", "--oversubscribe"] if "Open MPI" in run(mpirun, "--version").stdout else []
        p = run(mpirun, *flags, "-np", "2", ARGS.halfstep, "run", os.path.join(ROOT, "examples", "circular_plate.inp"),
                "-o", out, "--threads", "1", "--report", "--quiet")
        if "has no MPI" in p.stderr:
            self.skipTest("halfstep built without MPI")
        self.assertEqual(p.returncode, 0, p.stderr)
        html = read_text(os.path.join(out, "report.html"))
        self.assertIn('<section id="distributed"', html)
        s = halfstep.summary(out)
        fig = plots.rank_times(halfstep.read(out))
        # Computing bars first; a stacked bar keeps its height as top - bottom, so to round-off.
        comm = [bar.get_height() for bar in fig.axes[0].patches][2:]
        expected_comm = s["distributed"]["communication_seconds_per_rank"]
        self.assertEqual(len(comm), len(expected_comm))
        for h, v in zip(comm, expected_comm):
            self.assertAlmostEqual(h, v, delta=1e-12 * max(1.0, s["solve_seconds"]))
        self.assertEqual([bar.get_height() for bar in fig.axes[1].patches], s["distributed"]["elements_per_rank"])
        # The CPU backend's phase timers: one stacked bar per rank and phase, in the summary's order.
        phases = s["distributed"]["phase_seconds_per_rank"]
        heights = [bar.get_height() for bar in fig.axes[2].patches]
        expected = [v for values in phases.values() for v in values]
        self.assertEqual(len(heights), len(expected))
        for h, v in zip(heights, expected):  # a stacked bar keeps its height as top - bottom
            self.assertAlmostEqual(h, v, delta=1e-12 * max(1.0, sum(expected)))


class FrequencyRun(unittest.TestCase):
    """A deck of one frequency step: no energy rows, a table of its modes."""

    def test_frequency_table(self):
        out = work("chain")
        path = os.path.join(ARGS.work, "chain.inp")
        write_text(path, "*NODE, NSET=ALL\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 2., 0., 0.\n"
                         "*ELEMENT, TYPE=SPRINGA, ELSET=K\n1, 1, 2\n2, 2, 3\n*SPRING, ELSET=K\n\n100.\n"
                         "*ELEMENT, TYPE=MASS, ELSET=PM\n3, 2\n4, 3\n*MASS, ELSET=PM\n2.\n"
                         "*BOUNDARY\n1, 1, 3\n2, 2, 3\n3, 2, 3\n*STEP\n*FREQUENCY\n2\n*END STEP\n")
        run(ARGS.halfstep, "run", path, "-o", out, "--quiet", "--backend", "cpu", check=0)
        run(ARGS.halfstep, "report", out, check=0)
        html = read_text(os.path.join(out, "report.html"))
        self.assertIn('<section id="frequencies"', html)
        # omega^2 = (k / m) (3 -+ sqrt 5) / 2: 19.0983 and 130.902; cycles/time sqrt / 2 pi.
        for lam in (50 * (3 - 5 ** 0.5) / 2, 50 * (3 + 5 ** 0.5) / 2):
            self.assertIn(f"<td>{lam:.7g}</td>", html)
            self.assertIn(f"<td>{lam ** 0.5 / (2 * 3.141592653589793):.7g}</td>", html)
        self.assertIn("frequency, 2 modes", html)


class FailedAndInterrupted(unittest.TestCase):
    """Reports of runs that did not complete."""

    def test_failed_run_says_so_at_the_top(self):
        path = deck("unstable", "generate_beam_deck.py", "cantilever", "--elements", "10", "--force-y", "1")
        out = work("unstable")
        p = run(ARGS.halfstep, "run", path, "-o", out, "--report", "--quiet", check=3)
        self.assertIn("run failed", p.stderr)
        html = read_text(os.path.join(out, "report.html"))
        body = html[html.index("<body>"):]
        first = body.index("<section")
        self.assertTrue(body[first:].startswith('<section id="status" class="status failed">'), body[first:first + 80])
        self.assertIn("Failed</strong>: energy balance error", body)
        self.assertIn('<section id="energy"', html)  # what was written up to the failure is shown

    def test_interrupted_run_says_so(self):
        src = work("plate_src")
        run(ARGS.halfstep, "run", os.path.join(ROOT, "examples", "circular_plate.inp"), "-o", src, "--quiet", check=0)
        summary = json.loads(read_text(os.path.join(src, "summary.json")))
        summary["status"] = "interrupted by SIGTERM at time 0.001"
        write_text(os.path.join(src, "summary.json"), json.dumps(summary))
        run(ARGS.halfstep, "report", src, check=0)
        html = read_text(os.path.join(src, "report.html"))
        self.assertIn('class="status interrupted"><p><strong>Interrupted</strong>: interrupted by SIGTERM at time 0.001',
                      html)


class BadInput(unittest.TestCase):
    """Folders that are not whole result folders: one line, the file named, exit 2."""

    @classmethod
    def setUpClass(cls):
        """A real result folder to damage in copies."""
        cls.good = work("good")
        run(ARGS.halfstep, "run", os.path.join(ROOT, "examples", "circular_plate.inp"), "-o", cls.good, "--quiet",
            check=0)

    def damaged(self, name, change):
        """A copy of the good folder changed by change(path); returns (copy, stderr of halfstep report)."""
        path = work(name)
        shutil.copytree(self.good, path)
        change(path)
        p = run(ARGS.halfstep, "report", path, check=2)
        self.assertNotIn("Traceback", p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertFalse(os.path.exists(os.path.join(path, "report.html")))
        return path, p.stderr

    def test_no_such_folder(self):
        p = run(ARGS.halfstep, "report", os.path.join(ARGS.work, "nowhere"), check=2)
        self.assertIn("no such folder", p.stderr)

    def test_not_a_result_folder(self):
        path = work("empty")
        os.makedirs(path)
        write_text(os.path.join(path, "notes.txt"), "hello\n")
        p = run(ARGS.halfstep, "report", path, check=2)
        self.assertIn("not a halfstep result folder", p.stderr)
        self.assertNotIn("Traceback", p.stderr)

    def test_summary_missing(self):
        _, err = self.damaged("nosummary", lambda p: os.remove(os.path.join(p, "summary.json")))
        self.assertIn("summary.json: missing", err)

    def test_summary_truncated(self):
        def cut(p):
            f = os.path.join(p, "summary.json")
            text = read_text(f)
            write_text(f, text[: len(text) // 2])
        _, err = self.damaged("cutsummary", cut)
        self.assertIn("summary.json: not valid JSON", err)

    def test_energy_cut_short(self):
        def cut(p):
            f = os.path.join(p, "energy.csv")
            text = read_text(f)
            write_text(f, text[:-20])
        _, err = self.damaged("cutenergy", cut)
        self.assertIn("energy.csv: line", err)
        self.assertIn("cut short", err)

    def test_history_row_missing_values(self):
        def cut(p):
            f = os.path.join(p, "history", "CENTER.csv")
            lines = read_text(f).split("\n")
            lines[3] = ",".join(lines[3].split(",")[:5])
            write_text(f, "\n".join(lines))
        _, err = self.damaged("cuthistory", cut)
        self.assertIn("CENTER.csv: line 4 has 5 values, expected 14", err)

    def test_frame_missing(self):
        _, err = self.damaged("noframe", lambda p: os.remove(os.path.join(p, "circular_plate_000010.vtu")))
        self.assertIn("circular_plate_000010.vtu: listed in circular_plate.pvd but missing", err)

    def test_python_missing(self):
        p = run(ARGS.halfstep, "report", self.good, env={"HALFSTEP_PYTHON": "/nonexistent/python3"}, check=4)
        self.assertIn("needs Python 3", p.stderr)

    def test_python_api_errors(self):
        with self.assertRaises(halfstep.ResultError):
            halfstep.read(os.path.join(ARGS.work, "nowhere"))
        bad = os.path.join(ARGS.work, "bad.inp")
        write_text(bad, "*NODE\n1, 0, 0, 0\n*ELEMENT, TYPE=NOPE\n1, 1\n")
        with self.assertRaises(halfstep.RunError) as ctx:
            halfstep.run(bad, out=work("bad"), executable=ARGS.halfstep, quiet=True)
        self.assertEqual(ctx.exception.returncode, 2)
        self.assertIn("bad.inp:3: error", ctx.exception.message)
        good = halfstep.run(os.path.join(ROOT, "examples", "circular_plate.inp"), out=work("api"), backend="cpu",
                            executable=ARGS.halfstep, args=["--threads", "1"], quiet=True)
        self.assertTrue(good.completed)


class StaleFiles(unittest.TestCase):
    """Files an earlier run left in the folder (issue 42) are never read as this run's: the
    report reads the files summary.json lists."""

    @classmethod
    def setUpClass(cls):
        """A completed run, then the leftovers of another: a history set, a .pvd index."""
        cls.out = work("stale")
        run(ARGS.halfstep, "run", os.path.join(ROOT, "examples", "circular_plate.inp"), "-o", cls.out, "--quiet",
            "--threads", "1", check=0)
        shutil.copy(os.path.join(cls.out, "history", "CENTER.csv"), os.path.join(cls.out, "history", "OLD.csv"))
        shutil.copy(os.path.join(cls.out, "circular_plate.pvd"), os.path.join(cls.out, "a_old_job.pvd"))
        cls.summary = json.loads(read_text(os.path.join(cls.out, "summary.json")))

    def test_summary_lists_the_run_files(self):
        self.assertEqual(self.summary["job"], "circular_plate")
        files = self.summary["files"]
        for name in ("circular_plate.pvd", "energy.csv", "history/CENTER.csv", "circular_plate.sta", "summary.json"):
            self.assertIn(name, files)
        for name in files:
            self.assertTrue(os.path.exists(os.path.join(self.out, name)), name)

    def test_report_shows_only_the_listed_files(self):
        built = report.build(self.out, pictures=False)
        self.assertIn("history_CENTER", built["figures"])
        self.assertNotIn("history_OLD", built["figures"])
        result = halfstep.read(self.out)
        self.assertEqual(list(result.histories), ["CENTER"])
        self.assertEqual(os.path.basename(result.frames[0].path), "circular_plate_000000.vtu")
        self.assertEqual(result.job, "circular_plate")

    def test_a_listed_file_that_is_gone_is_named(self):
        path = work("stale_gone")
        shutil.copytree(self.out, path)
        os.remove(os.path.join(path, "history", "CENTER.csv"))
        p = run(ARGS.halfstep, "report", path, check=2)
        self.assertIn("CENTER.csv: listed in summary.json but missing", p.stderr)


def main():
    """Parses --halfstep/--work and runs the tests."""
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--halfstep", required=True)
    parser.add_argument("--work", default=os.path.join(ROOT, "out", "test_report"))
    ARGS, rest = parser.parse_known_args()
    ARGS.halfstep = os.path.abspath(ARGS.halfstep)
    os.makedirs(ARGS.work, exist_ok=True)
    program = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
