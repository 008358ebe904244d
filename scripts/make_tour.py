"""Make the README's illustrated tour: the pictures in ``docs/img/`` and the text ``docs/tour.md``.

Every picture is made by running the very command the tour shows, on the bundled example
battle (``scenarios/example.toml``), so the tour cannot drift from the tool. Run from anywhere:

    python scripts/make_tour.py            # pictures into docs/img/, text into docs/tour.md
    python scripts/make_tour.py --out DIR --no-text   # pictures only, elsewhere (tests)

Each picture must stay under :data:`MAX_BYTES` (small enough to commit).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
IMG_DIR = "docs/img"
TOUR_MD = REPO / "docs" / "tour.md"
MAX_BYTES = 200_000


@dataclass(frozen=True)
class Shot:
    """One stop of the tour: the picture's file name, the command's words (after
    ``szwadron``, with ``{out}`` for the picture's path), a heading and what to look at."""

    image: str
    words: tuple[str, ...]
    heading: str
    caption: str

    def argv(self, out: Path | str) -> list[str]:
        return [w.format(out=out) for w in self.words]

    def command(self) -> str:
        return "szwadron " + " ".join(
            f'"{w}"' if " " in w else w for w in self.argv(f"{IMG_DIR}/{self.image}")
        )


TOUR: tuple[Shot, ...] = (
    Shot(
        "table.png",
        ("plot", "scenarios/example.toml", "-o", "{out}"),
        "The table at a glance",
        "The bundled battle to scale, in cm: side A (blue) along the bottom edge, side B (white "
        "and red) along the top. Every base is its rectangle with a thick front edge, so facings "
        "read at once; guns show their barrel, the grenadier company and the limber (figures "
        "with a profile of their own, 1.1) carry a gold dot, and the fleeing Austrian "
        "cuirassiers are hatched (panic, 6.1). Hills darken with their level, the wood is "
        "textured, the marsh stippled, the fence a brown strip. Orange strokes mark enemy "
        "contacts: the cavalry melee on the right.",
    ),
    Shot(
        "zones.png",
        ("plot", "scenarios/example.toml", "-o", "{out}", "--zones", "--region", "100,15,170,60"),
        "Control zones, close up",
        "`--zones` shades each unit's 2 cm control zone (1.4.1) and `--region` zooms in. The "
        "battalion touching the fence projects its zone from the fence's far side (1.4.3): it "
        "reaches 2 cm beyond the fence opposite the battalion and no further along it. The two "
        "cavalry regiments stand in each other's zones, which is allowed while they are engaged "
        "(5.9); a base standing in an enemy zone outside melee would be ringed in magenta.",
    ),
    Shot(
        "volley.png",
        (
            "odds",
            "fire",
            "--fire",
            "12@3",
            "--fire",
            "8@2",
            "--wounds",
            "2",
            "--morale",
            "4",
            "--strength",
            "12",
            "--initial",
            "12",
            "--plot",
            "{out}",
        ),
        "The odds of a volley",
        "`--plot` draws any `odds` answer. Bars are the chance of removing exactly k figures, "
        "the red curve the chance of at least k (read the right-hand axis), the dashed line the "
        "mean; beside it, how the target's morale test ends (6.3).",
    ),
    Shot(
        "melee.png",
        (
            "odds",
            "melee",
            "--attacker",
            "figures=6 SW=2 UW=4 W=2 M=4",
            "--defender",
            "figures=8 SW=1 UW=3 W=2 M=3",
            "--first-strike",
            "attacker",
            "--plot",
            "{out}",
        ),
        "A melee exchange",
        "The joint losses as a heatmap — how likely each pair (attacker figures lost, defender "
        "figures lost) is, the means marked on the axes — beside where each side ends after the "
        "morale sequence of 5.5.",
    ),
    Shot(
        "fire.png",
        (
            "fire",
            "scenarios/example.toml",
            "--shooter",
            "au-battery",
            "--target",
            "fr-line-1",
            "--plot",
            "{out}",
        ),
        "A fire answer, drawn",
        "`--plot` on `fire` draws the answer on a close-up of the table: the Austrian guns' "
        "line of fire to their nearest target (PD-9) with its band, as wide as the firing edge "
        "(PD-7) — green when clear, red and hatched when blocked, with the blocking base or "
        "feature outlined and its rule written —, the distance, accuracy and dice, and the "
        "suggested removal order numbered on the French battalion (4.7). Beside it, the figures "
        "the volley removes and how the battalion's morale test ends.",
    ),
    Shot(
        "move.png",
        (
            "move",
            "scenarios/example.toml",
            "--unit",
            "fr-hussars",
            "--to",
            "tests/cases/plot/hussars_wheel.toml",
            "--plot",
            "{out}",
        ),
        "A move, drawn",
        "The hussars advance and wheel. For each base the path of the corner that travels "
        "furthest (PD-6, the arrow), the centre's path (dotted), the waypoint and the final pose "
        "(ghosted), and the distance against the move. A base that breaks a rule is drawn in "
        "red and the verdict names the rule. `szwadron plot SCENARIO --move UNIT:FILE` draws "
        "the same on any picture, with `--arcs`, `--fire` and `--reach` beside it.",
    ),
    Shot(
        "disengage.png",
        ("move", "scenarios/example.toml", "--unit", "au-chevaulegers", "--disengage", "--plot", "{out}"),
        "Breaking off a melee, drawn",
        "`move --disengage` answers 5.8 for a unit engaged in melee: its test, each enemy's chance "
        "to fall into uncontrolled pursuit (5.8.4), and the move away — here the one found "
        "straight back from the French cuirassiers, its full move, out of their control zone. "
        "With `--apply` and the dice it is made; a failed test panics the unit and it flees at "
        "once (5.8.3), and a pursuer moves at once after it (6.7.1).",
    ),
    Shot(
        "machine.png",
        ("plot", "morale", "-o", "{out}", "--scenario", "scenarios/example.toml", "--unit", "au-cuirassiers"),
        "Morale as a state machine",
        "`szwadron plot morale` draws the morale rules as the state machine the library runs: "
        "states as nodes, numbered arrows for the transitions, listed beside with every event, "
        "branch and rule. With `--unit`, the fleeing Austrian cuirassiers' state is ringed and "
        "each branch from it carries its exact chance — two in three to rally (6.8.4).",
    ),
    Shot(
        "points.png",
        ("points", "russia", "--plot", "{out}"),
        "Where a figure's points come from",
        "`szwadron points LIST --plot` draws each profile's points as the factors of the points "
        "formula on the reference line infantry's 10 points, on a log scale: better offence, W, "
        "morale and speed push right, weaker ones (hatched) left, special rules and the "
        "`measured` correction (what battles of mixed armies showed beyond the formula) beside "
        "them; the diamond is the product. Militia cost about a sixth of a line figure, a 12-pdr "
        "battery about five times one, and the chart shows why: a gun hits like a company but is "
        "one figure that breaks at its first failed test (the artillery factor).",
    ),
)


def render_tour_md() -> str:
    """The tour's text, in Markdown, with image paths relative to the repository root (where
    the README lives)."""
    lines = [
        "<!-- Generated by scripts/make_tour.py: edit the script, then run it. Image paths are",
        "     relative to the repository root (this text goes into the README). -->",
        "## A tour in pictures",
        "",
        "Pictures settle at the table what a paragraph cannot. `szwadron plot` draws a scenario "
        "to scale as PNG, SVG or PDF, and `--plot FILE` draws the answer of `fire`, `melee`, "
        "`move`, `reach`, `morale` and `odds`. "
        "The pictures below come from the bundled example battle, made by "
        "`python scripts/make_tour.py` with exactly the commands shown.",
        "",
    ]
    for shot in TOUR:
        lines += [
            f"### {shot.heading}",
            "",
            "```sh",
            shot.command(),
            "```",
            "",
            f"![{shot.heading}]({IMG_DIR}/{shot.image})",
            "",
            shot.caption,
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


def make(out_dir: Path) -> list[Path]:
    """Run every command of the tour, writing its picture into ``out_dir``; returns the files.

    Raises ``RuntimeError`` if a command fails or a picture is over :data:`MAX_BYTES`.
    """
    import contextlib
    import io
    import os

    from szwadron.cli import main as szwadron

    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    cwd = Path.cwd()
    os.chdir(REPO)  # the commands name scenarios/example.toml relative to the repository
    try:
        for shot in TOUR:
            target = (out_dir / shot.image).resolve()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                code = szwadron(shot.argv(target))
            if code != 0:
                raise RuntimeError(f"{shot.command()} exited {code}")
            size = target.stat().st_size
            if size > MAX_BYTES:
                raise RuntimeError(f"{target}: {size} bytes, over {MAX_BYTES}")
            written.append(target)
    finally:
        os.chdir(cwd)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / IMG_DIR, help="folder of the pictures")
    parser.add_argument("--no-text", action="store_true", help="do not rewrite docs/tour.md")
    args = parser.parse_args(argv)
    for path in make(args.out):
        print(f"{path}  {path.stat().st_size // 1024} KB")
    if not args.no_text:
        TOUR_MD.write_text(render_tour_md(), encoding="utf-8")
        print(TOUR_MD)
    return 0


if __name__ == "__main__":
    sys.exit(main())
