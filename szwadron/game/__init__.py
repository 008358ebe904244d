"""The game from turn to turn (issue 17): results applied to the table, a game log that replays.

- :mod:`szwadron.game.document` — a scenario file changed in place, comments and layout kept;
- :mod:`szwadron.game.apply` — actions (move, fire, the next phase) ruled and turned into changes;
- :mod:`szwadron.game.log` — the game log: one JSON line an action, replay and undo.
"""

from __future__ import annotations

from szwadron.game.apply import (
    Applied,
    Position,
    apply_fire,
    apply_move,
    apply_next_phase,
    position_from_text,
    read_position,
)
from szwadron.game.document import ScenarioDocument
from szwadron.game.log import append, dump_log, new_log, parse_log, read_log, replay, sha256_text

__all__ = [
    "Applied",
    "Position",
    "ScenarioDocument",
    "append",
    "apply_fire",
    "apply_move",
    "apply_next_phase",
    "dump_log",
    "new_log",
    "parse_log",
    "position_from_text",
    "read_log",
    "read_position",
    "replay",
    "sha256_text",
]
