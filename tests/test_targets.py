"""Issue 14 — targets chosen by a policy in the simulated army battle (szwadron.armies.duel).

The side with the initiative (2.1.3, 2.1.4) picks, unit by unit (2.3.1, 2.3.4), the enemy unit its
policy prefers (4.2.1: the declared target; 5.2.1: the unit attacked): ``"weakest"``,
``"dangerous"`` (:func:`target_threat`), ``"best"`` (:func:`target_prospect`). Known answers worked
by hand from the Polish text are in tests/cases/targets/*.toml; the exact measures are checked
against brute force over every die; ``"random"`` and ``"strongest"`` are pinned to the battles of
the code before the policies (tests/cases/targets/random_strongest_pin.json).
"""

from __future__ import annotations

import itertools
import json
import random
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import szwadron.armies.duel as duel_module
from szwadron.armies.battles import play, roster_force, validate_rosters
from szwadron.armies.duel import (
    PAIRINGS,
    TARGET_POLICIES,
    BattleConditions,
    BattleUnit,
    DuelUnit,
    Weapon,
    check_pairing,
    choose_targets,
    run_army_battle,
    target_prospect,
    target_threat,
)
from szwadron.armies.search import held_out_validation
from szwadron.cli import main
from szwadron.cli import points as points_cli
from szwadron.errors import InvalidDataError
from szwadron.loading import load_army_list
from szwadron.models import ArmyList, Kind, Roster
from szwadron.odds.morale import casualty_test

CASES = Path(__file__).parent / "cases" / "targets"
TESTLAND = Path(__file__).parent / "cases" / "armylists" / "testland.toml"

LINE = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
HUSSARS = DuelUnit("hus", Kind.CAVALRY, 24, 2, 2, 4, 4, ())
JAGER = DuelUnit(
    "jag", Kind.INFANTRY, 12, 1, 1, 3, 4, (Weapon("rifle", 36, 1, 4),), skirmish=True, frontage_cm=4.0
)
ARMY_A: list[Any] = [(LINE, 12), (HUSSARS, 6), (JAGER, 6), (LINE, 8)]
ARMY_B: list[Any] = [(LINE, 12), (LINE, 10), (HUSSARS, 4), (JAGER, 8), (HUSSARS, 5)]


def _load_case(path: Path) -> dict[str, Any]:
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    units = {
        name: DuelUnit(
            name,
            Kind(u["kind"]),
            u["move"],
            u["W"],
            u["SW"],
            u["UW"],
            u["M"],
            (Weapon("w", u["weapon"]["range"], u["weapon"]["fire"], u["weapon"]["accuracy"]),)
            if "weapon" in u
            else (),
        )
        for name, u in case["units"].items()
    }

    def unit(e: list[Any]) -> BattleUnit:  # [profile, strength] or [profile, strength, initial]
        return (units[e[0]], e[2] if len(e) > 2 else e[1], e[1], None, 0)

    case["picker_units"] = [unit(e) for e in case["picker"]]
    case["enemy_units"] = [unit(e) for e in case["enemy"]]
    return case


def _cases() -> list[Path]:
    return sorted(CASES.glob("*.toml"))


@pytest.mark.parametrize("path", _cases(), ids=lambda p: p.stem)
def test_target_policies_pick_the_hand_worked_pairs_4_2_1_5_2_1(path: Path) -> None:
    """4.2.1, 5.2.1, 2.3.4 — each policy's pairs and its measure of every enemy unit, as worked by
    hand in the case file."""
    case = _load_case(path)
    pairs = choose_targets(case["policy"], case["picker_units"], case["enemy_units"], case.get("front"))
    assert [list(p) for p in pairs] == case["pairs"]
    me = case["picker_units"][0]
    measure = {
        "weakest": lambda e: e[2],
        "dangerous": lambda e: target_threat(e, me),
        "best": lambda e: target_prospect(me, e),
    }[case["policy"]]
    for enemy, expected in zip(case["enemy_units"], case["values"], strict=True):
        assert measure(enemy) == pytest.approx(float(Fraction(expected)), abs=1e-12)


def test_the_case_files_cover_every_policy() -> None:
    assert {_load_case(p)["policy"] for p in _cases()} == set(TARGET_POLICIES)


def _hits(dice: int, score: int) -> list[tuple[int, Fraction]]:
    """Every face of ``dice`` d6, brute force: (dice scoring ``score`` or less, probability)."""
    return [
        (sum(f <= score for f in faces), Fraction(1, 6**dice))
        for faces in itertools.product(range(1, 7), repeat=dice)
    ]


def test_threat_is_the_brute_force_expected_figures_removed_4_6_5_3() -> None:
    """4.6, 5.3, 1.5.1 — target_threat is the mean over every die face of the figures removed (W 1:
    one hit, one figure), by fire and by a charge, whichever is larger (2.3.2)."""
    me = (DuelUnit("me", Kind.INFANTRY, 12, 1, 1, 3, 4, ()), 8, 8, None, 0)
    shooters = DuelUnit("s", Kind.INFANTRY, 12, 1, 0, 3, 4, (Weapon("m", 24, 1, 4),))
    fire = sum(h * p for h, p in _hits(5, 4))  # 5 figures, SO 1, C 4
    assert target_threat((shooters, 5, 5, None, 0), me) == pytest.approx(float(fire), abs=1e-12)
    lancers = DuelUnit("l", Kind.CAVALRY, 24, 1, 1, 5, 4, ())
    # 4 cavalry of 2 cm face 8 cm of the 16 cm line: 4 in contact, 4 dice at UW 5 (5.3, PD-14)
    melee = sum(h * p for h, p in _hits(4, 5))
    assert target_threat((lancers, 4, 4, None, 0), me) == pytest.approx(float(melee), abs=1e-12)
    both = DuelUnit("b", Kind.INFANTRY, 12, 1, 1, 2, 4, (Weapon("m", 24, 1, 4),))
    fire4 = sum(h * p for h, p in _hits(4, 4))
    melee4 = sum(h * p for h, p in _hits(4, 2))
    assert target_threat((both, 4, 4, None, 0), me) == pytest.approx(float(max(fire4, melee4)), abs=1e-12)
    # artillery never charges (the duel policy, choose_action): its threat is its fire alone, whatever its SW
    gun = DuelUnit("g", Kind.FOOT_ARTILLERY, 6, 1, 3, 6, 4, (Weapon("ball", 60, 2, 3),), frontage_cm=4.0)
    assert target_threat((gun, 1, 1, None, 0), me) == pytest.approx(float(sum(h * p for h, p in _hits(2, 3))))


def test_prospect_is_the_brute_force_score_difference_6_3() -> None:
    """4.6, 6.2, 6.3 — target_prospect's fire scores are the brute-force chance over every face of
    the volley and of the morale die that the target leaves (fails its first test, or is
    destroyed), mine less the enemy's."""
    me_unit = DuelUnit("me", Kind.INFANTRY, 12, 1, 0, 3, 5, (Weapon("m", 24, 1, 2),))
    en_unit = DuelUnit("en", Kind.INFANTRY, 12, 1, 0, 3, 3, (Weapon("m", 24, 1, 3),))

    def leaves(dice: int, score: int, target_m: int, strength: int) -> Fraction:
        total = Fraction(0)
        for hits, p in _hits(dice, score):
            left = strength - min(hits, strength)
            if left == 0:
                total += p
            elif hits:
                total += p * (1 - casualty_test(target_m, left, strength).passed)
        return total

    mine = leaves(4, 2, 3, 5)  # my 4 figures at C 2 on its 5 of M 3
    theirs = leaves(5, 3, 5, 4)  # its 5 figures at C 3 on my 4 of M 5
    got = target_prospect((me_unit, 4, 4, None, 0), (en_unit, 5, 5, None, 0))
    assert got == pytest.approx(float(mine - theirs), abs=1e-12)


def test_the_side_with_the_initiative_picks_2_1_4(monkeypatch: pytest.MonkeyPatch) -> None:
    """2.1.3, 2.1.4 — the side moving first (``first``) picks in every forming of the lines: the
    picker's units are its units, whichever side it is."""
    calls: list[tuple[list[BattleUnit], list[BattleUnit]]] = []
    real = duel_module.choose_targets

    def spy(pairing: Any, picker: Any, enemy: Any, front: Any = None) -> list[tuple[int, int]]:
        calls.append((list(picker), list(enemy)))
        return real(pairing, picker, enemy, front)

    monkeypatch.setattr(duel_module, "choose_targets", spy)
    a = [(LINE, 12), (LINE, 8)]
    b = [(HUSSARS, 6), (HUSSARS, 4), (HUSSARS, 5)]
    for first, mine in ((0, LINE), (1, HUSSARS)):
        calls.clear()
        run_army_battle(a, b, seed="init", first=first, conditions=BattleConditions(pairing="weakest"))
        assert calls, "a target policy picks in every forming"
        assert all(all(u[0] is mine for u in picker) for picker, _ in calls)
        assert all(all(u[0] is not mine for u in enemy) for _, enemy in calls)


@pytest.mark.parametrize("pairing", TARGET_POLICIES)
def test_the_battle_fights_the_chosen_pairs(monkeypatch: pytest.MonkeyPatch, pairing: str) -> None:
    """Issue 14 — the duels of a forming are the pairs choose_targets made, in its order; the
    units it left out wait (dice sampler: the duels are recorded as they start)."""
    chosen: list[list[tuple[int, int]]] = []
    real = duel_module.choose_targets
    lines: list[tuple[list[BattleUnit], list[BattleUnit]]] = []

    def spy(pairing: Any, picker: Any, enemy: Any, front: Any = None) -> list[tuple[int, int]]:
        out = real(pairing, picker, enemy, front)
        chosen.append(out)
        lines.append((list(picker), list(enemy)))
        return out

    started: list[tuple[tuple[Any, int], tuple[Any, int]]] = []

    class Recording(duel_module.Duel):
        def run(self, first: Any = 0, max_rounds: int = duel_module.MAX_ROUNDS) -> Any:
            a, b = self.sides
            started.append(((a.unit, a.strength), (b.unit, b.strength)))
            return super().run(first, max_rounds)

    monkeypatch.setattr(duel_module, "choose_targets", spy)
    monkeypatch.setattr(duel_module, "Duel", Recording)
    run_army_battle(
        ARMY_A, ARMY_B, seed="fight", first=0, conditions=BattleConditions(pairing=pairing, sampler="dice")
    )  # type: ignore[arg-type]
    picker, enemy = lines[0]
    n = len(chosen[0])
    assert n == min(len(ARMY_A), len(ARMY_B))
    assert started[:n] == [((picker[i][0], picker[i][2]), (enemy[j][0], enemy[j][2])) for i, j in chosen[0]]


@pytest.mark.parametrize("pairing", PAIRINGS)
def test_battles_are_seeded_under_every_pairing(pairing: str) -> None:
    """The same seed, the same battle (both samplers, with and without flight)."""
    for sampler in ("exact", "dice"):
        for flight in (False, True):
            for k in range(4):
                kw: dict[str, Any] = {
                    "seed": f"s{k}",
                    "first": k % 2,
                    "conditions": BattleConditions(sampler, flight=flight, pairing=pairing),  # type: ignore[arg-type]
                }
                assert run_army_battle(ARMY_A, ARMY_B, **kw) == run_army_battle(ARMY_A, ARMY_B, **kw)


@pytest.mark.parametrize("pairing", TARGET_POLICIES)
def test_both_samplers_see_the_same_pairs(monkeypatch: pytest.MonkeyPatch, pairing: str) -> None:
    """Issue 14 — the pairs are chosen before the duels, from exact odds: from the same lines both
    samplers make the same pairs (the first forming, where the lines are the same)."""
    seen: dict[str, list[Any]] = {"exact": [], "dice": []}
    real = duel_module.choose_targets
    current = ["exact"]

    def spy(pairing: Any, picker: Any, enemy: Any, front: Any = None) -> list[tuple[int, int]]:
        out = real(pairing, picker, enemy, front)
        seen[current[0]].append((list(picker), list(enemy), front, out))
        return out

    monkeypatch.setattr(duel_module, "choose_targets", spy)
    for k in range(8):
        firsts = {}
        for sampler in ("exact", "dice"):
            current[0] = sampler
            seen[sampler].clear()
            run_army_battle(
                ARMY_A,
                ARMY_B,
                seed=f"same:{k}",
                first=k % 2,
                conditions=BattleConditions(pairing=pairing, sampler=sampler),
            )  # type: ignore[arg-type]
            firsts[sampler] = seen[sampler][0]
        assert firsts["exact"] == firsts["dice"]


def test_random_and_strongest_are_the_battles_of_before() -> None:
    """Issue 14 — ``"random"`` (the calibration's) and ``"strongest"`` play exactly the pinned
    battles, for both samplers, with and without flight: pinned from the code before the target
    policies, and pinned again when the turns were made to alternate across the formings of the
    lines (2.1.3), which changed the battles on purpose."""
    pin = json.loads((CASES / "random_strongest_pin.json").read_text(encoding="utf-8"))
    for pairing, sampler, flight, k, *expected in pin["results"]:
        r = run_army_battle(
            ARMY_A,
            ARMY_B,
            seed=f"pin:{k}",
            first=k % 2,
            conditions=BattleConditions(pairing=pairing, sampler=sampler, flight=flight),
        )
        assert [r.winner, r.duels, r.rounds, r.units_a, r.units_b, r.rallied, r.left_table] == expected
    assert len(pin["results"]) == 96


def test_random_never_asks_a_target_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: Any, **__: Any) -> Any:
        raise AssertionError("random pairing chose targets")

    monkeypatch.setattr(duel_module, "choose_targets", boom)
    run_army_battle(ARMY_A, ARMY_B, seed=1)
    run_army_battle(ARMY_A, ARMY_B, seed=1, conditions=BattleConditions(pairing="strongest"))


def test_policies_change_the_battles() -> None:
    """The policies reach the battle: over 40 seeds each plays battles other than the dice's."""
    base = [run_army_battle(ARMY_A, ARMY_B, seed=k, first=k % 2) for k in range(40)]
    for pairing in TARGET_POLICIES:
        other = [
            run_army_battle(ARMY_A, ARMY_B, seed=k, first=k % 2, conditions=BattleConditions(pairing=pairing))
            for k in range(40)
        ]
        assert other != base


def test_pairing_bad_values() -> None:
    """One clear message for an unknown pairing, in the library."""
    for bad in ("nearest", "chosen", 3, None):
        with pytest.raises(InvalidDataError, match="pairing must be one of random, strongest"):
            check_pairing(bad)
        with pytest.raises(InvalidDataError, match="pairing must be one of"):
            run_army_battle(ARMY_A, ARMY_B, seed=1, conditions=BattleConditions(pairing=bad))  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError, match="not a target policy"):
        choose_targets("random", [], [])
    army = _army("a", _roster("r"))
    force = roster_force(army, army.roster("r"))
    with pytest.raises(InvalidDataError, match="pairing must be one of"):
        play([force, force], [(0, 1, 0, "x")], workers=1, conditions=BattleConditions(pairing="nearest"))  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError, match="pairing must be one of"):
        validate_rosters([army], battles=1, workers=1, conditions=BattleConditions(pairing="x"))  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError, match="pairing must be one of"):
        held_out_validation([army], battles=1, workers=1, conditions=BattleConditions(pairing="x"))  # type: ignore[arg-type]


def test_the_command_line_knows_the_library_pairings() -> None:
    assert points_cli.PAIRINGS == PAIRINGS


def _roster(rid: str) -> Roster:
    return Roster.model_validate(
        {
            "id": rid,
            "points_limit": 400,
            "units": [{"profile": "line", "figures": 10, "count": 2}, {"profile": "hussars", "figures": 4}],
        }
    )


def _army(army_id: str, *rosters: Roster) -> ArmyList:
    return load_army_list(TESTLAND).model_copy(update={"id": army_id, "rosters": rosters})


def _two_small_lists(tmp_path: Path) -> Path:
    lists = tmp_path / "lists"
    lists.mkdir()
    roster = (
        '\n[[rosters]]\nid = "r"\npoints_limit = 400\nunits = [ { profile = "line", figures = 10, count = 2 },'
        ' { profile = "hussars", figures = 4 } ]\n'
    )
    text = TESTLAND.read_text(encoding="utf-8")
    for name in ("aland", "bland"):
        (lists / f"{name}.toml").write_text(
            text.replace('id = "testland"', f'id = "{name}"', 1) + roster, "utf-8"
        )
    return lists


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("points", "validate", "--pairing", "chosen"), "--pairing must be one of random, strongest"),
        (("points", "validate", "--pairing", "nearest"), "one-dimensional front"),
        (("points", "calibrate", "--pairing", "best"), "--pairing does not apply to 'points calibrate'"),
        (("points", "france", "--pairing", "best"), "--pairing does not apply to 'points ARMYLIST'"),
    ],
)
def test_bad_pairing_exits_2_with_one_message(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_validate_pairing_reaches_the_roster_and_held_out_battles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 14 — ``points validate --pairing POLICY`` plays the example rosters' and the held-out
    battles (the search's too) with the policy and says so in the text and the JSON; it is the
    library's held-out check with that pairing; the round-robin and the unit sizes stay random."""
    from szwadron.armies.calibrate import army_list_paths, load_lists
    from szwadron.i18n import current_language, language

    lists = _two_small_lists(tmp_path)
    small = ("--lists", str(lists), "--duels", "1", "--battles", "6", "--held-out", "1", "--search", "1")
    docs = {}
    for pairing in ("random", "best"):
        code, out, _ = run(
            capsys, "points", "validate", *small, "--workers", "1", "--json", "--pairing", pairing
        )
        assert code == 0
        docs[pairing] = json.loads(out)
    plain, best = docs["random"], docs["best"]
    assert plain["rosters"]["pairing"] == "random" and plain["held_out"]["pairing"] == "random"
    assert best["rosters"]["pairing"] == "best" and best["held_out"]["pairing"] == "best"
    assert [c["win_rate"] for c in best["held_out"]["cells"]] != [
        c["win_rate"] for c in plain["held_out"]["cells"]
    ]
    armies = load_lists(army_list_paths(str(lists)))
    held = held_out_validation(
        armies,
        random_rosters=1,
        search=1,
        battles=6,
        seed=2026,
        workers=1,
        conditions=BattleConditions(pairing="best"),
    )
    assert held.conditions.pairing == "best"
    assert [[a, b, r] for a, b, r in held.pairs] == [
        [c["a"], c["b"], c["win_rate"]] for c in best["held_out"]["cells"]
    ]
    assert best["cells"] == plain["cells"] and best["unit_sizes"] == plain["unit_sizes"]

    code, out, _ = run(capsys, "points", "validate", *small, "--workers", "1", "--pairing", "weakest")
    assert code == 0 and "pairing in the example rosters' and the held-out battles: weakest" in out
    code, out, _ = run(capsys, "points", "validate", *small, "--workers", "1")
    assert code == 0 and "pairing in the example rosters'" not in out
    with language(current_language()):  # --lang pl speaks Polish for the rest of the process: restore it
        code, out, _ = run(
            capsys, "points", "validate", *small, "--workers", "1", "--pairing", "dangerous", "--lang", "pl"
        )
    assert code == 0 and "dobór par w bitwach rozpisek przykładowych i odłożonych: dangerous" in out


def test_play_with_a_policy_is_the_same_whatever_the_workers() -> None:
    """The pairing travels with the battles to the executor: one worker or two, the same scores."""
    army = _army("a", _roster("r"))
    force = roster_force(army, army.roster("r"))
    specs = [(0, 1, k % 2, f"w:{k}") for k in range(6)]
    one = play([force, force], specs, workers=1, conditions=BattleConditions(pairing="dangerous"))
    two = play([force, force], specs, workers=2, conditions=BattleConditions(pairing="dangerous"))
    assert one == two


def test_random_lines_every_policy_pairs_min_units_each_once() -> None:
    """On random lines (sizes, strengths, profiles) every policy pairs min(k_A, k_B) units, each
    at most once, reserves only after the front (6.8.6)."""
    rng = random.Random(14)
    kinds = [LINE, HUSSARS, JAGER]
    for _ in range(60):
        mine = [(rng.choice(kinds), 8, rng.randint(1, 8), None, 0) for _ in range(rng.randint(1, 5))]
        theirs = [(rng.choice(kinds), 8, rng.randint(1, 8), None, 0) for _ in range(rng.randint(1, 5))]
        front = rng.randint(0, len(theirs))
        for pairing in TARGET_POLICIES:
            pairs = choose_targets(pairing, mine, theirs, front)  # type: ignore[arg-type]
            assert len(pairs) == min(len(mine), len(theirs))
            assert [i for i, _ in pairs] == list(range(len(pairs)))
            js = [j for _, j in pairs]
            assert len(set(js)) == len(js)
            # a reserve is taken only once every front unit is
            first_reserve = next((n for n, j in enumerate(js) if j >= front), len(js))
            assert all(j < front for j in js[:first_reserve])
            assert first_reserve == len(js) or first_reserve >= front
