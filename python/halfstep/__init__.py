"""halfstep's Python interface: run a deck, read its result folder into NumPy and pandas, and
draw the report's plots (docs/report.md)."""
from .results import Frame, Result, ResultError, energy, frames, histories, read, summary, tensor_components
from .runner import RunError, run

__all__ = ["Frame", "Result", "ResultError", "RunError", "energy", "frames", "histories", "read", "run", "summary",
           "tensor_components"]
__version__ = "0.1.0"
