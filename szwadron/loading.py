"""Reading scenario and army-list files, with one clear message for every kind of bad input.

Every failure raises :class:`~szwadron.errors.InvalidDataError` naming the file and the field path
(``units[2].bases[0].x``) or the line and column, and what was expected.

Army lists are looked up in the scenario's folder, its parent's ``armylists/``, the current
directory's ``armylists/``, then the lists bundled with the package (docs/decisions.md "Files").
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from szwadron.errors import InvalidDataError
from szwadron.files import STDIN_NAME, check_nesting, is_stdio, read_input
from szwadron.i18n import N_, _, ngettext
from szwadron.limits import MAX_NESTING
from szwadron.models import ArmyList, Profile, Scenario

M = TypeVar("M", bound=BaseModel)

_PACKAGE_DIR = Path(__file__).resolve().parent


def bundled_dir(name: str) -> Path:
    """Folder of bundled data (``armylists`` or ``scenarios``): inside an installed wheel it is
    ``szwadron/_bundled/NAME``; in a source checkout (editable install) the repository's ``NAME/``."""
    inside = _PACKAGE_DIR / "_bundled" / name
    if inside.is_dir():
        return inside
    return _PACKAGE_DIR.parent / name


def inside_installed_package(path: str | Path) -> bool:
    """Whether ``path`` lies inside an installed copy of szwadron (a wheel's ``_bundled/`` data, or
    anything under ``site-packages``/``dist-packages``): files no command may rewrite (issue 16;
    a source checkout, installed editable, is the user's own and may be rewritten).

    >>> inside_installed_package("/usr/lib/python3/dist-packages/szwadron/data/points_model.toml")
    True
    >>> inside_installed_package("/home/me/szwadron/armylists/france.toml")
    False
    """
    p = Path(path).absolute()
    try:
        p = p.resolve()
    except OSError:
        pass
    parts = p.parts
    if any(part in ("site-packages", "dist-packages") for part in parts):
        return True
    return any(a == "szwadron" and b == "_bundled" for a, b in pairwise(parts))


def bundled_scenario(name: str = "example") -> Path:
    """Path of a bundled scenario, e.g. ``bundled_scenario("example")``."""
    return bundled_dir("scenarios") / f"{name}.toml"


def source_name(path: str | Path) -> str:
    """How a file argument is named in messages: ``<stdin>`` for ``-``, else the path."""
    return STDIN_NAME if is_stdio(path) else str(path)


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file (``-``: standard input, :func:`~szwadron.files.read_stdin`); errors name
    the file (``<stdin>``) and the line and column."""
    name = source_name(path)  # the name in messages
    raw = read_input(path)  # regular files only, at most MAX_FILE_BYTES (issue 16)
    return parse_toml_bytes(raw, source=name)


def parse_toml_bytes(raw: bytes, *, source: str) -> dict[str, Any]:
    """Parse the bytes of a TOML file; errors name ``source`` and the line and column. Nesting
    deeper than :data:`~szwadron.limits.MAX_NESTING` is refused before the reader recurses."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InvalidDataError(
            _("line {line}: not UTF-8 text (byte 0x{byte}); save the file as UTF-8").format(
                line=line, byte=f"{raw[exc.start]:02x}"
            ),
            source=source,
        ) from None
    return parse_toml_text(text, source=source)


def parse_toml_text(text: str, *, source: str) -> dict[str, Any]:
    """Parse TOML text (see :func:`parse_toml_bytes`)."""
    if not text.strip():
        raise InvalidDataError(_("the file is empty; expected TOML"), source=source)
    check_nesting(text, source=source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidDataError(_("malformed TOML: {reason}").format(reason=exc), source=source) from None
    except RecursionError:  # nesting the count above missed: still bad input, not a bug
        raise InvalidDataError(
            _("lists and tables nested too deep (at most {most})").format(most=MAX_NESTING), source=source
        ) from None
    if not data:
        raise InvalidDataError(_("the file holds no data (only comments?)"), source=source)
    return data


def format_location(loc: Sequence[int | str], data: Any = None) -> str:
    """``('units', 2, 'bases', 0, 'x')`` → ``units[2].bases[0].x``; a unit's id is added when the
    data is at hand, so the user finds it: ``units[2] (id 'fr-1').bases[0].x``.

    >>> format_location(("units", 2, "bases", 0, "x"))
    'units[2].bases[0].x'
    """
    out = ""
    node = data
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            ident = None
            if isinstance(node, list) and 0 <= part < len(node):
                node = node[part]
                if isinstance(node, dict) and isinstance(node.get("id"), str):
                    ident = node["id"]
            else:
                node = None
            if ident:
                out += " " + _("(id {id})").format(id=repr(ident))
        else:
            # pydantic adds names of union members and validators to locations; keep field names
            if part in ("function-after[_check()]", "function-before[_codes()]"):
                continue
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out or _("(top level)")


#: pydantic's error types in the project's own words (issue 16): no class names, no "Input should".
_PLAIN: dict[str, str] = {
    "model_type": N_("expected a table ({ key = value, ... } or a [section])"),
    "model_attributes_type": N_("expected a table ({ key = value, ... } or a [section])"),
    "dict_type": N_("expected a table ({ key = value, ... } or a [section])"),
    "list_type": N_("expected a list [ ... ]"),
    "tuple_type": N_("expected a list [ ... ]"),
    "int_type": N_("expected a whole number"),
    "int_parsing": N_("expected a whole number"),
    "int_from_float": N_("expected a whole number"),
    "float_type": N_("expected a number"),
    "float_parsing": N_("expected a number"),
    "bool_type": N_("expected true or false"),
    "bool_parsing": N_("expected true or false"),
    "string_type": N_("expected text in quotes"),
    "greater_than": N_("expected a number greater than {gt}"),
    "greater_than_equal": N_("expected a number of at least {ge}"),
    "less_than": N_("expected a number less than {lt}"),
    "less_than_equal": N_("expected a number of at most {le}"),
    "string_too_short": N_("expected text of at least {min_length} characters"),
    "string_too_long": N_("expected text of at most {max_length} characters"),
    "string_pattern_mismatch": N_("expected letters, digits, '_', '.', '-' only (no spaces, '/' or ':')"),
    "enum": N_("expected {expected}"),
    "literal_error": N_("expected {expected}"),
}


def _shown(value: Any) -> str:
    """A bad value as a file writes it, cut short (a table or list is named, not printed)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return _("a table")
    if isinstance(value, (list, tuple)):
        return _("a list")
    if isinstance(value, str):
        return _("the text {text}").format(text=repr(value[:30])) + ("..." if len(value) > 30 else "")
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _describe(err: Any) -> str:
    msg = str(err["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind == "missing":
        msg = _("missing (required field)")
    elif kind == "extra_forbidden":
        msg = _("unknown field (check the spelling; see the JSON Schema in schemas/)")
    elif kind == "too_short":
        msg = _("expected at least {least} entries, got {got}").format(
            least=ctx.get("min_length"), got=ctx.get("actual_length")
        )
    elif kind == "too_long":
        msg = _("expected at most {most} entries, got {got}").format(
            most=ctx.get("max_length"), got=ctx.get("actual_length")
        )
    elif kind == "finite_number":
        msg = _("expected a finite number (NaN and infinity are not allowed)")
    elif kind in _PLAIN:
        plain = _(_PLAIN[kind])
        try:
            msg = plain.format(**{k: _plain_ctx(v) for k, v in ctx.items()})
        except (KeyError, IndexError):
            msg = plain.split(" {")[0]
        if "input" in err:
            got = err["input"]
            msg += ", " + _("got {value}").format(value=_shown(got))
            if isinstance(got, bool) and kind in ("int_type", "float_type"):
                msg += " " + _("(true/false is not a number)")
            elif isinstance(got, str) and kind in ("int_type", "float_type"):
                msg += " " + _("(write numbers without quotes)")
    return msg


def _plain_ctx(value: Any) -> str:
    """A bound or the accepted values, as pydantic gives them, in plain words."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def validation_message(exc: ValidationError, data: Any, *, limit: int = 5) -> str:
    """One message for a pydantic error: each problem as ``field.path: what was expected``."""
    errors = exc.errors(include_url=False)
    # a list whose entries are all bad is also reported "too short" (its valid entries counted):
    # keep the errors of the entries, which say what is wrong
    inner = [tuple(e["loc"]) for e in errors]
    errors = [
        e
        for e in errors
        if not (
            e["type"] == "too_short"
            and any(len(loc) > len(e["loc"]) and loc[: len(e["loc"])] == tuple(e["loc"]) for loc in inner)
        )
    ]
    lines = []
    for err in errors[:limit]:
        loc = [p for p in err["loc"] if not (isinstance(p, str) and "[" in p and "(" in p)]
        where, what = format_location(loc, data), _describe(err)
        # model-level checks name their field first ("initial_strength: ..."): join the paths
        head, sep, rest = what.partition(": ")
        if sep and re.fullmatch(r"[A-Za-z_][\w.\[\]]*", head):
            where, what = (f"{where}.{head}" if loc else head), rest
        lines.append(f"{where}: {what}")
    more = (
        "\n  "
        + ngettext("(and {n} more problems)", "(and {n} more problems)", len(errors) - limit).format(
            n=len(errors) - limit
        )
        if len(errors) > limit
        else ""
    )
    return "\n  ".join(lines) + more


def validate(model: type[M], data: Any, *, source: str, context: dict[str, Any] | None = None) -> M:
    """Validate ``data`` as ``model``; errors become :class:`InvalidDataError` naming ``source``."""
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise InvalidDataError(validation_message(exc, data), source=source) from None


@cache
def _load_army_list_cached(path: Path, mtime_ns: int) -> ArmyList:
    return validate(ArmyList, read_toml(path), source=str(path))


def load_army_list(path: str | Path) -> ArmyList:
    """Read and validate an army list file (``-``: standard input)."""
    if is_stdio(path):
        return validate(ArmyList, read_toml(path), source=STDIN_NAME)
    p = Path(path)
    try:
        mtime = p.stat().st_mtime_ns
    except OSError:
        raise InvalidDataError(_("no such file"), source=str(p)) from None
    return _load_army_list_cached(p.resolve(), mtime)


def army_list_search_path(scenario_path: str | Path | None = None) -> list[Path]:
    """The folders searched for army lists, in order (docs/decisions.md "Files"); for ``-``
    (standard input) as for a file in the current directory."""
    folders: list[Path] = []
    if scenario_path is not None:
        here = Path(scenario_path).resolve().parent
        folders += [here, here.parent / "armylists"]
    folders += [Path.cwd() / "armylists", bundled_dir("armylists")]
    unique: list[Path] = []
    for f in folders:
        if f not in unique:
            unique.append(f)
    return unique


def find_army_list(list_id: str, folders: Iterable[Path]) -> Path | None:
    """The first ``LIST_ID.toml`` in ``folders``."""
    for folder in folders:
        candidate = folder / f"{list_id}.toml"
        if candidate.is_file():
            return candidate
    return None


class ProfileResolver:
    """Resolves ``LIST:PROFILE`` references against army lists found on a search path."""

    def __init__(self, folders: Sequence[Path]) -> None:
        self.folders = list(folders)
        self.lists: dict[str, ArmyList] = {}

    def army_list(self, list_id: str) -> ArmyList:
        if list_id not in self.lists:
            path = find_army_list(list_id, self.folders)
            if path is None:
                where = ", ".join(str(f) for f in self.folders)
                raise ValueError(
                    _("unknown army list {id} (no {name}.toml in: {where})").format(
                        id=repr(list_id), name=list_id, where=where
                    )
                )
            army = load_army_list(path)
            if army.id != list_id:
                raise ValueError(
                    _("army list file {path} has id {id}, expected {expected}").format(
                        path=path, id=repr(army.id), expected=repr(list_id)
                    )
                )
            self.lists[list_id] = army
        return self.lists[list_id]

    def __call__(self, reference: str, default_list: str | None) -> Profile:
        list_id, sep, profile_id = reference.partition(":")
        if not sep:
            if default_list is None:
                raise ValueError(
                    _("profile reference {reference}: expected 'ARMYLIST:PROFILE'").format(
                        reference=repr(reference)
                    )
                )
            list_id, profile_id = default_list, reference
        if not list_id or not profile_id:
            raise ValueError(
                _("profile reference {reference}: expected 'ARMYLIST:PROFILE'").format(
                    reference=repr(reference)
                )
            )
        army = self.army_list(list_id)
        try:
            return army.profile(profile_id)
        except KeyError:
            known = ", ".join(p.id for p in army.profiles)
            raise ValueError(
                _("unknown profile {profile} in army list {army} (it has: {known})").format(
                    profile=repr(profile_id), army=repr(list_id), known=known
                )
            ) from None


def open_army_list(name: str) -> ArmyList:
    """An army list by id (looked up along :func:`army_list_search_path`) or by file path.

    A player's roster file given where an army list is expected is refused with a message that
    says how to use it.
    """
    path = Path(name)
    if is_stdio(name) or path.suffix.lower() == ".toml" or path.exists():
        try:
            return load_army_list(path)
        except InvalidDataError:
            _refuse_roster_file(path)
            raise
    folders = army_list_search_path()
    found = find_army_list(name, folders)
    if found is None:
        known = sorted(
            {p.stem for folder in folders if Path(folder).is_dir() for p in Path(folder).glob("*.toml")}
        )
        raise InvalidDataError(
            _(
                "unknown army list {id} (no {name}.toml in the army-list folders {folders}; they hold: {known})"
            ).format(
                id=repr(name),
                name=name,
                folders=", ".join(str(f) for f in folders),
                known=", ".join(known) or "-",
            )
        )
    return load_army_list(found)


def _refuse_roster_file(path: Path) -> None:
    """Raise a clear message when ``path``, given as an army list, is a player's roster file."""
    data = read_toml(path)
    if "army" in data and "profiles" not in data:
        raise InvalidDataError(
            _(
                "a roster file (of army list {army}), not an army list: give it as 'szwadron points "
                "{army_id} --roster {path}' or 'szwadron balance {path} ...'"
            ).format(army=repr(data["army"]), army_id=data["army"], path=path),
            source=source_name(path),
        )


def _qualify_base_profiles(data: dict[str, Any]) -> dict[str, Any]:
    """A base's (or a formation's limber's) bare ``PROFILE`` refers to the army list of its unit's
    ``LIST:PROFILE``: rewrite it as ``LIST:PROFILE`` before validation (the raw data is not
    modified)."""
    units = data.get("units")
    if not isinstance(units, list):
        return data
    out_units: list[Any] = []
    for unit in units:
        ref = unit.get("profile") if isinstance(unit, dict) else None
        bases = unit.get("bases") if isinstance(unit, dict) else None
        if isinstance(ref, str) and ":" in ref and isinstance(bases, list):
            list_id = ref.partition(":")[0]
            bases = [
                {**b, "profile": f"{list_id}:{b['profile']}"}
                if isinstance(b, dict) and isinstance(b.get("profile"), str) and ":" not in b["profile"]
                else b
                for b in bases
            ]
            unit = {**unit, "bases": bases}
        formation = unit.get("formation") if isinstance(unit, dict) else None
        if isinstance(ref, str) and ":" in ref and isinstance(formation, dict):
            limber = formation.get("limber")
            if isinstance(limber, str) and ":" not in limber:
                formation = {**formation, "limber": f"{ref.partition(':')[0]}:{limber}"}
                unit = {**unit, "formation": formation}
        out_units.append(unit)
    return {**data, "units": out_units}


def parse_scenario(data: dict[str, Any], *, source: str, folders: Sequence[Path]) -> Scenario:
    """Validate scenario data, resolving profile references against ``folders``."""
    resolver = ProfileResolver(folders)
    return validate(
        Scenario, _qualify_base_profiles(data), source=source, context={"resolve_profile": resolver}
    )


def load_scenario(path: str | Path) -> Scenario:
    """Read, validate and resolve a scenario file (``-``: standard input, whose army lists are
    looked up as for a file in the current directory)."""
    data = read_toml(path)
    return parse_scenario(data, source=source_name(path), folders=army_list_search_path(path))


__all__ = [
    "ProfileResolver",
    "army_list_search_path",
    "bundled_dir",
    "bundled_scenario",
    "find_army_list",
    "format_location",
    "inside_installed_package",
    "load_army_list",
    "load_scenario",
    "open_army_list",
    "parse_scenario",
    "parse_toml_bytes",
    "parse_toml_text",
    "read_toml",
    "source_name",
    "validate",
    "validation_message",
]
