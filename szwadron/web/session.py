"""The engine behind ``szwadron serve``: one loaded scenario and the answers the page asks for.

Every answer comes from the library functions the command line calls (``check``, ``measure``,
``fire``, ``targets``, ``move``, ``reach``, ``melee``, ``disengage``, ``morale``), on the scenario
as the page shows it: the page sends, with each request, the positions of the units it has moved (a *patch*
over the loaded file, every base of each unit as ``[x, y, facing]``). The patch is validated by
the same field types as a scenario file (finite coordinates within the table limits, known units,
one pose per base), so bad input is one :class:`~szwadron.errors.InvalidDataError` naming the
field, and the server answers 400.

Files are read and written only inside the scenario's folder (:meth:`Session.inside`), and saving
refuses to overwrite an existing file — the input above all — unless the request says
``overwrite``. The saved file is the input file with the moved bases' ``x``, ``y`` and ``facing``
changed in place (tomlkit keeps its comments and layout).

The session also plays the game (:mod:`szwadron.web.play`): actions applied through
:mod:`szwadron.game.apply` change its text and are appended to its game log; undo replays the log
without its last line; units placed and terrain drawn change the set-up before the first action.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from szwadron.errors import IllegalActionError, InvalidArgumentError, InvalidDataError
from szwadron.files import read_input, write_atomic
from szwadron.game.apply import (
    Position,
    _expand_if_formation,
    apply_combined_melee,
    apply_declare,
    apply_disengage,
    apply_fire,
    apply_melee,
    apply_morale,
    apply_move,
    apply_next_phase,
    apply_push_up,
    check_push_up,
    position_from_text,
)
from szwadron.game.document import ScenarioDocument
from szwadron.game.log import append, dump_log, new_log, replay
from szwadron.geometry.arcs import fire_edges, touched_edges
from szwadron.geometry.bases import EDGE_NAMES, base_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.i18n import _, ngettext
from szwadron.loading import (
    army_list_search_path,
    load_army_list,
    load_scenario,
    parse_scenario,
)
from szwadron.models import Profile, Scenario
from szwadron.table.audit import audit
from szwadron.table.combined import CombinedMelee, combined_melee
from szwadron.table.disengage import disengage
from szwadron.table.fire import fire, targets
from szwadron.table.melee import table_melee
from szwadron.table.morale_phase import morale_phase
from szwadron.table.movement import check_move
from szwadron.table.movement.plan import pose_off_table
from szwadron.table.reach import reach
from szwadron.web.play import add_terrain, delete_terrain, edit_terrain, formation_entry, fresh_id, unit_block
from szwadron.web.requests import (
    POSE_DIGITS,
    ApplyCombinedMeleeRequest,
    ApplyDeclareRequest,
    ApplyDisengageRequest,
    ApplyFireRequest,
    ApplyMeleeRequest,
    ApplyMoraleRequest,
    ApplyMoveRequest,
    CheckRequest,
    CombinedMeleeRequest,
    DisengageRequest,
    FireRequest,
    MeasureRequest,
    MeleeRequest,
    MoraleRequest,
    MoveRequest,
    NextPhaseRequest,
    OpenRequest,
    PlaceRequest,
    Pose,
    ReachRequest,
    SaveRequest,
    TargetsRequest,
    TerrainAddRequest,
    TerrainDeleteRequest,
    TerrainEditRequest,
    UndoRequest,
    parse_request,
)

if TYPE_CHECKING:
    from szwadron.game.apply import Applied, Position

#: A file name the server may read or write: a plain name in the scenario's folder, ``.toml``.
_FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\- ]{0,120}\.toml$")

#: A game log's file name: the same, ending in ``.jsonl``.
_LOG_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\- ]{0,120}\.jsonl$")


@dataclass
class Session:
    """The loaded scenario: its file, folder and validated model."""

    path: Path
    scenario: Scenario
    text: str
    _unit_index: dict[str, int] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)
    """The game log (:mod:`szwadron.game.log`): its first line is the starting position."""

    @classmethod
    def load(cls, path: str | Path) -> Session:
        """Load a scenario file (the CLI's loader: the same messages for bad input)."""
        p = Path(path).resolve()
        scenario = load_scenario(p)
        return cls(p, scenario, read_input(p).decode("utf-8"))  # bounded, as the loader (issue 16)

    def __post_init__(self) -> None:

        self._unit_index = {u.id: k for k, u in enumerate(self.scenario.units)}
        if not self.log:
            self.log = new_log(self.text, self.path.name)

    @property
    def folder(self) -> Path:
        """The scenario's folder: the only place files are read from or written to."""
        return self.path.parent

    def inside(self, name: str, suffix: str = ".toml") -> Path:
        """The path of file ``name`` in the scenario's folder; refuses anything else (a folder
        part, ``..``, a hidden file, another extension than ``suffix``: .toml or .jsonl)."""
        pattern = _LOG_NAME if suffix == ".jsonl" else _FILE_NAME
        if not pattern.match(name) or ".." in name:
            raise InvalidDataError(
                _(
                    "name: {name!r} is not a plain file name ending in {suffix} (letters, digits, '-', '_', '.', spaces; no folders)"
                ).format(name=name, suffix=suffix),
                source="request",
            )
        target = (self.folder / name).resolve()
        if target.parent != self.folder:
            raise InvalidDataError(
                _("name: {name!r} is outside the scenario's folder").format(name=name), source="request"
            )
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
                raise InvalidDataError(
                    _("positions: no unit {uid!r} (units: {known})").format(uid=uid, known=known),
                    source="request",
                )
            unit = units[k]
            if len(poses) != len(unit.bases):
                raise InvalidDataError(
                    _(
                        "positions.{uid}: {poses} poses for {bases} bases; send one [x, y, facing] per base, in the file's order"
                    ).format(uid=uid, poses=len(poses), bases=len(unit.bases)),
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
                    "polygon": None if feature.polygon is None else [list(q) for q in feature.polygon],
                    "line": None if feature.line is None else [list(q) for q in feature.line],
                    "width": feature.width,
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
                    "pursuing": unit.pursuing,
                    "engaged_with": list(unit.engaged_with),
                    "acted": None if unit.acted is None else unit.acted.value,
                    "declared": unit.declared,
                    "stood": unit.stood,
                    "strength": unit.strength,
                    "lost": unit.figures_lost,
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
            "turn": None if self.scenario.turn is None else self.scenario.turn.model_dump(mode="json"),
            "log": [
                {"n": line["n"], "action": line["action"], "inputs": line["inputs"], "ruling": line["ruling"]}
                for line in self.log[1:]
            ],
        }

    def check(self, req: CheckRequest) -> dict[str, Any]:
        """The ``check --json`` document."""

        return audit(self.table(req.positions)).to_json()

    def measure(self, req: MeasureRequest) -> dict[str, Any]:
        """The ``measure --json`` document."""
        return self.battlefield(req.positions).measure(req.a, req.b).to_json()

    def targets(self, req: TargetsRequest) -> dict[str, Any]:
        """The ``targets --json`` document, with ``arcs``: each base's edges, which it may fire
        through (4.4.3) and which an own base touches (4.4.2)."""

        bf = self.battlefield(req.positions)
        doc = targets(bf, req.shooter, march=req.march, ammunition=req.ammo).to_json()
        doc["arcs"] = arcs(bf, req.shooter)
        return doc

    def fire(self, req: FireRequest) -> dict[str, Any]:
        """The ``fire --json`` document; in the opponent's turn (4.12) ``fire --reaction declared``
        or ``charged``, the target placed at ``target_at`` (``--target-at``)."""

        bf = self.battlefield(req.positions)
        return fire(
            bf,
            req.shooter,
            req.target,
            march=req.march,
            ammunition=req.ammo,
            reaction=_reaction(req),
            target_poses=_target_at(bf, req),
            source="target_at",
        ).to_json()

    def move(self, req: MoveRequest) -> dict[str, Any]:
        """The ``move --json`` document: ``positions`` before, ``to`` the moving unit's poses
        (every base, in order; the bases that stay are left out of the move)."""

        bf = self.battlefield(req.positions)
        moved = _moved(bf, req.unit, req.to)
        if req.push_up is not None:  # 5.6.1: only after a melee in which both stood
            check_push_up(bf.scenario, req.unit, req.push_up)
        report = check_move(
            bf, req.unit, {"bases": moved}, charge=req.charge, march=req.march, push_up=req.push_up
        )
        return report.to_json()

    def disengage(self, req: DisengageRequest) -> dict[str, Any]:
        """The ``move --disengage --json`` document (5.8): the test, each enemy's pursuit test
        and the move away (``to``, or the one found); a unit that may not disengage (5.8.1, 6.1)
        is ``{"error", "rule"}`` as the CLI prints it."""

        bf = self.battlefield(req.positions)
        try:
            move = None if req.to is None else {"bases": _moved(bf, req.unit, req.to)}
            return disengage(bf, req.unit, move).to_json()
        except IllegalActionError as exc:
            return {"error": exc.detail, "rule": exc.rule}

    def reach(self, req: ReachRequest) -> dict[str, Any]:
        """The ``reach --json`` document."""

        return reach(self.battlefield(req.positions), req.unit, req.target).to_json()

    def melee(self, req: MeleeRequest) -> dict[str, Any]:
        """The ``melee --json`` document; no melee (no figure in contact, 5.3.2) is
        ``{"error", "rule"}`` as the CLI prints it."""

        bf = self.battlefield(req.positions)
        try:
            return table_melee(bf, req.attacker, req.defender, continuing=req.continuing).to_json()
        except IllegalActionError as exc:
            return {"error": exc.detail, "rule": exc.rule}

    def melee_combined(self, req: CombinedMeleeRequest) -> dict[str, Any]:
        """The combined ``melee --attacker A B --defender D --json`` document (5.10), with
        ``dice_order``: the steps in which its dice are rolled (:func:`combined_dice_order`); no
        melee (5.3.2) or a declared defence the rules refuse (5.7.4) is ``{"error", "rule"}``."""

        _declared_in_continuing(req)
        bf = self.battlefield(req.positions)
        try:
            m = combined_melee(
                bf,
                req.attackers,
                req.defenders,
                continuing=req.continuing,
                declare_defence=req.declare_defence,
            )
        except IllegalActionError as exc:
            return {"error": exc.detail, "rule": exc.rule}
        return {**m.to_json(), "dice_order": combined_dice_order(m)}

    def morale(self, req: MoraleRequest) -> dict[str, Any]:
        """The ``morale --json`` document."""

        return morale_phase(self.battlefield(req.positions), req.side, enemy_pursuits=True).to_json()

    # -- the game and the set-up (szwadron.web.play) ------------------------------------------

    @property
    def actions(self) -> int:
        """Actions in the game log."""
        return len(self.log) - 1

    def _folders(self) -> list[Path]:

        return army_list_search_path(self.path)

    def _position(self) -> Position:

        return Position(self.text, str(self.path), self.scenario, tuple(self._folders()))

    def _set_text(self, text: str) -> None:
        """The session's position becomes ``text`` (read with the scenario loader first: a text
        that does not load is bad input and changes nothing)."""

        pos = position_from_text(text, self.path.name, folders=self._folders())
        self.text, self.scenario = text, pos.scenario
        self._unit_index = {u.id: k for k, u in enumerate(self.scenario.units)}

    def _setup_edit(self, text: str, what: str) -> None:
        """A change of the set-up: allowed before the first action; the log starts again."""

        if self.actions:
            raise SaveConflict(
                ngettext(
                    "{what}: the game log holds {n} action; the set-up is changed before the first action (undo the actions first)",
                    "{what}: the game log holds {n} actions; the set-up is changed before the first action (undo the actions first)",
                    self.actions,
                ).format(what=what, n=self.actions)
            )
        self._set_text(text)
        self.log = new_log(self.text, self.path.name)

    def _start_from(self, positions: Mapping[str, tuple[Pose, ...]]) -> None:
        """Units the page moved freely (set-up) become part of the starting position."""
        if positions:
            self._setup_edit(
                self.toml(positions),
                _("units moved without applying ({units})").format(units=", ".join(positions)),
            )

    def _advance(self, applied: Applied) -> dict[str, Any]:

        self.log = append(self.log, applied.record(), before=self.text, after=applied.text)
        self._set_text(applied.text)
        return {"applied": {**applied.record(), "notes": list(applied.notes)}, "state": self.state()}

    def apply_move(self, req: ApplyMoveRequest) -> dict[str, Any]:
        """Section 3 — the move applied (``move --apply``): the next position and the log line."""

        self._start_from(req.positions)
        moved = _moved(Battlefield(self.scenario), req.unit, req.to)
        if req.push_up is None:
            applied = apply_move(
                self._position(), req.unit, {"bases": moved}, charge=req.charge, march=req.march
            )
        elif req.charge or req.march:
            raise InvalidDataError(
                _("a push-up (5.6) is a move of its own: no charge, march or move after fire"),
                source="request",
            )
        else:  # 5.6: part of the melee, not an action (move --push-up --apply)
            applied = apply_push_up(self._position(), req.unit, req.push_up, {"bases": moved})
        return self._advance(applied)

    def apply_disengage(self, req: ApplyDisengageRequest) -> dict[str, Any]:
        """5.8 — the disengagement applied with its dice (``move --disengage --apply``):
        ``positions`` the table before it, ``to`` the dragged move (none: the one found)."""

        self._start_from(req.positions)
        move = None if req.to is None else {"bases": _moved(Battlefield(self.scenario), req.unit, req.to)}
        applied = apply_disengage(
            self._position(), req.unit, move, dice=req.dice, seed=req.seed if req.dice is None else None
        )
        return self._advance(applied)

    def apply_fire(self, req: ApplyFireRequest) -> dict[str, Any]:
        """Section 4 — the volley applied with its dice (``fire --apply``); in the opponent's turn
        the declared fire (4.12.2) or the fire at a charger (4.12.6), the target placed at
        ``target_at`` (4.12.3: a target repulsed or panicking stops there). Out of range the fire
        is lost with no dice (4.5.5, 4.12.4)."""

        self._start_from(req.positions)
        _reaction(req)  # one form (4.12.1) before the poses are read
        target_at = _target_at(Battlefield(self.scenario), req)
        applied = apply_fire(
            self._position(),
            req.shooter,
            req.target,
            march=req.march,
            ammunition=req.ammo,
            dice=req.dice,
            remainder_dice=req.remainder_dice,
            morale_dice=req.morale_dice,
            seed=req.seed if req.dice is None else None,
            declared=req.declared,
            charged=req.charged,
            target_at=target_at,
        )
        return self._advance(applied)

    def apply_declare(self, req: ApplyDeclareRequest) -> dict[str, Any]:
        """4.12.2 — the unit declares fire in the opponent's turn (``fire --declare --apply``)."""

        self._start_from(req.positions)
        return self._advance(apply_declare(self._position(), req.shooter))

    def apply_melee(self, req: ApplyMeleeRequest) -> dict[str, Any]:
        """5.3-5.6 — the melee applied with its dice (``melee --apply``)."""

        self._start_from(req.positions)
        applied = apply_melee(
            self._position(),
            req.attacker,
            req.defender,
            continuing=req.continuing,
            dice=req.dice,
            seed=req.seed if req.dice is None else None,
            pursue=req.pursue,
        )
        return self._advance(applied)

    def apply_melee_combined(self, req: ApplyCombinedMeleeRequest) -> dict[str, Any]:
        """5.10 — the combined melee applied with its dice (``melee --attacker A B --defender D
        --apply``), in the order of ``dice_order``."""

        _declared_in_continuing(req)
        self._start_from(req.positions)
        applied = apply_combined_melee(
            self._position(),
            req.attackers,
            req.defenders,
            continuing=req.continuing,
            declare_defence=req.declare_defence,
            dice=req.dice,
            seed=req.seed if req.dice is None else None,
            pursue=req.pursue,
        )
        return self._advance(applied)

    def apply_morale(self, req: ApplyMoraleRequest) -> dict[str, Any]:
        """6.8 — a side's morale phase applied with its dice (``morale --apply``)."""

        self._start_from(req.positions)
        applied = apply_morale(
            self._position(), req.side, dice=req.dice, seed=req.seed if req.dice is None else None
        )
        return self._advance(applied)

    def next_phase(self, req: NextPhaseRequest) -> dict[str, Any]:
        """2 — the next phase (``turn --apply``)."""

        self._start_from(req.positions)
        return self._advance(apply_next_phase(self._position()))

    def undo(self, req: UndoRequest) -> dict[str, Any]:
        """The last action dropped (``szwadron undo``): the position before it, replayed."""

        if not self.actions:
            raise InvalidDataError(
                _("undo: no action to undo (the game log holds only its start)"), source="request"
            )
        dropped = self.log[-1]
        kept = self.log[:-1]
        text = replay(kept, source="game log")
        self._set_text(text)
        self.log = kept
        return {"undone": {"n": dropped["n"], "action": dropped["action"]}, "state": self.state()}

    def log_text(self) -> str:
        """The game log as JSON lines (``szwadron replay`` reads it)."""

        return dump_log(self.log)

    def place(self, req: PlaceRequest) -> dict[str, Any]:
        """Issue 17's formations on the page: a unit of an army list's profile placed in a
        formation, expanded into bases (:mod:`szwadron.formations`, through the scenario models)
        and written one base a line. Overlaps and the like are allowed: ``check`` shows them."""
        import tomllib

        self._start_from(req.positions)
        ids = [u.id for u in self.scenario.units]
        uid = req.id or fresh_id(req.profile, ids)
        if uid in ids:
            raise InvalidDataError(_("id: a unit {uid!r} exists already").format(uid=uid), source="request")
        unit = {
            "id": uid,
            "side": req.side,
            "profile": f"{req.army}:{req.profile}",
            "formation": formation_entry(req),
        }
        raw = tomllib.loads(self.text)
        raw["units"] = [*raw.get("units", []), unit]
        where = _("placing {uid}").format(uid=uid)
        expanded = parse_scenario(raw, source=where, folders=self._folders()).units[-1]
        bases = [
            (b.x, b.y, b.facing, None if b.profile is None else f"{req.army}:{b.profile.id}")
            for b in expanded.bases
        ]
        text = self.text.rstrip("\n") + "\n"
        self._setup_edit(text + unit_block(uid, req, bases), where)
        return {"placed": uid, "bases": len(bases), "state": self.state()}

    def terrain_add(self, req: TerrainAddRequest) -> dict[str, Any]:
        """A terrain feature drawn on the page, checked by the scenario models (a polygon must be
        simple, a linear kind needs its width)."""

        self._start_from(req.positions)
        text, tid = add_terrain(self.text, req, [t.id for t in self.scenario.terrain])
        self._setup_edit(text, _("terrain {tid}").format(tid=tid))
        return {"terrain": tid, "state": self.state()}

    def terrain_edit(self, req: TerrainEditRequest) -> dict[str, Any]:
        """A terrain feature's corners moved."""

        self._start_from(req.positions)
        self._setup_edit(edit_terrain(self.text, req), _("terrain {tid}").format(tid=req.id))
        return {"terrain": req.id, "state": self.state()}

    def terrain_delete(self, req: TerrainDeleteRequest) -> dict[str, Any]:
        """A terrain feature removed."""

        self._start_from(req.positions)
        self._setup_edit(delete_terrain(self.text, req), _("terrain {tid}").format(tid=req.id))
        return {"terrain": req.id, "state": self.state()}

    def army_lists(self) -> dict[str, Any]:
        """The army lists the scenario may name (its folders', then the bundled ones): ids,
        names and profiles (id, name, kind, base frontage and depth: 1.2)."""

        seen: dict[str, Any] = {}
        for folder in self._folders():
            for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
                if path.stem in seen:
                    continue
                try:
                    army = load_army_list(path)
                except InvalidDataError:
                    continue  # a scenario or a roster beside the lists
                if army.id != path.stem:
                    continue
                seen[army.id] = {
                    "id": army.id,
                    "name": army.name,
                    "profiles": [
                        {
                            "id": p.id,
                            "name": p.name,
                            "kind": str(p.kind),
                            "width": p.base_size[0],
                            "depth": p.base_size[1],
                        }
                        for p in army.profiles
                    ],
                }
        return {"armies": list(seen.values())}

    # -- files ----------------------------------------------------------------------------------

    def toml(self, positions: Mapping[str, tuple[Pose, ...]]) -> str:
        """The scenario file with the page's positions: the session's text, each moved base's
        ``x``, ``y`` and ``facing`` changed in place by :class:`~szwadron.game.document.ScenarioDocument`
        (comments and layout kept; a unit given as a formation gets its bases written out)."""

        table = self.table(positions)  # validates the patch
        changes: list[dict[str, Any]] = []
        for uid in positions:
            unit = table.units[self._unit_index[uid]]
            changes += _expand_if_formation(self.scenario.units[self._unit_index[uid]])
            poses = [[i, _number(b.x), _number(b.y), _number(b.facing)] for i, b in enumerate(unit.bases)]
            changes.append({"op": "move", "unit": uid, "poses": poses})
        doc = ScenarioDocument(self.text, source=self.path.name, unit_ids=list(self._unit_index))
        doc.apply(changes)
        return doc.text

    def save(self, req: SaveRequest) -> dict[str, Any]:
        """Write the table as scenario ``name`` in the scenario's folder. An existing file (the
        input above all) is overwritten only with ``overwrite``."""
        target = self.inside(req.name)
        if target.exists() and not req.overwrite:
            if target == self.path:
                text = _("{name} is the input file; give another name, or choose to overwrite it")
            else:
                text = _("{name} is an existing file; give another name, or choose to overwrite it")
            raise SaveConflict(text.format(name=req.name))
        text = self.toml(req.positions)
        load_check = _parsed(text, target)

        def write(tmp: Path) -> None:
            tmp.write_text(text, encoding="utf-8")

        write_atomic(target, write)
        return {"saved": target.name, "units": len(load_check.units), "overwritten": req.overwrite}

    def save_log(self, req: SaveRequest) -> dict[str, Any]:
        """Write the game log as ``name`` (``.jsonl``) in the scenario's folder; an existing file
        is overwritten only with ``overwrite``. ``szwadron replay`` reads it."""
        target = self.inside(req.name, ".jsonl")
        if target.exists() and not req.overwrite:
            raise SaveConflict(
                _("{name} is an existing file; give another name, or choose to overwrite it").format(
                    name=req.name
                )
            )
        text = self.log_text()

        def write(tmp: Path) -> None:
            tmp.write_text(text, encoding="utf-8")

        write_atomic(target, write)
        return {"saved": target.name, "actions": self.actions, "overwritten": req.overwrite}

    def open(self, req: OpenRequest) -> Session:
        """Another scenario file of the same folder."""
        target = self.inside(req.name)
        if not target.is_file():
            raise InvalidDataError(
                _("name: no file {name!r} in the scenario's folder").format(name=req.name), source="request"
            )
        return Session.load(target)


def _declared_in_continuing(req: CombinedMeleeRequest) -> None:
    """5.7.4 — defence is declared instead of an attack only when the melee continues: the
    page's wording of the refusal (the command line's names its option)."""
    if req.declare_defence and not req.continuing:
        raise InvalidDataError(
            _(
                "declare_defence: a side declares defence (5.7.4) only in a continuing melee: tick 'continuing melee'"
            ),
            source="request",
        )


def combined_dice_order(m: CombinedMelee) -> list[dict[str, Any]]:
    """5.10, 6.6 — the order in which a combined melee's dice are rolled (the order
    ``apply-melee-combined`` reads typed dice in, :func:`szwadron.odds.joint.roll_combined`), as
    steps the page words in its language: ``strike_back`` (a panicking unit's test, 6.6: one d6),
    ``group`` (a dice group of 5.10.3 against a struck unit, then the remainder die when hits are
    left over, 1.5.1, 5.10.4; the side striking second with its figures left, 7.7, and, marked
    ``unless_gone``, not at all when first strikes left its struck unit no figure), ``tests`` (the
    morale tests of 5.10.5: ``first`` the side that tests first, the defenders or, declaring
    defence, the attackers, 5.7.4; ``then`` the other side), ``after`` (each flight's and pursuit's
    2d6, 6.6.2, 6.7.1)."""
    assert m.engine is not None
    names = m.units
    steps: list[dict[str, Any]] = [
        {"step": "strike_back", "unit": u} for k, u in enumerate(names) if m.engine.morale[k].panicking
    ]
    split = any(g.fight for g in m.groups)
    phased = any(g.first for g in m.groups)  # 7.7: some figures strike first
    struck_first = {g.target for g in m.groups if g.first}  # units first strikes may destroy
    for g in m.groups:  # in the order they are rolled (szwadron.table.combined._groups)
        steps.append(
            {
                "step": "group",
                "side": g.side,
                "target": g.target,
                "dice": g.dice,
                "uw": g.skill,
                "figures": list(g.figures),
                "second": phased and not g.first,
                **({"first": True} if m.pairwise_first_strike and g.first else {}),  # 7.7 pair by pair
                **({"unless_gone": True} if not g.first and g.target in struck_first else {}),
                **({"fight": g.fight + 1} if split else {}),  # 5.7.2: the melee split into fights
            }
        )
    first, then = (m.attackers, m.defenders) if m.declared_defence else (m.defenders, m.attackers)
    steps.append({"step": "tests", "first": list(first), "then": list(then)})
    steps.append({"step": "after"})
    return steps


def _reaction(req: FireRequest) -> str | None:
    """4.12.1 — the form of a fire in the opponent's turn the request asks for: ``declared``
    (4.12.2), ``charged`` (4.12.6) or none."""
    if req.declared and req.charged:
        raise InvalidArgumentError(
            "reaction",
            _("a fire in the opponent's turn is declared (4.12.2) or at a charger (4.12.6), not both"),
        )
    return "declared" if req.declared else "charged" if req.charged else None


def _target_at(bf: Battlefield, req: FireRequest) -> dict[str, Any] | None:
    """4.12.3, 4.12.6 — the target where it is fired at, as a move file (``--target-at``): every
    base at its pose (a target that has made its move must list every base; the rules then say
    whether a fire there is a fire at a point of its move)."""
    if req.target_at is None:
        return None
    ks = bf.resolve(req.target)
    if "/" in req.target or len(ks) != len(req.target_at):
        raise InvalidDataError(
            _(
                "target_at: {n} poses; give one [x, y, facing] per base of the target {unit!r} ({bases})"
            ).format(n=len(req.target_at), unit=req.target, bases=len(ks)),
            source="request",
        )
    bases = _moved(bf, req.target, req.target_at, every=True)
    return {"unit": req.target, "bases": bases}


def _moved(bf: Battlefield, unit: str, to: tuple[Pose, ...], *, every: bool = False) -> list[dict[str, Any]]:
    """The bases of ``unit`` that ``to`` moves, as a move file's ``bases`` (the others stay);
    none moving is bad input; with ``every``, every base listed at its pose."""
    ks = bf.resolve(unit)
    if "/" in unit or len(ks) != len(to):
        raise InvalidDataError(
            _("to: {to} poses; give one [x, y, facing] per base of the unit {unit!r} ({bases})").format(
                to=len(to), unit=unit, bases=len(ks)
            ),
            source="request",
        )
    listed = [
        (
            {
                "index": i,
                "x": round(p[0], POSE_DIGITS),
                "y": round(p[1], POSE_DIGITS),
                "facing": round(p[2], POSE_DIGITS),
            },
            _same(p, (float(bf.x[k]), float(bf.y[k]), float(bf.facing[k]))),
        )
        for i, (k, p) in enumerate(zip(ks.tolist(), to, strict=True))
    ]
    moved = [entry for entry, same in listed if not same]
    if every:
        moved = [entry for entry, _same_pose in listed]
    if not moved:
        raise InvalidDataError(_("to: no base moves; drag the unit to a new pose"), source="request")
    # 3.1.4: a pose off the table is a move the rules refuse (with its rule), not bad data
    lim = bf.settings.overlap_tolerance_cm + bf.settings.distance_epsilon_cm
    table = bf.scenario.table
    members: list[int] = ks.tolist()
    for entry in moved:
        k = members[int(entry["index"])]
        corners = base_corners(
            entry["x"], entry["y"], entry["facing"], float(bf.width[k]), float(bf.depth[k])
        )
        off = pose_off_table(corners, table.width, table.depth, lim)
        if off:
            raise IllegalActionError(
                "3.1.4", _("{at}: the new pose is {off}").format(at=bf.base_ids[k], off=off)
            )
    return moved


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
    "DisengageRequest",
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
