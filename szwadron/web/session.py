"""The engine behind ``szwadron serve``: one loaded scenario and the answers the page asks for.

Every answer comes from the library functions the command line calls (``check``, ``measure``,
``fire``, ``targets``, ``move``, ``reach``, ``melee``, ``morale``), on the scenario as the page
shows it: the page sends, with each request, the positions of the units it has moved (a *patch*
over the loaded file, every base of each unit as ``[x, y, facing]``). The patch is validated by
the same field types as a scenario file (finite coordinates within the table limits, known units,
one pose per base), so bad input is one :class:`~szwadron.errors.InvalidDataError` naming the
field, and the server answers 400.

Files are read and written only inside the scenario's folder (:meth:`Session.inside`), and saving
refuses to overwrite an existing file — the input above all — unless the request says
``overwrite``. The saved file is the input file with the moved bases' ``x``, ``y`` and ``facing``
changed in place (tomlkit keeps its comments and layout).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import numpy as np
import shapely
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from szwadron.errors import IllegalActionError, InvalidDataError
from szwadron.files import write_atomic
from szwadron.geometry.arcs import fire_edges, touched_edges
from szwadron.geometry.bases import EDGE_NAMES
from szwadron.geometry.battlefield import Battlefield
from szwadron.loading import load_scenario, validation_message
from szwadron.models import Coordinate, FiniteFloat, Identifier, Profile, Scenario

#: A pose as the page sends it: ``[x, y, facing]`` (cm, cm, degrees counter-clockwise from +x).
Pose = tuple[Coordinate, Coordinate, FiniteFloat]

#: Digits kept of a coordinate the page sends (0.0001 cm): what is checked is what is saved.
POSE_DIGITS = 4


class _Request(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    positions: dict[Identifier, tuple[Pose, ...]] = Field(
        default_factory=dict, description="Units the page has moved: every base's [x, y, facing]."
    )


class CheckRequest(_Request):
    """``check``: the audit of the table as the page shows it."""


class MeasureRequest(_Request):
    """``measure``: edge to edge between two bases or units (4.5.2)."""

    a: str = Field(min_length=1, max_length=200)
    b: str = Field(min_length=1, max_length=200)


class TargetsRequest(_Request):
    """``targets``: every enemy unit the shooter could fire at, and the arcs of its bases."""

    shooter: str = Field(min_length=1, max_length=200)
    march: bool = False
    ammo: str | None = Field(None, max_length=200)


class FireRequest(TargetsRequest):
    """``fire``: the shooter at one target."""

    target: str = Field(min_length=1, max_length=200)


class MoveRequest(_Request):
    """``move``: ``positions`` is the table before the move, ``to`` the unit's new poses."""

    unit: str = Field(min_length=1, max_length=200)
    to: tuple[Pose, ...] = Field(min_length=1)
    charge: tuple[str, ...] = ()
    march: bool = False


class ReachRequest(_Request):
    """``reach``: can the unit bring a base into contact with the target this turn."""

    unit: str = Field(min_length=1, max_length=200)
    target: str = Field(min_length=1, max_length=200)


class MeleeRequest(_Request):
    """``melee``: the melee between two units in contact."""

    attacker: str = Field(min_length=1, max_length=200)
    defender: str = Field(min_length=1, max_length=200)
    continuing: bool = False


class MoraleRequest(_Request):
    """``morale``: the morale phase of one side."""

    side: Literal["A", "B"]


class SaveRequest(_Request):
    """Save the table as a scenario file in the scenario's folder."""

    name: str = Field(min_length=1, max_length=200)
    overwrite: bool = False


class OpenRequest(BaseModel):
    """Open another scenario file of the same folder."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1, max_length=200)


_R = TypeVar("_R", bound=BaseModel)


def parse_request(model: type[_R], data: Any) -> _R:
    """Validate a request body; one message naming the field on failure."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InvalidDataError(validation_message(exc, data), source="request") from None


#: A file name the server may read or write: a plain name in the scenario's folder, ``.toml``.
_FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\- ]{0,120}\.toml$")


@dataclass
class Session:
    """The loaded scenario: its file, folder and validated model."""

    path: Path
    scenario: Scenario
    text: str
    _unit_index: dict[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path) -> Session:
        """Load a scenario file (the CLI's loader: the same messages for bad input)."""
        p = Path(path).resolve()
        scenario = load_scenario(p)
        return cls(p, scenario, p.read_text(encoding="utf-8"))

    def __post_init__(self) -> None:
        self._unit_index = {u.id: k for k, u in enumerate(self.scenario.units)}

    @property
    def folder(self) -> Path:
        """The scenario's folder: the only place files are read from or written to."""
        return self.path.parent

    def inside(self, name: str) -> Path:
        """The path of file ``name`` in the scenario's folder; refuses anything else (a folder
        part, ``..``, a hidden file, another extension)."""
        if not _FILE_NAME.match(name) or ".." in name:
            raise InvalidDataError(
                f"name: {name!r} is not a plain file name ending in .toml "
                "(letters, digits, '-', '_', '.', spaces; no folders)",
                source="request",
            )
        target = (self.folder / name).resolve()
        if target.parent != self.folder:
            raise InvalidDataError(f"name: {name!r} is outside the scenario's folder", source="request")
        return target

    # -- the table as the page shows it ---------------------------------------------------------

    def table(self, positions: Mapping[str, tuple[Pose, ...]]) -> Scenario:
        """The scenario with the page's positions (a patch over the loaded file)."""
        if not positions:
            return self.scenario
        units = list(self.scenario.units)
        for uid, poses in positions.items():
            k = self._unit_index.get(uid)
            if k is None:
                known = ", ".join(self._unit_index) or "none"
                raise InvalidDataError(f"positions: no unit {uid!r} (units: {known})", source="request")
            unit = units[k]
            if len(poses) != len(unit.bases):
                raise InvalidDataError(
                    f"positions.{uid}: {len(poses)} poses for {len(unit.bases)} bases; "
                    "send one [x, y, facing] per base, in the file's order",
                    source="request",
                )
            bases = tuple(b.model_copy(update=_pose(p)) for b, p in zip(unit.bases, poses, strict=True))
            units[k] = unit.model_copy(update={"bases": bases})
        return self.scenario.model_copy(update={"units": tuple(units)})

    def battlefield(self, positions: Mapping[str, tuple[Pose, ...]]) -> Battlefield:
        """The :class:`Battlefield` of :meth:`table`."""
        return Battlefield(self.table(positions))

    # -- the answers ----------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Table, terrain (GeoJSON), units and bases, as loaded."""
        bf = Battlefield(self.scenario)
        terrain = []
        for feature, shape in zip(self.scenario.terrain, bf.terrain, strict=True):
            terrain.append(
                {
                    "id": feature.id,
                    "name": feature.name,
                    "kind": str(feature.kind),
                    "level": shape.level,
                    "linear": feature.line is not None,
                    "geometry": shapely.to_geojson(shapely.set_precision(shape.polygon, 1e-4)),
                }
            )
        units = []
        for unit in self.scenario.units:
            units.append(
                {
                    "id": unit.id,
                    "name": unit.name,
                    "side": unit.side,
                    "kind": str(unit.profile.kind),
                    "profile": unit.profile.id,
                    "state": str(unit.state),
                    "range": _reach_of_fire(unit.profile),
                    "bases": [
                        {
                            "x": b.x,
                            "y": b.y,
                            "facing": b.facing,
                            "width": unit.base_size(i)[0],
                            "depth": unit.base_size(i)[1],
                            "kind": str(unit.base_profile(i).kind),
                        }
                        for i, b in enumerate(unit.bases)
                    ],
                }
            )
        return {
            "file": self.path.name,
            "name": self.scenario.name,
            "description": self.scenario.description,
            "table": {"width": self.scenario.table.width, "depth": self.scenario.table.depth},
            "terrain": terrain,
            "units": units,
        }

    def check(self, req: CheckRequest) -> dict[str, Any]:
        """The ``check --json`` document."""
        from szwadron.table.audit import audit

        return audit(self.table(req.positions)).to_json()

    def measure(self, req: MeasureRequest) -> dict[str, Any]:
        """The ``measure --json`` document."""
        return self.battlefield(req.positions).measure(req.a, req.b).to_json()

    def targets(self, req: TargetsRequest) -> dict[str, Any]:
        """The ``targets --json`` document, with ``arcs``: each base's edges, which it may fire
        through (4.4.3) and which an own base touches (4.4.2)."""
        from szwadron.table.fire import targets

        bf = self.battlefield(req.positions)
        doc = targets(bf, req.shooter, march=req.march, ammunition=req.ammo).to_json()
        doc["arcs"] = arcs(bf, req.shooter)
        return doc

    def fire(self, req: FireRequest) -> dict[str, Any]:
        """The ``fire --json`` document."""
        from szwadron.table.fire import fire

        bf = self.battlefield(req.positions)
        return fire(bf, req.shooter, req.target, march=req.march, ammunition=req.ammo).to_json()

    def move(self, req: MoveRequest) -> dict[str, Any]:
        """The ``move --json`` document: ``positions`` before, ``to`` the moving unit's poses
        (every base, in order; the bases that stay are left out of the move)."""
        from szwadron.table.movement import check_move

        bf = self.battlefield(req.positions)
        ks = bf.resolve(req.unit)
        if "/" in req.unit or len(ks) != len(req.to):
            raise InvalidDataError(
                f"to: {len(req.to)} poses; give one [x, y, facing] per base of the unit "
                f"{req.unit!r} ({len(ks)})",
                source="request",
            )
        moved = [
            {"index": i, "x": p[0], "y": p[1], "facing": p[2]}
            for i, (k, p) in enumerate(zip(ks.tolist(), req.to, strict=True))
            if not _same(p, (float(bf.x[k]), float(bf.y[k]), float(bf.facing[k])))
        ]
        if not moved:
            raise InvalidDataError("to: no base moves; drag the unit to a new pose", source="request")
        report = check_move(bf, req.unit, {"bases": moved}, charge=req.charge, march=req.march)
        return report.to_json()

    def reach(self, req: ReachRequest) -> dict[str, Any]:
        """The ``reach --json`` document."""
        from szwadron.table.reach import reach

        return reach(self.battlefield(req.positions), req.unit, req.target).to_json()

    def melee(self, req: MeleeRequest) -> dict[str, Any]:
        """The ``melee --json`` document; no melee (no figure in contact, 5.3.2) is
        ``{"error", "rule"}`` as the CLI prints it."""
        from szwadron.table.melee import table_melee

        bf = self.battlefield(req.positions)
        try:
            return table_melee(bf, req.attacker, req.defender, continuing=req.continuing).to_json()
        except IllegalActionError as exc:
            return {"error": exc.detail, "rule": exc.rule}

    def morale(self, req: MoraleRequest) -> dict[str, Any]:
        """The ``morale --json`` document."""
        from szwadron.table.morale_phase import morale_phase

        return morale_phase(self.battlefield(req.positions), req.side).to_json()

    # -- files ----------------------------------------------------------------------------------

    def toml(self, positions: Mapping[str, tuple[Pose, ...]]) -> str:
        """The scenario file with the page's positions: the input's text, each moved base's
        ``x``, ``y`` and ``facing`` changed in place (comments and layout kept)."""
        import tomlkit

        self.table(positions)  # validates the patch
        doc = tomlkit.parse(self.text)
        units = doc.get("units")
        for uid, poses in positions.items():
            k = self._unit_index[uid]
            assert units is not None
            bases = units[k]["bases"]
            for base, (x, y, facing) in zip(bases, poses, strict=True):
                base["x"] = _number(x)
                base["y"] = _number(y)
                base["facing"] = _number(facing)
        return tomlkit.dumps(doc)

    def save(self, req: SaveRequest) -> dict[str, Any]:
        """Write the table as scenario ``name`` in the scenario's folder. An existing file (the
        input above all) is overwritten only with ``overwrite``."""
        target = self.inside(req.name)
        if target.exists() and not req.overwrite:
            what = "the input file" if target == self.path else "an existing file"
            raise SaveConflict(f"{req.name} is {what}; give another name, or choose to overwrite it")
        text = self.toml(req.positions)
        load_check = _parsed(text, target)

        def write(tmp: Path) -> None:
            tmp.write_text(text, encoding="utf-8")

        write_atomic(target, write)
        return {"saved": target.name, "units": len(load_check.units), "overwritten": req.overwrite}

    def open(self, req: OpenRequest) -> Session:
        """Another scenario file of the same folder."""
        target = self.inside(req.name)
        if not target.is_file():
            raise InvalidDataError(f"name: no file {req.name!r} in the scenario's folder", source="request")
        return Session.load(target)


class SaveConflict(Exception):
    """Saving would overwrite a file without the user's say-so (HTTP 409)."""


def _reach_of_fire(profile: Profile) -> float:
    """How far the unit's arcs are drawn: its longest range (Z, 4.5.1; an artillery's longest
    ammunition, 7.1.3), 0 when it has no fire dice (SO 0)."""
    ranges = [(profile.fire, profile.range)] + [(a.fire, a.range) for a in profile.ammunition]
    return max((z for so, z in ranges if so > 0), default=0.0)


def _pose(p: Pose) -> dict[str, float]:
    return {"x": round(p[0], POSE_DIGITS), "y": round(p[1], POSE_DIGITS), "facing": round(p[2], POSE_DIGITS)}


def _same(a: Pose, b: tuple[float, float, float]) -> bool:
    return all(abs(round(u, POSE_DIGITS) - v) < 1e-9 for u, v in zip(a, b, strict=True))


def _number(v: float) -> float:
    """A coordinate as the file shows it: a float rounded as it was checked."""
    return float(round(v, POSE_DIGITS))


def _parsed(text: str, target: Path) -> Scenario:
    """The saved text read back with the scenario loader (a file that would not load is not
    written)."""
    import tomllib

    from szwadron.loading import army_list_search_path, parse_scenario

    return parse_scenario(tomllib.loads(text), source=str(target), folders=army_list_search_path(target))


def arcs(bf: Battlefield, unit: str) -> list[dict[str, Any]]:
    """4.4.1-4.4.3 — per base of ``unit``: its corners, the edges it may fire through (4.4.3:
    artillery the front only) and the edges an own base touches (4.4.2, blocked)."""
    ks = bf.resolve(unit)
    out = []
    side = bf.side[ks[0]] if len(ks) else 0
    for k in ks.tolist():
        near = bf.tree.query(shapely.buffer(bf.polygons[k], 0.05))
        own = [int(j) for j in near if j != k and bf.side[j] == side]
        touched = touched_edges(bf.corners[k], bf.corners[own]) if own else np.zeros(4, dtype=bool)
        may = fire_edges(bf.kinds[k])
        out.append(
            {
                "base": bf.base_ids[k],
                "corners": np.round(bf.corners[k], 6).tolist(),
                "edges": [
                    {"edge": e, "fires": e in may, "touched": bool(t)}
                    for e, t in zip(EDGE_NAMES, touched.tolist(), strict=True)
                ],
            }
        )
    return out


__all__ = [
    "CheckRequest",
    "FireRequest",
    "MeasureRequest",
    "MeleeRequest",
    "MoraleRequest",
    "MoveRequest",
    "OpenRequest",
    "ReachRequest",
    "SaveConflict",
    "SaveRequest",
    "Session",
    "TargetsRequest",
    "arcs",
    "parse_request",
]
