"""Output files written whole or not at all (ground layer: standard library only).

Every file szwadron writes (pictures, army lists, the points model, scenarios, game logs) goes
through :func:`write_atomic`: a temporary file in the same folder, renamed over the target when it
is complete, so a failure never leaves a half-written output.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from szwadron.errors import InvalidDataError


def write_atomic(path: str | Path, write: Callable[[Path], None], *, inputs: tuple[Path, ...] = ()) -> Path:
    """Write an output file through a temporary file in the same folder, then rename it.

    ``write`` receives the temporary path and writes the whole file there. A failure leaves no
    half-written output. Refuses to overwrite any of ``inputs`` (the command's input files). The
    file keeps the permissions of the one it replaces, or gets the usual ones (0666 less the
    umask), not the temporary file's private 0600. Errors (no permission, a full disk) raise
    :class:`~szwadron.errors.InvalidDataError` naming the file.
    """
    target = check_output_path(path, inputs=inputs)
    folder = target.parent
    tmp: Path | None = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=folder)
        os.close(fd)
        tmp = Path(tmp_name)
        write(tmp)
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except OSError as exc:  # no permission, a full disk, a folder in the way: bad usage
        raise InvalidDataError(f"{target}: cannot write: {exc.strerror or exc}") from exc
    finally:
        if tmp is not None and tmp.exists():
            tmp.unlink()
    return target


def write_text_atomic(path: str | Path, text: str, *, inputs: tuple[Path, ...] = ()) -> Path:
    """:func:`write_atomic` of a UTF-8 text (a scenario, a game log)."""

    def write(tmp: Path) -> None:
        tmp.write_text(text, encoding="utf-8")

    return write_atomic(path, write, inputs=inputs)


def check_output_path(path: str | Path, *, inputs: tuple[Path, ...] = ()) -> Path:
    """The output path, or :class:`~szwadron.errors.InvalidDataError` when it cannot be written:
    its folder does not exist, it is a folder, or it is one of ``inputs``. Commands call it
    before any work, so that a mistyped output path fails at once, not after the answer."""
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
    if target.is_dir():
        raise InvalidDataError(f"{target}: cannot write: it is a folder")
    return target


def _mode_for(target: Path) -> int:
    """Permissions of a written file: those of the file it replaces, else 0666 less the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


__all__ = ["check_output_path", "write_atomic", "write_text_atomic"]
