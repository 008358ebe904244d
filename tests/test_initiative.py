"""Issue 14 ("balance from play") — the initiative's weight: ``balance`` splits its battles by who
moved first (2.1.3, 2.1.4: the scenario sets the order of the sides' turns for the whole game) and
says when that split is wider than its 95 % intervals; ``points validate`` gives the first mover's
mean score over the example pairs.

Known answers: ``tests/cases/initiative/split.toml`` (A's scores by who moved first, the split
worked by hand), fed to :func:`battle_pair` in place of the simulated battles.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from szwadron.armies import battles as battles_module
from szwadron.armies.battles import (
    BattleSpec,
    InitiativeTally,
    battle_pair,
    initiative_differs,
    initiative_tallies,
    play,
    roster_force,
    validate_rosters,
)
from szwadron.armies.runs import wilson_interval
from szwadron.cli import main
from szwadron.cli.balance import _pct as fmt_prob  # a played share: 0% rather than an exact 0
from szwadron.loading import load_army_list
from szwadron.models import ArmyList, Roster

CASES = Path(__file__).parent / "cases" / "initiative"
TESTLAND = Path(__file__).parent / "cases" / "armylists" / "testland.toml"
SPLIT = tomllib.loads((CASES / "split.toml").read_text(encoding="utf-8"))["case"]

BRIGADE = [
    {"profile": "line", "figures": 10, "count": 2, "attached": [{"profile": "grenadiers", "figures": 2}]},
    {"profile": "hussars", "figures": 4},
    {"profile": "gun", "figures": 1, "attached": [{"profile": "limber", "figures": 1}]},
]
#: Heavy cavalry and line infantry: whoever moves first gets the charge in (a lopsided pair).
CUIRASSIERS_AND_LINE = [
    {"profile": "cuirassiers", "figures": 6, "count": 2},
    {"profile": "line", "figures": 12, "count": 2},
]


def _army(army_id: str, units: list[dict[str, Any]], limit: float | None = None) -> ArmyList:
    base = load_army_list(TESTLAND)
    roster = Roster.model_validate({"id": "r", "points_limit": limit, "units": units})
    return base.model_copy(update={"id": army_id, "rosters": (roster,)})


def _fake_play(case: dict[str, Any]) -> Any:
    """A ``play`` that returns the case's scores: the i-th battle with A first scores
    ``a_scores[i % len]``, the i-th with B first ``b_scores[i % len]``."""

    def fake(forces: Any, specs: list[BattleSpec], **_: Any) -> list[tuple[float, int]]:
        seen = [0, 0]
        out = []
        for spec in specs:
            side = 1 if spec[2] else 0
            scores = case["b_scores"] if side else case["a_scores"]
            out.append((float(scores[seen[side] % len(scores)]), 1))
            seen[side] += 1
        return out

    return fake


@pytest.mark.parametrize("case", SPLIT, ids=[c["name"] for c in SPLIT])
def test_split_by_who_moved_first_known_answers_2_1_4(
    case: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """2.1.4 — A's score split by who moved first, worked by hand (split.toml): counts, scores,
    draws, rates; the intervals are Wilson's (as the overall chance's); apart / swing / outweighs."""
    monkeypatch.setattr(battles_module, "play", _fake_play(case))
    army = _army("a", BRIGADE)
    result = battle_pair(army, army.roster("r"), army, army.roster("r"), battles=case["battles"], seed=1)
    assert result.battles == case["battles"] and result.rate == pytest.approx(case["rate"])
    for tally, want, first in (
        (result.a_first, case["a_first"], "A"),
        (result.b_first, case["b_first"], "B"),
    ):
        assert tally is not None and tally.first == first
        assert (tally.battles, tally.wins, tally.draws) == (want["battles"], want["wins"], want["draws"])
        assert tally.rate == pytest.approx(want["rate"])
        assert tally.interval == wilson_interval(want["wins"], want["battles"])
    assert result.initiative_differs is case["apart"]
    assert result.initiative_swing == pytest.approx(case["swing"])
    assert result.initiative_outweighs is case["outweighs"]


def test_the_split_adds_up_to_the_whole_and_leaves_the_overall_chance_2_1_4() -> None:
    """2.1.4 — the two tallies are the same battles as the whole: battles, score and draws add up,
    and the overall score is the plain sum of the battles' scores (no battle added, none moved);
    each tally equals a recount of :func:`play` on the same specs (A first in the even battles)."""
    a, b = _army("a", BRIGADE), _army("b", [*BRIGADE, {"profile": "skirmishers", "figures": 6}])
    n = 61  # odd: A moves first once more than B
    result = battle_pair(a, a.roster("r"), b, b.roster("r"), battles=n, seed=7)
    assert result.a_first is not None and result.b_first is not None
    assert (result.a_first.battles, result.b_first.battles) == (31, 30)
    assert result.a_first.battles + result.b_first.battles == result.battles
    assert result.a_first.wins + result.b_first.wins == pytest.approx(result.wins)
    assert result.a_first.draws + result.b_first.draws == result.draws
    # brute force: the same battles played directly, recounted by hand
    forces = [roster_force(a, a.roster("r")), roster_force(b, b.roster("r"))]
    specs: list[BattleSpec] = [(0, 1, k % 2, f"pair:7:a:r:b:r:{k}") for k in range(n)]
    scores = play(forces, specs, workers=1)
    assert result.wins == sum(s for s, _ in scores)  # the overall chance, exactly as before
    assert result.a_first.wins == sum(s for k, (s, _) in enumerate(scores) if k % 2 == 0)
    assert result.b_first.wins == sum(s for k, (s, _) in enumerate(scores) if k % 2 == 1)
    assert initiative_tallies(specs, scores) == (result.a_first, result.b_first)


def test_a_lopsided_mirror_pair_shows_the_initiative_2_1_4() -> None:
    """2.1.4 — cuirassiers and line against their mirror image: equal armies, so even on average,
    but the side moving first wins about 58 % of its battles (its line, in range and waiting,
    declares fire at the cuirassiers that must come to it, 4.12; the turns alternate across the
    formings of the lines, 2.1.3): the split shows what the average hides (and says it weighs
    more than the armies' difference, which is none)."""
    army = _army("a", CUIRASSIERS_AND_LINE)
    for seed in (1, 2):
        result = battle_pair(army, army.roster("r"), army, army.roster("r"), battles=1000, seed=seed)
        assert result.a_first is not None and result.b_first is not None
        assert result.a_first.rate > 0.53 and result.b_first.rate < 0.47
        assert result.initiative_differs and result.initiative_outweighs
        assert abs(result.rate - 0.5) < 0.05


def test_no_verdict_without_both_orders() -> None:
    """One battle: A moved first, B never did; no verdict on the initiative."""
    one = InitiativeTally("A", 1, 1.0, 0)
    none = InitiativeTally("B", 0, 0.0, 0)
    assert not initiative_differs(one, none) and not initiative_differs(none, one)
    army = _army("a", BRIGADE)
    result = battle_pair(army, army.roster("r"), army, army.roster("r"), battles=1, seed=1)
    assert result.b_first is not None and result.b_first.battles == 0
    assert result.initiative_swing is None and not result.initiative_differs


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out


@pytest.mark.parametrize("case", SPLIT[:2], ids=[c["name"] for c in SPLIT[:2]])
def test_cli_balance_text_and_json_carry_the_split(
    case: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``szwadron balance``: two rows (A's and B's chance, with intervals, when A and when B moved
    first), one sentence when the intervals are apart (2.1.4), and the same in ``--json``."""
    monkeypatch.setattr(battles_module, "play", _fake_play(case))
    n = str(case["battles"])
    code, out = _cli(
        capsys, "balance", "france:corps-1000", "austria:corps-1000", "--battles", n, "--lang", "en"
    )
    assert code == 0
    a, b = case["a_first"], case["b_first"]
    row_a = next(
        line for line in out.splitlines() if line.startswith(f"A moves first ({a['battles']} battles)")
    )
    row_b = next(
        line for line in out.splitlines() if line.startswith(f"B moves first ({b['battles']} battles)")
    )
    for row, tally in ((row_a, a), (row_b, b)):
        lo, hi = wilson_interval(tally["wins"], tally["battles"])
        assert row.split()[-4:] == [
            f"{fmt_prob(tally['rate'])}",
            f"[{fmt_prob(lo)}–{fmt_prob(hi)}]",
            f"{fmt_prob(1 - tally['rate'])}",
            f"[{fmt_prob(1 - hi)}–{fmt_prob(1 - lo)}]",
        ]
    lines = [line for line in out.splitlines() if line.startswith("who moves first matters")]
    assert len(lines) == 1 and "(2.1.4)" in lines[0]
    # the direction of the initiative's weight: A's chance moving first against moving second
    verb = "adds about" if a["rate"] > b["rate"] else "takes about"
    assert f"moving first {verb}" in lines[0]
    assert lines[0].startswith(
        "who moves first matters more than the difference"
        if case["outweighs"]
        else "who moves first matters too"
    )
    code, out = _cli(capsys, "balance", "france:corps-1000", "austria:corps-1000", "--battles", n, "--json")
    assert code == 0
    doc = json.loads(out)["battles"]
    assert list(doc)[:5] == ["seed", "battles", "chance_a", "interval_a", "draws"]  # existing keys first
    assert list(doc)[-1] == "to_even"
    init = doc["initiative"]
    assert init["a_first"]["battles"] == a["battles"] and init["a_first"]["chance_a"] == pytest.approx(
        a["rate"]
    )
    assert init["b_first"]["battles"] == b["battles"] and init["b_first"]["chance_a"] == pytest.approx(
        b["rate"]
    )
    assert init["a_first"]["interval_a"] == list(wilson_interval(a["wins"], a["battles"]))
    assert (init["differs"], init["outweighs"]) == (case["apart"], case["outweighs"])
    assert init["swing"] == pytest.approx(case["swing"])
    assert doc["chance_a"] == pytest.approx(case["rate"])


def test_cli_balance_says_nothing_when_the_intervals_overlap(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    case = SPLIT[2]
    monkeypatch.setattr(battles_module, "play", _fake_play(case))
    code, out = _cli(
        capsys,
        "balance",
        "france:corps-1000",
        "austria:corps-1000",
        "--battles",
        str(case["battles"]),
        "--lang",
        "en",
    )
    assert code == 0 and "A moves first (40 battles)" in out and "B moves first (40 battles)" in out
    assert "who moves first" not in out


def test_cli_balance_one_battle_leaves_b_first_empty(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _cli(
        capsys, "balance", "france:corps-1000", "austria:corps-1000", "--battles", "1", "--lang", "en"
    )
    assert code == 0
    assert "A moves first (1 battle)" in out and "predicted chance (1 battle)" in out
    row = next(line for line in out.splitlines() if line.startswith("B moves first (0 battles)"))
    assert row.split()[-2:] == ["-", "-"]


def test_cli_balance_in_polish_uses_the_rulebooks_inicjatywa(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows and the sentence in Polish, with the rulebook's term (2.1.4: "inicjatywa")."""
    monkeypatch.setattr(battles_module, "play", _fake_play(SPLIT[0]))
    code, out = _cli(
        capsys, "balance", "france:corps-1000", "austria:corps-1000", "--battles", "200", "--lang", "pl"
    )
    assert code == 0
    assert "A ma inicjatywę (100 bitew)" in out and "B ma inicjatywę (100 bitew)" in out
    assert "inicjatywa waży więcej niż różnica między armiami" in out and "(2.1.4)" in out
    assert "moves first" not in out and "who moves" not in out
    monkeypatch.setattr(battles_module, "play", _fake_play(SPLIT[1]))
    code, out = _cli(
        capsys, "balance", "france:corps-1000", "austria:corps-1000", "--battles", "200", "--lang", "pl"
    )
    assert code == 0 and "inicjatywa też ma znaczenie" in out
    code, out = _cli(
        capsys, "balance", "france:corps-1000", "austria:corps-1000", "--battles", "3", "--lang", "pl"
    )
    assert "A ma inicjatywę (2 bitwy)" in out and "B ma inicjatywę (1 bitwa)" in out
    assert "przewidywana szansa (3 bitwy)" in out


def test_roster_check_first_mover_score_is_a_recount_2_1_4() -> None:
    """2.1.4 — ``points validate``'s example-roster check: each pair's split and the first mover's
    mean score (all battles and the lowest / highest pair) equal a recount of the same battles."""
    a = _army("a", BRIGADE, limit=400)
    b = _army("b", [*BRIGADE[:2], {"profile": "skirmishers", "figures": 6}], limit=400)
    c = _army("c", [{"profile": "line", "figures": 12, "count": 3}], limit=400)
    check = validate_rosters([a, b, c], battles=30, seed=4, workers=1)
    assert len(check.cells) == 3
    first_wins = 0.0
    means = []
    for cell in check.cells:
        assert cell.a_first is not None and cell.b_first is not None
        assert cell.a_first.battles == cell.b_first.battles == 15
        assert cell.a_first.wins + cell.b_first.wins == pytest.approx(cell.wins)
        sa, sb = check.sides[cell.a], check.sides[cell.b]
        armies = {"a": a, "b": b, "c": c}
        forces = [
            roster_force(armies[sa.army], armies[sa.army].roster("r")),
            roster_force(armies[sb.army], armies[sb.army].roster("r")),
        ]
        specs: list[BattleSpec] = [(0, 1, k % 2, f"rosters:4:{sa.label}:{sb.label}:{k}") for k in range(30)]
        scores = [s for s, _ in play(forces, specs, workers=1)]
        mover = sum(s if k % 2 == 0 else 1 - s for k, s in enumerate(scores))
        assert cell.first_mover == pytest.approx(mover / 30)
        first_wins += mover
        means.append(mover / 30)
    first = check.first_mover
    assert first is not None and first.battles == 90
    assert first.rate == pytest.approx(first_wins / 90)
    assert (first.low, first.high) == (pytest.approx(min(means)), pytest.approx(max(means)))
    doc = check.to_json()
    assert list(doc)[-1] == "initiative" and doc["initiative"]["score"] == pytest.approx(first.rate)
    assert doc["initiative"]["interval"] == list(wilson_interval(first.wins, 90))


def test_cli_points_validate_prints_the_first_movers_score(capsys: pytest.CaptureFixture[str]) -> None:
    """``points validate``: one line (text) and ``rosters.initiative`` (JSON), English and Polish."""
    from szwadron.cli.points import _print_rosters
    from szwadron.i18n import language

    a = _army("a", BRIGADE, limit=400)
    b = _army("b", [*BRIGADE[:2], {"profile": "skirmishers", "figures": 6}], limit=400)
    check = validate_rosters([a, b], battles=20, seed=4, workers=1)
    first = check.first_mover
    assert first is not None
    _print_rosters(check)
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("the side moving first (the initiative, 2.1.4; alternating) scores ")
    assert "of these 20 battles" in out[-1]
    with language("pl"):
        _print_rosters(check)
    assert (
        capsys.readouterr()
        .out.splitlines()[-1]
        .startswith("strona z inicjatywą (2.1.4; na przemian) zdobywa ")
    )
