"""A seeded fuzzer of szwadron's input files (issue 16), shared by ``tests/test_fuzz.py`` (a few
hundred cases in the suite) and ``scripts/fuzz.py`` (ten thousand and more).

Each case mutates one file of a small corpus — the bundled scenario, an army list, a roster, a
move file — by one to three edits (a flipped bit, a deleted, doubled or swapped line, a value of
another type, deep nesting, a huge number, NaN, a cut, stray bytes), then runs a command that
reads it, in-process, in a folder of its own. The contract (docs/decisions.md, "The command
line", and issue 16):

- the exit code is 0, 1 or 2 — never 3 (a bug), never a traceback;
- no input file is changed;
- an output is written whole or not at all: after exit 0 it loads, after 1 or 2 there is none.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import shutil
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "example.toml"
MOVE = ROOT / "scenarios" / "moves" / "hussars-advance.toml"
ARMY = ROOT / "armylists" / "france.toml"
TESTLAND = ROOT / "tests" / "cases" / "armylists" / "testland.toml"
ROSTER = ROOT / "tests" / "cases" / "rosters" / "good.toml"

#: Values a "type swap" puts in place of a value.
ODD_VALUES = (
    "true",
    "false",
    '"12"',
    '""',
    "[1, 2]",
    "[]",
    "{ a = 1 }",
    "{}",
    "-1",
    "0",
    "-0.0",
    "1e308",
    "-1e308",
    "1e-320",
    "nan",
    "inf",
    "-inf",
    "123456789012345678901234567890",
    "9" * 400,
    '"' + "x" * 5000 + '"',
    "1979-05-27T07:32:00Z",
    '"fr-line-1"',
    '"france:line_infantry"',
)

_VALUE = re.compile(r"(=\s*)([^\n#]+?)(\s*(#.*)?)$", re.MULTILINE)


@dataclass(frozen=True)
class Case:
    """One fuzz case: which file kind, its mutated bytes, and what was done to it."""

    kind: str
    data: bytes
    edits: tuple[str, ...]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One random edit of ``data``; returns the new bytes and its name."""
    kind = rng.choice(
        ("flip", "delete", "double", "swap", "type", "type", "type", "nest", "huge", "nan", "cut", "stray")
    )
    if kind == "flip" and data:
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :], "flip"
    lines = _lines(data)
    if kind == "delete" and lines:
        del lines[rng.randrange(len(lines))]
        return b"\n".join(lines), "delete"
    if kind == "double" and lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        return b"\n".join(lines), "double"
    if kind == "swap" and len(lines) > 1:
        i, j = rng.sample(range(len(lines)), 2)
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines), "swap"
    if kind == "cut" and data:
        return data[: rng.randrange(len(data))], "cut"
    if kind == "stray":
        i = rng.randrange(len(data) + 1)
        junk = rng.choice(
            [b"\x00", b"\xff\xfe", b"\xc3", "ż".encode(), b"\r", b"[[", b"]]", b"{", b'"', b"\t=\t"]
        )
        return data[:i] + junk + data[i:], "stray"
    text = data.decode("utf-8", errors="surrogateescape")
    spots = list(_VALUE.finditer(text))
    if not spots:
        return data + b"\nx = 1\n", "append"
    m = rng.choice(spots)
    if kind == "nest":
        depth = rng.choice((3, 40, 70, 500, 5000))
        value = rng.choice(("[" * depth + "1" + "]" * depth, "{ a = " * depth + "1" + " }" * depth))
        name = f"nest{depth}"
    elif kind == "huge":
        value, name = rng.choice(("1e308", "-1e308", "9" * 400, "1e-320", "100000000")), "huge"
    elif kind == "nan":
        value, name = rng.choice(("nan", "inf", "-inf", "+nan")), "nan"
    else:
        value, name = rng.choice(ODD_VALUES), "type"
    out = text[: m.start(2)] + value + text[m.end(2) :]
    return out.encode("utf-8", errors="surrogateescape"), name


def corpus() -> dict[str, bytes]:
    """The files mutated: a scenario, an army list, a roster, a move file."""
    return {
        "scenario": SCENARIO.read_bytes(),
        "armylist": ARMY.read_bytes(),
        "roster": ROSTER.read_bytes(),
        "move": MOVE.read_bytes(),
    }


def cases(n: int, seed: int) -> Iterator[Case]:
    """``n`` cases, the i-th drawn from ``random.Random(seed + i)``, kinds in turn."""
    files = corpus()
    kinds = sorted(files)
    for i in range(n):
        rng = random.Random(seed + i)
        kind = kinds[i % len(kinds)]
        data = files[kind]
        edits = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            data, edit = mutate(data, rng)
            edits.append(edit)
        yield Case(kind, data, tuple(edits))


def prepare(folder: Path) -> None:
    """A run's folder: the army lists the corpus uses (bundled ones and testland)."""
    lists = folder / "armylists"
    lists.mkdir(parents=True, exist_ok=True)
    for src in [*(ROOT / "armylists").glob("*.toml"), TESTLAND]:
        shutil.copy(src, lists / src.name)


def command(case: Case, folder: Path) -> tuple[list[str], list[Path], Path | None]:
    """The command line for ``case`` (its file written into ``folder``), its input files, and
    the output it may write."""
    out = folder / "out.toml"
    if case.kind != "armylist":  # the scenario's own list, as shipped
        (folder / "armylists" / "france.toml").write_bytes(ARMY.read_bytes())
    if case.kind == "scenario":
        target = folder / "scenario.toml"
        target.write_bytes(case.data)
        return ["place", str(target), "-o", str(out)], [target], out
    if case.kind == "armylist":
        target = folder / "armylists" / "france.toml"
        target.write_bytes(case.data)
        return ["points", str(target)], [target], None
    if case.kind == "roster":
        target = folder / "roster.toml"
        target.write_bytes(case.data)
        return ["points", "testland", "--roster", str(target)], [target], None
    target = folder / "move.toml"
    target.write_bytes(case.data)
    scenario = folder / "scenario.toml"
    scenario.write_bytes(SCENARIO.read_bytes())
    argv = ["move", str(scenario), "--unit", "fr-hussars", "--to", str(target), "--apply", "-o", str(out)]
    return argv, [target, scenario], out


class Hang(Exception):
    """A run took longer than its time limit."""


@dataclass
class Outcome:
    """What a run did: its exit code (``None``: it hung), and the contract's breaches."""

    code: int | None
    seconds: float
    problems: list[str]


def run_case(case: Case, folder: Path, main: Callable[[list[str]], int], *, limit_s: int = 60) -> Outcome:
    """Run ``case`` in ``folder`` (emptied of earlier outputs) and check the contract."""
    from szwadron.loading import _load_army_list_cached

    _load_army_list_cached.cache_clear()  # a file rewritten within one clock tick is read again
    argv, inputs, out = command(case, folder)
    if out is not None and out.exists():
        out.unlink()
    before = {p: p.read_bytes() for p in inputs}
    listing = sorted(p.name for p in folder.iterdir())

    def alarm(signum: int, frame: Any) -> None:
        raise Hang

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(limit_s)
    t0 = time.perf_counter()
    code: int | None
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse
                code = exc.code if isinstance(exc.code, int) else 2
    except Hang:
        code = None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    seconds = time.perf_counter() - t0
    problems: list[str] = []
    if code is None:
        problems.append(f"no answer within {limit_s} s")
    elif code not in (0, 1, 2):
        problems.append(f"exit {code}: {sink.getvalue().strip()[-300:]}")
    for p, data in before.items():
        if p.read_bytes() != data:
            problems.append(f"input {p.name} changed")
    after = sorted(p.name for p in folder.iterdir())
    written = sorted(set(after) - set(listing))
    if out is not None and code == 0:
        if written != [out.name]:
            problems.append(f"exit 0 but wrote {written}")
        else:
            from szwadron.loading import load_scenario

            try:
                load_scenario(out)
            except Exception as exc:  # the output must be whole
                problems.append(f"the output does not load: {exc}")
    elif written:
        problems.append(f"exit {code} but wrote {written}")
    if "Traceback" in sink.getvalue():
        problems.append("a traceback was printed")
    return Outcome(code, seconds, problems)


@contextlib.contextmanager
def inside(folder: Path) -> Iterator[None]:
    """Run in ``folder`` (army lists by id are looked up in ``./armylists``)."""
    here = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(here)


__all__ = ["Case", "Outcome", "cases", "corpus", "inside", "mutate", "prepare", "run_case"]
