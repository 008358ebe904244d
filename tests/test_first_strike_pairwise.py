"""7.7 — first strike in a combined melee (5.10), counted pair by pair.

7.7.1: "W walce wręcz oddział posiadający tą zdolność zadaje straty zanim oddział przeciwnika
będzie miał szansę oddać. Siłę w walce wręcz przeciwnika liczy się dopiero po uwzględnieniu
zadanych strat." A figure strikes first when its unit has first strike and the unit it strikes
has not; every other figure strikes after, with the figures left, removing on top of the first
strikes' losses. One whole side with it and the other without is the melee of one unit a side.

The exact engine (:class:`szwadron.odds.joint.CombinedEngine`) is checked against a brute force
written here from the rules alone (binomial dice, 1.5.1's remainder as r/W, removal in order,
5.4.2's cap), and its rolled procedure (:func:`szwadron.odds.joint.roll_exchange`) face by face.
The hand-worked table case is ``tests/cases/melee_combined/7_7_first_strike_pair_by_pair.toml``;
here its text, JSON, dice order on the page and ``--apply`` with typed dice."""

from __future__ import annotations

import contextlib
import io
import json
import warnings
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import NamedTuple

import pytest
from every_face import every_face

from szwadron.cli import main
from szwadron.odds.combat import Fighter
from szwadron.odds.joint import CombinedEngine, Striker, roll_exchange
from szwadron.odds.morale import MeleeMorale

CASE = Path(__file__).parent / "cases" / "melee_combined" / "7_7_first_strike_pair_by_pair.toml"


class Unit(NamedTuple):
    """A unit of the brute force: its figures' (SW, UW) in removal order, each one's struck unit,
    the W of its figures, whether it has first strike this round."""

    figures: list[tuple[int, int]]
    targets: list[int]
    wounds: int
    first: bool


State = tuple[tuple[int, bool], ...]


def _hits(dice: int, uw: int) -> list[tuple[int, Fraction]]:
    p = Fraction(uw, 6)
    return [(k, comb(dice, k) * p**k * (1 - p) ** (dice - k)) for k in range(dice + 1)]


def _removal(damage: int, wounds: int, left: int) -> list[tuple[int, Fraction]]:
    """1.5.1 — figures removed by ``damage`` on figures of W ``wounds``: the whole part, one more
    with chance remainder / W; never more than are ``left`` (5.4.2)."""
    whole, r = divmod(damage, wounds)
    if r == 0:
        return [(min(whole, left), Fraction(1))]
    extra = Fraction(r, wounds)
    return [(min(whole, left), 1 - extra), (min(whole + 1, left), extra)]


def _step(units: list[Unit], na: int, state: State, strikes: set[tuple[int, int]]) -> dict[State, Fraction]:
    """One step of the exchange: every figure left (after ``state``) of the pairs ``strikes``
    (striking unit, figure index) rolls, summed per struck unit and UW (5.10.3); each group then
    removes in order on top of ``state`` (5.10.4). All groups see the same ``state``."""
    groups: dict[tuple[int, int], int] = {}
    for u, unit in enumerate(units):
        gone = state[u][0]
        for i, (sw, uw) in enumerate(unit.figures):
            if i >= gone and (u, i) in strikes:
                key = (unit.targets[i], uw)
                groups[key] = groups.get(key, 0) + sw
    dist: dict[State, Fraction] = {state: Fraction(1)}
    for (t, uw), dice in sorted(groups.items()):
        new: dict[State, Fraction] = {}
        for s, p in dist.items():
            for k, pk in _hits(dice, uw):
                left = len(units[t].figures) - s[t][0]
                for r, pr in _removal(k, units[t].wounds, left):
                    nxt = list(s)
                    nxt[t] = (s[t][0] + r, s[t][1] or k > 0)
                    key = tuple(nxt)
                    new[key] = new.get(key, Fraction(0)) + p * pk * pr
        dist = new
    return dist


def _brute(units: list[Unit], na: int) -> dict[State, Fraction]:
    """The exchange from the rules alone: the pairs (unit with first strike → unit without) strike
    first; then every other pair, with the figures left."""
    first = {
        (u, i)
        for u, unit in enumerate(units)
        for i, t in enumerate(unit.targets)
        if unit.first and not units[t].first
    }
    rest = {(u, i) for u, unit in enumerate(units) for i in range(len(unit.figures))} - first
    zero: State = tuple((0, False) for _ in units)
    out: dict[State, Fraction] = {}
    for s1, p1 in _step(units, na, zero, first).items():
        # the second step's dice come from the figures left after the first; its removals
        # add on top of the first's, and every second-step group sees the first step's state
        for s2, p2 in _step(units, na, s1, rest).items():
            out[s2] = out.get(s2, Fraction(0)) + p1 * p2
    return out


def _engine(units: list[Unit], na: int) -> CombinedEngine:
    strikers = [
        Striker(u, f"{u}/{i}", unit.targets[i], Fighter(unit.wounds, sw, uw))
        for u, unit in enumerate(units)
        for i, (sw, uw) in enumerate(unit.figures)
    ]
    return CombinedEngine(
        strikers,
        [tuple(unit.wounds for _ in unit.figures) for unit in units],
        [MeleeMorale(4, len(unit.figures), len(unit.figures)) for unit in units],
        [False] * len(units),
        na,
        "d6",
        tuple(unit.first for unit in units),
    )


#: (units, attackers): two attackers, one with first strike, at one defender; a defender with
#: first strike against an attacker with it (they cancel) and one without; W 2 figures (remainder
#: rolls) struck in both steps; everyone with it (nobody strikes first).
CONFIGS = {
    "one_attacker_first": (
        [
            Unit([(1, 3)], [2], 1, True),
            Unit([(2, 4)], [2], 1, False),
            Unit([(1, 3), (1, 3), (1, 2)], [0, 1, 1], 1, False),
        ],
        2,
    ),
    "defender_first_against_one": (
        [
            Unit([(1, 4), (1, 3)], [2, 2], 1, True),
            Unit([(2, 3)], [2], 2, False),
            Unit([(1, 3), (2, 4)], [0, 1], 1, True),
        ],
        2,
    ),
    "w2_struck_twice": (
        [
            Unit([(2, 4)], [2], 1, True),
            Unit([(1, 5), (1, 3)], [2, 2], 1, False),
            Unit([(1, 3), (1, 3)], [0, 1], 2, False),
        ],
        2,
    ),
    "one_attacker_two_defenders": (
        [
            Unit([(1, 3), (1, 4)], [1, 2], 1, False),
            Unit([(1, 3)], [0], 1, True),
            Unit([(2, 2)], [0], 1, False),
        ],
        1,
    ),
    "everyone_has_it": (
        [
            Unit([(1, 3)], [2], 1, True),
            Unit([(1, 4)], [2], 1, True),
            Unit([(1, 3), (1, 3)], [0, 1], 1, True),
        ],
        2,
    ),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_7_7_pair_by_pair_exact_is_the_brute_force(name: str) -> None:
    units, na = CONFIGS[name]
    assert _engine(units, na).losses().probabilities() == _brute(units, na)


#: Small enough to try every face of every die (and remainder die) the roll asks for.
ROLLED = {
    "attacker_first": (
        [
            Unit([(1, 3)], [2], 1, True),
            Unit([(1, 4)], [2], 1, False),
            Unit([(1, 3), (1, 3)], [0, 1], 1, False),
        ],
        2,
    ),
    "w2_remainders": (
        [Unit([(1, 4)], [2], 1, True), Unit([(1, 3)], [2], 1, False), Unit([(1, 3)], [0], 2, False)],
        2,
    ),
    "defender_first_against_one": (
        [
            Unit([(1, 4)], [2], 1, True),
            Unit([(1, 3)], [2], 2, False),
            Unit([(1, 3), (1, 4)], [0, 1], 1, True),
        ],
        2,
    ),
}


@pytest.mark.parametrize("name", sorted(ROLLED))
def test_7_7_pair_by_pair_rolled_is_the_exact(name: str) -> None:
    """Every face of every die the rolled exchange asks for (and every remainder die)."""
    units, na = ROLLED[name]
    assert _engine(units, na).losses().probabilities() == _brute(units, na)
    engine = _engine(units, na)

    def roll(rng: object) -> object:
        hits = roll_exchange(engine, rng, frozenset(), [])  # type: ignore[arg-type]
        return tuple(hits[u] for u in range(len(units)))

    assert every_face(roll) == engine.losses().probabilities()


def test_7_7_one_whole_side_first_is_unchanged() -> None:
    """Every attacker with first strike and no defender: the attackers strike, the defenders
    back with the figures left — the brute force's two steps are the old side-wide first strike."""
    units, na = CONFIGS["one_attacker_first"]
    units = [units[0], units[1]._replace(first=True), units[2]]
    engine = _engine(units, na)
    assert all(engine.strikes_first(st) == (st.unit < na) for st in engine.strikers)
    assert engine.losses().probabilities() == _brute(units, na)


def test_7_7_nobody_first_when_both_have_it() -> None:
    """First strike on both sides cancels (nobody strikes "zanim oddział przeciwnika będzie miał
    szansę oddać"): one step, as without it."""
    units, na = CONFIGS["everyone_has_it"]
    plain = [u._replace(first=False) for u in units]
    assert not _engine(units, na).phased
    assert _engine(units, na).losses() == _engine(plain, na).losses()


# --- the table case through the CLI and the page ----------------------------------------------------


def _plain(tmp_path: Path) -> Path:
    text = CASE.read_text(encoding="utf-8")
    path = tmp_path / "table.toml"
    path.write_text(text[: text.index("[check]")], encoding="utf-8")
    return path


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


def test_7_7_text_and_json_say_who_strikes_first(tmp_path: Path) -> None:
    path = _plain(tmp_path)
    code, text = _run("melee", str(path), "--attacker", "a", "b", "--defender", "d")
    assert code == 0
    assert "first strike: a" in text.splitlines()[0]
    assert "first strike pair by pair (7.7)" in text
    assert "1 d6 on ≤3 at d, first: a/0" in text
    assert "1 d6 on ≤4 at d: b/0" in text
    code, out = _run("melee", str(path), "--attacker", "a", "b", "--defender", "d", "--json")
    doc = json.loads(out)
    assert doc["first_strike"] is None and doc["first_strike_units"] == ["a"]
    assert [(g["figures"], g["first"]) for g in doc["groups"]] == [
        (["a/0"], True),
        (["b/0"], False),
        (["d/0"], False),
        (["d/1"], False),
    ]


def test_7_7_apply_with_typed_dice_removes_before_the_strike_back(tmp_path: Path) -> None:
    """a's die 2 (≤ 3) removes d/0 first, so d/0 never strikes a; b's 5 misses; d/1's 5 misses b;
    d (one of two lost, M 4 - 2) tests repulse: 2 passes. The log marks a's group first."""
    path = _plain(tmp_path)
    out, log = tmp_path / "next.toml", tmp_path / "game.jsonl"
    code, text = _run(
        "melee", str(path), "--attacker", "a", "b", "--defender", "d", "--apply",
        "--dice", "2,5,5,2", "-o", str(out), "--log", str(log),
    )  # fmt: skip
    assert code == 0, text
    assert "removed: d/0" in text
    entry = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    strikes = entry["dice"]["strikes"]
    assert [(s["target"], s["faces"], s.get("first", False)) for s in strikes] == [
        ("d", [2], True),
        ("d", [5], False),
        ("b", [5], False),
    ]
    code, _text = _run("replay", str(log), "-o", str(tmp_path / "replayed.toml"))
    assert code == 0
    assert (tmp_path / "replayed.toml").read_text() == out.read_text()


def test_7_7_the_page_lists_the_first_strike_first(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from szwadron.web.app import create_app

    client = TestClient(create_app(_plain(tmp_path)))
    doc = client.post("/api/melee-combined", json={"attackers": ["b", "a"], "defenders": ["d"]}).json()
    assert doc["first_strike_units"] == ["a"]
    groups = [st for st in doc["dice_order"] if st["step"] == "group"]
    assert [
        (st["figures"], st.get("first", False), st["second"], st.get("unless_gone", False)) for st in groups
    ] == [
        (["a/0"], True, False, False),
        (["b/0"], False, True, True),  # b rolls at d only if a's first strike left d a figure
        (["d/1"], False, True, False),
        (["d/0"], False, True, False),
    ]


def test_7_7_no_dice_at_a_unit_the_first_strikes_destroyed(tmp_path: Path) -> None:
    """A unit whose every figure fell to first strikes is struck no more: nobody rolls at it (a
    second reader found b's die asked for and read against a unit already gone). One base d,
    touched by a (first strike on the charge) and b: a's die 1 removes d, b rolls nothing, d
    strikes back not (a single die given is all the melee reads)."""
    text = CASE.read_text(encoding="utf-8")
    text = text[: text.index("[check]")].replace(
        "bases = [{ x = 9.0, y = 12.0, facing = 270.0 }, { x = 11.0, y = 12.0, facing = 270.0 }]",
        "bases = [{ x = 10.0, y = 12.0, facing = 270.0 }]",
    )
    path = tmp_path / "one.toml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "next.toml"
    code, said = _run(
        "melee", str(path), "--attacker", "a", "b", "--defender", "d", "--apply", "--dice", "1", "-o", str(out)
    )  # fmt: skip
    assert code == 0, said
    assert "d destroyed" in said
    code, said = _run("melee", str(path), "--attacker", "a", "b", "--defender", "d", "--json")
    units = {u["unit"]: u for u in json.loads(said)["units"]}
    # d survives a's first die (1/2) and b's after it (1/3); d strikes back at a only when a missed
    assert units["d"]["removed_pmf"] == pytest.approx([1 / 6, 5 / 6])
    assert units["a"]["removed_pmf"] == pytest.approx([3 / 4, 1 / 4])
