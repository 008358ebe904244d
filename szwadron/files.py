"""Output files written whole or not at all (ground layer: standard library only).

Every file szwadron writes (pictures, army lists, the points model, scenarios, game logs) goes
through :func:`write_atomic`: a temporary file in the same folder, renamed over the target when it
is complete, so a failure never leaves a half-written output.

``-`` as a file argument stands for standard input (:func:`read_stdin`), and for standard
output where an output's format allows it (:func:`write_stdout`), as in the tools around.
"""

from __future__ import annotations

import io
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from szwadron.errors import InvalidDataError
from szwadron.i18n import _
from szwadron.limits import MAX_FILE_BYTES, MAX_NESTING


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
        raise InvalidDataError(
            _("{target}: cannot write: {exc}").format(target=target, exc=exc.strerror or exc)
        ) from exc
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
    before any work, so that a mistyped output path fails at once, not after the answer. ``-``
    (standard output) is refused: a command that offers it handles it before (``plot -o -``)."""
    if is_stdio(path):
        raise InvalidDataError(
            _(
                "{STDIO}: this output cannot go to standard output (name a file; `szwadron plot ... -o -` writes a picture there)"
            ).format(STDIO=STDIO)
        )
    target = Path(path)
    for src in inputs:
        try:
            if target.exists() and target.resolve() == Path(src).resolve():
                raise InvalidDataError(
                    _("{target}: refusing to overwrite an input file").format(target=target)
                )
        except OSError:
            continue
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidDataError(
            _("{target}: the folder {folder} does not exist").format(target=target, folder=folder)
        )
    if target.is_dir():
        raise InvalidDataError(_("{target}: cannot write: it is a folder").format(target=target))
    return target


#: The file argument that stands for standard input (and, for an output, standard output).
STDIO = "-"

#: How standard input is named in messages about its content.
STDIN_NAME = "<stdin>"

#: Standard input read so far: (the stream, its bytes); read once, whoever asks again gets them.
_stdin_read: tuple[Any, bytes] | None = None


def is_stdio(path: str | Path | None) -> bool:
    """Whether a file argument is ``-``: standard input (or output).

    >>> is_stdio("-"), is_stdio("./-"), is_stdio("scenario.toml"), is_stdio(None)
    (True, False, False, False)
    """
    return path is not None and str(path) == STDIO


def read_stdin() -> bytes:
    """The whole of standard input (a file argument ``-``).

    Read once: later calls in the same run return the same bytes (a command that looks into a
    file before reading it, e.g. roster or army list, sees the same content). A terminal is refused
    (:class:`~szwadron.errors.InvalidDataError`): the command would wait for typed TOML.
    """
    global _stdin_read
    stream = sys.stdin
    if _stdin_read is not None and _stdin_read[0] is stream:
        return _stdin_read[1]
    if stream is None or stream.closed:
        raise InvalidDataError(_("{STDIO}: there is no standard input to read").format(STDIO=STDIO))
    if stream.isatty():
        raise InvalidDataError(
            _("{STDIO}: standard input is a terminal; pipe or redirect a file into it (... - < FILE)").format(
                STDIO=STDIO
            )
        )
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        data: bytes = buffer.read(MAX_FILE_BYTES + 1)
    else:  # a text-only stream (a test's capture)
        data = stream.read(MAX_FILE_BYTES + 1).encode("utf-8")
    if len(data) > MAX_FILE_BYTES:
        raise InvalidDataError(_too_big(len(data), more=True), source=STDIN_NAME)
    _stdin_read = (stream, data)
    return data


def _too_big(size: int, *, more: bool = False) -> str:
    shown = f"{size if not more else MAX_FILE_BYTES:,}"
    text = (
        _(
            "too big: more than {size} bytes; input files are limited to {most} bytes ({mib} MiB, "
            "szwadron.limits.MAX_FILE_BYTES)"
        )
        if more
        else _(
            "too big: {size} bytes; input files are limited to {most} bytes ({mib} MiB, "
            "szwadron.limits.MAX_FILE_BYTES)"
        )
    )
    return text.format(size=shown, most=f"{MAX_FILE_BYTES:,}", mib=MAX_FILE_BYTES // 2**20)


def read_input(path: str | Path, *, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of an input file, read safely (issue 16): ``-`` is standard input
    (:func:`read_stdin`); anything but a regular file (a folder, a FIFO, a device such as
    ``/dev/zero``) is refused before it is read, so is a file larger than ``limit``
    (:data:`~szwadron.limits.MAX_FILE_BYTES`), and no more than ``limit`` bytes are ever read.

    Errors raise :class:`~szwadron.errors.InvalidDataError` naming the file.
    """
    if is_stdio(path):
        return read_stdin()
    name = str(path)
    if not name:
        raise InvalidDataError(
            _("the file name is empty; name a file (or '-' for standard input)"), source="''"
        )
    try:
        # non-blocking: opening a FIFO with no writer must not wait for one
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InvalidDataError(_("no such file"), source=name) from None
    except IsADirectoryError:
        raise InvalidDataError(_("is a folder, expected a file"), source=name) from None
    except OSError as exc:
        raise InvalidDataError(
            _("cannot read: {reason}").format(reason=exc.strerror or exc), source=name
        ) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InvalidDataError(_("is a folder, expected a file"), source=name)
        if not stat.S_ISREG(info.st_mode):
            what = (
                _("a FIFO")
                if stat.S_ISFIFO(info.st_mode)
                else _("a device")
                if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
                else _("a socket")
                if stat.S_ISSOCK(info.st_mode)
                else _("not a regular file")
            )
            raise InvalidDataError(
                _(
                    "is {what}, not a regular file; szwadron reads ordinary files (pipe other input into "
                    "'-', standard input)"
                ).format(what=what),
                source=name,
            )
        if info.st_size > limit:
            raise InvalidDataError(_too_big(info.st_size), source=name)
        chunks: list[bytes] = []
        left = limit + 1  # a file that grows while it is read is still cut off
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise InvalidDataError(
            _("cannot read: {reason}").format(reason=exc.strerror or exc), source=name
        ) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InvalidDataError(_too_big(len(data), more=True), source=name)
    return data


def check_nesting(text: str, *, source: str, limit: int = MAX_NESTING, first_line: int = 1) -> None:
    """Refuse TOML or JSON text whose lists and tables nest deeper than ``limit``
    (:data:`~szwadron.limits.MAX_NESTING`) before a recursive reader meets it (issue 16).

    Brackets and braces inside strings and comments do not count.

    >>> check_nesting('a = [[1], {b = "[[["}]  # ]]]', source="x")
    >>> check_nesting("a = " + "[" * 100, source="x.toml")
    Traceback (most recent call last):
    ...
    szwadron.errors.InvalidDataError: x.toml: line 1: lists and tables nested more than 64 deep
    """
    depth = 0
    line = first_line
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        elif c in "[{":
            depth += 1
            if depth > limit:
                raise InvalidDataError(
                    _("line {line}: lists and tables nested more than {most} deep").format(
                        line=line, most=limit
                    ),
                    source=source,
                )
        elif c in "]}":
            depth = max(0, depth - 1)
        elif c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c in "\"'":
            quote = text[i : i + 3] if text[i : i + 3] in ('"""', "'''") else c
            i += len(quote)
            while i < n:
                if c == '"' and text[i] == "\\":
                    i += 2
                    continue
                if text.startswith(quote, i):
                    i += len(quote)
                    break
                if text[i] == "\n":
                    if len(quote) == 1:  # an unclosed one-line string: the reader will say so
                        break
                    line += 1
                i += 1
            continue
        i += 1


def write_stdout(write: Callable[[io.BytesIO], None], *, binary_format: str | None = None) -> None:
    """Write an output to standard output (``-o -``), whole or not at all.

    ``write`` fills a memory buffer; only a complete output is copied to standard output, so a
    failure prints nothing. ``binary_format`` (``"png"``, ``"pdf"``) names a format that is not
    text: it is refused when standard output is a terminal (redirect or pipe it instead).
    """
    stream = sys.stdout
    if binary_format is not None and stream.isatty():
        raise InvalidDataError(
            _(
                "{STDIO}: refusing to write {format} to a terminal; redirect it (> FILE.{suffix}) or pipe it"
            ).format(STDIO=STDIO, format=binary_format.upper(), suffix=binary_format)
        )
    memory = io.BytesIO()
    write(memory)
    data = memory.getvalue()
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        stream.flush()
        buffer.write(data)
        buffer.flush()
    elif binary_format is not None:
        raise InvalidDataError(_("{STDIO}: standard output takes no binary data here").format(STDIO=STDIO))
    else:  # a text-only stream (a test's capture)
        stream.write(data.decode("utf-8"))
        stream.flush()


def _mode_for(target: Path) -> int:
    """Permissions of a written file: those of the file it replaces, else 0666 less the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


__all__ = [
    "STDIN_NAME",
    "STDIO",
    "check_nesting",
    "check_output_path",
    "is_stdio",
    "read_input",
    "read_stdin",
    "write_atomic",
    "write_stdout",
    "write_text_atomic",
]
