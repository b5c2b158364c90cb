"""The report's plots, one function each: every one takes a Result and returns a matplotlib
Figure (or None when the run has nothing to plot), whose lines hold the data exactly as read
from the result files, so that a caller can restyle, save or check them.

The figures are made without pyplot: no window, no global state, safe on a headless machine.
"""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .results import Result

# Energies in the order of LS-PrePost's glstat plot; the optional ones are drawn when nonzero.
ENERGY_LINES = ("kinetic", "internal", "external_work", "damping_work", "hourglass", "total")
OPTIONAL_ENERGY_LINES = ("plastic_dissipation", "contact", "friction_dissipation", "mass_scaling_work",
                         "viscous_dissipation", "thermal_work")
# History variables drawn together in one panel.
HISTORY_GROUPS = (("U", ("U1", "U2", "U3")), ("UR", ("UR1", "UR2", "UR3")), ("V", ("V1", "V2", "V3")),
                  ("VR", ("VR1", "VR2", "VR3")), ("RF", ("RF1", "RF2", "RF3")), ("RM", ("RM1", "RM2", "RM3")),
                  ("A", ("A1", "A2", "A3")), ("AR", ("AR1", "AR2", "AR3")))
MAX_HISTORY_NODES = 8  # beyond this a panel is unreadable; the rest are named in the title
MAX_LEGEND_LINES = 6  # beyond this a panel's legend names components, not node lines


def _in(result: Result, quantity: str) -> str:
    """' [unit]' of a quantity in the run's unit system (result.units), or '' without one."""
    units = getattr(result, "units", None)
    return f" [{units.of(quantity)}]" if units else ""


def _figure(rows: int = 1, cols: int = 1, width: float = 7.0, height: float = 3.6):
    """A Figure of rows x cols axes (a flat list)."""
    fig = Figure(figsize=(width, height * rows), dpi=100, layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    return fig, [a for row in axes for a in row]


def energy_balance(result: Result) -> Figure | None:
    """Kinetic, internal, external work, damping, hourglass and total energy over time."""
    e = result.energy
    if e is None or e.empty:
        return None
    fig, (ax,) = _figure()
    names = [c for c in ENERGY_LINES if c in e.columns]
    names += [c for c in OPTIONAL_ENERGY_LINES if c in e.columns and np.any(e[c].to_numpy() != 0)]
    for name in names:
        style = {"color": "k", "lw": 2.0} if name == "total" else {"lw": 1.4}
        ax.plot(e["time"].to_numpy(), e[name].to_numpy(), label=name, **style)
    ax.set_xlabel("time" + _in(result, "time"))
    ax.set_ylabel("energy" + _in(result, "energy"))
    ax.set_title("Energy balance")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    return fig


def energy_error_series(result: Result) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(time, running error, overall error): |total - total(0)| divided by the energy scale
    reached so far (the largest kinetic, internal or |external work|: what the solver's stop
    test compares with the tolerance) and by the largest of the whole run (the measure of
    summary.json's energy_balance_error, which takes every increment, not only the samples)."""
    e = result.energy
    if e is None or e.empty:
        return None
    total = e["total"].to_numpy(dtype=float)
    level = np.max(np.abs(e[["kinetic", "internal", "external_work"]].to_numpy(dtype=float)), axis=1)
    scale = np.maximum.accumulate(level)
    drift = np.abs(total - total[0])
    running = np.where(scale > 0, drift / np.where(scale > 0, scale, 1.0), 0.0)
    overall = drift / scale[-1] if scale[-1] > 0 else np.zeros_like(drift)
    return e["time"].to_numpy(dtype=float), running, overall


def energy_error(result: Result) -> Figure | None:
    """The relative energy balance error over time with the run's tolerance line."""
    series = energy_error_series(result)
    if series is None:
        return None
    time, running, overall = series
    fig, (ax,) = _figure(height=3.0)
    ax.plot(time, running, label="relative to the energy so far (stop test)", color="C3")
    ax.plot(time, overall, label="relative to the run's largest energy", color="C0", ls=":")
    tol = result.summary.get("energy_tolerance")
    if isinstance(tol, (int, float)) and tol > 0:
        ax.axhline(tol, color="k", ls="--", lw=1.2, label=f"tolerance {tol:g}")
    if np.any(running > 0):
        ax.set_yscale("log")
    ax.set_xlabel("time" + _in(result, "time"))
    ax.set_ylabel("|total - total(0)| / energy")
    ax.set_title("Energy balance error")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    return fig


def increments(result: Result) -> Figure | None:
    """The time increment of each explicit step over time, with the stable estimate."""
    steps = [s for s in result.summary.get("step_records", []) if s.get("procedure") == "explicit"
             and s.get("increment", 0) > 0]
    if not steps:
        return None
    fig, (ax,) = _figure(height=3.0)
    t, dt = [], []
    for s in steps:
        t += [s["start_time"], s["start_time"] + s["period"]]
        dt += [s["increment"], s["increment"]]
    ax.plot(t, dt, label="increment used", color="C0", lw=2)
    stable = result.summary.get("stable_increment_estimate")
    element = result.summary.get("controlling_element")
    if isinstance(stable, (int, float)) and stable > 0:
        ax.axhline(stable, color="C1", ls="--", lw=1.2,
                   label=f"stable estimate (element {element})" if element else "stable estimate")
    ax.set_ylim(0, 1.15 * max(dt + [stable if isinstance(stable, (int, float)) else 0]))
    ax.set_xlabel("time" + _in(result, "time"))
    ax.set_ylabel("time increment" + _in(result, "time"))
    ax.set_title("Increment size" + (f" (controlling element {element})" if element else ""))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def history(result: Result, name: str) -> Figure | None:
    """Every variable of the history set name over time: one panel per group (U, UR, V, ...),
    one line per node and component, labelled 'U3 node 5'. A component that is zero
    throughout at every shown node gets no line, and a group with nothing else no panel: the
    title names them. A panel with more than MAX_LEGEND_LINES lines draws each component in
    one colour and labels it once ('U3, 12 nodes')."""
    frame = result.histories.get(name)
    if frame is None or frame.empty:
        return None
    groups = [(g, [c for c in cols if c in frame.columns]) for g, cols in HISTORY_GROUPS]
    groups = [(g, cols) for g, cols in groups if cols]
    if not groups:
        return None
    nodes = list(dict.fromkeys(frame["node"].tolist()))
    shown = nodes[:MAX_HISTORY_NODES]
    rows = {node: frame[frame["node"] == node] for node in shown}
    zero = [c for _, cols in groups for c in cols if all(not rows[n][c].to_numpy().any() for n in shown)]
    live = [(g, [c for c in cols if c not in zero]) for g, cols in groups]
    live = [(g, cols) for g, cols in live if cols] or groups[:1]  # all zero: the first group, as it is
    fig, axes = _figure(len(live), 1, height=2.8)
    for ax, (group, cols) in zip(axes, live):
        many = len(cols) * len(shown) > MAX_LEGEND_LINES
        for k, c in enumerate(cols):
            colour = f"C{k}"
            for i, node in enumerate(shown):
                r = rows[node]
                label = (f"{c}, {len(shown)} nodes" if i == 0 else "_nolegend_") if many else f"{c} node {node}"
                ax.plot(r["time"].to_numpy(), r[c].to_numpy(), label=label, lw=1.0 if many else 1.3,
                        color=colour if many else None)
        ax.set_ylabel(group + _in(result, group))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=3)
    axes[-1].set_xlabel("time" + _in(result, "time"))
    extra = f" (first {len(shown)} of {len(nodes)} nodes)" if len(nodes) > len(shown) else ""
    title = f"History of node set {name}{extra}"
    if zero:
        title += "\nzero throughout: " + ", ".join(zero)
    axes[0].set_title(title, fontsize=9 if zero else None)
    return fig


def reactions(result: Result) -> Figure | None:
    """The reaction forces and moments summed over each history set, over time."""
    sets = {k: v for k, v in result.reactions.items() if not v.empty}
    if not sets:
        return None
    fig, axes = _figure(len(sets), 1, height=2.8)
    zero = []
    for ax, (name, frame) in zip(axes, sets.items()):
        cols = [c for c in frame.columns if c != "time"]
        live = [c for c in cols if frame[c].to_numpy().any()]
        zero += [f"{c} ({name})" for c in cols if c not in live]
        for c in live or cols[:1]:  # all zero: one line, so the panel is not empty
            ax.plot(frame["time"].to_numpy(), frame[c].to_numpy(), label=c, lw=1.3)
        ax.set_ylabel(f"{name}: sum")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=3)
    title = "Reactions summed per node set"
    if zero:
        title += "\nzero throughout: " + ", ".join(zero)
    axes[0].set_title(title, fontsize=9 if zero else None)
    axes[-1].set_xlabel("time" + _in(result, "time"))
    return fig


def contact_forces(result: Result) -> Figure | None:
    """history/contact.csv: the normal (CFN) and friction (CFS) force on each contact
    definition's slaves over time, one panel per definition."""
    c = result.contact
    if c is None or c.empty or "definition" not in c.columns:
        return None
    definitions = list(dict.fromkeys(c["definition"].tolist()))
    fig, axes = _figure(len(definitions), 1, height=2.8)
    for ax, d in zip(axes, definitions):
        rows = c[c["definition"] == d]
        for col in c.columns:
            if col not in ("time", "definition"):
                ax.plot(rows["time"].to_numpy(), rows[col].to_numpy(), label=f"{col} contact {d}", lw=1.3)
        ax.set_ylabel(f"contact {d}: force" + _in(result, "force"))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=3)
    axes[0].set_title("Contact forces")
    axes[-1].set_xlabel("time" + _in(result, "time"))
    return fig


def load_displacement_series(result: Result) -> tuple[np.ndarray, np.ndarray, str, str] | None:
    """(displacement, load, x label, y label) of a static run: the history component that moves
    most against the summed reaction that grows most (the step time, the load fraction, when
    no reaction is recorded)."""
    best = None
    for name, frame in result.histories.items():
        for c in ("U1", "U2", "U3"):
            if c in frame.columns:
                idx = np.argmax(np.abs(frame[c].to_numpy()))
                node = frame["node"].iloc[idx]
                rows = frame[frame["node"] == node]
                size = float(np.max(np.abs(rows[c].to_numpy())))
                if best is None or size > best[0]:
                    best = (size, rows["time"].to_numpy(), rows[c].to_numpy(), f"{c} of node {node} ({name})")
    if best is None:
        return None
    _, time, u, xlabel = best
    load, ylabel = time, "step time (load fraction)"
    strongest = 0.0
    for name, frame in result.reactions.items():
        for c in ("RF1", "RF2", "RF3"):
            if c in frame.columns and len(frame) == len(time):
                size = float(np.max(np.abs(frame[c].to_numpy())))
                if size > strongest:
                    strongest, load, ylabel = size, frame[c].to_numpy(), f"{c} summed over {name}"
    return u, load, xlabel, ylabel


def load_displacement(result: Result) -> Figure | None:
    """The load-displacement path of a run with static steps."""
    if not result.summary.get("static"):
        return None
    series = load_displacement_series(result)
    if series is None:
        return None
    u, load, xlabel, ylabel = series
    fig, (ax,) = _figure(height=3.4)
    ax.plot(u, load, "o-", ms=3, label="path")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title("Load-displacement path")
    ax.grid(alpha=0.3)
    return fig


def newton_iterations(result: Result) -> Figure | None:
    """Newton iterations of each increment attempt of the static steps (cut-backs included)."""
    per = (result.summary.get("static") or {}).get("newton_iterations_per_attempt")
    if not per:
        return None
    fig, (ax,) = _figure(height=3.0)
    ax.bar(np.arange(1, len(per) + 1), per, color="C2")
    ax.set_xlabel("increment attempt")
    ax.set_ylabel("Newton iterations")
    ax.set_title("Newton iterations per increment")
    ax.grid(alpha=0.3, axis="y")
    return fig


def rank_times(result: Result) -> Figure | None:
    """A distributed run's elements and communication seconds per rank, and where each rank's
    increments went when the backend timed its phases (a third panel, stacked by phase)."""
    d = result.summary.get("distributed")
    if not d:
        return None
    comm = d.get("communication_seconds_per_rank") or []
    elements = d.get("elements_per_rank") or []
    phases = d.get("phase_seconds_per_rank") or {}
    solve = result.summary.get("solve_seconds") or 0
    fig, axes = _figure(1, 3 if phases else 2, width=12.0 if phases else 8.0, height=3.0)
    ranks = np.arange(len(comm))
    axes[0].bar(ranks, [solve - c for c in comm], label="computing", color="C0")
    axes[0].bar(ranks, comm, bottom=[solve - c for c in comm], label="communicating", color="C1")
    axes[0].set_xlabel("rank")
    axes[0].set_ylabel("seconds of the solve")
    axes[0].legend(fontsize=8)
    axes[1].bar(np.arange(len(elements)), elements, color="C2")
    axes[1].set_xlabel("rank")
    for ax in axes:
        ax.set_xticks(np.arange(max(len(comm), len(elements))))
    axes[1].set_ylabel("elements")
    if phases:
        bottom = np.zeros(len(comm))
        for i, (name, values) in enumerate(phases.items()):
            axes[2].bar(np.arange(len(values)), values, bottom=bottom[:len(values)], label=name.replace("_", " "),
                        color=f"C{i % 10}")
            bottom[:len(values)] += values
        axes[2].set_xlabel("rank")
        axes[2].set_ylabel("seconds per phase")
        axes[2].set_xticks(np.arange(len(comm)))
        axes[2].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle("Per-rank times")
    return fig


TIME_PARTS = (("read", "read_seconds"), ("set-up", "setup_seconds"), ("solve", "solve_seconds"),
              ("output", "output_seconds"))


def time_breakdown(result: Result) -> Figure | None:
    """Where the wall time went: reading the deck, set-up, solve, output (the writer's own
    time, on its thread: it overlaps the solve)."""
    s = result.summary
    parts = [(label, s.get(key)) for label, key in TIME_PARTS]
    parts = [(label, v) for label, v in parts if isinstance(v, (int, float))]
    if not parts:
        return None
    fig, (ax,) = _figure(height=2.2)
    labels = [p[0] for p in parts]
    values = [p[1] for p in parts]
    ax.barh(labels, values, color=["C0", "C1", "C2", "C3"][: len(values)])
    ax.invert_yaxis()
    for y, v in enumerate(values):
        ax.text(v, y, f" {v:.3g} s", va="center", fontsize=8)
    wall = s.get("wall_seconds")
    ax.set_xlabel("seconds" + (f" (wall time {wall:.3g} s)" if isinstance(wall, (int, float)) else ""))
    ax.set_title("Where the time went")
    ax.set_xlim(0, 1.25 * max(values + [1e-9]))
    return fig
