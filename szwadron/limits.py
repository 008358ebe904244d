"""The largest numbers szwadron accepts, so that no input can hang it or exhaust its memory.

Every limit is far above anything a real game needs; input beyond one is refused as bad input
(:class:`~szwadron.errors.InvalidDataError`, exit code 2) with a message naming the limit, never
left to run for hours. The file models (:mod:`szwadron.models`, :mod:`szwadron.settings`,
:mod:`szwadron.movefile`) and the exact odds (:mod:`szwadron.odds.combat`) check them.

Standard library only: every module may import it.

>>> MAX_DICE, MAX_WOUNDS, MAX_TABLE_CM
(1000, 1000, 10000.0)
"""

from __future__ import annotations

#: Largest input file (bytes): 16 MiB, about a hundred times the largest real scenario with a
#: game's worth of units. Larger files, and anything but a regular file (a folder, a FIFO,
#: ``/dev/zero``), are refused before they are read (:func:`szwadron.files.read_input`).
MAX_FILE_BYTES = 16 * 1024 * 1024

#: Deepest nesting of lists and tables in an input file (TOML arrays and inline tables, JSON):
#: real files nest four or five deep; deeper input is refused before the reader recurses.
MAX_NESTING = 64

#: Any coordinate, size or distance in a file (cm): 1 km either way.
MAX_CM = 100_000.0

#: Table width and depth (cm): 100 m.
MAX_TABLE_CM = 10_000.0

#: W of a figure, and the largest W of the remainder table (1.5.1).
MAX_WOUNDS = 1000

#: SO or SW of one figure (dice per figure).
MAX_DICE_PER_FIGURE = 100

#: Dice of one volley, or of one side of a melee exchange, whose exact odds are computed
#: (the exact distribution of n dice in several accuracy groups costs about n³; 1000 dice take
#: well under a second, 5000 take a minute).
MAX_DICE = 1000

#: Figures that fought on one side of a melee exchange (5.4.2).
MAX_MELEE_FIGURES = 500

#: Hill level, or the level of a tall building (PD-11).
MAX_LEVEL = 100

#: Positions on the grid :func:`szwadron.table.reach.reach` searches (a 0.5 cm grid: a square of about
#: 10 m by 10 m; a move of about 300 cm).
MAX_REACH_GRID_POINTS = 4_000_000

__all__ = [
    "MAX_CM",
    "MAX_DICE",
    "MAX_DICE_PER_FIGURE",
    "MAX_FILE_BYTES",
    "MAX_LEVEL",
    "MAX_MELEE_FIGURES",
    "MAX_NESTING",
    "MAX_REACH_GRID_POINTS",
    "MAX_TABLE_CM",
    "MAX_WOUNDS",
]
