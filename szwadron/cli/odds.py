"""``szwadron odds fire|melee|morale`` — exact odds from numbers alone, no table needed.

- ``odds fire``: a volley (4.6, 1.5.1) — damage and figures removed, P(≥k), and with ``--morale``
  the target's morale outcome (6.3) after removal.
- ``odds morale``: one casualty test (6.3): pass, repulsed, panic.
- ``odds melee``: a melee exchange (5.3–5.5): joint losses and the morale outcome table.

``--roll [--seed N]`` resolves the question once with dice instead, showing every die.

Limits (:mod:`szwadron.limits`, said in ``--help``): exact odds for at most 1000 dice a volley or
a melee side, W at most 1000, at most 500 figures a melee side; beyond them, exit code 2.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from szwadron.i18n import N_, _, ngettext, term
from szwadron.limits import MAX_DICE, MAX_MELEE_FIGURES, MAX_WOUNDS

_DIES = ("d6", "d10")
_FIRE_RE = re.compile(r"^\s*(-?\d+)\s*(?:@\s*(-?\d+))?\s*$")

#: Keys of ``--attacker``/``--defender``: name → (canonical, required).
_SIDE_KEYS: dict[str, str] = {
    "figures": "figures",
    "sw": "melee",
    "melee": "melee",
    "uw": "skill",
    "melee_skill": "skill",
    "w": "wounds",
    "wounds": "wounds",
    "m": "morale",
    "morale": "morale",
    "strength": "strength",
    "initial": "initial",
    "modifier": "modifier",
    "terrain": "terrain",
    "skirmish": "skirmish",
}
_SIDE_REQUIRED = ("figures", "melee", "skill", "wounds", "morale")
_SIDE_HELP = N_(
    "one side, in quotes: figures=N (its figures in contact, 5.3) SW=N (melee dice of each) "
    "UW=N (a die scores on a roll ≤ UW) W=N M=N; optionally strength=N (figures in the unit, "
    "default figures), initial=N (at the start, for the casualty modifier, 6.2.4), modifier=K "
    "(other morale modifiers, PD-16), terrain=N (W bonus when struck from an advantageous "
    "position, 5.7, PD-15), skirmish (open order: SW halved, 7.5, PD-17)"
)
_DIE_HELP = "the die of the remainder roll that may remove one more figure: d6 (default) or d10 (1.5.1, PD-5)"
_SIDE_LIMITS = f" (at most {MAX_MELEE_FIGURES} figures and {MAX_DICE} dice a side, W at most {MAX_WOUNDS})"


_INITIAL_HELP = (
    "the unit's figures at the start: down to 3/4, 1/2, 1/4 of them, its tests take −1, −2, −4 (6.2.4)"
)
_MODIFIER_HELP = (
    "other morale modifiers, summed: +1 in a fortification, +1 in advantageous terrain (6.2, PD-16)"
)


def _fire_group(text: str) -> tuple[int, int | None]:
    match = _FIRE_RE.match(text)
    if not match:
        raise argparse.ArgumentTypeError(
            _("expected N or N@C (dice, optional accuracy), got {text!r}").format(text=text)
        )
    dice = int(match.group(1))
    acc = match.group(2)
    return dice, (int(acc) if acc is not None else None)


def _wounds(text: str) -> int | tuple[int, ...]:
    parts = [p.strip() for p in text.split(",")]
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected W or a comma list of W in removal order (2,2,3), got {text!r}").format(text=text)
        ) from None
    return values[0] if len(values) == 1 else values


def _add_roll_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON document")
    parser.add_argument(
        "--roll",
        action="store_true",
        help="roll the dice once instead of giving the odds, showing every die "
        "(give --seed to roll the same dice again)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="seed of --roll: the same seed rolls the same dice (default: a fresh one, printed)",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the odds as a chart: FILE.png, FILE.svg or FILE.pdf",
    )


_ALL_HELP = "print every row of the table (by default rows each below 0.01%% are folded into one line)"


# long: a declaration: one add_argument per option with its help text, no logic.
def register(subparsers: Any) -> None:
    """Add the ``odds`` command with its ``fire``, ``melee`` and ``morale`` questions."""
    parser = subparsers.add_parser(
        "odds",
        help="exact odds of fire, melee and morale from numbers alone",
        description="Exact distributions of a volley, a melee exchange or a morale test.",
    )
    sub = parser.add_subparsers(dest="question", metavar="QUESTION", parser_class=type(parser))
    sub.required = True

    fire = sub.add_parser(
        "fire",
        help="a volley: damage, figures removed, morale (4.6, 1.5.1, 6.3)",
        description=(
            "Figures removed by a volley (4.6, 1.5.1): N d6 per group scoring on ≤ C, damage ÷ W "
            "with the remainder roll. With --morale, the target's test after removal (6.3)."
        ),
    )
    fire.add_argument(
        "--fire",
        action="append",
        type=_fire_group,
        required=True,
        metavar="N[@C]",
        help="N dice, the summed SO of the figures firing, each scoring on a roll ≤ C (4.6); "
        "repeat for figures firing at another C, e.g. --fire 12@3 --fire 8@2 (PD-9); at most "
        f"{MAX_DICE} dice in all",
    )
    fire.add_argument(
        "--accuracy",
        type=int,
        metavar="C",
        help="C of the groups given without @C: a die scores on a roll ≤ C, already less 1 per full 20 cm "
        "of range (4.5.4)",
    )
    fire.add_argument(
        "--wounds",
        type=_wounds,
        required=True,
        metavar="W",
        help="the target's W with its cover (+1 in a forest, rough ground or behind a fence, +2 in a "
        "building, 4.10), or each target figure's W in removal order, e.g. 2,2,3 (PD-13); "
        f"at most {MAX_WOUNDS}",
    )
    fire.add_argument(
        "--figures",
        type=int,
        metavar="F",
        help="target figures the fire can reach (in range, arc and sight): no more can be removed "
        "(4.5.3, PD-10); default: no limit, or --strength",
    )
    fire.add_argument("--die", choices=_DIES, default="d6", help=_DIE_HELP)
    fire.add_argument(
        "--skirmish",
        action="store_true",
        help="the target stands in open skirmish order, gaps of 2 cm or more: its W is doubled, "
        "halving the losses (7.5, PD-17)",
    )
    fire.add_argument(
        "--march",
        action="store_true",
        help="fire on the march: the unit also moves up to half R and rolls half the dice, rounded down (4.11)",
    )
    fire.add_argument(
        "--indirect",
        action="store_true",
        help="indirect fire of howitzers or mortars, without a line of sight: every C − 1 (7.4)",
    )
    fire.add_argument(
        "--morale",
        type=int,
        metavar="M",
        help="the target's M: add the chances of its morale test after the fire, passed, repulsed "
        "or panic (6.3); needs --strength",
    )
    fire.add_argument(
        "--strength", type=int, metavar="S", help="the target's figures before this fire (with --morale)"
    )
    fire.add_argument("--initial", type=int, metavar="I", help=_INITIAL_HELP + "; default: --strength")
    fire.add_argument("--modifier", type=int, default=0, metavar="K", help=_MODIFIER_HELP)
    fire.add_argument("--all", action="store_true", help=_ALL_HELP)
    _add_roll_options(fire)
    fire.set_defaults(func=run)

    morale = sub.add_parser(
        "morale",
        help="a casualty test: pass, repulsed, panic (6.2, 6.3)",
        description="The test after damage (6.3): repulse test, then at once the panic test.",
    )
    morale.add_argument(
        "--morale",
        type=int,
        required=True,
        metavar="M",
        help="the unit's M: a test passes on a d6 roll ≤ M after modifiers (6.2)",
    )
    morale.add_argument(
        "--strength", type=int, required=True, metavar="S", help="the unit's figures now, after its losses"
    )
    morale.add_argument("--initial", type=int, required=True, metavar="I", help=_INITIAL_HELP)
    morale.add_argument("--modifier", type=int, default=0, metavar="K", help=_MODIFIER_HELP)
    _add_roll_options(morale)
    morale.set_defaults(func=run)

    melee = sub.add_parser(
        "melee",
        help="a melee exchange: joint losses and morale outcomes (5.3–5.5)",
        description="Joint losses of a melee exchange and the 5.5 morale sequence of both sides.",
    )
    melee.add_argument("--attacker", required=True, metavar="SPEC", help=_SIDE_HELP + _SIDE_LIMITS)
    melee.add_argument("--defender", required=True, metavar="SPEC", help=_SIDE_HELP + _SIDE_LIMITS)
    melee.add_argument(
        "--first-strike",
        choices=("attacker", "defender"),
        help="the side with the First Strike rule: it deals its losses before the enemy strikes "
        "back, and the enemy strikes only with the figures left (7.7); default: both strike at once",
    )
    melee.add_argument(
        "--initial-attacker",
        type=int,
        metavar="N",
        help="the attacker's figures at the start, for its casualty modifier (6.2.4); as initial=N",
    )
    melee.add_argument(
        "--initial-defender",
        type=int,
        metavar="N",
        help="the defender's figures at the start, for its casualty modifier (6.2.4); as initial=N",
    )
    melee.add_argument(
        "--panicking-defender",
        action="store_true",
        help="the defender is in panic: it tests at the attack and strikes back only if it passes (6.6)",
    )
    melee.add_argument("--die", choices=_DIES, default="d6", help=_DIE_HELP)
    melee.add_argument("--all", action="store_true", help=_ALL_HELP)
    _add_roll_options(melee)
    melee.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Answer the question; return the exit code."""
    import random
    import sys

    if args.plot is not None:  # fail before any work: a bad file name is bad usage
        from szwadron.cli._common import check_output_path
        from szwadron.errors import InvalidDataError
        from szwadron.plots._io import figure_format

        if args.roll:
            raise InvalidDataError(_("--plot draws the odds; it cannot be combined with --roll"))
        figure_format(args.plot)
        check_output_path(args.plot)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed) if args.roll else None
    if args.question == "fire":
        return _run_fire(args, rng, seed, sys.stderr)
    if args.question == "morale":
        return _run_morale(args, rng, seed)
    return _run_melee(args, rng, seed)


def _check_morale_range(morale: int) -> None:
    """M is 0..6 in every odds question, as in a profile (1.1) and as UW (issue 16)."""
    from szwadron.errors import InvalidDataError

    if not 0 <= morale <= 6:
        raise InvalidDataError(_("--morale: M must be 0..6, got {value}").format(value=morale))


# --- fire ---------------------------------------------------------------------------------------
# long: the odds fire command: parse each --fire group, then text, JSON or plot of the same answer.
def _run_fire(args: argparse.Namespace, rng: Any, seed: int, err: Any) -> int:
    from szwadron.cli._common import fmt_prob, format_pmf_table, print_json
    from szwadron.errors import InvalidDataError
    from szwadron.odds.combat import roll_volley, volley
    from szwadron.odds.morale import FireOutcome, fire_outcome, morale_target, roll_casualty_test

    groups = []
    for i, (dice, acc) in enumerate(args.fire):
        if dice < 1:
            raise InvalidDataError(
                _("--fire #{i}: the number of dice must be ≥ 1, got {dice}").format(i=i + 1, dice=dice)
            )
        if acc is None:
            if args.accuracy is None:
                raise InvalidDataError(
                    _("--fire #{i}: give its accuracy as N@C or --accuracy C").format(i=i + 1)
                )
            acc = args.accuracy
        groups.append((dice, acc))
    cap = args.figures
    if cap is not None and cap < 1:
        raise InvalidDataError(_("--figures must be ≥ 1, got {cap}").format(cap=cap))
    want_morale = args.morale is not None
    if want_morale:
        _check_morale_range(args.morale)
    if (args.strength is not None or args.initial is not None) and not want_morale:
        raise InvalidDataError(_("--strength/--initial need --morale"))
    if want_morale:
        if args.strength is None:
            raise InvalidDataError(_("--morale needs --strength (the unit's figures before this fire)"))
        if args.strength < 1:
            raise InvalidDataError(_("--strength must be ≥ 1, got {strength}").format(strength=args.strength))
        initial = args.initial if args.initial is not None else args.strength
        if args.strength > initial:
            raise InvalidDataError(
                _("--strength {strength} is above --initial {initial} (6.2.4)").format(
                    strength=args.strength, initial=initial
                )
            )
        if cap is not None and cap > args.strength:
            raise InvalidDataError(
                _("--figures {cap} is more than the unit's --strength {strength}").format(
                    cap=cap, strength=args.strength
                )
            )
        cap = args.strength if cap is None else cap
    odds = volley(
        groups,
        args.wounds,
        die=args.die,
        skirmish=args.skirmish,
        march=args.march,
        indirect=args.indirect,
        cap=cap,
    )
    for note in odds.notes:
        print(_("note: {note}").format(note=note), file=err)

    if rng is not None:
        roll = roll_volley(odds, rng)
        morale_doc: dict[str, Any] | None = None
        morale_text = ""
        tests: list[Any] = []
        if want_morale:
            left = args.strength - roll.removed
            if roll.damage == 0:
                verdict = FireOutcome.NO_TEST
            elif left == 0:
                verdict = FireOutcome.DESTROYED
            else:
                target = morale_target(args.morale, left, initial, args.modifier)
                verdict, tests = roll_casualty_test(target, rng)
            morale_doc = {
                "tests": [{"kind": t.kind, "face": t.face, "target": t.target} for t in tests],
                "outcome": verdict.value,
            }
            morale_text = "; ".join(
                [str(t) for t in tests] + [_("outcome: {outcome}").format(outcome=term(verdict.value))]
            )
        if args.json:
            doc: dict[str, Any] = {
                "seed": seed,
                "groups": [
                    {"dice": g.dice, "at_most": g.at_most, "faces": list(g.faces), "scored": g.scored}
                    for g in roll.groups
                ],
                "damage": roll.damage,
                "removed": roll.removed,
                "remainder_faces": list(roll.removal.faces),
            }
            if morale_doc is not None:
                doc["morale"] = morale_doc
            print_json(doc)
            return 0
        print(_("Volley rolled (seed {seed}):").format(seed=seed))
        for g in roll.groups:
            print(
                "  "
                + _("{n} d6 on ≤{c}").format(n=g.dice, c=g.at_most)
                + f": {' '.join(map(str, g.faces))} → "
                + ngettext("{n} scored", "{n} scored", g.scored).format(n=g.scored)
            )
        print(f"  {roll.removal.describe()}")
        if morale_text:
            print("  " + _("morale: {outcome}").format(outcome=morale_text))
        return 0

    morale_probs: dict[str, float] | None = None
    if want_morale:
        out = fire_outcome(
            odds.removed,
            odds.no_damage,
            morale=args.morale,
            strength=args.strength,
            initial=initial,
            modifier=args.modifier,
        )
        morale_probs = {o.value: float(out.probability(o)) for o in FireOutcome}
    if args.json:
        doc = {
            "damage_pmf": odds.damage_pmf,
            "removed_pmf": odds.removed_pmf,
            "expected": odds.expected,
            "at_least": odds.at_least,
        }
        if morale_probs is not None:
            doc["morale"] = morale_probs
        print_json(doc)
        return _plot_fire(args, odds, morale_probs)
    dice_text = " + ".join(_("{n} d6 on ≤{c}").format(n=g.dice, c=g.accuracy) for g in odds.groups)
    w_text = (
        f"W {odds.wounds}"
        if isinstance(odds.wounds, int)
        else _("W {wounds} in removal order").format(wounds=",".join(map(str, odds.wounds)))
    )
    cap_text = (
        ", " + ngettext("at most {n} figure", "at most {n} figures", odds.cap).format(n=odds.cap)
        if odds.cap is not None
        else ""
    )
    print(
        _("Volley: {dice} against {wounds} (remainder on a {die})").format(
            dice=dice_text, wounds=w_text + cap_text, die=term(odds.die)
        )
    )
    print(
        format_pmf_table(
            {
                _("P(damage=k)"): odds.damage_pmf,
                _("P(removed=k)"): odds.removed_pmf,
                _("P(removed≥k)"): odds.at_least,
            },
            show_all=args.all,
        )
    )
    print(
        _(
            "figures removed: mean {mean:.3f}, sd {sd:.3f}; damage: mean {damage_mean:.3f}, sd {damage_sd:.3f}"
        ).format(
            mean=odds.expected, sd=odds.sd, damage_mean=float(odds.damage.mean()), damage_sd=odds.damage.sd()
        )
    )
    if morale_probs is not None:
        parts = " · ".join(f"{term(k).replace('_', ' ')} {fmt_prob(v)}" for k, v in morale_probs.items())
        figures = ngettext("{strength} of {n} figure", "{strength} of {n} figures", initial).format(
            strength=args.strength, n=initial
        )
        print(
            _("morale (M {morale}, {figures}{modifier})").format(
                morale=args.morale, figures=figures, modifier=""
            )
            + f": {parts}"
        )
    return _plot_fire(args, odds, morale_probs)


# --- morale -------------------------------------------------------------------------------------
def _run_morale(args: argparse.Namespace, rng: Any, seed: int) -> int:
    from szwadron.cli._common import fmt_prob, print_json
    from szwadron.errors import InvalidDataError
    from szwadron.odds.morale import casualty_modifier, casualty_test, morale_target, roll_casualty_test

    _check_morale_range(args.morale)
    for flag, value in (("--strength", args.strength), ("--initial", args.initial)):
        if value < 1:  # as odds fire --strength: a unit with no figure takes no test
            raise InvalidDataError(_("{flag} must be ≥ 1, got {value}").format(flag=flag, value=value))
    test = casualty_test(args.morale, args.strength, args.initial, args.modifier)
    target = morale_target(args.morale, args.strength, args.initial, args.modifier)
    if rng is not None:
        verdict, rolls = roll_casualty_test(target, rng)
        if args.json:
            print_json(
                {
                    "seed": seed,
                    "tests": [{"kind": t.kind, "face": t.face, "target": t.target} for t in rolls],
                    "outcome": verdict.value,
                }
            )
        else:
            print(_("Morale test rolled (seed {seed}):").format(seed=seed))
            for t in rolls:
                print(f"  {t}")
            print("  " + _("outcome: {outcome}").format(outcome=term(verdict.value)))
        return 0
    if args.json:
        print_json(test.to_json())
        return _plot_morale(args, test, target)
    mod = casualty_modifier(args.strength, args.initial)
    print(
        _(
            "Morale test (6.3): M {morale}, casualties {casualties:+d}, other {other:+d} → pass on ≤{target}"
        ).format(morale=args.morale, casualties=mod, other=args.modifier, target=target)
    )
    print(
        _("pass {passed} · repulsed {repulsed} · panic {panic}").format(
            passed=fmt_prob(float(test.passed)),
            repulsed=fmt_prob(float(test.repulsed)),
            panic=fmt_prob(float(test.panic)),
        )
    )
    return _plot_morale(args, test, target)


# --- melee --------------------------------------------------------------------------------------
# long: one branch per key of a side's spec (figures, SW, UW, W, M ...), each with its own message.
def _parse_side(flag: str, text: str, initial: int | None, panicking: bool) -> Any:
    from szwadron.errors import InvalidDataError
    from szwadron.odds.combat import MeleeSide

    values: dict[str, int] = {}
    skirmish = False
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    if not tokens:
        raise InvalidDataError(
            _("{flag}: empty; expected {SIDE_HELP}").format(flag=flag, SIDE_HELP=_(_SIDE_HELP))
        )
    for token in tokens:
        key, sep, raw = token.partition("=")
        name = _SIDE_KEYS.get(key.strip().lower())
        if name is None:
            valid = "figures, SW, UW, W, M, strength, initial, modifier, terrain, skirmish"
            raise InvalidDataError(
                _("{flag}: unknown key {key!r} in {token!r}; expected one of {valid}").format(
                    flag=flag, key=key, token=token, valid=valid
                )
            )
        if name == "skirmish":
            if sep and raw.strip().lower() not in ("1", "0", "true", "false", "yes", "no"):
                raise InvalidDataError(
                    _("{flag}: skirmish takes no value or 1/0, got {raw!r}").format(flag=flag, raw=raw)
                )
            skirmish = not sep or raw.strip().lower() in ("1", "true", "yes")
            continue
        if not sep:
            raise InvalidDataError(
                _("{flag}: {token!r} needs a value: {key}=N").format(flag=flag, token=token, key=key)
            )
        try:
            value = int(raw)
        except ValueError:
            raise InvalidDataError(
                _("{flag}: {key} must be a whole number, got {raw!r}").format(flag=flag, key=key, raw=raw)
            ) from None
        if name in values:
            raise InvalidDataError(_("{flag}: {key} given twice").format(flag=flag, key=key))
        values[name] = value
    missing = [k for k in _SIDE_REQUIRED if k not in values]
    if missing:
        codes = {"figures": "figures", "melee": "SW", "skill": "UW", "wounds": "W", "morale": "M"}
        raise InvalidDataError(
            _("{flag}: missing {missing}; expected {SIDE_HELP}").format(
                flag=flag, missing=", ".join(codes[k] for k in missing), SIDE_HELP=_(_SIDE_HELP)
            )
        )
    checks = {"figures": 1, "melee": 1, "wounds": 1, "skill": 0, "terrain": 0}
    for key, low in checks.items():
        if key in values and values[key] < low:
            raise InvalidDataError(
                _("{flag}: {key} must be ≥ {low}, got {values}").format(
                    flag=flag, key=key, low=low, values=values[key]
                )
            )
    if values["skill"] > 6:
        raise InvalidDataError(
            _("{flag}: UW must be 0..6, got {values}").format(flag=flag, values=values["skill"])
        )
    if not 0 <= values["morale"] <= 6:  # the same range as a profile's M and as UW (1.1)
        raise InvalidDataError(
            _("{flag}: M must be 0..6, got {value}").format(flag=flag, value=values["morale"])
        )
    for key, code, high in (
        ("figures", "figures", MAX_MELEE_FIGURES),
        ("wounds", "W", MAX_WOUNDS),
        ("terrain", "terrain", MAX_WOUNDS),
    ):
        if values.get(key, 0) > high:
            raise InvalidDataError(
                _("{flag}: {code} must be at most {high}, got {values}").format(
                    flag=flag, code=code, high=high, values=values[key]
                )
            )
    strength = values.get("strength", values["figures"])
    if strength < values["figures"]:
        raise InvalidDataError(
            _("{flag}: strength {strength} is below the {values} figures that fought").format(
                flag=flag, strength=strength, values=values["figures"]
            )
        )
    if initial is not None and "initial" in values and initial != values["initial"]:
        raise InvalidDataError(
            _("{flag}: initial={values} contradicts --initial-* {initial}").format(
                flag=flag, values=values["initial"], initial=initial
            )
        )
    start = initial if initial is not None else values.get("initial", strength)
    if strength > start:
        raise InvalidDataError(
            _("{flag}: strength {strength} is above the initial strength {start}").format(
                flag=flag, strength=strength, start=start
            )
        )
    try:
        return MeleeSide.uniform(
            values["figures"],
            melee=values["melee"],
            skill=values["skill"],
            wounds=values["wounds"],
            morale=values["morale"],
            strength=strength,
            initial=start,
            morale_modifier=values.get("modifier", 0),
            wound_bonus=values.get("terrain", 0),
            skirmish=skirmish,
            panicking=panicking,
        )
    except InvalidDataError as exc:  # the limits (szwadron.limits): say which side
        raise InvalidDataError(f"{flag}: {exc}") from None


# long: the odds melee command: parse both sides, then text, JSON or plot of the same answer.
def _run_melee(args: argparse.Namespace, rng: Any, seed: int) -> int:
    from szwadron.cli._common import fmt_prob, format_pmf_table, print_json
    from szwadron.odds.combat import melee, roll_melee

    attacker = _parse_side("--attacker", args.attacker, args.initial_attacker, False)
    defender = _parse_side("--defender", args.defender, args.initial_defender, args.panicking_defender)
    if rng is not None:
        r = roll_melee(attacker, defender, rng, first_strike=args.first_strike, die=args.die)
        if args.json:
            print_json(
                {
                    "seed": seed,
                    "strike_back_test": (
                        None
                        if r.strike_back_test is None
                        else {"face": r.strike_back_test.face, "target": r.strike_back_test.target}
                    ),
                    "strikes": [
                        {
                            "side": side,
                            "dice": g.dice,
                            "at_most": g.at_most,
                            "faces": list(g.faces),
                            "scored": g.scored,
                            "removed": rem.removed,
                            "remainder_faces": list(rem.faces),
                        }
                        for side, g, rem in r.strikes
                    ],
                    "attacker_removed": r.attacker_removed,
                    "defender_removed": r.defender_removed,
                    "tests": [{"kind": t.kind, "face": t.face, "target": t.target} for t in r.tests],
                    "outcome": {"attacker": r.outcome[0].value, "defender": r.outcome[1].value},
                }
            )
            return 0
        print(_("Melee rolled (seed {seed}):").format(seed=seed))
        if r.strike_back_test is not None:
            print("  " + _("panicking defender: {test}").format(test=r.strike_back_test))
        for side, g, rem in r.strikes:
            bonus = " " + _("(enemy W +{bonus})").format(bonus=g.target_bonus) if g.target_bonus else ""
            print(
                f"  {term(side)}: "
                + _("{n} d6 on ≤{c}").format(n=g.dice, c=g.at_most)
                + f"{bonus}: {' '.join(map(str, g.faces))} → {rem.describe()}"
            )
        print(
            "  "
            + _("removed: attacker {attacker}, defender {defender}").format(
                attacker=r.attacker_removed, defender=r.defender_removed
            )
        )
        for t in r.tests:
            print(f"  {t}")
        print(
            "  "
            + _("outcome: attacker {attacker}, defender {defender}").format(
                attacker=term(r.outcome[0].value), defender=term(r.outcome[1].value)
            )
        )
        return 0

    odds = melee(attacker, defender, first_strike=args.first_strike, die=args.die)
    a_rem, d_rem = odds.attacker_removed, odds.defender_removed
    if args.json:
        print_json(
            {
                "joint_pmf": odds.joint_pmf(),
                "attacker_removed_pmf": a_rem.pmf(odds.attacker_figures + 1),
                "defender_removed_pmf": d_rem.pmf(odds.defender_figures + 1),
                "outcomes": odds.outcome_list(),
            }
        )
        return _plot_melee(args, odds)
    fs = ", " + _("first strike: {side}").format(side=term(args.first_strike)) if args.first_strike else ""
    print(
        ngettext(
            "Melee: {n} attacking figure against {defenders}",
            "Melee: {n} attacking figures against {defenders}",
            odds.attacker_figures,
        ).format(n=odds.attacker_figures, defenders=odds.defender_figures)
        + fs
    )
    print(
        format_pmf_table(
            {
                _("P(att=k)"): a_rem.pmf(),
                _("P(att≥k)"): a_rem.at_least_list(),
                _("P(def=k)"): d_rem.pmf(),
                _("P(def≥k)"): d_rem.at_least_list(),
            },
            index=_("removed"),
            show_all=args.all,
        )
    )
    print(
        _(
            "attacker loses: mean {attacker_mean:.3f}, sd {attacker_sd:.3f}; defender loses: mean {defender_mean:.3f}, sd {defender_sd:.3f}"
        ).format(
            attacker_mean=float(a_rem.mean()),
            attacker_sd=a_rem.sd(),
            defender_mean=float(d_rem.mean()),
            defender_sd=d_rem.sd(),
        )
    )
    print(_("outcomes (5.5), attacker / defender:"))
    for row in odds.outcome_list():
        print(
            f"  {fmt_prob(float(row['p'])):>7}  {term(str(row['attacker']))} / {term(str(row['defender']))}"
        )
    return _plot_melee(args, odds)


# --- --plot -------------------------------------------------------------------------------------
def _save_plot(args: argparse.Namespace, size: tuple[float, float], draw: Any) -> int:
    """Draw on a new headless figure with ``draw(fig)`` and write it to ``--plot`` (atomically);
    the exit code 0. Without ``--plot``, nothing."""
    import sys

    if args.plot is None:
        return 0
    from szwadron.plots._io import new_figure, save_figure, use_agg

    use_agg()
    fig = new_figure(*size)
    draw(fig)
    path = save_figure(fig, args.plot)
    print(_("picture: {path}").format(path=path), file=sys.stderr)
    return 0


def _plot_fire(args: argparse.Namespace, odds: Any, morale_probs: dict[str, float] | None) -> int:
    """``odds fire --plot``: figures removed (bars, P(≥k), mean), and with ``--morale`` the
    target's morale outcome beside them."""

    def draw(fig: Any) -> None:
        from szwadron.plots.odds import plot_morale_outcomes, plot_volley, volley_title

        if morale_probs is None:
            plot_volley(odds, fig.add_subplot())
            return
        left, right = fig.subplots(1, 2, width_ratios=[1.6, 1.0])
        plot_volley(odds, left, title="Figures removed")
        plot_morale_outcomes(
            morale_probs,
            right,
            title=_("Target's morale (M {morale}, {strength} figures)").format(
                morale=args.morale, strength=args.strength
            ),
        )
        fig.suptitle(volley_title(odds), fontsize=11)

    return _save_plot(args, (11.0, 4.6) if morale_probs is not None else (7.5, 4.5), draw)


def _plot_morale(args: argparse.Namespace, test: Any, target: int) -> int:
    """``odds morale --plot``: pass, repulsed, panic as bars."""

    def draw(fig: Any) -> None:
        from szwadron.plots.odds import plot_morale_outcomes

        plot_morale_outcomes(
            test,
            fig.add_subplot(),
            title=_(
                "Morale test (6.3): M {morale}, {strength} of {initial} figures → pass on ≤{target}"
            ).format(morale=args.morale, strength=args.strength, initial=args.initial, target=target),
        )

    return _save_plot(args, (6.0, 4.0), draw)


def _plot_melee(args: argparse.Namespace, odds: Any) -> int:
    """``odds melee --plot``: joint-loss heatmap beside the outcome bars of both sides."""

    def draw(fig: Any) -> None:
        from szwadron.plots.odds import plot_melee

        left, right = fig.subplots(1, 2, width_ratios=[1.15, 1.0])
        fs = (
            ", " + _("first strike: {side}").format(side=term(args.first_strike)) if args.first_strike else ""
        )
        plot_melee(
            odds,
            (left, right),
            title=ngettext(
                "Melee: {n} attacking figure against {defenders}",
                "Melee: {n} attacking figures against {defenders}",
                odds.attacker_figures,
            ).format(n=odds.attacker_figures, defenders=odds.defender_figures)
            + fs,
        )

    return _save_plot(args, (12.0, 5.0), draw)
