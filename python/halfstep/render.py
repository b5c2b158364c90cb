"""Pictures of the deformed model from a .vtu frame, drawn with matplotlib alone: the report's
fallback where VTK cannot render off-screen (render_vtk.py), and a picture any matplotlib
script can restyle.

Agg needs no OpenGL, so this draws the same picture on every machine. The model's outer
surface is extracted from the cells (shell faces as they are, solid faces used by one cell
only, beams as lines), moved by U times the deformation scale and coloured by |U| (point
values averaged over each face) or by the Mises stress of its cell.
"""
from __future__ import annotations

import math

import numpy as np
import matplotlib
from matplotlib import cm, colors
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from mpl_toolkits.mplot3d.art3d import Line3DCollection, Poly3DCollection

from .results import displacement_magnitude

# Faces of the solid cells in VTK's corner order (outward normals); higher-order cells use
# their corners.
_SOLID_FACES = {
    "hexahedron": ((0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)),
    "tetra": ((0, 2, 1), (0, 1, 3), (1, 2, 3), (0, 3, 2)),
    "wedge": ((0, 1, 2), (3, 5, 4), (0, 3, 4, 1), (1, 4, 5, 2), (2, 5, 3, 0)),
    "pyramid": ((0, 3, 2, 1), (0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)),
}
_SOLID_ALIASES = {"hexahedron20": "hexahedron", "hexahedron27": "hexahedron", "tetra10": "tetra",
                  "wedge15": "wedge", "pyramid13": "pyramid"}
_SURFACE_CORNERS = {"quad": 4, "quad8": 4, "quad9": 4, "triangle": 3, "triangle6": 3, "triangle7": 3}
_LINE_CORNERS = {"line": 2, "line3": 2}


def surface(mesh):
    """The drawable pieces of a frame: (faces, face_cell, segments, segment_cell): faces as lists
    of point indices, segments as point pairs, each with the index of its cell in the frame's
    cell order (for cell data)."""
    faces, face_cell, segments, segment_cell = [], [], [], []
    solid_faces = {}  # sorted corners -> (face, cell, count)
    offset = 0
    for block in mesh.cells:
        kind, data = block.type, np.asarray(block.data)
        if kind in _SURFACE_CORNERS:
            k = _SURFACE_CORNERS[kind]
            for i, cell in enumerate(data):
                faces.append(list(cell[:k]))
                face_cell.append(offset + i)
        elif kind in _LINE_CORNERS:
            for i, cell in enumerate(data):
                segments.append((cell[0], cell[1]))
                segment_cell.append(offset + i)
        elif kind in _SOLID_FACES or kind in _SOLID_ALIASES:
            local = _SOLID_FACES[_SOLID_ALIASES.get(kind, kind)]
            for i, cell in enumerate(data):
                for f in local:
                    face = [int(cell[j]) for j in f]
                    key = tuple(sorted(face))
                    seen = solid_faces.get(key)
                    solid_faces[key] = (face, offset + i, 1 if seen is None else seen[2] + 1)
        offset += len(data)
    # A face two solid cells share is inside the model: only faces of one cell are drawn.
    for face, cell, count in solid_faces.values():
        if count == 1:
            faces.append(face)
            face_cell.append(cell)
    return faces, face_cell, segments, segment_cell


def cell_values(mesh, name: str) -> np.ndarray | None:
    """A scalar cell array over all cells in frame order, or None where the frame lacks it."""
    data = mesh.cell_data.get(name)
    if data is None:
        return None
    return np.concatenate([np.asarray(d, dtype=float).reshape(len(d), -1)[:, 0] for d in data])


def mises(mesh) -> tuple[np.ndarray, str] | None:
    """(cell values, label) of the frame's Mises stress: solids' Mises, or for shells the larger
    of the top and bottom surface values."""
    m = cell_values(mesh, "Mises")
    if m is not None:
        return m, "Mises stress"
    top, bottom = cell_values(mesh, "Mises_top"), cell_values(mesh, "Mises_bottom")
    if top is not None and bottom is not None:
        return np.maximum(top, bottom), "Mises stress (larger of top and bottom)"
    return None


def nice_scale(umax: float, size: float) -> float:
    """The deformation scale: 1 when the displacements are visible as they are (2 % of the
    model's size or more), else a round number that makes the largest one about 15 % of it."""
    # Below 1e-12 of the size |U| is round-off of an unloaded model: magnifying it shows noise.
    if not (umax > 1e-12 * size) or not (size > 0) or umax >= 0.02 * size:
        return 1.0
    raw = 0.15 * size / umax
    exponent = math.floor(math.log10(raw))
    mantissa = raw / 10 ** exponent
    step = 1 if mantissa < 2 else 2 if mantissa < 5 else 5
    return float(step * 10 ** exponent)


def colour_note(label: str, vmin: float, vmax: float) -> str:
    """The picture's statement of its colour range."""
    if vmax > vmin:
        return f"colour {vmin:.4g} to {vmax:.4g}"
    return f"{label.split(' (')[0]} uniform, {vmin:.4g}"


def deformed(mesh, field: str = "U", scale: float | None = None, title: str = "") -> tuple[Figure, dict]:
    """A picture of the frame mesh deformed by U times scale (None: nice_scale), coloured by
    field ("U": |U|, "Mises": the Mises stress). Returns the Figure and what it shows: the scale,
    the colour range (vmin, vmax: the frame's min and max of the field) and the field's label."""
    points = np.asarray(mesh.points, dtype=float)
    if points.shape[1] == 2:
        points = np.column_stack([points, np.zeros(len(points))])
    umag = displacement_magnitude(mesh)
    u = mesh.point_data.get("U")
    u = np.zeros_like(points) if u is None else np.asarray(u, dtype=float).reshape(len(points), -1)[:, :3]
    size = float(np.linalg.norm(points.max(axis=0) - points.min(axis=0))) if len(points) else 0.0
    if scale is None:
        scale = nice_scale(float(umag.max(initial=0.0)), size)
    moved = points + scale * u
    faces, face_cell, segments, segment_cell = surface(mesh)
    if not faces and not segments:
        raise ValueError("the frame has no cells that can be drawn")

    if field == "U":
        vmin, vmax = float(umag.min()), float(umag.max())
        face_value = np.array([umag[f].mean() for f in faces]) if faces else np.zeros(0)
        seg_value = np.array([umag[list(s)].mean() for s in segments]) if segments else np.zeros(0)
        label = "|U| displacement magnitude"
    elif field == "Mises":
        found = mises(mesh)
        if found is None:
            raise ValueError("the frame has no Mises stress")
        values, label = found
        vmin, vmax = float(values.min()), float(values.max())
        face_value = values[face_cell] if faces else np.zeros(0)
        seg_value = values[segment_cell] if segments else np.zeros(0)
    else:
        raise ValueError(f"unknown field {field!r} (expected U or Mises)")
    norm = colors.Normalize(vmin=vmin, vmax=vmax if vmax > vmin else vmin + 1e-30)
    cmap = matplotlib.colormaps["viridis"]

    fig = Figure(figsize=(6.4, 4.8), dpi=100, layout="constrained")
    # A model that stays in one plane (planar elements) is drawn flat; anything else in 3-D.
    extent = moved.max(axis=0) - moved.min(axis=0)
    flat_axis = next((k for k in range(3) if extent[k] <= 1e-9 * max(size, 1e-300)), None)
    if flat_axis is not None:
        keep = [k for k in range(3) if k != flat_axis]
        ax = fig.add_subplot(1, 1, 1)
        if faces:
            ax.add_collection(PolyCollection([moved[f][:, keep] for f in faces], array=face_value, cmap=cmap,
                                             norm=norm, edgecolors="k", linewidths=0.2))
        if segments:
            ax.add_collection(LineCollection([moved[list(s)][:, keep] for s in segments], array=seg_value,
                                             cmap=cmap, norm=norm, linewidths=2.5))
        ax.autoscale_view()
        ax.set_aspect("equal")
        ax.set_xlabel("xyz"[keep[0]])
        ax.set_ylabel("xyz"[keep[1]])
    else:
        ax = fig.add_subplot(1, 1, 1, projection="3d")
        if faces:
            # Dense meshes get their edges in the face colour: black ones would paint the surface
            # black, none would leave light seams between the faces.
            rgba = cmap(norm(face_value))
            dense = len(faces) >= 5000
            ax.add_collection3d(Poly3DCollection([moved[f] for f in faces], facecolors=rgba,
                                                 edgecolors=rgba if dense else "k", linewidths=0.5 if dense else 0.2))
        if segments:
            ax.add_collection3d(Line3DCollection([moved[list(s)] for s in segments], colors=cmap(norm(seg_value)),
                                                 linewidths=2.5))
        lo, hi = moved.min(axis=0), moved.max(axis=0)
        pad = 0.02 * max(size, 1e-30)
        ax.set_xlim(lo[0] - pad, hi[0] + pad)
        ax.set_ylim(lo[1] - pad, hi[1] + pad)
        ax.set_zlim(lo[2] - pad, hi[2] + pad)
        ax.set_box_aspect(np.maximum(hi - lo, 0.05 * (hi - lo).max()))
        ax.view_init(elev=30, azim=-60)
        # Axes and panes would crowd a thin model's picture; the title states the scale.
        ax.set_axis_off()
    # A uniform field (the undeformed first frame) gets no colour bar: it would invent a range.
    if vmax > vmin:
        bar = fig.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.8)
        bar.set_label(label)
    ax.set_title(f"{title}\ndeformation scale x{scale:g}, {colour_note(label, vmin, vmax)}", fontsize=10)
    info = {"field": field, "label": label, "scale": scale, "vmin": vmin, "vmax": vmax,
            "faces": len(faces), "segments": len(segments), "renderer": f"matplotlib {matplotlib.__version__}"}
    return fig, info
