"""Reading a halfstep result folder (the -o folder of `halfstep run`) into NumPy and pandas.

Every file is checked before it is used: a folder that is not a result folder, or one whose
files were cut short (a run killed while writing), raises ResultError with the file and what
was expected, never a parser's traceback.
"""
from __future__ import annotations

import io
import json
import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import numpy as np
import pandas as pd

ENERGY_COLUMNS = ("time", "kinetic", "internal", "external_work", "damping_work", "total")

# The .vtu frames write a symmetric tensor (S, E) as VTK reads 6 components: XX, YY, ZZ, XY, YZ,
# XZ. The Abaqus names of those columns (the printed .dat tables keep Abaqus's order 11, 22, 33,
# 12, 13, 23).
VTK_TENSOR_ORDER = ("XX", "YY", "ZZ", "XY", "YZ", "XZ")
ABAQUS_TENSOR_COLUMNS = {"11": 0, "22": 1, "33": 2, "12": 3, "23": 4, "13": 5}
# Frames written before the tensors carried ComponentName attributes hold them in Abaqus's order;
# column k of such an array is column _FROM_ABAQUS[k] in VTK's order (the 13 and 23 swap).
_FROM_ABAQUS = (0, 1, 2, 3, 5, 4)


class ResultError(Exception):
    """A result folder, or one of its files, is missing, incomplete or not what halfstep writes."""


@dataclass(frozen=True)
class Frame:
    """One field frame of the .pvd index: its time and the .vtu file."""

    index: int
    time: float
    path: str


def _read_text(path: str) -> str:
    """The file's text, or ResultError naming it."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as e:
        raise ResultError(f"{path}: cannot read ({e.strerror})") from None


def read_csv(path: str, required: tuple[str, ...] = ("time",)) -> pd.DataFrame:
    """A halfstep CSV as a DataFrame, after checking that it is whole (header, rows, last newline)."""
    text = _read_text(path)
    if not text:
        raise ResultError(f"{path}: empty file (expected a header line such as 'time,...')")
    lines = text.split("\n")
    header = lines[0].split(",")
    missing = [c for c in required if c not in header]
    if missing:
        raise ResultError(f"{path}: the header '{lines[0][:80]}' lacks the column(s) {', '.join(missing)}")
    # The writer ends every row with a newline: a last line without one was cut mid-write.
    if not text.endswith("\n"):
        raise ResultError(
            f"{path}: line {len(lines)} is cut short (no end of line): the file was not written to the end "
            "(was the run killed while writing?)")
    for number, line in enumerate(lines[1:-1], start=2):
        if line.count(",") != len(header) - 1:
            raise ResultError(
                f"{path}: line {number} has {line.count(',') + 1} values, expected {len(header)} "
                f"(the columns {','.join(header)})")
    try:
        # round_trip: the default parser can be off in the last bit; the files hold exact values.
        frame = pd.read_csv(io.StringIO(text), float_precision="round_trip")
    except (ValueError, pd.errors.ParserError) as e:
        raise ResultError(f"{path}: not a CSV file halfstep writes ({e})") from None
    if frame.empty:
        # A header and no rows: a run of frequency steps only records no energy. Its columns
        # are numbers, none yet.
        return frame.astype({c: float for c in frame.columns if c != "definition"})
    numeric = [c for c in frame.columns if c not in ("definition",)]
    bad = [c for c in numeric if not pd.api.types.is_numeric_dtype(frame[c])]
    if bad:
        raise ResultError(f"{path}: column {bad[0]} holds values that are not numbers")
    return frame


class Result:
    """A result folder: summary, energies, histories and frames, read when first asked for."""

    def __init__(self, path: str):
        """Checks that path is a result folder with a readable summary.json."""
        self.path = os.fspath(path)
        if not os.path.exists(self.path):
            raise ResultError(f"{self.path}: no such folder (expected the -o folder of halfstep run)")
        if not os.path.isdir(self.path):
            raise ResultError(f"{self.path}: not a folder (expected the -o folder of halfstep run)")
        names = set(os.listdir(self.path))
        pvds = sorted(n for n in names if n.endswith(".pvd") and not n.endswith("_nurbs.pvd"))
        if "summary.json" not in names:
            if not pvds and "energy.csv" not in names and "history" not in names:
                raise ResultError(
                    f"{self.path}: not a halfstep result folder (no summary.json, energy.csv or <job>.pvd; "
                    "expected the -o folder of halfstep run)")
            raise ResultError(
                f"{os.path.join(self.path, 'summary.json')}: missing, so the run is still going or was killed "
                "before it ended (a completed, failed or interrupted run writes it last)")
        self.summary = self._read_summary(os.path.join(self.path, "summary.json"))
        self.units = None  # the report's unit system (halfstep.units.UnitSystem), when one is named
        # The files the run listed (summary.json "files", halfstep 0.1 runs since the output
        # folder check): only these are read, so a file an earlier run left behind is never
        # taken for this run's. Older summaries have no list: then the folder's files are read.
        listed = self.summary.get("files")
        self.files = listed if isinstance(listed, list) and all(isinstance(f, str) for f in listed) else None
        if self.files is not None:
            job = self.summary.get("job")
            pvds = [f for f in self.files if f.endswith(".pvd") and not f.endswith("_nurbs.pvd")]
            if isinstance(job, str) and job + ".pvd" in self.files:
                pvds = [job + ".pvd"]
            pvds = [self._listed(f) for f in pvds]
        self._pvd = os.path.join(self.path, pvds[0]) if pvds else None
        self._energy = self._histories = self._reactions = self._frames = self._contact = None

    def _listed(self, name: str) -> str:
        """A file summary.json lists, checked to exist (name relative to the folder)."""
        if not os.path.exists(os.path.join(self.path, name)):
            raise ResultError(f"{os.path.join(self.path, name)}: listed in summary.json but missing")
        return name

    def _has(self, name: str) -> bool:
        """Whether the run wrote name (relative to the folder): listed, or present when there is no list."""
        if self.files is not None:
            return name in self.files and bool(self._listed(name))
        return os.path.exists(os.path.join(self.path, name))

    @staticmethod
    def _read_summary(path: str) -> dict:
        """summary.json as a dict, or ResultError saying how it is broken."""
        text = _read_text(path)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ResultError(
                f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}); the file is cut short "
                "or damaged") from None
        if not isinstance(data, dict) or not isinstance(data.get("status"), str):
            raise ResultError(f"{path}: has no \"status\" member: not a halfstep summary")
        return data

    # --- the run's outcome -------------------------------------------------------------
    @property
    def status(self) -> str:
        """'completed', 'failed: reason' or 'interrupted by SIGINT at time t'."""
        return self.summary["status"]

    @property
    def completed(self) -> bool:
        """Whether the run ended normally."""
        return self.status == "completed"

    @property
    def job(self) -> str:
        """The job name (the deck's file name without extension)."""
        if isinstance(self.summary.get("job"), str) and self.summary["job"]:
            return self.summary["job"]
        if self._pvd:
            return os.path.basename(self._pvd)[:-4]
        deck = self.summary.get("deck", "")
        return os.path.splitext(os.path.basename(deck))[0] or os.path.basename(self.path.rstrip("/"))

    # --- tables --------------------------------------------------------------------------
    @property
    def energy(self) -> pd.DataFrame | None:
        """energy.csv (time, kinetic, internal, external_work, damping_work, total, ...), or None."""
        if self._energy is None:
            if self._has("energy.csv"):
                self._energy = read_csv(os.path.join(self.path, "energy.csv"), ENERGY_COLUMNS)
        return self._energy

    def _read_histories(self) -> None:
        """Fills the node histories and the summed reactions from history/*.csv."""
        self._histories, self._reactions = {}, {}
        folder = os.path.join(self.path, "history")
        if self.files is not None:
            names = sorted(self._listed(f)[len("history/"):] for f in self.files if f.startswith("history/"))
        elif os.path.isdir(folder):
            names = sorted(os.listdir(folder))
        else:
            return
        for name in names:
            if not name.endswith(".csv") or name == "contact.csv":
                continue
            frame = read_csv(os.path.join(folder, name))
            stem = name[:-4]
            if "node" in frame.columns:
                self._histories[stem] = frame
            elif stem.endswith("_total"):
                self._reactions[stem[: -len("_total")]] = frame

    @property
    def histories(self) -> dict[str, pd.DataFrame]:
        """history/<NSET>.csv per node set: time, node and the requested variables."""
        if self._histories is None:
            self._read_histories()
        return self._histories

    @property
    def reactions(self) -> dict[str, pd.DataFrame]:
        """history/<NSET>_total.csv per node set: the reaction summed over the set."""
        if self._reactions is None:
            self._read_histories()
        return self._reactions

    @property
    def contact(self) -> pd.DataFrame | None:
        """history/contact.csv (contact forces per definition), or None."""
        if self._contact is None:
            if self._has("history/contact.csv"):
                self._contact = read_csv(os.path.join(self.path, "history", "contact.csv"), ("time", "definition"))
        return self._contact

    # --- frames --------------------------------------------------------------------------
    @property
    def frames(self) -> list[Frame]:
        """The field frames listed in <job>.pvd, in time order."""
        if self._frames is None:
            self._frames = self._read_pvd() if self._pvd else []
        return self._frames

    def _read_pvd(self) -> list[Frame]:
        """The <DataSet> entries of the .pvd, each checked to exist."""
        try:
            root = ET.fromstring(_read_text(self._pvd))
        except ET.ParseError as e:
            raise ResultError(f"{self._pvd}: not a whole .pvd file ({e})") from None
        frames = []
        for i, d in enumerate(root.iter("DataSet")):
            file = d.get("file")
            try:
                time = float(d.get("timestep", "nan"))
            except ValueError:
                time = float("nan")
            if not file:
                raise ResultError(f"{self._pvd}: DataSet {i} names no file")
            path = os.path.join(self.path, file)
            if not os.path.exists(path):
                raise ResultError(f"{path}: listed in {os.path.basename(self._pvd)} but missing")
            frames.append(Frame(i, time, path))
        return frames

    def frame(self, index: int):
        """Frame index (negative counts from the end) as a meshio.Mesh. Its symmetric tensors (S,
        E) are in VTK's order XX, YY, ZZ, XY, YZ, XZ, also those of frames written by an older
        halfstep in Abaqus's order; tensor_components gives them by Abaqus name."""
        import meshio  # the tables need none of it

        frames = self.frames
        if not frames:
            raise ResultError(f"{self.path}: has no field frames (no <job>.pvd or an empty one)")
        f = frames[index]
        try:
            mesh = meshio.read(f.path, file_format="vtu")
        except Exception as e:  # meshio raises many kinds for a damaged file
            raise ResultError(f"{f.path}: cannot be read as a .vtu frame ({type(e).__name__}: {e})") from None
        for name in _abaqus_ordered_tensors(f.path):
            if name in mesh.cell_data:
                mesh.cell_data[name] = [np.asarray(block)[:, list(_FROM_ABAQUS)] for block in mesh.cell_data[name]]
        return mesh


def _abaqus_ordered_tensors(path: str) -> list[str]:
    """Names of the 6-component cell arrays S and E of the .vtu at path that have no
    ComponentName attributes: an older halfstep wrote them in Abaqus's order."""
    head = b""
    with open(path, "rb") as f:  # the XML header only: the arrays follow <AppendedData
        while b"<AppendedData" not in head:
            chunk = f.read(1 << 16)
            if not chunk:
                break
            head += chunk
    cells = re.search(r"<CellData[^>]*>(.*?)</CellData>", head.split(b"<AppendedData")[0].decode("utf-8", "replace"),
                      re.S)
    names = []
    for tag in re.findall(r"<DataArray\b([^>]*)>", cells.group(1) if cells else ""):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', tag))
        if attrs.get("Name") in ("S", "E") and attrs.get("NumberOfComponents") == "6" and "ComponentName0" not in attrs:
            names.append(attrs["Name"])
    return names


def tensor_components(mesh, name: str = "S") -> dict[str, np.ndarray]:
    """The symmetric tensor cell array name (S or E) of a frame (Result.frame) by Abaqus
    component name: {"S11": ..., "S22": ..., "S33": ..., "S12": ..., "S13": ..., "S23": ...},
    one value per cell of all cell blocks. KeyError when the frame has no such array."""
    blocks = mesh.cell_data[name]
    values = np.concatenate([np.asarray(b, dtype=float).reshape(len(b), -1) for b in blocks])
    if values.shape[1] != 6:
        raise ValueError(f"cell array {name} has {values.shape[1]} components, not a symmetric tensor's 6")
    return {name + k: values[:, column] for k, column in ABAQUS_TENSOR_COLUMNS.items()}


def read(outdir: str) -> Result:
    """The result folder outdir (ResultError if it is not one)."""
    return Result(outdir)


def summary(outdir: str) -> dict:
    """summary.json of outdir as a dict."""
    return Result(outdir).summary


def energy(outdir: str) -> pd.DataFrame | None:
    """energy.csv of outdir as a DataFrame."""
    return Result(outdir).energy


def histories(outdir: str) -> dict[str, pd.DataFrame]:
    """The node histories of outdir, one DataFrame per node set."""
    return Result(outdir).histories


def frames(outdir: str) -> list[Frame]:
    """The field frames of outdir (time and .vtu path); read one with Result.frame(i)."""
    return Result(outdir).frames


def displacement_magnitude(mesh) -> np.ndarray:
    """|U| at every point of a frame (zeros when the frame has no U)."""
    u = mesh.point_data.get("U")
    if u is None:
        return np.zeros(len(mesh.points))
    return np.linalg.norm(np.asarray(u, dtype=float).reshape(len(mesh.points), -1)[:, :3], axis=1)
