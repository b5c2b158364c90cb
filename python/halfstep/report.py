"""OUTDIR/report.html: one self-contained page (its images embedded) and OUTDIR/report/*.png,
made from a result folder. `python3 -m halfstep.report OUTDIR` or `halfstep report OUTDIR`.

Exit codes of main: 0 written, 2 the folder is not a (whole) result folder, 4 anything else.
"""
from __future__ import annotations

import base64
import html
import io
import math
import os
import sys
import time as _time

from . import plots, render, render_vtk
from . import units as units_mod
from .results import Result, ResultError

SECTIONS = ("status", "summary", "time", "warnings", "energy", "increments", "histories", "reactions",
            "pictures")


def _png(fig, metadata: dict | None = None) -> bytes:
    """The figure as PNG bytes (metadata as PNG text chunks)."""
    buf = io.BytesIO()
    meta = {"Software": "halfstep report"}
    meta.update(metadata or {})
    fig.savefig(buf, format="png", metadata=meta)
    return buf.getvalue()


def _png_array(image, metadata: dict | None = None) -> bytes:
    """An RGB(A) array as PNG bytes (metadata as PNG text chunks)."""
    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    for key, value in {"Software": "halfstep report", **(metadata or {})}.items():
        info.add_text(key, value)
    buf = io.BytesIO()
    Image.fromarray(image).save(buf, format="PNG", pnginfo=info)
    return buf.getvalue()


class _Page:
    """The HTML body and the PNG files of a report being built."""

    def __init__(self, image_dir: str):
        """Images go to image_dir (created when the first one is written)."""
        self.image_dir = image_dir
        self.parts: list[str] = []
        self.images: dict[str, str] = {}

    def add(self, text: str) -> None:
        """Appends raw HTML."""
        self.parts.append(text)

    def image(self, name: str, fig, alt: str, metadata: dict | None = None) -> None:
        """Writes report/<name>.png (fig: a Figure, or an RGB array) and embeds it in the page."""
        data = _png(fig, metadata) if hasattr(fig, "savefig") else _png_array(fig, metadata)
        os.makedirs(self.image_dir, exist_ok=True)
        path = os.path.join(self.image_dir, name + ".png")
        with open(path, "wb") as f:
            f.write(data)
        self.images[name] = path
        src = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
        self.add(f'<figure><img id="img-{html.escape(name)}" src="{src}" alt="{html.escape(alt)}">'
                 f"<figcaption>{html.escape(alt)}</figcaption></figure>\n")

    def missing(self, what: str) -> None:
        """A note that a plot is absent, and why."""
        self.add(f'<p class="none">{html.escape(what)}</p>\n')


def _fmt(value, unit: str = "") -> str:
    """A summary value for the table ('-' when absent)."""
    if value is None or value == "":
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}{unit}"
    if isinstance(value, int):
        return f"{value:,}{unit}"
    return html.escape(str(value)) + unit


def _status_html(result: Result) -> str:
    """The banner at the top: completed, or failed/interrupted with the reason."""
    status = result.status
    if status == "completed":
        cls, head = "ok", "Completed"
    elif status.startswith("interrupted"):
        cls, head = "interrupted", "Interrupted"
    else:
        cls, head = "failed", "Failed"
    reason = "" if status == "completed" else status.split(":", 1)[-1].strip() if status.startswith("failed") \
        else status
    text = f"<strong>{head}</strong>" + (f": {html.escape(reason)}" if reason else "")
    if status != "completed":
        text += " &mdash; the results below are those written up to the stop."
    return f'<section id="status" class="status {cls}"><p>{text}</p></section>\n'


def _step_line(r: dict) -> str:
    """One step of the summary's list: its name, procedure and period (a frequency step: modes)."""
    if r.get("procedure") == "frequency":
        return f"{r.get('name', '?')}: frequency, {len(r.get('eigenvalues') or [])} modes"
    return f"{r.get('name', '?')}: {r.get('procedure', '?')}, period {r.get('period', 0):.4g}"


def _frequency_tables(result: Result) -> str:
    """Each frequency step's modes: eigenvalue omega^2, omega and the frequency in cycles per time."""
    out = ""
    for r in result.summary.get("step_records") or []:
        if r.get("procedure") != "frequency":
            continue
        rows = "".join(
            f"<tr><td>{k + 1}</td><td>{lam:.7g}</td><td>{math.sqrt(lam) if lam >= 0 else 0.0:.7g}</td><td>{f:.7g}</td></tr>"
            for k, (lam, f) in enumerate(zip(r.get("eigenvalues") or [], r.get("frequencies") or [])))
        out += (f"<h3>{html.escape(str(r.get('name', '?')))}</h3>\n<table class=\"frequencies\"><tr><th>mode</th>"
                f"<th>eigenvalue (rad/time)&sup2;</th><th>rad/time</th><th>cycles/time</th></tr>{rows}</table>\n")
    return out


def _summary_table(result: Result) -> str:
    """The run's facts: model, backend, rates, wall time."""
    s = result.summary
    types = s.get("element_types") or {}
    steps = s.get("step_records") or []
    mass = s.get("model_mass")
    unit = result.units
    rows = [
        ("deck", s.get("deck")), ("status", s.get("status")), ("nodes", s.get("nodes")),
        ("elements", s.get("elements")),
        ("element types", ", ".join(f"{k} {v:,}" for k, v in types.items()) if types else None),
        ("materials", s.get("materials")),
        ("model mass", (f"{mass:.6g}" + (f" {unit.mass}" if unit else "")) if mass else None),
        ("steps", "; ".join(_step_line(r) for r in steps) if steps else None),
        ("backend", s.get("backend")),
        ("device", s.get("backend_description")), ("precision", s.get("precision")), ("threads", s.get("threads")),
        ("ranks", s.get("ranks")), ("increments", s.get("steps")), ("time increment", s.get("time_increment")),
        ("stable increment estimate", s.get("stable_increment_estimate")),
        ("controlling element", s.get("controlling_element")), ("final time", s.get("final_time")),
        ("frames", s.get("frames")), ("element-steps/s", s.get("element_steps_per_second")),
        ("wall time", s.get("wall_seconds")), ("energy balance error", s.get("energy_balance_error")),
        ("energy tolerance", s.get("energy_tolerance")),
    ]
    static = s.get("static")
    if static:
        rows += [("static increments", static.get("increments")),
                 ("Newton iterations", static.get("newton_iterations")), ("cut-backs", static.get("cutbacks")),
                 ("linear solver", static.get("engine"))]
    cells = "".join(f"<tr><th>{html.escape(k)}</th><td>{_fmt(v, ' s' if k == 'wall time' else '')}</td></tr>"
                    for k, v in rows if v is not None)
    return f'<table class="facts">{cells}</table>\n'


def _units(result: Result, name: str | None) -> tuple[units_mod.UnitSystem | None, str]:
    """The run's unit system and the sentence that says where it came from: --units, else the
    deck's `** UNITS:` line, else none (the deck's own numbers, unnamed)."""
    if name:
        u = units_mod.system(name)
        return u, f"Units: {u.describe()} (--units {html.escape(name)})."
    found = units_mod.from_deck(result.summary.get("deck"))
    if found:
        u, where = found
        return u, f"Units: {u.describe()} (the deck's <code>** UNITS: {u.name}</code> line, {html.escape(where)})."
    return None, ("Values are in the deck's own units (halfstep converts none); name the system with a "
                  "<code>** UNITS: NAME</code> line in the deck or <code>--units NAME</code> to label them "
                  "(docs/report.md).")


def build(outdir: str, pictures: bool = True, units: str | None = None) -> dict:
    """Writes OUTDIR/report.html and OUTDIR/report/*.png; returns {"html": path, "figures": {name:
    Figure}, "pictures": {name: info}, "images": {name: png path}} (what tests read back).
    units: a unit system's name (halfstep.units.SYSTEMS) for the labels; None: the deck's
    `** UNITS:` line, if any. UnitsError for an unknown name."""
    result = Result(outdir)
    result.units, units_line = _units(result, units)
    # Every file is checked before anything is drawn: a damaged folder gets its error and no
    # half-made report.
    _ = result.energy, result.histories, result.reactions, result.contact, result.frames
    page = _Page(os.path.join(result.path, "report"))
    figures, picture_info = {}, {}

    def plot(name: str, fig, alt: str, none: str, metadata: dict | None = None) -> None:
        if fig is None:
            page.missing(none)
            return
        figures[name] = fig
        page.image(name, fig, alt, metadata)

    page.add(_status_html(result))
    page.add('<section id="summary"><h2>Run summary</h2>\n' + _summary_table(result) + "</section>\n")

    page.add('<section id="time"><h2>Where the time went</h2>\n')
    plot("time", plots.time_breakdown(result), "Wall time: read, set-up, solve, output",
         "No timings: the run did not get far enough to record them.")
    page.add("<p>Output is the writer's own time on its thread; it overlaps the solve.</p></section>\n")

    warnings = result.summary.get("warnings") or []
    page.add('<section id="warnings"><h2>Deck warnings</h2>\n')
    if warnings:
        page.add("<ul>" + "".join(f"<li>{html.escape(w)}</li>" for w in warnings) + "</ul>\n")
    else:
        page.add('<p class="none">None.</p>\n')
    page.add("</section>\n")

    page.add('<section id="energy"><h2>Energy balance</h2>\n')
    plot("energy", plots.energy_balance(result), "Energies over time", "No energy rows: no energy.csv in this folder, or a run of frequency steps only.")
    plot("energy_error", plots.energy_error(result), "Relative energy balance error with the tolerance",
         "No energy rows: no energy.csv in this folder, or a run of frequency steps only.")
    page.add("</section>\n")

    page.add('<section id="increments"><h2>Increment size</h2>\n')
    plot("increments", plots.increments(result), "Time increment over time and the stable estimate",
         "No explicit step recorded its increment.")
    page.add("</section>\n")

    page.add('<section id="histories"><h2>Histories</h2>\n')
    if not result.histories:
        page.missing("The deck requested no node history.")
    for name in result.histories:
        plot(f"history_{name}", plots.history(result, name), f"History of node set {name}",
             f"History {name} is empty.")
    page.add("</section>\n")

    page.add('<section id="reactions"><h2>Reactions per set</h2>\n')
    plot("reactions", plots.reactions(result), "Reactions summed per node set", "No reaction (RF) history requested.")
    if result.contact is not None:
        plot("contact", plots.contact_forces(result), "Contact forces per contact definition", "No contact rows.")
    page.add("</section>\n")

    page.add('<section id="pictures"><h2>Deformed model</h2>\n')
    frames = result.frames
    if not pictures:
        page.missing("Pictures were not asked for (--no-pictures).")
    elif not frames:
        page.missing("No field frames were written.")
    else:
        vtk_ok, vtk_why = render_vtk.usable()
        if vtk_ok:
            draw = render_vtk.deformed
        else:
            draw = render.deformed
            page.add(f'<p class="none">Drawn with matplotlib: VTK off-screen rendering is not available here '
                     f'({html.escape(vtk_why)}).</p>\n')
        chosen = sorted({0, len(frames) // 2, len(frames) - 1})
        for label, index in zip(("first", "middle", "last") if len(chosen) == 3 else ("first", "last"), chosen):
            if len(chosen) == 1:
                label = "last"
            mesh = result.frame(index)
            t = frames[index].time
            for field in ("U", "Mises"):
                if field == "Mises" and render.mises(mesh) is None:
                    continue
                fig, info = draw(mesh, field, title=f"{result.job}: {label} frame, t = {t:.4g}")
                name = f"{field.lower()}_{label}"
                info.update(frame=index, time=t)
                picture_info[name] = info
                plot(name, fig, f"{info['label']} at the {label} frame (t = {t:.4g}), deformation scale x"
                     f"{info['scale']:g}, colour range {info['vmin']:.4g} to {info['vmax']:.4g}", "",
                     {"Halfstep-field": field, "Halfstep-vmin": repr(info["vmin"]),
                      "Halfstep-vmax": repr(info["vmax"]), "Halfstep-scale": repr(info["scale"]),
                      "Halfstep-time": repr(t), "Halfstep-renderer": info["renderer"]})
    page.add("</section>\n")

    if result.summary.get("static"):
        page.add('<section id="implicit"><h2>Static steps</h2>\n')
        plot("load_displacement", plots.load_displacement(result), "Load-displacement path",
             "No displacement history to draw the path from.")
        plot("newton", plots.newton_iterations(result), "Newton iterations per increment attempt",
             "No Newton iterations recorded.")
        page.add("</section>\n")
    frequencies = _frequency_tables(result)
    if frequencies:
        page.add('<section id="frequencies"><h2>Natural frequencies</h2>\n' + frequencies +
                 "<p>Mode shapes: the frequency step's frames (U), one per mode.</p></section>\n")
    if result.summary.get("distributed"):
        page.add('<section id="distributed"><h2>Distributed run</h2>\n')
        plot("ranks", plots.rank_times(result), "Per-rank times and elements", "No per-rank times recorded.")
        page.add("</section>\n")

    title = f"halfstep report: {result.job}"
    created = _time.strftime("%Y-%m-%d %H:%M:%S UTC", _time.gmtime())
    doc = (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>\n"
           f"<style>{_CSS}</style></head>\n<body>\n<h1>{html.escape(title)}</h1>\n"
           + (f"<p class=\"heading\">{html.escape(result.summary['heading'])}</p>\n"
              if result.summary.get("heading") else "")
           + f"<p class=\"meta\">{html.escape(os.path.abspath(result.path))}, report written {created}. "
           f"{units_line} Wall times in seconds.</p>\n"
           + "".join(page.parts) + "</body></html>\n")
    path = os.path.join(result.path, "report.html")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(doc)
    os.replace(tmp, path)
    return {"html": path, "figures": figures, "pictures": picture_info, "images": page.images}


_CSS = """
body { font-family: sans-serif; max-width: 60em; margin: 1em auto; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; }
.meta { color: #666; font-size: 0.9em; }
.heading { white-space: pre-wrap; font-style: italic; }
.status { padding: 0.5em 1em; border-radius: 4px; }
.status.ok { background: #e3f5e1; } .status.failed { background: #fbe0de; } .status.interrupted { background: #fff3cd; }
table.facts th { text-align: left; font-weight: normal; color: #555; padding-right: 1.5em; }
figure { margin: 0.5em 0; } figure img { max-width: 100%; }
figcaption { color: #555; font-size: 0.85em; } .none { color: #888; font-style: italic; }
"""


def main(argv: list[str] | None = None) -> int:
    """Command line: OUTDIR [--no-pictures] [--units NAME]; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    pictures = "--no-pictures" not in args
    args = [a for a in args if a != "--no-pictures"]
    units = None
    if "--units" in args:
        k = args.index("--units")
        if k + 1 >= len(args):
            sys.stderr.write("halfstep: report: --units needs a name (" + ", ".join(units_mod.SYSTEMS) + ")\n")
            return 1
        units = args[k + 1]
        del args[k:k + 2]
    if len(args) != 1 or args[0].startswith("-"):
        sys.stderr.write("usage: python3 -m halfstep.report OUTDIR [--no-pictures] [--units NAME]\n")
        return 1
    try:
        out = build(args[0], pictures=pictures, units=units)
    except (ResultError, units_mod.UnitsError) as e:
        sys.stderr.write(f"halfstep: report: {e}\n")
        return 2
    except OSError as e:
        sys.stderr.write(f"halfstep: report: cannot write the report: {e}\n")
        return 4
    except KeyboardInterrupt:  # Ctrl-C reaches the report too when run --report is stopped
        sys.stderr.write("halfstep: report: interrupted, no report written\n")
        return 4
    except Exception as e:  # noqa: BLE001 - one line for the user; HALFSTEP_DEBUG=1 for the traceback
        if os.environ.get("HALFSTEP_DEBUG"):
            raise
        sys.stderr.write(f"halfstep: report: failed ({type(e).__name__}: {e}); HALFSTEP_DEBUG=1 shows where\n")
        return 4
    sys.stderr.write(f"halfstep: report: {out['html']}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
