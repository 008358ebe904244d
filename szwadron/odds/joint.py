"""5.10 — the exact joint losses and morale of a combined melee, without the table's geometry.

Several units strike at once: every figure that fights strikes one enemy unit, the dice of all
the figures of one side striking one unit summed per UW and terrain bonus (5.10.3), each such
group rolling and removing separately along the struck unit's removal order (5.10.4); each
defending unit strikes back once (5.10.2); the morale tests follow 5.10.5's order
(:func:`combined_outcomes`). :mod:`szwadron.table.combined` measures who touches whom on the
table and hands the figures to :class:`CombinedEngine`; the simulated battle
(:mod:`szwadron.armies.duel`, issue 14) hands it one unit's engagement against several.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from szwadron.odds.combat import Fighter, MeleeSide, group_losses
from szwadron.odds.dice import Distribution
from szwadron.odds.morale import MORALE_DIE_SIDES, MeleeMorale, MeleeOutcome, morale_pass_chance

Loss = tuple[int, bool]


@dataclass(frozen=True)
class Striker:
    """One fighting figure: its unit index, base name, the unit index it strikes, its Fighter."""

    unit: int
    base: str
    target: int
    fighter: Fighter


@dataclass
class CombinedEngine:
    """The exact joint losses of a combined melee (5.10.3, 5.10.4, 7.7, 6.6.4)."""

    strikers: list[Striker]
    wounds: list[tuple[int, ...]]
    morale: list[MeleeMorale]
    skirmish: list[bool]
    na: int
    die: str

    def side_units(self, side: int) -> range:
        return range(self.na) if side == 0 else range(self.na, len(self.wounds))

    def groups(
        self, side: int, removed: Sequence[int], silent: frozenset[int]
    ) -> dict[int, list[tuple[int, int, int]]]:
        """Per struck unit: the (dice, UW, bonus) groups of ``side``'s figures left (5.10.3),
        each striking unit's SW halved in open skirmish order (PD-17)."""
        per_target: dict[int, dict[tuple[int, int], int]] = {}
        for u in self.side_units(side):
            if u in silent:
                continue
            mine = [st for st in self.strikers if st.unit == u]
            left = mine[removed[u] :]
            for target in sorted({st.target for st in left}):
                figs = tuple(st.fighter for st in left if st.target == target)
                ms = MeleeSide(figs, self.morale[u], skirmish=self.skirmish[u])
                acc = per_target.setdefault(target, {})
                for dice, skill, b in ms.strike_groups():
                    acc[(skill, b)] = acc.get((skill, b), 0) + dice
        return {t: [(n, k, b) for (k, b), n in acc.items() if n] for t, acc in per_target.items()}

    def strike(self, side: int, removed: Sequence[int]) -> Distribution[tuple[Loss, ...]]:
        """The losses ``side``'s strikes deal to every unit of the other side."""
        targets = list(self.side_units(1 - side))
        panicking = [u for u in self.side_units(side) if self.morale[u].panicking]
        parts: list[tuple[Distribution[tuple[Loss, ...]], Fraction]] = []
        for fails in product((False, True), repeat=len(panicking)):
            p = Fraction(1)
            for u, fail in zip(panicking, fails, strict=True):
                m = self.morale[u]
                chance = morale_pass_chance(m.morale, m.strength, m.initial, m.modifier)
                p *= (1 - chance) if fail else chance
            if p == 0:
                continue
            silent = frozenset(u for u, fail in zip(panicking, fails, strict=True) if fail)
            groups = self.groups(side, removed, silent)
            dist: Distribution[tuple[Loss, ...]] = Distribution.point(())
            for t in targets:
                one = group_losses(groups.get(t, []), self.wounds[t], self.die)
                dist = dist.joint(one).map(lambda x: (*x[0], x[1]))
            parts.append((dist, p))
        return Distribution.mixture(parts)

    def losses(self, first: int | None) -> Distribution[tuple[Loss, ...]]:
        """Joint (removed, took damage) of every unit, attackers then defenders."""
        n = len(self.wounds)
        zero = [0] * n
        if first is None:
            to_def = self.strike(0, zero)
            to_att = self.strike(1, zero)
            return to_att.joint(to_def).map(lambda x: (*x[0], *x[1]))
        f = first
        first_hits = self.strike(f, zero)

        def back(hit: tuple[Loss, ...]) -> Distribution[tuple[Loss, ...]]:
            removed = [0] * n
            for t, (r, _unused) in zip(self.side_units(1 - f), hit, strict=True):
                removed[t] = r
            answer = self.strike(1 - f, removed)
            return answer.map(lambda a: (*hit, *a) if f == 1 else (*a, *hit))

        return first_hits.bind(back)


def _test63(target: int) -> list[tuple[MeleeOutcome | None, Fraction]]:
    """6.3: passed (None), repulsed or panic, for a test target."""
    six = MORALE_DIE_SIDES
    t = Fraction(target, six)
    return [(None, t), (MeleeOutcome.REPULSED, (1 - t) * t), (MeleeOutcome.PANIC, (1 - t) * (1 - t))]


# long: 5.10.5 integrated over the joint losses: one loop over the loss table with each unit's test chain.
def combined_outcomes(
    losses: Distribution[tuple[Loss, ...]],
    morale: list[MeleeMorale],
    opponents: list[frozenset[int]],
    na: int,
    *,
    swap: bool,
) -> Distribution[tuple[MeleeOutcome, ...]]:
    """5.10.5 — every unit's outcome, integrated exactly over the joint losses."""
    n = len(morale)
    first = list(range(na, n)) if not swap else list(range(na))  # the side testing first (step I)
    second = [u for u in range(n) if u not in first]
    fled = (MeleeOutcome.REPULSED, MeleeOutcome.PANIC)
    acc: dict[tuple[MeleeOutcome, ...], Fraction] = {}
    grouped: dict[tuple[tuple[int, bool, bool], ...], int] = {}
    for loss, w in losses.items():
        key = tuple(
            (
                0 if r == morale[u].strength else morale[u].target_after(r),
                hit,
                r == morale[u].strength,
            )
            for u, (r, hit) in enumerate(loss)
        )
        grouped[key] = grouped.get(key, 0) + w
    total = losses.total
    for key, w in grouped.items():
        # step I: the first side's tests for repulse or flight
        options: list[list[tuple[MeleeOutcome | None, Fraction]]] = []
        for u in first:
            target, hit, dest = key[u]
            if dest:
                options.append([(MeleeOutcome.DESTROYED, Fraction(1))])
            elif morale[u].panicking:
                options.append([(MeleeOutcome.PANIC, Fraction(1))])
            elif hit:
                options.append(_test63(target))
            else:
                options.append([(None, Fraction(1))])
        for combo in product(*options):
            p1 = Fraction(1)
            res: dict[int, MeleeOutcome | None] = {}
            for u, (o, p) in zip(first, combo, strict=True):
                res[u] = o
                p1 *= p
            # steps II and III: the second side
            opts2: list[list[tuple[MeleeOutcome | None, Fraction]]] = []
            for u in second:
                target, hit, dest = key[u]
                if dest:
                    opts2.append([(MeleeOutcome.DESTROYED, Fraction(1))])
                elif all(res[v] in fled for v in opponents[u]):
                    t = Fraction(target, MORALE_DIE_SIDES)  # III: pursuit (only with losses, 6.3)
                    opts2.append(
                        [(MeleeOutcome.HELD, t), (MeleeOutcome.PURSUIT, 1 - t)]
                        if hit and morale[u].pursues  # 6.7.1: artillery never pursues
                        else [(MeleeOutcome.HELD, Fraction(1))]
                    )
                elif hit:
                    opts2.append(_test63(target))  # II: repulse or flight
                else:
                    opts2.append([(None, Fraction(1))])
            for combo2 in product(*opts2):
                p2 = p1
                res2 = dict(res)
                for u, (o, p) in zip(second, combo2, strict=True):
                    res2[u] = o
                    p2 *= p
                # step IV and the standing units' final state
                final: list[list[tuple[MeleeOutcome, Fraction]]] = []
                for u in range(n):
                    o = res2[u]
                    if o is not None:
                        final.append([(o, Fraction(1))])
                        continue
                    stays = [v for v in opponents[u] if res2[v] is None]
                    if stays:
                        final.append([(MeleeOutcome.ENGAGED, Fraction(1))])
                        continue
                    target, hit, _unused = key[u]
                    if (
                        u in first
                        and hit
                        and morale[u].pursues
                        and any(res2[v] in fled for v in opponents[u])
                    ):
                        t = Fraction(target, MORALE_DIE_SIDES)  # IV: pursuit
                        final.append([(MeleeOutcome.HELD, t), (MeleeOutcome.PURSUIT, 1 - t)])
                    else:
                        final.append([(MeleeOutcome.HELD, Fraction(1))])
                for combo3 in product(*final):
                    p3 = p2
                    for _o, p in combo3:
                        p3 *= p
                    out = tuple(o for o, _ in combo3)
                    acc[out] = acc.get(out, Fraction(0)) + p3 * Fraction(w, total)
    return Distribution.from_probabilities({k: v for k, v in acc.items() if v})


__all__ = ["CombinedEngine", "Loss", "Striker", "combined_outcomes"]
