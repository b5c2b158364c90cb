"""Pictures of the deformed model rendered off-screen by VTK through pyvista, where it works.

VTK needs an OpenGL context; on a headless machine its wheels take EGL (Mesa's libEGL, Debian
12's libegl1 and libegl-mesa0). Whether that works is tried once per process in a child
process (a broken driver can crash the process that tries it), and the report falls back to
render.py's matplotlib pictures when it does not (docs/report.md).
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from .render import colour_note, mises, nice_scale
from .results import displacement_magnitude

_usable: tuple[bool, str] | None = None

# Rendered by the child process: one triangle, off-screen, read back.
_PROBE = """
import pyvista as pv
pl = pv.Plotter(off_screen=True, window_size=(32, 32))
pl.add_mesh(pv.Triangle())
img = pl.screenshot(return_img=True)
pl.close()
assert img.shape[0] == 32 and img.std() > 0
print(type(pl).__name__)
"""


def _environment() -> dict:
    """The environment for VTK: without a display, EGL is asked for directly (else VTK tries
    X first and prints a warning)."""
    env = dict(os.environ)
    if not env.get("DISPLAY"):
        env.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
    return env


def usable() -> tuple[bool, str]:
    """(whether pyvista renders off-screen here, why not); HALFSTEP_RENDER=matplotlib says no."""
    global _usable
    if _usable is None:
        if os.environ.get("HALFSTEP_RENDER", "auto") == "matplotlib":
            _usable = (False, "HALFSTEP_RENDER=matplotlib")
        else:
            try:
                import pyvista  # noqa: F401
            except ImportError:
                _usable = (False, "pyvista is not installed")
            else:
                try:
                    p = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120,
                                       env=_environment())
                    ok = p.returncode == 0
                    why = "" if ok else (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1]
                except (OSError, subprocess.TimeoutExpired) as e:
                    ok, why = False, str(e)
                _usable = (ok, why if not ok else "")
    return _usable


def deformed(mesh, field: str = "U", scale: float | None = None, title: str = "",
             size: tuple[int, int] = (800, 600)) -> tuple[np.ndarray, dict]:
    """The picture (an RGB array) of the frame mesh (a meshio.Mesh) deformed by U times scale
    (None: nice_scale), coloured by field ("U": |U| at the points, "Mises": the cell values),
    and what it shows: scale, vmin and vmax as VTK's mapper holds them (the frame's min and
    max of the field), the label and the renderer."""
    for key, value in _environment().items():
        os.environ.setdefault(key, value)
    import pyvista as pv

    grid = pv.from_meshio(mesh)
    points = np.asarray(grid.points, dtype=float)
    umag = displacement_magnitude(mesh)
    u = mesh.point_data.get("U")
    u = np.zeros_like(points) if u is None else np.asarray(u, dtype=float).reshape(len(points), -1)[:, :3]
    extent = float(np.linalg.norm(points.max(axis=0) - points.min(axis=0))) if len(points) else 0.0
    if scale is None:
        scale = nice_scale(float(umag.max(initial=0.0)), extent)
    grid.points = points + scale * u
    # VTK's font has no '|': the magnitude is spelt out.
    if field == "U":
        grid.point_data["U magnitude"] = umag
        values, name, preference, label = umag, "U magnitude", "point", "displacement magnitude"
    elif field == "Mises":
        found = mises(mesh)
        if found is None:
            raise ValueError("the frame has no Mises stress")
        values, label = found
        grid.cell_data["Mises"] = values
        name, preference = "Mises", "cell"
    else:
        raise ValueError(f"unknown field {field!r} (expected U or Mises)")
    vmin, vmax = float(values.min()), float(values.max())

    plotter = pv.Plotter(off_screen=True, window_size=size)
    plotter.set_background("white")
    lines_only = all(c.type in ("line", "line3") for c in mesh.cells)
    actor = plotter.add_mesh(
        grid, scalars=name, preference=preference, cmap="viridis",
        clim=[vmin, vmax if vmax > vmin else vmin + 1e-30], show_edges=grid.n_cells < 5000 and not lines_only,
        edge_color="black", line_width=5 if lines_only else 1, lighting=not lines_only, show_scalar_bar=vmax > vmin,
        scalar_bar_args={"title": name, "vertical": True, "fmt": "%.4g", "color": "black", "title_font_size": 16,
                         "label_font_size": 14, "position_x": 0.85, "position_y": 0.1, "height": 0.75,
                         "width": 0.05})
    moved = np.asarray(grid.points)
    span = moved.max(axis=0) - moved.min(axis=0)
    flat = [k for k in range(3) if span[k] <= 1e-9 * max(extent, 1e-300)]
    # A model that stays in a coordinate plane is seen from its normal; anything else at an angle.
    if flat:
        {0: plotter.view_yz, 1: plotter.view_xz, 2: plotter.view_xy}[flat[-1]]()
    else:
        plotter.view_isometric()
    plotter.add_text(f"{title}\n{label}\ndeformation scale x{scale:g}, {colour_note(label, vmin, vmax)}",
                     font_size=9, color="black", position="upper_left")
    plotter.reset_camera()
    plotter.camera.zoom(0.9)
    image = plotter.screenshot(return_img=True)
    low, high = actor.mapper.scalar_range
    plotter.close()
    from vtkmodules.vtkCommonCore import vtkVersion

    info = {"field": field, "label": "|U| displacement magnitude" if field == "U" else label, "scale": scale, "vmin": float(low), "vmax": float(high),
            "renderer": f"VTK {vtkVersion.GetVTKVersion()} (pyvista {pv.__version__}), off-screen",
            "cells": int(grid.n_cells)}
    if vmax <= vmin:
        info["vmax"] = vmax  # the mapper was given a tiny width to draw one colour
    return np.asarray(image), info
