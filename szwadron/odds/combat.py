"""4.6, 5.3 — exact distributions of fire (volleys) and melee exchanges.

:func:`volley` answers "what will this volley do" (4.5.4, 4.6, 4.10, 4.11, 7.4, 7.5, PD-9, PD-10,
PD-13, PD-17); :func:`melee` answers "what will this melee exchange do" (5.3, 5.4, 5.7, 5.10,
6.6, 7.5, 7.7, PD-15) together with the 5.5 morale table. Both are exact: integer weights
inside (:class:`szwadron.odds.dice.Distribution`), floats only in the ``*_pmf`` views.

The removal of figures (1.5.1, PD-5, PD-13) is shared: damage is applied along the removal order,
each figure removed takes its own W, and the leftover damage is rolled for with the remainder
procedure against the W of the next figure (:func:`removal_weights`).

Examples
--------
>>> v = volley([(12, 3)], wounds=2)
>>> v.expected_fraction            # 12 · 3/6 / 2: the remainder rule keeps the mean
Fraction(3, 1)
>>> m = melee(MeleeSide.uniform(6, melee=2, skill=4, wounds=2, morale=4),
...           MeleeSide.uniform(8, melee=1, skill=3, wounds=2, morale=3))
>>> round(sum(m.attacker_removed.pmf()), 12)
1.0
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import accumulate
from typing import Literal, NamedTuple, cast

from szwadron.errors import InvalidDataError
from szwadron.i18n import gettext
from szwadron.limits import MAX_DICE, MAX_MELEE_FIGURES, MAX_WOUNDS
from szwadron.odds.dice import Distribution, clamp, hit_weights, hits
from szwadron.odds.morale import (
    MeleeMorale,
    MeleeOutcome,
    MoraleRoll,
    melee_outcomes,
    morale_pass_chance,
    roll_melee_sequence,
    roll_test,
)
from szwadron.odds.remainder import RemainderRoll, die_sides, remainder_roll

#: 4.6, 5.3: fire and melee dice are d6.
COMBAT_DIE_SIDES = 6

Side = Literal["attacker", "defender"]


# --- removal of figures (1.5.1, PD-5, PD-13) ---------------------------------------------------
@lru_cache(maxsize=1024)
def _chance_table(wounds: int, die: str) -> tuple[int, tuple[int, ...]]:
    """(L, numerators): the remainder chance of r of W is numerators[r] / L, for r in 0..W-1."""
    if wounds <= 1:
        return 1, (0,)
    chances = [Fraction(0)] + [remainder_roll(r, wounds, die).chance for r in range(1, wounds)]
    den = math.lcm(*(c.denominator for c in chances))
    return den, tuple(int(c * den) for c in chances)


def removal_weights(
    damage: Sequence[int], wounds: int | Sequence[int], *, cap: int | None = None, die: str = "d6"
) -> tuple[list[int], int]:
    """1.5.1, PD-5, PD-10, PD-13 — figures removed, from integer damage weights.

    Parameters
    ----------
    damage:
        Integer weights of damage 0, 1, 2, ...
    wounds:
        One W for every figure (unbounded unless ``cap``), or the W of each eligible figure in
        removal order (4.7, 4.10.8, 5.4.3): each removed figure takes its own W, the remainder
        is rolled against the W of the next figure (PD-13).
    cap:
        At most this many figures (PD-10); a list of wounds caps at its length too.
    die:
        The remainder die (PD-5).

    Returns
    -------
    (weights, scale)
        Integer weights of 0, 1, 2, ... figures removed; they sum to ``sum(damage) * scale``.

    Examples
    --------
    >>> removal_weights([1, 1, 1, 1], 3)          # damage 0..3, W 3: r = 1 → 1/3, r = 2 → 2/3
    ([6, 6], 3)
    >>> removal_weights([0, 0, 0, 1], [1, 2, 2])  # 3 damage: W 1 then W 2, nothing left over
    ([0, 0, 2, 0], 2)
    """
    if isinstance(wounds, int):
        if cap is None:
            return _removal_uniform(damage, wounds, die)
        # every figure removed takes at least 1 damage: a cap above the damage never binds
        wounds_seq: Sequence[int] = (wounds,) * min(cap, len(damage))
    else:
        wounds_seq = tuple(wounds) if cap is None else tuple(wounds)[:cap]
    return _removal_sequence(damage, wounds_seq, die)


def _removal_uniform(damage: Sequence[int], wounds: int, die: str) -> tuple[list[int], int]:
    if wounds == 1:
        return list(damage), 1
    den, nums = _chance_table(wounds, die)
    out = [0] * (-(-(len(damage) - 1) // wounds) + 1)
    q = r = 0
    for w in damage:
        if w:
            if r == 0:
                out[q] += w * den
            else:
                n = nums[r]
                out[q + 1] += w * n
                out[q] += w * (den - n)
        r += 1
        if r == wounds:
            q += 1
            r = 0
    return out, den


def _removal_sequence(damage: Sequence[int], wounds: Sequence[int], die: str) -> tuple[list[int], int]:
    count = len(wounds)
    if count == 0:
        return [sum(damage)], 1
    tables = {w: _chance_table(w, die) for w in set(wounds)}
    den = math.lcm(*(t[0] for t in tables.values()))
    prefix = [0, *accumulate(wounds)]
    out = [0] * (count + 1)
    for dmg, w in enumerate(damage):
        if not w:
            continue
        q = bisect_right(prefix, dmg) - 1
        if q >= count:
            out[count] += w * den
            continue
        r = dmg - prefix[q]
        if r == 0:
            out[q] += w * den
            continue
        tden, nums = tables[wounds[q]]
        n = nums[r] * (den // tden)
        out[q + 1] += w * n
        out[q] += w * (den - n)
    return out, den


def _convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    if len(a) < len(b):
        a, b = b, a
    out = [0] * (len(a) + len(b) - 1)
    for j, wb in enumerate(b):
        if wb:
            for i, wa in enumerate(a):
                if wa:
                    out[i + j] += wa * wb
    return out


def _trim(weights: list[int]) -> list[int]:
    end = len(weights)
    while end > 1 and weights[end - 1] == 0:
        end -= 1
    return weights[:end]


# --- fire -------------------------------------------------------------------------------------
class FireGroup(NamedTuple):
    """PD-9 — dice rolled with one (modified) accuracy: ``dice`` d6 scoring on ≤ ``accuracy``."""

    dice: int
    accuracy: int


@dataclass(frozen=True)
class VolleyOdds:
    """4.6, 1.5.1 — the exact outcome of one volley.

    Attributes
    ----------
    groups:
        The dice actually rolled, after fire on the march (4.11) and accuracy modifiers.
    wounds:
        W per figure (int, unbounded unless ``cap``) or per eligible figure in removal order,
        after skirmish doubling (PD-17).
    cap:
        Most figures removable (PD-10), or None.
    die:
        The remainder die (PD-5).
    damage_weights, removed_weights:
        Integer weights of damage 0, 1, ... and of 0, 1, ... figures removed (exact; the views
        :attr:`damage` and :attr:`removed` are built from them on first use).
    notes:
        What the function changed and why (accuracy clamped to 0..6, dice halved, ...).
    """

    groups: tuple[FireGroup, ...]
    wounds: int | tuple[int, ...]
    cap: int | None
    die: str
    damage_weights: tuple[int, ...] = field(repr=False)
    removed_weights: tuple[int, ...] = field(repr=False)
    notes: tuple[str, ...] = field(default=())

    @cached_property
    def damage(self) -> Distribution[int]:
        """Damage points scored (4.6)."""
        return Distribution._trusted_dense(self.damage_weights)

    @cached_property
    def removed(self) -> Distribution[int]:
        """Figures removed (1.5.1)."""
        return Distribution._trusted_dense(self.removed_weights)

    @property
    def damage_pmf(self) -> list[float]:
        """``[P(damage = 0), P(damage = 1), ...]``."""
        return self.damage.pmf()

    @property
    def removed_pmf(self) -> list[float]:
        """``[P(0 removed), P(1 removed), ...]``."""
        return self.removed.pmf()

    @property
    def expected_fraction(self) -> Fraction:
        """Exact expected figures removed."""
        return self.removed.mean()

    @property
    def expected(self) -> float:
        """Expected figures removed."""
        return float(self.removed.mean())

    @property
    def sd(self) -> float:
        """Standard deviation of the figures removed."""
        return self.removed.sd()

    @property
    def at_least(self) -> list[float]:
        """``[P(≥0 removed), P(≥1), ...]``."""
        return self.removed.at_least_list()

    @property
    def no_damage(self) -> Fraction:
        """P(no die scored): the target takes no morale test (4.8.1)."""
        return self.damage.probability(0)


def _march_halve(groups: list[FireGroup], notes: list[str]) -> list[FireGroup]:
    """4.11 — half SO, the total rounded down; pooled half dice go to the best accuracies."""
    total = sum(g.dice for g in groups)
    halved = [FireGroup(g.dice // 2, g.accuracy) for g in groups]
    odd = sorted((i for i, g in enumerate(groups) if g.dice % 2), key=lambda i: -groups[i].accuracy)
    for i in odd[: len(odd) // 2]:
        halved[i] = FireGroup(halved[i].dice + 1, halved[i].accuracy)
    notes.append(
        gettext("fire on the march (4.11): {total} SO halved to {half} dice").format(
            total=total, half=total // 2
        )
    )
    return halved


def _check_wounds(wounds: int | Sequence[int]) -> int | tuple[int, ...]:
    if isinstance(wounds, bool):
        raise InvalidDataError(
            gettext("W must be a whole number ≥ 1, got {value}").format(value=repr(wounds))
        )
    if isinstance(wounds, int):
        if wounds < 1:
            raise InvalidDataError(gettext("W must be a whole number ≥ 1, got {value}").format(value=wounds))
        if wounds > MAX_WOUNDS:
            raise InvalidDataError(
                gettext("W must be at most {most}, got {value}").format(most=MAX_WOUNDS, value=wounds)
            )
        return wounds
    seq = tuple(wounds)
    for i, w in enumerate(seq):
        if not isinstance(w, int) or isinstance(w, bool) or w < 1:
            raise InvalidDataError(
                f"wounds[{i}]: " + gettext("W must be a whole number ≥ 1, got {value}").format(value=repr(w))
            )
        if w > MAX_WOUNDS:
            raise InvalidDataError(
                f"wounds[{i}]: "
                + gettext("W must be at most {most}, got {value}").format(most=MAX_WOUNDS, value=w)
            )
    return seq


def _check_dice(dice: int, what: str) -> None:
    """Refuse more dice than :data:`~szwadron.limits.MAX_DICE` (the exact odds would take
    minutes, then hours)."""
    if dice > MAX_DICE:
        raise InvalidDataError(
            gettext("{what} rolls {dice} dice; exact odds are computed for at most {most} dice").format(
                what=what, dice=dice, most=MAX_DICE
            )
        )


# long: 4.6 and 1.5.1 as one convolution over the groups; split it and the cached arrays would be passed around.
def volley(
    groups: Iterable[tuple[int, int]],
    wounds: int | Sequence[int],
    *,
    die: str = "d6",
    skirmish: bool = False,
    march: bool = False,
    indirect: bool = False,
    cap: int | None = None,
) -> VolleyOdds:
    """4.6, 1.5.1 — the exact damage and figures-removed distributions of one volley.

    Parameters
    ----------
    groups:
        ``(dice, accuracy)`` pairs (PD-9): the total SO of the figures firing with one modified
        C (range already applied, 4.5.4). Accuracy is clamped to 0..6 after the indirect-fire
        modifier, and the clamping is reported in ``notes``; C ≤ 0 scores nothing (4.5.4).
    wounds:
        The target's W (cover included, 4.10), or the W of each eligible target figure in
        removal order (4.7, 4.10.8, PD-13).
    die:
        Remainder die, "d6" or "d10" (PD-5).
    skirmish:
        Target in open skirmish order (7.5, PD-17): W doubled for this fire.
    march:
        Fire on the march (4.11): the total dice are halved, rounded down. Decision: when odd
        groups leave half dice, they are pooled into whole dice with the best accuracies (the
        firing player's choice).
    indirect:
        Indirect fire (7.4): C − 1 for every group.
    cap:
        Most figures that can be removed: the eligible targets (4.5.3, PD-10).

    Returns
    -------
    VolleyOdds

    Raises
    ------
    InvalidDataError
        No groups, a group with fewer than 1 die, W < 1, a negative cap, or an unknown die; more
        than :data:`~szwadron.limits.MAX_DICE` dice, or W above
        :data:`~szwadron.limits.MAX_WOUNDS`.

    Examples
    --------
    >>> v = volley([(12, 3), (8, 2)], wounds=2, cap=6)
    >>> v.damage.mean(), round(v.expected, 4)
    (Fraction(26, 3), 4.3042)
    >>> volley([(6, 8)], wounds=1).notes
    ('accuracy 8 clamped to 6 (0–6)',)
    >>> volley([(6, 3)], wounds=[1, 2], skirmish=True).wounds   # PD-17: W doubled
    (2, 4)
    """
    die_sides(die)
    notes: list[str] = []
    checked: list[FireGroup] = []
    shift = 1 if indirect else 0
    for i, (dice, accuracy) in enumerate(groups):
        if type(dice) is not int or dice < 1:
            raise InvalidDataError(
                gettext("group {i}: the number of dice must be ≥ 1, got {value}").format(
                    i=i + 1, value=repr(dice)
                )
            )
        if type(accuracy) is not int:
            raise InvalidDataError(
                gettext("group {i}: accuracy must be a whole number, got {value}").format(
                    i=i + 1, value=repr(accuracy)
                )
            )
        acc = accuracy - shift
        if not 0 <= acc <= COMBAT_DIE_SIDES:
            clamped = clamp(acc, 0, COMBAT_DIE_SIDES)
            notes.append(
                gettext("accuracy {acc} clamped to {clamped} (0–6)").format(acc=acc, clamped=clamped)
            )
            acc = clamped
        checked.append(FireGroup(dice, acc))
    if not checked:
        raise InvalidDataError(gettext("a volley needs at least one group of dice"))
    if indirect:
        notes.insert(0, gettext("indirect fire (7.4): C − 1"))
    if march:
        checked = _march_halve(checked, notes)
    _check_dice(sum(g.dice for g in checked), gettext("the volley"))
    target_w = wounds if type(wounds) is int and 1 <= wounds <= MAX_WOUNDS else _check_wounds(wounds)
    if skirmish:
        target_w = target_w * 2 if isinstance(target_w, int) else tuple(2 * w for w in target_w)
        notes.append(gettext("skirmish order (7.5, PD-17): W doubled for this fire"))
    if cap is not None and (type(cap) is not int or cap < 0):
        raise InvalidDataError(
            gettext("the figures cap must be a whole number ≥ 0, got {value}").format(value=repr(cap))
        )
    key = tuple(checked)
    dmg, rem = _volley_weights(key, target_w, cap, die)
    return VolleyOdds(key, target_w, cap, die, dmg, rem, tuple(notes))


@lru_cache(maxsize=1024)
def _damage_weights(groups: tuple[FireGroup, ...]) -> tuple[int, ...]:
    by_acc: dict[int, int] = {}
    for g in groups:
        by_acc[g.accuracy] = by_acc.get(g.accuracy, 0) + g.dice
    parts = [hit_weights(n, acc, COMBAT_DIE_SIDES) for acc, n in sorted(by_acc.items())]
    weights: Sequence[int] = parts[0]
    for part in parts[1:]:
        weights = _convolve(weights, part)
    if weights[-1] and isinstance(weights, tuple):
        return weights
    return tuple(_trim(list(weights)))


@lru_cache(maxsize=1024)
def _volley_weights(
    groups: tuple[FireGroup, ...], wounds: int | tuple[int, ...], cap: int | None, die: str
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    dmg = _damage_weights(groups)
    removed, _ = removal_weights(dmg, wounds, cap=cap, die=die)
    if not removed[-1]:
        removed = _trim(removed)
    return dmg, tuple(removed)


def clear_caches(*, rule_tables: bool = True) -> None:
    """Forget every cached distribution (for honest cold-start benchmarks).

    ``rule_tables=False`` keeps the remainder-roll table of 1.5.1 (a constant of the rules,
    r < W ≤ max W) and clears only the distributions.
    """

    for fn in (_damage_weights, _volley_weights, _side_losses_cached, _parted_losses_cached):
        fn.cache_clear()
    hit_weights.cache_clear()
    hits.cache_clear()
    if rule_tables:
        _chance_table.cache_clear()
        remainder_roll.cache_clear()


# --- melee ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fighter:
    """5.3, 5.4 — one figure that fought.

    Attributes
    ----------
    wounds:
        Its W (before any terrain bonus).
    melee:
        Its SW: dice it rolls.
    skill:
        Its UW: a die scores on ≤ UW.
    target_bonus:
        The terrain W bonus (PD-15) of the enemy figures *it* strikes; its dice form a separate
        group for each (UW, bonus) (5.7.2, 5.10.3).
    part:
        5.7.2 — the separate fight it is in, where only part of a unit holds the advantageous
        position ("rozgrywa się osobno każdą walkę dla jednostek walczących z różnymi
        współczynnikami terenu"): a small whole number, the same on both sides of one fight. Its
        dice form groups of their own, which remove only enemy figures of the same fight (5.4.2:
        only figures that took part in that fight). 0 everywhere when the melee is one fight.
    """

    wounds: int
    melee: int
    skill: int
    target_bonus: int = 0
    part: int = 0


@dataclass(frozen=True)
class MeleeSide:
    """5.3, 5.4 — one side of a melee.

    Attributes
    ----------
    fighters:
        The figures that fought, in removal order (5.4.3: those touching most enemies first).
        Only they can be removed (5.4.2). None when every figure of the side touches the enemy
        along less than 1 cm while an enemy figure does fight (PD-14, issue 15): the side then
        rolls no dice and loses no figure, but damage dealt to it still counts (5.5.1).
    morale:
        The side's morale profile (M, strength before the melee, initial strength, modifiers,
        panicking) — :class:`szwadron.odds.morale.MeleeMorale`.
    wound_bonus:
        PD-15 W bonus of all this side's figures when struck (advantageous position, 5.7.1).
    skirmish:
        Open skirmish order (7.5, PD-17): each group's SW halved, rounded down.
    """

    fighters: tuple[Fighter, ...]
    morale: MeleeMorale
    wound_bonus: int = 0
    skirmish: bool = False

    def __post_init__(self) -> None:
        if len(self.fighters) > self.morale.strength:
            raise InvalidDataError(
                gettext("{n} figures fought but the unit has {strength}").format(
                    n=len(self.fighters), strength=self.morale.strength
                )
            )
        if len(self.fighters) > MAX_MELEE_FIGURES:
            raise InvalidDataError(
                gettext(
                    "{n} figures fought; exact melee odds are computed for at most {most} figures a side"
                ).format(n=len(self.fighters), most=MAX_MELEE_FIGURES)
            )
        for i, f in enumerate(self.fighters):
            if not 1 <= f.wounds <= MAX_WOUNDS:
                raise InvalidDataError(
                    gettext("fighter {i}: W must be 1..{most}, got {value}").format(
                        i=i, most=MAX_WOUNDS, value=f.wounds
                    )
                )
            if f.melee < 0:
                raise InvalidDataError(
                    gettext("fighter {i}: SW must be ≥ 0, got {value}").format(i=i, value=f.melee)
                )
            if not 0 <= f.target_bonus <= MAX_WOUNDS:
                raise InvalidDataError(
                    gettext("fighter {i}: the W bonus of its target must be 0..{most}, got {value}").format(
                        i=i, most=MAX_WOUNDS, value=f.target_bonus
                    )
                )
        if not 0 <= self.wound_bonus <= MAX_WOUNDS:
            raise InvalidDataError(
                gettext("a W bonus must be 0..{most}, got {value}").format(
                    most=MAX_WOUNDS, value=self.wound_bonus
                )
            )
        _check_dice(sum(f.melee for f in self.fighters), gettext("a melee side"))

    @classmethod
    def uniform(
        cls,
        figures: int,
        *,
        melee: int,
        skill: int,
        wounds: int,
        morale: int,
        strength: int | None = None,
        initial: int | None = None,
        morale_modifier: int = 0,
        wound_bonus: int = 0,
        skirmish: bool = False,
        panicking: bool = False,
    ) -> MeleeSide:
        """``figures`` identical figures fought (SW, UW, W); the unit has ``strength`` (default:
        ``figures``) and started with ``initial`` (default: ``strength``).

        Examples
        --------
        >>> s = MeleeSide.uniform(6, melee=2, skill=4, wounds=2, morale=4, initial=8)
        >>> len(s.fighters), s.morale.strength, s.morale.initial
        (6, 6, 8)
        """
        if not isinstance(figures, int) or figures < 1:
            raise InvalidDataError(
                gettext("figures must be a whole number ≥ 1, got {value}").format(value=repr(figures))
            )
        if figures > MAX_MELEE_FIGURES:  # before building the tuple of fighters
            raise InvalidDataError(
                gettext(
                    "{n} figures fought; exact melee odds are computed for at most {most} figures a side"
                ).format(n=figures, most=MAX_MELEE_FIGURES)
            )
        strength = figures if strength is None else strength
        initial = strength if initial is None else initial
        return cls(
            (Fighter(wounds, melee, skill),) * figures,
            MeleeMorale(morale, strength, initial, morale_modifier, panicking),
            wound_bonus,
            skirmish,
        )

    def strike_groups(self, removed: int = 0) -> tuple[tuple[int, int, int], ...]:
        """5.3, 5.10.3, 7.5 — ``(dice, UW, target bonus)`` of the figures left after ``removed``
        (a melee of one fight: every figure's ``part`` 0; else :meth:`part_groups`).

        Examples
        --------
        >>> MeleeSide.uniform(5, melee=1, skill=3, wounds=1, morale=4, skirmish=True).strike_groups()
        ((2, 3, 0),)
        """
        return tuple((n, skill, bonus) for n, skill, bonus, _part in self.part_groups(removed))

    def part_groups(self, removed: Removed = 0) -> tuple[tuple[int, int, int, int], ...]:
        """5.3, 5.7.2, 5.10.3, 7.5 — ``(dice, UW, target bonus, part)`` of the figures left after
        ``removed`` (a count along the removal order, or a count per part: :func:`left_after`).

        Examples
        --------
        >>> f = (Fighter(1, 1, 4, 1, part=1), Fighter(1, 1, 4, 0, part=0), Fighter(1, 2, 4, 0))
        >>> MeleeSide(f, MeleeMorale(4, 3, 3)).part_groups()
        ((1, 4, 1, 1), (3, 4, 0, 0))
        >>> MeleeSide(f, MeleeMorale(4, 3, 3)).part_groups((1, 1))
        ((2, 4, 0, 0),)
        """
        # the groups in the order of their first figure before any removal (the order the
        # question lists them and the dice are typed in), whichever figures are left
        acc: dict[tuple[int, int, int], int] = {group_key(f): 0 for f in self.fighters}
        for f in left_after(self.fighters, removed):
            acc[group_key(f)] += f.melee
        counts = dict(acc)
        if self.skirmish:
            # PD-17: the side's SW summed, then halved and rounded down. Decision (as fire on the
            # march, 4.11): halves left by odd groups are pooled into whole dice, best UW first.
            counts = {k: n // 2 for k, n in acc.items()}
            odd = sorted((k for k, n in acc.items() if n % 2), key=lambda k: (-k[0], k[1], k[2]))
            for k in odd[: len(odd) // 2]:
                counts[k] += 1
        return tuple((n, skill, bonus, part) for (skill, bonus, part), n in counts.items() if n)

    @property
    def parts(self) -> int:
        """5.7.2 — how many separate fights its figures' ``part`` numbers span (1: one fight)."""
        return 1 + max((f.part for f in self.fighters), default=0)


def group_key(f: Fighter) -> tuple[int, int, int]:
    """5.10.3, 5.7.2 — the dice group of a figure: its UW, the W bonus it strikes, its fight."""
    return (clamp(f.skill, 0, COMBAT_DIE_SIDES), f.target_bonus, f.part)


#: Figures removed from one side: a count along its removal order (one fight), or a count per
#: fight (5.7.2), indexed by :attr:`Fighter.part`.
Removed = int | tuple[int, ...]


def kept_indices(parts: Sequence[int], removed: Removed) -> list[int]:
    """5.4.2, 5.7.2 — which figures (by their fight ``parts``, in removal order) are left after
    ``removed``: all but the first ``removed``, or, per fight ``p``, all but the first
    ``removed[p]`` figures of that fight.

    >>> kept_indices([1, 0, 1], 1), kept_indices([1, 0, 1], (0, 1)), kept_indices([1, 0, 1], (1, 0))
    ([1, 2], [1, 2], [0, 2])
    """
    if isinstance(removed, int):
        return list(range(removed, len(parts)))
    seen = [0] * len(removed)
    out: list[int] = []
    for i, p in enumerate(parts):
        if p < len(removed) and seen[p] < removed[p]:
            seen[p] += 1
        else:
            out.append(i)
    return out


def left_after(fighters: Sequence[Fighter], removed: Removed) -> tuple[Fighter, ...]:
    """5.4.2, 5.7.2 — the figures left after ``removed`` (:func:`kept_indices`)."""
    if isinstance(removed, int):
        return tuple(fighters[removed:])
    return tuple(fighters[i] for i in kept_indices([f.part for f in fighters], removed))


def _per_part(removed: Removed, parts: int) -> tuple[int, ...]:
    """``removed`` as a count per fight: a count is of fight 0 (a melee of one fight)."""
    return (removed, *(0,) * (parts - 1)) if isinstance(removed, int) else removed


def count_removed(removed: Removed) -> int:
    """Figures removed in all (a count, or the sum of the counts per fight)."""
    return removed if isinstance(removed, int) else sum(removed)


#: A state of one side's losses: (figures removed, took damage).
Loss = tuple[int, bool]


@lru_cache(maxsize=4096)
def _side_losses_cached(
    groups: tuple[tuple[int, int, int], ...], wounds: tuple[int, ...], die: str, start: int = 0
) -> tuple[tuple[Loss, int], ...]:
    """Losses (removed, damaged) of figures with ``wounds`` struck by ``groups``, in order, the
    first ``start`` already removed: the melee of one fight (:func:`_parted_losses_cached` with
    every figure in fight 0)."""
    table = _parted_losses_cached(
        tuple((*g, 0) for g in groups), tuple((w, 0) for w in wounds), 1, die, (start,)
    )
    return tuple(((gone[0], hit), w) for (gone, hit), w in table)


def group_losses(
    groups: Sequence[tuple[int, int, int]], wounds: Sequence[int], die: str = "d6"
) -> Distribution[Loss]:
    """5.10.3, 5.10.4, 1.5.1 — (figures removed, took damage) of figures with ``wounds`` (in
    removal order) struck by ``groups`` of ``(dice, UW, W bonus)``, each group rolling and
    removing separately, one after another (as :func:`melee` counts one side's strikes).

    >>> group_losses([(1, 6, 0)], [1, 1]).outcomes()       # one sure hit on W 1: one removed
    [(1, True)]
    >>> group_losses([(2, 6, 0)], []).outcomes()          # nobody can be removed (5.4.2)
    [(0, True)]
    """
    die_sides(die)
    return Distribution(dict(_side_losses_cached(tuple(groups), tuple(wounds), die)))


@lru_cache(maxsize=4096)
def _parted_losses_cached(
    groups: tuple[tuple[int, int, int, int], ...],
    struck: tuple[tuple[int, int], ...],
    parts: int,
    die: str,
    start: tuple[int, ...] | None = None,
) -> tuple[tuple[tuple[tuple[int, ...], bool], int], ...]:
    """5.7.2, 5.4.2 — as :func:`_side_losses_cached`, the melee split into separate fights:
    ``groups`` of ``(dice, UW, W bonus, part)`` each remove only ``struck`` figures ``(W, part)``
    of their own part, in removal order, from the ``start`` figures of each part already removed
    (7.7: the strikes after the first strikes). The state counts the figures removed per part."""
    state: dict[tuple[tuple[int, ...], bool], int] = {(start or (0,) * parts, False): 1}
    for dice, skill, bonus, part in groups:
        dmg = hit_weights(dice, skill, COMBAT_DIE_SIDES)
        mine = tuple(w for w, p in struck if p == part)
        # damage ≥ 1 is a hit (5.5.1); damage 0 removes nothing and adds no hit. Each state's
        # removal weights come on their own scale (the remainder's denominators of the figures
        # left): brought to a common one, so that the states keep their relative weights.
        steps = {
            gone: removal_weights((0, *dmg[1:]), tuple(x + bonus for x in mine[gone[part] :]), die=die)
            for gone, _hit in state
        }
        common = math.lcm(*(scale for _rem, scale in steps.values()))
        new: dict[tuple[tuple[int, ...], bool], int] = {}
        for (gone, hit), w in state.items():
            rem, scale = steps[gone]
            w *= common // scale
            k = gone[part]
            new[(gone, hit)] = new.get((gone, hit), 0) + w * dmg[0] * scale
            for r, rw in enumerate(rem):
                if rw:
                    key = ((*gone[:part], k + r, *gone[part + 1 :]), True)
                    new[key] = new.get(key, 0) + w * rw
        state = new
    return tuple(state.items())


def fight_losses(
    groups: Sequence[tuple[int, int, int, int]],
    wounds: Sequence[int],
    parts_of: Sequence[int],
    parts: int,
    die: str = "d6",
    start: Removed = 0,
) -> Distribution[tuple[Removed, bool]]:
    """5.7.2, 5.10.3, 5.10.4, 5.4.2 — (figures removed, took damage) of figures with ``wounds``
    (in removal order; figure ``i`` fights in fight ``parts_of[i]``) struck by ``groups`` of
    ``(dice, UW, W bonus, fight)``: each group rolls and removes separately, only figures of its
    own fight. Removed is a count when the melee is one fight (``parts`` 1), else a count per
    fight; it counts the ``start`` figures already removed (by first strikes, 7.7), on top of
    which the groups remove, and took damage is of these groups alone.

    >>> fight_losses([(1, 6, 0, 1)], [1, 1], [0, 1], 2).outcomes()   # a sure hit in fight 1
    [((0, 1), True)]
    >>> fight_losses([(2, 6, 0, 0)], [1, 1], [0, 0], 1).outcomes()   # one fight: a count
    [(2, True)]
    """
    die_sides(die)
    table: Sequence[tuple[tuple[Removed, bool], int]]
    if parts == 1:  # the cache the simulated battles share (:mod:`szwadron.odds.sample`)
        table = _side_losses_cached(tuple(g[:3] for g in groups), tuple(wounds), die, count_removed(start))
    else:
        struck = tuple(zip(wounds, parts_of, strict=True))
        table = _parted_losses_cached(tuple(groups), struck, parts, die, _per_part(start, parts))
    return Distribution(((r, h), w) for (r, h), w in table)


def roll_groups(
    groups: Sequence[tuple[int, int, int, int]],
    wounds: Sequence[int],
    parts_of: Sequence[int],
    parts: int,
    rng: random.Random,
    die: str = "d6",
    start: Removed = 0,
) -> tuple[list[tuple[GroupRoll, RolledRemoval]], Removed, bool]:
    """5.3, 5.10.4, 5.7.2, 1.5.1 — :func:`fight_losses` rolled: each group's dice, then its
    removal along the struck figures of its own fight not yet removed (its remainder roll after
    it), on top of the ``start`` figures already removed. Returns each group's roll and removal,
    the figures removed (a count, or a count per fight; ``start`` included) and whether any die
    of these groups scored."""
    gone, hit = list(_per_part(start, parts)), False
    rolled: list[tuple[GroupRoll, RolledRemoval]] = []
    for dice, skill, bonus, part in groups:
        faces, scored = roll_dice(dice, skill, rng)
        left = [i for i in kept_indices(parts_of, tuple(gone)) if parts_of[i] == part]
        removal = roll_removal(scored, tuple(wounds[i] + bonus for i in left), rng, die=die)
        rolled.append((GroupRoll(dice, skill, tuple(faces), scored, bonus, part), removal))
        gone[part] += removal.removed
        hit = hit or scored > 0
    return rolled, (gone[0] if parts == 1 else tuple(gone)), hit


def _side_losses(
    striker: MeleeSide, struck: MeleeSide, striker_removed: Removed, die: str, parts: int = 1
) -> Distribution[tuple[Removed, bool]]:
    """5.3, 5.4, 6.6 — what ``striker`` (its figures left after ``striker_removed``) deals to
    ``struck``: removed as a count (one fight) or, with ``parts`` > 1, a count per fight (5.7.2)."""
    losses = fight_losses(
        striker.part_groups(striker_removed),
        [f.wounds + struck.wound_bonus for f in struck.fighters],
        [f.part for f in struck.fighters],
        parts,
        die,
    )
    if striker.morale.panicking:
        # 6.6: a panicking unit tests at each attack; fail → it deals no losses.
        p = morale_pass_chance(
            striker.morale.morale,
            striker.morale.strength,
            striker.morale.initial,
            striker.morale.modifier,
        )
        nothing: tuple[Removed, bool] = (0 if parts == 1 else (0,) * parts, False)
        losses = Distribution.mixture([(losses, p), (Distribution.point(nothing), 1 - p)])
    return losses


@dataclass(frozen=True)
class MeleeOdds:
    """5.3–5.5 — the exact outcome of one melee exchange.

    Attributes
    ----------
    losses:
        Joint outcomes ``(attacker removed, attacker damaged, defender removed, defender
        damaged)``; "damaged" = at least one enemy die scored (the unit "took losses", 5.5.1).
    outcomes:
        Joint 5.5 morale outcomes ``(attacker, defender)``.
    attacker_figures, defender_figures:
        Figures that fought on each side (the most that can be removed, 5.4.2).
    """

    losses: Distribution[tuple[int, bool, int, bool]]
    outcomes: Distribution[tuple[MeleeOutcome, MeleeOutcome]]
    attacker_figures: int
    defender_figures: int
    by_fight: Distribution[tuple[Removed, Removed]] | None = None
    """Where the melee is split into fights (5.7.2): the joint figures removed per fight
    (attacker, defender), which say *which* figures go; None for one fight."""

    @property
    def joint(self) -> Distribution[tuple[int, int]]:
        """Joint (attacker removed, defender removed)."""
        return self.losses.map(lambda s: (s[0], s[2]))

    @property
    def attacker_removed(self) -> Distribution[int]:
        """Attacker figures removed."""
        return self.losses.map(lambda s: s[0])

    @property
    def defender_removed(self) -> Distribution[int]:
        """Defender figures removed."""
        return self.losses.map(lambda s: s[2])

    def joint_pmf(self) -> list[list[float]]:
        """``[[P(attacker removed = i, defender removed = j) for j] for i]``."""
        table = [[0] * (self.defender_figures + 1) for _ in range(self.attacker_figures + 1)]
        for (i, _, j, _), w in self.losses.items():
            table[i][j] += w
        total = self.losses.total
        return [[w / total for w in row] for row in table]

    def outcome_list(self) -> list[dict[str, str | float]]:
        """``[{"attacker", "defender", "p"}]``, most likely first."""
        rows = [
            {"attacker": a.value, "defender": d.value, "p": float(p)}
            for (a, d), p in self.outcomes.probabilities().items()
        ]
        rows.sort(key=lambda r: -float(r["p"]))
        return rows


def _joint_losses(
    attacker: MeleeSide, defender: MeleeSide, first_strike: Side | None, die: str, parts: int
) -> Distribution[tuple[Removed, bool, Removed, bool]]:
    """5.3, 7.7 — both sides' (removed, took damage): both strike before any removal, or the side
    with first strike deals its losses first and the other strikes with the figures left."""
    joint: Distribution[tuple[Removed, bool, Removed, bool]]
    if first_strike is None:
        a_loss = _side_losses(defender, attacker, 0, die, parts)
        d_loss = _side_losses(attacker, defender, 0, die, parts)
        joint = Distribution._trusted(  # distinct outcomes, products of positive weights
            {(ar, ah, dr, dh): wa * wd for (ar, ah), wa in a_loss.items() for (dr, dh), wd in d_loss.items()}
        )
    elif first_strike == "attacker":
        d_first = _side_losses(attacker, defender, 0, die, parts)

        def then_attacker(dl: tuple[Removed, bool]) -> Distribution[tuple[Removed, bool, Removed, bool]]:
            back = _side_losses(defender, attacker, dl[0], die, parts)
            return Distribution._trusted({(ar, ah, dl[0], dl[1]): w for (ar, ah), w in back.items()})

        joint = d_first.bind(then_attacker)
    else:
        a_first = _side_losses(defender, attacker, 0, die, parts)

        def then_defender(al: tuple[Removed, bool]) -> Distribution[tuple[Removed, bool, Removed, bool]]:
            back = _side_losses(attacker, defender, al[0], die, parts)
            return Distribution._trusted({(al[0], al[1], dr, dh): w for (dr, dh), w in back.items()})

        joint = a_first.bind(then_defender)
    return joint


def melee(
    attacker: MeleeSide,
    defender: MeleeSide,
    *,
    first_strike: Side | None = None,
    die: str = "d6",
) -> MeleeOdds:
    """5.3–5.5, 7.7 — the joint losses of a melee exchange and its morale table.

    Each side's dice form groups by UW and by the terrain bonus of the figures they strike
    (5.10.3); each group rolls and removes separately (5.10.4), in the order of the striking
    side's fighters, along the struck side's removal order; only figures that fought can be
    removed (5.4.2). Where only part of a unit holds the terrain, each fight is played apart
    (5.7.2, :attr:`Fighter.part`): a group removes only figures of its own fight. Both sides strike before any removal (5.3), unless one has first strike
    (7.7): it deals its losses first and the enemy strikes with the figures left. A panicking
    defender tests before it strikes back (6.6) and deals nothing on a failure.

    Parameters
    ----------
    attacker, defender:
        The two sides (:class:`MeleeSide`).
    first_strike:
        "attacker", "defender" or None (7.7). Decision: when both have it, pass None — the
        strikes are simultaneous.
    die:
        The remainder die (PD-5).

    Returns
    -------
    MeleeOdds

    Raises
    ------
    InvalidDataError
        Unknown die, unknown ``first_strike`` or a panicking attacker.

    Examples
    --------
    >>> a = MeleeSide.uniform(2, melee=1, skill=6, wounds=1, morale=6)
    >>> b = MeleeSide.uniform(2, melee=1, skill=6, wounds=1, morale=6)
    >>> melee(a, b).joint.outcomes()          # both strike every die: both destroyed
    [(2, 2)]
    >>> melee(a, b, first_strike="attacker").joint.outcomes()
    [(0, 2)]
    """
    die_sides(die)
    if first_strike not in (None, "attacker", "defender"):
        raise InvalidDataError(f"first_strike must be 'attacker', 'defender' or None, got {first_strike!r}")
    if attacker.morale.panicking:
        raise InvalidDataError("a panicking unit cannot attack (6.1)")
    parts = max(attacker.parts, defender.parts)  # 5.7.2: fights counted apart
    joint = _joint_losses(attacker, defender, first_strike, die, parts)
    losses = (
        cast(Distribution[tuple[int, bool, int, bool]], joint)  # one fight: counts already
        if parts == 1
        else joint.map(lambda x: (count_removed(x[0]), x[1], count_removed(x[2]), x[3]))
    )
    outcomes = melee_outcomes(losses, attacker.morale, defender.morale)
    by_fight = None if parts == 1 else joint.map(lambda x: (x[0], x[2]))
    return MeleeOdds(losses, outcomes, len(attacker.fighters), len(defender.fighters), by_fight)


# --- one seeded resolution (for a referee: --roll) ---------------------------------------------
@dataclass(frozen=True)
class RolledRemoval:
    """1.5.1 — figures removed from rolled damage, with the remainder roll shown."""

    damage: int
    removed: int
    remainder: int
    remainder_wounds: int
    instruction: RemainderRoll | None
    faces: tuple[int, ...]
    extra: bool

    def describe(self) -> str:
        """One line for humans."""
        text = gettext("{damage} damage → {removed} figure(s) removed").format(
            damage=self.damage, removed=self.removed
        )
        if self.instruction is not None:
            verdict = gettext("the extra figure goes") if self.extra else gettext("no extra figure")
            text += " " + gettext("(remainder {r}/{w}: {notation}, rolled {faces} — {verdict})").format(
                r=self.remainder,
                w=self.remainder_wounds,
                notation=self.instruction.notation,
                faces=" ".join(map(str, self.faces)),
                verdict=verdict,
            )
        return text


def roll_removal(
    damage: int,
    wounds: int | Sequence[int],
    rng: random.Random,
    *,
    cap: int | None = None,
    die: str = "d6",
) -> RolledRemoval:
    """1.5.1, PD-13 — roll the removal of ``damage`` once.

    >>> roll_removal(5, 2, random.Random(0)).removed in (2, 3)
    True
    """
    seq: Sequence[int]
    if isinstance(wounds, int):
        limit = damage // wounds + 1
        seq = (wounds,) * (limit if cap is None else min(cap, limit))
    else:
        seq = tuple(wounds)[:cap] if cap is not None else tuple(wounds)
    left, q = damage, 0
    while q < len(seq) and left >= seq[q]:
        left -= seq[q]
        q += 1
    if q >= len(seq) or left == 0:
        return RolledRemoval(damage, q, 0, 0, None, (), False)
    instruction = remainder_roll(left, seq[q], die)
    extra, faces = instruction.roll(rng)
    return RolledRemoval(damage, q + int(extra), left, seq[q], instruction, faces, extra)


def roll_dice(dice: int, at_most: int, rng: random.Random) -> tuple[list[int], int]:
    """4.6, 5.3 — roll ``dice`` d6; return the faces and how many scored (≤ ``at_most``).

    >>> faces, scored = roll_dice(5, 3, random.Random(2))
    >>> scored == sum(f <= 3 for f in faces)
    True
    """
    faces = [rng.randint(1, COMBAT_DIE_SIDES) for _ in range(dice)]
    return faces, sum(1 for f in faces if f <= at_most)


@dataclass(frozen=True)
class GroupRoll:
    """4.6, 5.3 — one group's dice rolled: faces and how many scored."""

    dice: int
    at_most: int
    faces: tuple[int, ...]
    scored: int
    target_bonus: int = 0
    part: int = 0


@dataclass(frozen=True)
class VolleyRoll:
    """4.6, 1.5.1 — one volley rolled: the groups, the damage and the removal."""

    groups: tuple[GroupRoll, ...]
    removal: RolledRemoval

    @property
    def damage(self) -> int:
        """Damage scored."""
        return self.removal.damage

    @property
    def removed(self) -> int:
        """Figures removed."""
        return self.removal.removed


def roll_volley(odds: VolleyOdds, rng: random.Random) -> VolleyRoll:
    """4.6, 1.5.1 — roll the volley of ``odds`` once (its effective dice, W and cap).

    >>> r = roll_volley(volley([(6, 3)], wounds=2), random.Random(7))
    >>> r.damage == sum(g.scored for g in r.groups)
    True
    """
    rolled = []
    for g in odds.groups:
        faces, scored = roll_dice(g.dice, g.accuracy, rng)
        rolled.append(GroupRoll(g.dice, g.accuracy, tuple(faces), scored))
    damage = sum(g.scored for g in rolled)
    removal = roll_removal(damage, odds.wounds, rng, cap=odds.cap, die=odds.die)
    return VolleyRoll(tuple(rolled), removal)


@dataclass(frozen=True)
class MeleeRoll:
    """5.3–5.5 — one melee exchange rolled, with every die and test shown."""

    strikes: tuple[tuple[Side, GroupRoll, RolledRemoval], ...]
    strike_back_test: MoraleRoll | None
    attacker_removed: int
    defender_removed: int
    attacker_hit: bool
    defender_hit: bool
    tests: tuple[MoraleRoll, ...]
    outcome: tuple[MeleeOutcome, MeleeOutcome]
    gone: tuple[Removed, Removed] = (0, 0)
    """Which figures each side lost (attacker, defender): a count along its removal order, or a
    count per fight where the melee was split (5.7.2, :func:`kept_indices`)."""


def roll_melee(
    attacker: MeleeSide,
    defender: MeleeSide,
    rng: random.Random,
    *,
    first_strike: Side | None = None,
    die: str = "d6",
    chosen_pursuit: frozenset[str] = frozenset(),
) -> MeleeRoll:
    """5.3–5.5, 6.6, 7.7 — resolve one melee exchange with dice, as :func:`melee` counts it; a
    side in ``chosen_pursuit`` pursues a beaten opponent without its test (6.3.6, 5.5.8,
    :func:`~szwadron.odds.morale.roll_melee_sequence`).

    >>> a = MeleeSide.uniform(3, melee=1, skill=6, wounds=1, morale=6)
    >>> roll_melee(a, a, random.Random(1)).outcome[0]     # all dice hit: both destroyed
    <MeleeOutcome.DESTROYED: 'destroyed'>
    """
    back_test: MoraleRoll | None = None
    if defender.morale.panicking:
        back_test = roll_test("strike back (6.6)", defender.morale.target_after(0), rng)
    silent = back_test is not None and not back_test.passed
    strikes, (a_gone, a_hit), (d_gone, d_hit) = roll_strikes(
        attacker, defender, rng, first_strike=first_strike, die=die, defender_silent=silent
    )
    a_removed, d_removed = count_removed(a_gone), count_removed(d_gone)
    a_dest = a_removed == attacker.morale.strength
    d_dest = d_removed == defender.morale.strength
    outcome, tests = roll_melee_sequence(
        0 if a_dest else attacker.morale.target_after(a_removed),
        0 if d_dest else defender.morale.target_after(d_removed),
        rng,
        attacker_hit=a_hit,
        defender_hit=d_hit,
        attacker_destroyed=a_dest,
        defender_destroyed=d_dest,
        defender_panicking=defender.morale.panicking,
        attacker_pursues=attacker.morale.pursues,
        defender_pursues=defender.morale.pursues,
        chosen_pursuit=chosen_pursuit,
    )
    return MeleeRoll(
        tuple(strikes),
        back_test,
        a_removed,
        d_removed,
        a_hit,
        d_hit,
        tuple(tests),
        outcome,
        (a_gone, d_gone),
    )


def roll_strikes(
    attacker: MeleeSide,
    defender: MeleeSide,
    rng: random.Random,
    *,
    first_strike: Side | None = None,
    die: str = "d6",
    defender_silent: bool = False,
) -> tuple[tuple[tuple[Side, GroupRoll, RolledRemoval], ...], tuple[Removed, bool], tuple[Removed, bool]]:
    """5.3, 5.4, 5.7.2, 7.7 — the strikes of one melee exchange rolled, as :func:`melee` counts
    them: each side's groups (the side with first strike first, the other with its figures
    left), each group's dice and its removal along the struck side's order among the figures of
    its own fight. ``defender_silent``: a panicking defender failed its strike-back test (6.6).
    Returns the strikes, then (removed, took damage) of the attacker and of the defender."""
    parts = max(attacker.parts, defender.parts)
    strikes: list[tuple[Side, GroupRoll, RolledRemoval]] = []

    def strike(side: Side, striker: MeleeSide, struck: MeleeSide, lost: Removed) -> tuple[Removed, bool]:
        if side == "defender" and defender_silent:
            return (0 if parts == 1 else (0,) * parts), False
        rolled, gone, hit = roll_groups(
            striker.part_groups(lost),
            [f.wounds + struck.wound_bonus for f in struck.fighters],
            [f.part for f in struck.fighters],
            parts,
            rng,
            die,
        )
        strikes.extend((side, g, r) for g, r in rolled)
        return gone, hit

    if first_strike == "attacker":
        d_loss = strike("attacker", attacker, defender, 0)
        a_loss = strike("defender", defender, attacker, d_loss[0])
    elif first_strike == "defender":
        a_loss = strike("defender", defender, attacker, 0)
        d_loss = strike("attacker", attacker, defender, a_loss[0])
    else:
        d_loss = strike("attacker", attacker, defender, 0)
        a_loss = strike("defender", defender, attacker, 0)
    return tuple(strikes), a_loss, d_loss


__all__ = [
    "COMBAT_DIE_SIDES",
    "Fighter",
    "FireGroup",
    "GroupRoll",
    "MeleeOdds",
    "MeleeRoll",
    "MeleeSide",
    "Removed",
    "RolledRemoval",
    "VolleyOdds",
    "VolleyRoll",
    "clear_caches",
    "count_removed",
    "fight_losses",
    "group_key",
    "group_losses",
    "kept_indices",
    "left_after",
    "melee",
    "removal_weights",
    "roll_dice",
    "roll_groups",
    "roll_melee",
    "roll_removal",
    "roll_strikes",
    "roll_volley",
    "volley",
]
