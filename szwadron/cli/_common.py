"""Helpers shared by the command modules: JSON printing and atomic output files.

Standard library only at import time (the CLI starts fast).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from szwadron.errors import InvalidDataError


def _default(obj: Any) -> Any:
    if isinstance(obj, Fraction):
        return float(obj)
    if hasattr(obj, "tolist"):  # numpy arrays and scalars
        return obj.tolist()
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def dumps_json(document: Any) -> str:
    """A stable JSON text: sorted keys are *not* used (key order is part of the contract),
    NaN is refused, Fractions become floats."""
    return json.dumps(document, indent=2, default=_default, allow_nan=False)


def print_json(document: Any) -> None:
    """Print a JSON document on stdout."""
    print(dumps_json(document))


def write_atomic(path: str | Path, write: Callable[[Path], None], *, inputs: tuple[Path, ...] = ()) -> Path:
    """Write an output file through a temporary file in the same folder, then rename it.

    ``write`` receives the temporary path and writes the whole file there. A failure leaves no
    half-written output. Refuses to overwrite any of ``inputs`` (the command's input files).
    """
    target = Path(path)
    for src in inputs:
        try:
            if target.exists() and target.resolve() == Path(src).resolve():
                raise InvalidDataError(f"{target}: refusing to overwrite an input file")
        except OSError:
            continue
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidDataError(f"{target}: the folder {folder} does not exist")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=folder)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        write(tmp)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()
    return target


def fmt_prob(p: float) -> str:
    """A probability for humans: percent with enough digits to tell small values from zero.

    >>> fmt_prob(0.5), fmt_prob(0.000123), fmt_prob(0.0), fmt_prob(1.0)
    ('50.0%', '0.0123%', '0', '100%')
    """
    if p <= 0:
        return "0"
    if p >= 1:
        return "100%"
    pct = 100.0 * p
    if pct >= 0.1:
        return f"{pct:.1f}%"
    digits = max(1, 2 - math.floor(math.log10(pct)))
    return f"{pct:.{digits}f}%"


__all__ = ["dumps_json", "fmt_prob", "print_json", "write_atomic"]
