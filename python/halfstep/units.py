"""Unit systems for the report's labels. halfstep computes in the deck's own numbers and
converts nothing; the user says which consistent system those numbers are in, either with
`--units NAME` (python3 -m halfstep.report) or with a comment line in the deck,
`** UNITS: NAME` (docs/report.md), and the report names every quantity's unit from it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class UnitSystem:
    """One consistent unit system: the base units and the ones they imply."""

    name: str
    length: str
    mass: str
    time: str
    force: str
    stress: str
    energy: str

    def of(self, quantity: str) -> str:
        """The unit of a quantity: a base or derived one, or a history group (U, UR, V, VR, A,
        AR, RF, RM)."""
        derived = {
            "length": self.length, "mass": self.mass, "time": self.time, "force": self.force,
            "stress": self.stress, "energy": self.energy, "U": self.length, "UR": "rad",
            "V": f"{self.length}/{self.time}", "VR": f"rad/{self.time}", "A": f"{self.length}/{self.time}²",
            "AR": f"rad/{self.time}²", "RF": self.force, "RM": f"{self.force} {self.length}",
        }
        return derived[quantity]

    def describe(self) -> str:
        """'mm, t, s: force N, stress MPa, energy mJ'."""
        return (f"length {self.length}, mass {self.mass}, time {self.time}: force {self.force}, "
                f"stress {self.stress}, energy {self.energy}")


# The systems decks are written in (each consistent: force = mass length / time²).
SYSTEMS = {
    "SI": UnitSystem("SI", "m", "kg", "s", "N", "Pa", "J"),
    "MM-T-S": UnitSystem("MM-T-S", "mm", "t", "s", "N", "MPa", "mJ"),
    "MM-KG-MS": UnitSystem("MM-KG-MS", "mm", "kg", "ms", "kN", "GPa", "J"),
    "MM-G-MS": UnitSystem("MM-G-MS", "mm", "g", "ms", "N", "MPa", "mJ"),
    "CM-G-S": UnitSystem("CM-G-S", "cm", "g", "s", "dyn", "dyn/cm²", "erg"),
    "IN-LBFS2/IN-S": UnitSystem("IN-LBFS2/IN-S", "in", "lbf s²/in", "s", "lbf", "psi", "in lbf"),
    "NM-FG-NS": UnitSystem("NM-FG-NS", "nm", "fg", "ns", "nN", "GPa", "aJ"),
}
ALIASES = {"MKS": "SI", "M-KG-S": "SI", "MM-TONNE-S": "MM-T-S", "IN-LBF-S": "IN-LBFS2/IN-S", "US": "IN-LBFS2/IN-S"}


class UnitsError(ValueError):
    """A unit system name the report does not know."""


def system(name: str) -> UnitSystem:
    """The system named `name` (case and blanks ignored); UnitsError listing the known ones."""
    key = re.sub(r"\s+", "", name).upper()
    key = ALIASES.get(key, key)
    if key not in SYSTEMS:
        raise UnitsError(f"unknown unit system '{name}' (expected one of {', '.join(SYSTEMS)}; "
                         f"aliases {', '.join(ALIASES)})")
    return SYSTEMS[key]


# The comment is looked for in the deck's first lines only (a mesh of millions of lines is not read).
DECK_LINES = 1000


def from_deck(path: str | None) -> tuple[UnitSystem, str] | None:
    """The system a deck's `** UNITS: NAME` comment (in its first DECK_LINES lines) names and
    where ('deck.inp:12'), or None without one (or without the deck). UnitsError for an
    unknown name, naming the line."""
    if not path or not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            if number > DECK_LINES:
                break
            m = re.match(r"\*\*\s*UNITS\s*:\s*(\S.*?)\s*$", line, re.IGNORECASE)
            if m:
                where = f"{os.path.basename(path)}:{number}"
                try:
                    return system(m.group(1)), where
                except UnitsError as e:
                    raise UnitsError(f"{where}: {e}") from None
    return None
