"""Calibration and validation of the points model by simulated duels and battles (issue 7).

**Calibration** (:func:`calibrate`) fits the coefficients of :mod:`szwadron.armies.points` to duels
(:mod:`szwadron.armies.duel`) between every pair of distinct fighting profiles of the army lists
(profiles with the same characteristics are one duel profile):

1. Price every profile with the current coefficients (round 0: a rough first guess).
2. For every pair, run ``duels_per_pair`` battles at about equal points: a budget of 12 or 20
   reference figures (alternately), each side ``round(budget · e^{±u/2} / points)`` whole figures
   with a jitter ``u`` uniform in ±``jitter`` (it makes the sizes vary, so the fit can tell how
   much a figure more is worth), the side that moves first alternating. Each side fields its
   figures as standard units of its kind (:func:`szwadron.armies.duel.split_units`: battalions of 12,
   skirmishers and cavalry 6, one gun a battery) and loses when all of them are broken
   (:func:`szwadron.armies.duel.run_battle`); ``battle=False`` plays one unit a side instead (the
   model before, where 80 militia in one unit still broke at their M per test).
3. Fit, on the duels of all rounds so far, the logistic model
   ``P(A wins) = σ(κ · [log(n_A / n_B) + log v_A − log v_B])``, where ``n`` is the figures and
   ``log v`` is the points formula's log (its terms are the features): a logistic regression
   without intercept on ``[log(n_A/n_B), Δfeatures]``; κ is the first coefficient, the formula's
   coefficients are the others divided by κ. The melee weight μ is chosen on a grid by the
   likelihood. A draw counts as half a win. Then fit the duel corrections, one log-factor per
   duel profile on top of the formula (:func:`fit_corrections`), and go back to 1 with the new
   coefficients.
4. **Army steepness**: random legal rosters of each list (issue 14;
   :func:`szwadron.armies.search.legal_army`) fight copies of themselves made larger or
   smaller, which gives how steeply the chance of a whole army rises with its points,
   ``κ_u = a · u^b`` for ``u`` units a side (:func:`szwadron.armies.battles.fit_army_steepness`).
5. **Mixed armies**: for ``mixed_rounds`` rounds, random legal rosters of every list (drawn by
   the constraint checker's own generator at the points of the round, at 1,000 and 2,000 points
   with a jitter; :func:`szwadron.armies.search.legal_battle_design`) fight those of every other
   list in battles where units meet at random; the duel corrections are fitted again on the
   duels and these battles together, a battle counting ``army_weight`` duels. This is what makes
   two *armies* of equal points even: the circle of kinds (skirmishers beat a line, cavalry beats
   skirmishers, …) that no per-figure price can remove from single matchups largely cancels in
   a mixed army, and what is left is the price of each kind of figure *in an army*. The example
   rosters play no part: they are held out like any roster a player builds, and rebuilding them
   after a calibration does not move the points.

The scale is fixed: the reference figure (the ``line`` template) costs
:data:`szwadron.armies.points.REFERENCE_POINTS` (10) points, and the duel corrections are taken relative
to it. The example rosters are data built to spend their points limit; calibration reports their
new costs, and a test fails when one is over its limit or far under it.

**Validation** (:func:`validate`) plays the round-robin at the stored (rounded) points: every
pair of duel profiles at two budgets (12 and 20 reference figures; each side
``round(budget / points)`` whole figures, at least one, as standard units — rounding noise
differs between the two budgets and averages out), and reports each cell's win rate with its
Wilson 95 % interval and the share of cells inside 50 ± 5 %; :meth:`Validation.blocks` groups the
cells by class (infantry, skirmishers, cavalry, artillery), :meth:`Validation.intransitive`
separates what re-pricing could fix from the rock–paper–scissors no price can, and
:meth:`Validation.circles` counts matchups that no prices at all can bring into the band.
:func:`szwadron.armies.battles.validate_rosters` checks the example rosters army against army.

**Executors.** Duels run in tasks submitted to a :class:`concurrent.futures.Executor` (by
default a process pool with one worker per core). Tasks are a top-level function with plain
arguments (profiles as dicts, duels as tuples), and every duel's seed is derived from the run's
seed and the duel's place in the design, so the results are the same with any executor and any
number of workers (a ``dask.distributed`` client's ``get_executor()`` works unchanged).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from functools import partial, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar

from threadpoolctl import threadpool_limits

from szwadron.armies.duel import DEFAULT_SAMPLER, BattleConditions, Sampler
from szwadron.armies.points import (
    ABILITY_TERMS,
    CONTINUOUS_TERMS,
    KIND_TERMS,
    MAX_CORRECTION,
    REFERENCE_POINTS,
    REFERENCE_PROFILE,
    PointsModel,
    dominates,
    profile_key,
    profile_values,
)
from szwadron.errors import InvalidDataError
from szwadron.i18n import gettext
from szwadron.models import Ability, ArmyList, Kind, Profile, Roster

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from szwadron.armies.battles import ArmySteepness
from szwadron.armies.battles import fit_army_steepness, mixed_battle_design, play, priced
from szwadron.armies.duel import (
    DuelUnit,
    plain_units,
    run_battle,
    run_duel,
    split_units,
    standard_unit_figures,
)
from szwadron.armies.points import MODEL_PATH, load_model, model_points, write_points
from szwadron.armies.rosters import size_factor
from szwadron.armies.runs import (
    BAND,
    TASK_SIZE,
    ProgressFn,
    Tally,
    default_workers,
    fewer_collections,
    run_tasks,
    wilson_interval,
)
from szwadron.armies.search import exploit_search, legal_army, legal_battle_design
from szwadron.files import check_output_path, write_atomic
from szwadron.loading import bundled_dir, inside_installed_package, load_army_list

#: Budgets of the duels, in reference figures (their points are this × the reference points).
BUDGET_FIGURES: tuple[int, int] = (12, 20)
#: Grid of the melee weight μ searched by the fit.
MELEE_WEIGHT_GRID: tuple[float, ...] = (
    0.02,
    0.03,
    0.05,
    0.1,
    0.15,
    0.2,
    0.25,
    0.35,
    0.5,
    0.7,
    1.0,
    1.4,
    2.0,
    2.8,
    4.0,
)
#: Abilities the open-ground duel cannot measure: their terms stay 0 (indirect fire needs
#: something to fire over, 7.4).
UNMEASURED_ABILITIES: tuple[Ability, ...] = (Ability.INDIRECT,)
#: Ridge of the duel corrections (:func:`fit_corrections`): a prior worth about 70 even duels
#: at κ ≈ 2.4 — small beside the thousands of duels that measure each profile.
CORRECTION_RIDGE = 100.0

INITIAL_MODEL = PointsModel(
    melee_weight=1.0,
    exponents={"offence": 0.7, "wounds": 0.7, "morale": 0.4, "speed": 0.1},
    kinds={"cavalry": 0.0, "artillery": 0.0},
    abilities={a.value: 0.0 for a in ABILITY_TERMS},
    reference_points=REFERENCE_POINTS,
    steepness=3.0,
    version="initial guess",
)


# --- duel profiles ---------------------------------------------------------------------------
@dataclass(frozen=True)
class DuelProfile:
    """One set of fighting characteristics and every profile of the lists that has it."""

    label: str
    """``army:profile`` of the first profile with these characteristics."""
    profile: Profile
    members: tuple[str, ...]
    """Every ``army:profile`` with these characteristics."""


def duel_profiles(armies: Iterable[ArmyList]) -> list[DuelProfile]:
    """The distinct fighting profiles of the lists (limbers left out, 7.2), in list order.

    Profiles are the same duel profile when their characteristics, abilities, ammunition and
    limbered move are equal (their ids, names and points do not matter).
    """

    groups: dict[Any, list[tuple[str, Profile]]] = {}
    for army in armies:
        for p in army.profiles:
            if p.kind is Kind.LIMBER:
                continue
            key = replace(DuelUnit.from_profile(p), key="")
            groups.setdefault(key, []).append((f"{army.id}:{p.id}", p))
    return [DuelProfile(m[0][0], m[0][1], tuple(x[0] for x in m)) for m in groups.values()]


# --- running duels on an executor ------------------------------------------------------------
DuelSpec = tuple[int, int, int, int, int, str]
"""``(profile index A, profile index B, figures A, figures B, first, seed)``."""


def run_duel_batch(
    profiles: Sequence[dict[str, Any]],
    specs: Sequence[DuelSpec],
    battle: bool = True,
    sampler: Sampler = DEFAULT_SAMPLER,
) -> list[tuple[float, int]]:
    """Play a batch of duels (a task for an executor: top-level, plain arguments).

    ``profiles`` are profile dicts (``Profile.model_dump(mode="json")``); returns
    ``(score of A, rounds)`` per duel, in order. With ``battle`` (the default) each side's
    figures are fielded as standard units (:func:`szwadron.armies.duel.split_units`) and fight a
    :func:`szwadron.armies.duel.run_battle`; otherwise one unit a side fights one duel.
    """

    units = plain_units(profiles)  # kept across the chunks of a run (issue 14)
    out: list[tuple[float, int]] = []
    with fewer_collections():
        for spec in specs:
            out.append(_one_duel_battle(units, spec, battle, sampler))
    return out


def _one_duel_battle(
    units: Sequence[DuelUnit], spec: DuelSpec, battle: bool, sampler: Sampler
) -> tuple[float, int]:
    """One spec of :func:`run_duel_batch`: ``(score of A, rounds)``."""
    i, j, n_i, n_j, first, seed = spec
    if battle:
        a, b = units[i], units[j]
        sizes_a = split_units(n_i, standard_unit_figures(a))
        sizes_b = split_units(n_j, standard_unit_figures(b))
        br = run_battle(a, sizes_a, b, sizes_b, seed=seed, first=1 if first else 0, sampler=sampler)
        return br.score_a, br.rounds
    r = run_duel(units[i], n_i, units[j], n_j, seed=seed, first=1 if first else 0, sampler=sampler)
    return r.score_a, r.rounds


def run_duels(
    profiles: Sequence[Profile],
    specs: Sequence[DuelSpec],
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    label: str = "duels",
    task_size: int = TASK_SIZE,
    battle: bool = True,
    sampler: Sampler = DEFAULT_SAMPLER,
) -> list[tuple[float, int]]:
    """Play ``specs`` on ``executor`` (default: a process pool of ``workers``, one per core;
    ``workers=1`` plays them in this process). Results are in the order of ``specs`` and do not
    depend on the executor: every duel carries its own seed."""
    plain = [p.model_dump(mode="json") for p in profiles]
    return run_tasks(
        run_duel_batch,
        (plain,),
        specs,
        (battle, sampler),
        executor=executor,
        workers=workers,
        progress=progress,
        label=label,
        task_size=task_size,
    )


# --- features and the fit -----------------------------------------------------------------------
#: Kind terms the fit may use (the others stay 0). Cavalry has none: its value is its melee
#: (through the melee weight μ), W, M and speed, which explain the battles as well as a
#: cavalry factor did (log-likelihood −85,197 without it, −85,228 with it, same settings).
FITTED_KIND_TERMS: tuple[str, ...] = ("artillery",)


def features(kind_terms: Sequence[str] = FITTED_KIND_TERMS) -> tuple[str, ...]:
    """Names of the fitted terms, in the order of :func:`feature_vector`."""
    return (
        *CONTINUOUS_TERMS,
        *(k for k in KIND_TERMS if k in kind_terms),
        *(a.value for a in ABILITY_TERMS if a not in UNMEASURED_ABILITIES),
    )


FEATURES: tuple[str, ...] = features()


def feature_vector(
    profile: Profile, melee_weight: float, kind_terms: Sequence[str] = FITTED_KIND_TERMS
) -> list[float]:
    """The formula's terms of ``profile`` before their coefficients: logs of the value ratios to
    the reference figure, then 0/1 for the kind and ability terms (order :func:`features`)."""
    v = profile_values(profile)
    ref = profile_values(REFERENCE_PROFILE)
    out = [
        math.log(v.offence(melee_weight) / ref.offence(melee_weight)),
        math.log(v.wounds / ref.wounds),
        math.log(max(v.morale, 1e-3) / ref.morale),
        math.log(max(v.speed, 1.0) / ref.speed),
    ]
    out += [1.0 if v.kind in kinds else 0.0 for name, kinds in KIND_TERMS.items() if name in kind_terms]
    out += [1.0 if a in v.abilities else 0.0 for a in ABILITY_TERMS if a not in UNMEASURED_ABILITIES]
    return out


@dataclass(frozen=True)
class Observation:
    """One duel of the calibration: who, how many, the score of A."""

    a: int
    b: int
    figures_a: int
    figures_b: int
    score_a: float


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _one_blas_thread(fit: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fit`` with its BLAS on one thread (issue 14). A threaded BLAS (OpenBLAS: one thread
    per core) splits the sums of ``X.T @ v`` over its threads, so the fitted coefficients would
    depend in their last bits on the cores of the machine that fits them, and `points calibrate`
    would not write the same model everywhere; on one thread the fits are also about three times
    cheaper (benchmarks/RESULTS.md)."""

    @wraps(fit)
    def one_thread(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with threadpool_limits(limits=1, user_api="blas"):
            return fit(*args, **kwargs)

    return one_thread


@_one_blas_thread
def fit_logistic(
    x: Sequence[Sequence[float]] | ArrayLike,
    y: Sequence[float] | ArrayLike,
    *,
    ridge: float = 1e-3,
    iterations: int = 50,
) -> tuple[list[float], float]:
    """Logistic regression without intercept by Newton's method (IRLS), a small ridge on all
    coefficients but the first; ``y`` may be fractional (draws). Returns the coefficients and
    the log-likelihood."""
    import numpy as np

    X = np.asarray(x, dtype=float)
    Y = np.asarray(y, dtype=float)
    b = np.zeros(X.shape[1])
    pen = np.full(X.shape[1], ridge)
    pen[0] = 0.0
    for _ in range(iterations):
        z = X @ b
        p = 1.0 / (1.0 + np.exp(-z))
        w = np.clip(p * (1 - p), 1e-9, None)
        grad = X.T @ (Y - p) - pen * b
        hess = (X * w[:, None]).T @ X + np.diag(pen)
        step = np.linalg.solve(hess, grad)
        b = b + step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    z = X @ b
    loglik = float(np.sum(Y * -np.logaddexp(0, -z) + (1 - Y) * -np.logaddexp(0, z)))
    return [float(v) for v in b], loglik


@dataclass(frozen=True)
class Fit:
    """The coefficients that best explain the duels, and how well."""

    model: PointsModel
    loglik: float
    duels: int
    mu_likelihoods: dict[float, float]


def fit_model(
    entries: Sequence[DuelProfile],
    observations: Sequence[Observation],
    *,
    reference_points: float,
    grid: Sequence[float] = MELEE_WEIGHT_GRID,
    kind_terms: Sequence[str] = FITTED_KIND_TERMS,
) -> Fit:
    """Step 3 of the calibration: the coefficients (μ on ``grid``, the others by logistic
    regression) that make the points formula explain the duels best."""
    if not observations:
        raise InvalidDataError(gettext("no duels to fit"))
    import numpy as np

    best: tuple[float, float, list[float]] | None = None
    by_mu: dict[float, float] = {}
    y = np.array([o.score_a for o in observations], dtype=float)  # converted once, not per μ
    sizes = np.array([math.log(o.figures_a / o.figures_b) for o in observations])
    a = np.array([o.a for o in observations], dtype=np.intp)
    b = np.array([o.b for o in observations], dtype=np.intp)
    for mu in grid:
        feats = np.array([feature_vector(e.profile, mu, kind_terms) for e in entries], dtype=float)
        rows = np.column_stack([sizes, feats[a] - feats[b]])  # the same numbers, row by row
        coef, loglik = fit_logistic(rows, y)
        by_mu[mu] = loglik
        if best is None or loglik > best[1]:
            best = (mu, loglik, coef)
    assert best is not None
    mu, loglik, coef = best
    kappa = coef[0]
    if kappa <= 0:
        raise InvalidDataError(gettext("the duels do not show that more figures win more often; cannot fit"))
    theta = dict(zip(features(kind_terms), (c / kappa for c in coef[1:]), strict=True))
    model = PointsModel(
        melee_weight=mu,
        exponents={k: theta[k] for k in CONTINUOUS_TERMS},
        kinds={k: theta.get(k, 0.0) for k in KIND_TERMS},
        abilities={a.value: theta.get(a.value, 0.0) for a in ABILITY_TERMS},
        reference_points=reference_points,
        steepness=kappa,
    )
    return Fit(model, loglik, len(observations), by_mu)


@dataclass(frozen=True)
class ArmyObservation:
    """One battle of mixed armies in the calibration: the figures of each duel profile a side
    (``(entry index, figures)``), the mean units a side, the score of A."""

    figures_a: tuple[tuple[int, int], ...]
    figures_b: tuple[tuple[int, int], ...]
    units: float
    score_a: float


# long: one fitting loop over the rosters' cells; its steps share the running fit and split only into closures.
@_one_blas_thread
def fit_corrections(
    entries: Sequence[DuelProfile],
    observations: Sequence[Observation],
    model: PointsModel,
    *,
    army_observations: Sequence[ArmyObservation] = (),
    army_weight: float = 1.0,
    ridge: float = CORRECTION_RIDGE,
    iterations: int = 60,
) -> PointsModel:
    """Step 4 of the method (:mod:`szwadron.armies.points`): with the formula's coefficients and κ
    fixed, one log-factor ``c`` per duel profile that explains the battles best:

    - duels of one profile a side: ``P(A wins) = σ(κ · [log(n_A / n_B) + log v_A − log v_B +
      c_A − c_B])``;
    - battles of mixed armies (``army_observations``, each counted ``army_weight`` times):
      ``P(A wins) = σ(κ_u · log(V_A / V_B))``, ``V = Σ n_i v_i e^{c_i}`` over the army's
      figures and ``κ_u`` the model's army steepness for its units
      (:meth:`szwadron.armies.points.PointsModel.steepness_for`);

    by Fisher scoring with a ridge ``ridge · Σ c²`` (a profile measured by few battles keeps
    its formula price). The factors are taken relative to the reference figure's (0 when the
    lists have it), clipped to ±:data:`szwadron.armies.points.MAX_CORRECTION` and returned in the
    model's ``corrections``.
    """
    import numpy as np

    base = replace(model, corrections={}, correction_members={})
    if not observations and not army_observations:
        return base
    n = len(entries)
    logv = np.array([math.log(base.raw_value(e.profile)) for e in entries])
    a = np.array([o.a for o in observations], dtype=int)
    b = np.array([o.b for o in observations], dtype=int)
    y = np.array([o.score_a for o in observations], dtype=float)
    size = np.log(np.array([o.figures_a / o.figures_b for o in observations], dtype=float))
    kappa = model.steepness
    z0 = kappa * (size + logv[a] - logv[b])
    m = len(army_observations)
    NA = np.zeros((m, n))
    NB = np.zeros((m, n))
    for k, o in enumerate(army_observations):
        for i, f in o.figures_a:
            NA[k, i] += f
        for i, f in o.figures_b:
            NB[k, i] += f
    ku = np.array([model.steepness_for(o.units) for o in army_observations])
    ya = np.array([o.score_a for o in army_observations], dtype=float)
    c = np.zeros(n)
    # the off-diagonal cells of the duels' Hessian, (a, b) then (b, a), as one index: a bincount
    # adds each cell's terms from 0.0 in the order np.add.at would, so when no duel sets a profile
    # against itself (no diagonal cell) it gives the same sums, in half the time (issue 14)
    cells = np.concatenate([a * n + b, b * n + a]) if len(observations) and not np.any(a == b) else None
    for _ in range(iterations):
        grad = -ridge * c
        hess = np.eye(n) * ridge
        if len(observations):
            p = 1.0 / (1.0 + np.exp(-(z0 + kappa * (c[a] - c[b]))))
            w = np.clip(p * (1 - p), 1e-9, None) * kappa * kappa
            r = kappa * (y - p)
            grad = grad + np.bincount(a, r, n) - np.bincount(b, r, n)
            hess = hess + np.diag(np.bincount(a, w, n) + np.bincount(b, w, n))
            if cells is not None:
                hess = hess + np.bincount(cells, np.concatenate([-w, -w]), n * n).reshape(n, n)
            else:
                np.add.at(hess, (a, b), -w)
                np.add.at(hess, (b, a), -w)
        if m:
            ev = np.exp(logv + c)
            SA, SB = NA * ev, NB * ev
            VA, VB = SA.sum(axis=1), SB.sum(axis=1)
            J = ku[:, None] * (SA / VA[:, None] - SB / VB[:, None])
            pa = 0.5 * (1.0 + np.tanh(0.5 * ku * np.log(VA / VB)))
            wa = np.clip(pa * (1 - pa), 1e-9, None) * army_weight
            grad = grad + army_weight * (J.T @ (ya - pa))
            hess = hess + (J * wa[:, None]).T @ J
        step = np.linalg.solve(hess, grad)
        biggest = float(np.max(np.abs(step)))
        if biggest > 0.25:  # the army part is not linear in c: damp the first steps
            step *= 0.25 / biggest
        c = c + step
        if biggest < 1e-10:
            break
    ref_key = profile_key(REFERENCE_PROFILE)
    ref = next((c[k] for k, e in enumerate(entries) if profile_key(e.profile) == ref_key), 0.0)
    c = floor_dominated(entries, logv, np.clip(c - ref, -MAX_CORRECTION, MAX_CORRECTION), ref_key)
    corrections: dict[str, float] = {}
    members: dict[str, tuple[str, ...]] = {}
    for e, value in zip(entries, c, strict=True):
        key = profile_key(e.profile)
        corrections[key] = float(value)
        members[key] = members.get(key, ()) + tuple(e.members)
    return replace(base, corrections=corrections, correction_members=members)


def floor_dominated(entries: Sequence[DuelProfile], logv: Any, c: Any, ref_key: str = "") -> Any:
    """The corrections ``c`` (log-factors on the formula's values ``logv``) with every profile
    that dominates another (:func:`szwadron.armies.points.dominates`: as good in every
    characteristic, better in one) worth at least as much as it: the better one's correction is
    raised to the other's value — or, when the better one is the reference figure (whose points
    fix the scale), the worse one's lowered to it — until no pair is out of order, within
    ±:data:`MAX_CORRECTION`. The fit alone left horse artillery 17 % cheaper than the foot
    battery with the same guns, and the exploit search's strongest finds massed it (issue 14)."""
    c = c.copy()
    pairs = [
        (i, j)
        for i, p in enumerate(entries)
        for j, q in enumerate(entries)
        if i != j and dominates(p.profile, q.profile)
    ]
    reference = [profile_key(e.profile) == ref_key for e in entries]
    for _ in range(len(entries) + 1):  # each pass settles one more link of a chain
        moved = False
        for i, j in pairs:
            gap = (logv[j] + c[j]) - (logv[i] + c[i])
            if gap <= 1e-12:
                continue
            if reference[i]:
                c[j] = max(c[j] - gap, -MAX_CORRECTION)
            else:
                c[i] = min(c[i] + gap, MAX_CORRECTION)
            moved = True
        if not moved:
            break
    return c


# --- calibration ---------------------------------------------------------------------------------
MixedArmies = Literal["legal", "resampled"]
"""How the calibration draws its mixed armies (:attr:`CalibrationConfig.mixed_armies`)."""


@dataclass(frozen=True)
class CalibrationConfig:
    """How much to simulate, and the seed."""

    seed: int = 2026
    rounds: int = 3
    duels_per_pair: int = 100
    jitter: float = 0.4
    budgets: tuple[int, int] = BUDGET_FIGURES
    battle: bool = True
    sampler: Sampler = DEFAULT_SAMPLER
    """How the battles resolve dice (:data:`szwadron.armies.duel.Sampler`)."""
    kind_terms: tuple[str, ...] = FITTED_KIND_TERMS
    corrections: bool = True
    """Fit the duel corrections (step 4) after the formula, every round."""
    army_battles: int = 40
    """Battles per random army and size of its copy that measure the army steepness
    (:func:`szwadron.armies.battles.fit_army_steepness`; 0: none)."""
    mixed_battles: int = 300
    """Battles of random mixed armies per pair of lists and budget, each round (0: none)."""
    mixed_rounds: int = 3
    """Rounds of mixed-army battles (each designed at the points of the round before)."""
    search: int = 0
    """Rosters the exploit search plays per list and points limit before the mixed-army battles
    (:func:`szwadron.armies.search.exploit_search`, at the points fitted so far); each list's
    best finds join its random legal rosters (``"legal"``: :data:`szwadron.armies.search.SEARCH_COPIES`
    times in its pool) or the units its random armies are drawn from (``"resampled"``) (0: no
    search)."""
    army_weight: float = 100.0
    """How many duels a mixed-army battle counts for in the corrections' fit."""
    mixed_armies: MixedArmies = "legal"
    """How the mixed armies are drawn: ``"legal"``, random legal rosters of each list against
    those of the other lists (:func:`szwadron.armies.search.legal_battle_design`; the army
    steepness is measured on such rosters too), or ``"resampled"``, armies made of the units the
    example rosters field (:func:`szwadron.armies.battles.mixed_battle_design`), as before issue
    14's refit."""


@dataclass
class CalibrationResult:
    """The fitted model, the duels behind it and the time taken."""

    model: PointsModel
    fits: list[Fit] = field(default_factory=list)
    duels: int = 0
    seconds: float = 0.0
    entries: list[DuelProfile] = field(default_factory=list)
    steepness: ArmySteepness | None = None
    army_battles: int = 0
    search_winners: list[tuple[str, str, float]] = field(default_factory=list)
    """``(army, roster id, points limit)`` of the exploit search's finds added to the pool."""


def design(
    entries: Sequence[DuelProfile], model: PointsModel, config: CalibrationConfig, round_index: int
) -> list[DuelSpec]:
    """Step 2 of the calibration: the duels of one round (sizes near equal points, jittered)."""
    values = [model.raw_value(e.profile) for e in entries]
    specs: list[DuelSpec] = []
    add, exp, new_rng = specs.append, math.exp, random.Random
    jitter, seed = config.jitter, config.seed
    budgets = [b * model.reference_points for b in config.budgets]
    for i in range(len(entries)):
        v_i = values[i]
        for j in range(i + 1, len(entries)):
            v_j = values[j]
            prefix = f"calibrate:{seed}:{round_index}:{i}:{j}:"
            for k in range(config.duels_per_pair):
                tag = f"{prefix}{k}"
                budget = budgets[k % 2]
                u = new_rng(tag).uniform(-jitter, jitter)
                n_i = max(1, round(budget * exp(u / 2) / v_i))
                n_j = max(1, round(budget * exp(-u / 2) / v_j))
                add((i, j, n_i, n_j, (k // 2) % 2, tag))
    return specs


# long: the method's five steps in order, each a call; what is left is passing their results along.
def calibrate(
    armies: Sequence[ArmyList],
    config: CalibrationConfig = CalibrationConfig(),
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    start: PointsModel = INITIAL_MODEL,
) -> CalibrationResult:
    """Fit the points model to duels (module notes). The scale is ``start``'s reference points
    (:data:`szwadron.armies.points.REFERENCE_POINTS`: the reference figure costs 10)."""
    t0 = time.perf_counter()
    if config.mixed_armies not in ("legal", "resampled"):
        raise InvalidDataError(
            f"mixed_armies must be 'legal' or 'resampled', got {config.mixed_armies!r}"  # a caller's bug
        )
    entries = duel_profiles(armies)
    if len(entries) < 2:
        raise InvalidDataError(gettext("calibration needs at least two different fighting profiles"))
    profiles = [e.profile for e in entries]
    model = start
    observations: list[Observation] = []
    result = CalibrationResult(model, entries=list(entries))
    for r in range(config.rounds):
        specs = design(entries, model, config, r)
        scores = run_duels(
            profiles,
            specs,
            executor=executor,
            workers=workers,
            progress=progress,
            label=f"calibration round {r + 1}/{config.rounds}",
            battle=config.battle,
            sampler=config.sampler,
        )
        observations += [
            Observation(s[0], s[1], s[2], s[3], sc) for s, (sc, _) in zip(specs, scores, strict=True)
        ]
        fit = fit_model(
            entries, observations, reference_points=start.reference_points, kind_terms=config.kind_terms
        )
        result.fits.append(fit)
        model = fit.model
        if config.corrections:
            model = fit_corrections(entries, observations, model)
    result.duels = len(observations)
    if config.army_battles:
        result.steepness = fit_army_steepness(
            armies,
            points=model.points,
            battles=config.army_battles,
            seed=config.seed,
            executor=executor,
            workers=workers,
            progress=progress,
            sampler=config.sampler,
            draw=partial(legal_army, points=model.points) if config.mixed_armies == "legal" else None,
        )
        model = replace(model, army_steepness=(result.steepness.a, result.steepness.b))
    if config.corrections and config.mixed_battles and config.search:
        armies = with_search_winners(
            armies, model, config, executor=executor, workers=workers, progress=progress
        )
        result.search_winners = [
            (a.id, r.id, r.points_limit or 0.0)
            for a in armies
            for r in a.rosters
            if r.id.startswith("search-")
        ]
    if config.corrections and config.mixed_battles:
        index = {profile_key(e.profile): k for k, e in reversed(list(enumerate(entries)))}
        army_obs: list[ArmyObservation] = []
        entry_cache: dict[int, tuple[Profile, int]] = {}
        for r in range(config.mixed_rounds):
            draw = legal_battle_design if config.mixed_armies == "legal" else mixed_battle_design
            forces, mixed = draw(
                armies, points=model.points, battles=config.mixed_battles, seed=config.seed, round_index=r
            )
            scores = play(
                forces,
                mixed,
                executor=executor,
                workers=workers,
                progress=progress,
                label=f"mixed-army battles {r + 1}/{config.mixed_rounds}",
                conditions=BattleConditions(sampler=config.sampler),
            )

            def entry_of(profile: Profile) -> int:
                hit = entry_cache.get(id(profile))
                if hit is None or hit[0] is not profile:  # kept: its id is not reused
                    hit = entry_cache[id(profile)] = (profile, index[profile_key(profile)])
                return hit[1]

            def figures(force: Sequence[Any]) -> tuple[tuple[int, int], ...]:
                out = [(entry_of(u.profile), u.figures) for u in force]
                out += [(entry_of(u.elite), u.elite_figures) for u in force if u.elite is not None]
                return tuple(out)

            seen: dict[int, tuple[tuple[int, int], ...]] = {}  # a force's figures, worked out once
            for (fa, fb, _, _), (score, _) in zip(mixed, scores, strict=True):
                for f in (fa, fb):
                    if f not in seen:
                        seen[f] = figures(forces[f])
                army_obs.append(
                    ArmyObservation(seen[fa], seen[fb], (len(forces[fa]) + len(forces[fb])) / 2, score)
                )
            model = fit_corrections(
                entries, observations, model, army_observations=army_obs, army_weight=config.army_weight
            )
        result.army_battles = len(army_obs)
    result.model = model
    result.seconds = time.perf_counter() - t0
    return result


def with_search_winners(
    armies: Sequence[ArmyList],
    model: PointsModel,
    config: CalibrationConfig,
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
) -> list[ArmyList]:
    """The lists with the exploit search's best find (:func:`szwadron.armies.search.exploit_search`,
    ``config.search`` rosters played, at ``model``'s points, against the other lists' example
    rosters) added to their rosters as ``search-LIMIT``, for every points limit of the example
    rosters: the calibration's random legal rosters are then joined by the find
    (:func:`szwadron.armies.search.legal_battle_design`), or its random armies draw the units the
    search found too (``mixed_armies="resampled"``)."""

    at_model = [priced(a, model.points) for a in armies]
    limits = sorted({r.points_limit for a in armies for r in a.rosters if r.points_limit is not None})
    found: dict[str, list[Roster]] = {a.id: [] for a in armies}
    for limit in limits:
        for k, army in enumerate(at_model):
            field = [
                (a, r) for j, a in enumerate(at_model) if j != k for r in a.rosters if r.points_limit == limit
            ]
            if not field:
                continue
            best = exploit_search(
                army,
                limit,
                field,
                budget=config.search,
                seed=f"calibrate:{config.seed}",
                executor=executor,
                workers=workers,
                progress=progress,
                conditions=BattleConditions(sampler=config.sampler),
            )
            found[army.id].append(best.roster.model_copy(update={"id": f"search-{limit:g}"}))
    return [a.model_copy(update={"rosters": (*a.rosters, *found[a.id])}) for a in armies]


def roster_costs(
    armies: Sequence[ArmyList], points: Callable[[Profile], float]
) -> list[tuple[str, str, float, float | None, float]]:
    """``(army, roster, cost, points limit, artillery share of the cost)`` of every example roster
    (its units' own figures at the list's unit-size price, :meth:`szwadron.models.ArmyList.size_factor`)."""
    out = []
    for army in armies:
        for roster in army.rosters:
            cost = art = 0.0
            for entry in roster.units:
                size = size_factor(army, entry)
                parts = [
                    (entry.profile, entry.figures * size),
                    *((a.profile, a.figures) for a in entry.attached),
                ]
                for pid, figs in parts:
                    prof = army.profile(pid)
                    c = points(prof) * figs * entry.count
                    cost += c
                    if prof.kind.is_artillery or prof.kind is Kind.LIMBER:
                        art += c
            out.append((army.id, roster.id, cost, roster.points_limit, art / cost if cost else 0.0))
    return out


def calibration_targets(
    paths: Sequence[str | Path], *, model_path: str | Path | None = None, out_dir: str | Path | None = None
) -> tuple[Path, list[Path]]:
    """Where :func:`regenerate` writes: (the model file, the army lists), checked before any work.

    Never into the installed package (issue 16): when a list or the default model lies inside it
    (:func:`~szwadron.loading.inside_installed_package`), ``out_dir`` (``--out``) is required.
    Every target's folder must exist (as for any output, :func:`~szwadron.files.check_output_path`).
    """

    sources = [Path(p) for p in paths]
    if out_dir is not None:
        folder = Path(out_dir)
        if not folder.is_dir():
            raise InvalidDataError(
                gettext("{folder}: the folder does not exist (create it first)").format(folder=folder),
                parameter="out",
            )
        lists = [folder / p.name for p in sources]
        model = Path(model_path) if model_path is not None else folder / MODEL_PATH.name
    else:
        lists = sources
        model = Path(model_path) if model_path is not None else MODEL_PATH
    installed = [p for p in [model, *lists] if inside_installed_package(p)]
    if installed:
        raise InvalidDataError(
            gettext(
                "{installed} is inside the installed szwadron package: calibration never rewrites it; give --out DIR (a folder for the recalibrated army lists and model), or --lists DIR with your own copies of the lists and --model FILE"
            ).format(installed=installed[0]),
        )
    for target in [model, *lists]:
        check_output_path(target, inputs=() if out_dir is None else tuple(sources))
    return model, lists


def army_list_paths(folder: str | Path | None = None) -> list[Path]:
    """The army-list files calibrated together: every ``*.toml`` of ``folder`` (default: the
    bundled ``armylists/``), in name order."""

    root = Path(folder) if folder is not None else bundled_dir("armylists")
    if not root.is_dir():
        raise InvalidDataError(gettext("{root}: no such folder of army lists").format(root=root))
    paths = sorted(p for p in root.glob("*.toml") if p.is_file())
    if not paths:
        raise InvalidDataError(gettext("{root}: no army lists (*.toml) to calibrate").format(root=root))
    return paths


def load_lists(paths: Sequence[str | Path]) -> list[ArmyList]:
    """Read army lists; a malformed one raises :class:`~szwadron.errors.InvalidDataError`."""

    armies = [load_army_list(p) for p in paths]
    ids = [a.id for a in armies]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise InvalidDataError(gettext("two army lists have the id {dup!r}").format(dup=dup[0]))
    return armies


@dataclass
class Regenerated:
    """What :func:`regenerate` did."""

    model: PointsModel
    calibration: CalibrationResult
    changed: list[Path]
    rosters: list[tuple[str, str, float, float | None, float]]


def regenerate(
    paths: Sequence[str | Path],
    config: CalibrationConfig = CalibrationConfig(),
    *,
    model_path: str | Path | None = None,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    write: bool = True,
    out_dir: str | Path | None = None,
) -> Regenerated:
    """``szwadron points calibrate``: fit the model to duels, write the coefficients file and the
    ``points`` lines of the army lists; the example rosters' new costs come back with the result
    (a roster the new points take over its limit must be rebuilt: the tests check them).

    ``out_dir``: write the army lists there (same file names), and the model too unless
    ``model_path`` names it; by default the lists are rewritten in place. A target inside the
    installed package is refused (:func:`~szwadron.loading.inside_installed_package`), as is one
    whose folder does not exist: both before any simulation (issue 16)."""

    armies = load_lists(paths)
    targets = calibration_targets(paths, model_path=model_path, out_dir=out_dir) if write else None
    result = calibrate(armies, config, executor=executor, workers=workers, progress=progress)
    last = result.fits[-1]
    steep = result.steepness
    model = replace(
        result.model,
        version=f"seed {config.seed}",
        notes={
            "seed": config.seed,
            "rounds": config.rounds,
            "duels_per_pair": config.duels_per_pair,
            "jitter": config.jitter,
            "budgets_reference_figures": list(config.budgets),
            "duels": result.duels,
            "duel_profiles": len(result.entries),
            "log_likelihood": round(last.loglik, 3),
            "army_steepness_battles": steep.battles if steep is not None else 0,
            "mixed_battles": result.army_battles,
            "army_weight": config.army_weight,
            "reference": "the line template of armylists/README.md (R 12, W 2, SW 1, SO 1, Z 24, UW 3, C 3, M 4)",
        },
    )
    changed: list[Path] = []
    if targets is not None:
        target, list_targets = targets
        text = model.to_toml()

        def write_model(tmp: Path) -> None:
            tmp.write_text(text, encoding="utf-8")

        write_atomic(target, write_model, inputs=tuple(Path(p) for p in paths))
        prices = model_points(armies, model)
        for path, army, to in zip(paths, armies, list_targets, strict=True):
            if write_points(path, prices[army.id], to=None if to == Path(path) else to):
                changed.append(to)
    return Regenerated(model, result, changed, roster_costs(armies, model.points))


# --- validation ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cell(Tally):
    """One matchup of the round-robin: the row profile's win rate against the column's."""

    row: int
    col: int
    duels: int
    wins: float
    figures: tuple[tuple[int, int], ...]
    """``(row figures, column figures)`` at each budget."""

    def games(self) -> int:
        """Duels played."""
        return self.duels


@dataclass(frozen=True)
class Intransitivity:
    """:meth:`Validation.intransitive`: the transitive strengths and what is left."""

    strengths: list[float]
    """Logit strength of each profile (sum 0): > 0 wins more than its points say."""
    share_in_band_repriced: float
    """Share of matchups within 50 ± 5 % once the transitive part is removed."""
    residual_rms: float
    """Root mean square of the win rate left after removing the transitive part."""
    rms: float
    """Root mean square of win rate − 0.5 (before)."""


@dataclass
class Validation:
    """The round-robin at equal points (module notes)."""

    entries: list[DuelProfile]
    points: list[float]
    budgets: tuple[float, ...]
    cells: dict[tuple[int, int], Cell]
    duels: int
    seconds: float
    seed: int
    battle: bool = True

    def rate(self, i: int, j: int) -> float:
        """Win rate of profile ``i`` against ``j`` (0.5 on the diagonal)."""
        if i == j:
            return 0.5
        if (i, j) in self.cells:
            return self.cells[(i, j)].rate
        return 1.0 - self.cells[(j, i)].rate

    def matrix(self) -> list[list[float]]:
        """Win rates, row against column."""
        n = len(self.entries)
        return [[self.rate(i, j) for j in range(n)] for i in range(n)]

    @property
    def share_in_band(self) -> float:
        """Share of the matchups (distinct duel profiles) whose win rate is within 50 ± 5 %."""
        cells = list(self.cells.values())
        return sum(c.in_band for c in cells) / len(cells) if cells else 1.0

    @property
    def share_in_band_all_profiles(self) -> float:
        """The same share over all pairs of profiles of the lists (a profile against another
        with the same characteristics is an even matchup by symmetry, in the band)."""
        sizes = [len(e.members) for e in self.entries]
        total = inside = 0
        n = len(self.entries)
        for i in range(n):
            same = sizes[i] * (sizes[i] - 1) // 2
            total += same
            inside += same
            for j in range(i + 1, n):
                w = sizes[i] * sizes[j]
                total += w
                inside += w * self.cells[(i, j)].in_band
        return inside / total if total else 1.0

    @property
    def share_ci_in_band(self) -> float:
        """Share of matchups whose whole 95 % interval lies within 50 ± 5 %."""
        cells = list(self.cells.values())
        return sum(BAND[0] <= c.interval[0] and c.interval[1] <= BAND[1] for c in cells) / len(cells)

    def worst(self, k: int = 10) -> list[Cell]:
        """The ``k`` matchups furthest from 50 %."""
        return sorted(self.cells.values(), key=lambda c: -abs(c.rate - 0.5))[:k]

    def intransitive(self) -> Intransitivity:
        """How much of the unevenness no re-pricing can remove (rock–paper–scissors).

        Fits, by least squares on the logits of the win rates, a strength ``s`` per profile so
        that ``rate(i, j) ≈ σ(s_i − s_j)``: that part is transitive, and changing each profile's
        points by the factor ``exp(−s_i / κ)`` removes it (to first order). What is left,
        ``rate − σ(s_i − s_j)``, is the intransitive part: the share of matchups within 5 points
        of even after removing the transitive part estimates the best band share any per-figure
        price could reach with this duel."""
        import numpy as np

        n = len(self.entries)
        rows, ys, keys = [], [], []
        for (i, j), c in self.cells.items():
            eps = 0.5 / max(c.duels, 1)
            r = min(max(c.rate, eps), 1 - eps)
            row = np.zeros(n)
            row[i], row[j] = 1.0, -1.0
            rows.append(row)
            ys.append(math.log(r / (1 - r)))
            keys.append((i, j))
        if not rows:
            return Intransitivity([0.0] * n, 1.0, 0.0, 0.0)
        X = np.vstack([*rows, np.ones(n)])  # the strengths sum to 0
        y = np.asarray([*ys, 0.0])
        strength = np.linalg.lstsq(X, y, rcond=None)[0]
        resid = []
        for i, j in keys:
            c = self.cells[(i, j)]
            resid.append(c.rate - 1.0 / (1.0 + math.exp(-(strength[i] - strength[j]))))
        res = np.asarray(resid)
        lo, hi = BAND
        return Intransitivity(
            [float(x) for x in strength],
            float(np.mean(np.abs(res) <= (hi - lo) / 2)),
            float(np.sqrt(np.mean(res**2))),
            float(np.sqrt(np.mean((np.asarray([c.rate for c in self.cells.values()]) - 0.5) ** 2))),
        )

    def circles(self) -> list[tuple[int, int, int]]:
        """Triples of profiles that beat one another in a circle too strongly for any prices.

        Changing the points of the profiles by factors ``e^{δ}`` moves each matchup's logit
        ``L_ij = log(r_ij / (1 − r_ij))`` by ``κ(δ_i − δ_j)`` (to first order; the assumption
        of :meth:`intransitive`), so the sum ``L_ij + L_jk + L_ki`` around a triangle does not
        change with any prices. When its size exceeds three times the band's half-width in
        logits, at least one of the three matchups stays outside 50 ± 5 % whatever the
        points. The triangles returned share no matchup (chosen greedily, the strongest circles
        first), so their number is a lower bound on the matchups no per-figure price can bring
        into the band."""
        n = len(self.entries)
        limit = math.log(BAND[1] / (1 - BAND[1]))

        def logit(i: int, j: int) -> float:
            r = min(max(self.rate(i, j), 1e-3), 1 - 1e-3)
            return math.log(r / (1 - r))

        found = []
        for i in range(n):
            for j in range(i + 1, n):
                for k in range(j + 1, n):
                    total = logit(i, j) + logit(j, k) + logit(k, i)
                    if abs(total) > 3 * limit:
                        found.append((abs(total), (i, j, k)))
        found.sort(key=lambda t: -t[0])
        used: set[frozenset[int]] = set()
        out = []
        for _, (i, j, k) in found:
            edges = {frozenset((i, j)), frozenset((j, k)), frozenset((i, k))}
            if edges & used:
                continue
            used |= edges
            out.append((i, j, k))
        return out

    def blocks(self) -> dict[tuple[str, str], tuple[int, float, float]]:
        """Matchups grouped by the two profiles' classes (infantry, skirmishers, cavalry,
        artillery): ``(matchups, mean win rate of the first class, share in the band)``."""

        def cls(e: DuelProfile) -> str:
            p = e.profile
            if p.kind.is_artillery:
                return "artillery"
            if p.kind is Kind.CAVALRY:
                return "cavalry"
            return "skirmishers" if p.has(Ability.SKIRMISH) else "infantry"

        order = ("infantry", "skirmishers", "cavalry", "artillery")
        acc: dict[tuple[str, str], list[tuple[float, bool]]] = {}
        for c in self.cells.values():
            a, b = cls(self.entries[c.row]), cls(self.entries[c.col])
            rate = c.rate
            if order.index(a) > order.index(b):
                a, b, rate = b, a, 1.0 - rate
            acc.setdefault((a, b), []).append((rate, c.in_band))
        return {
            k: (len(v), sum(r for r, _ in v) / len(v), sum(x for _, x in v) / len(v))
            for k, v in sorted(acc.items(), key=lambda kv: (order.index(kv[0][0]), order.index(kv[0][1])))
        }

    def profile_rates(self) -> list[float]:
        """Each profile's mean win rate over its matchups."""
        n = len(self.entries)
        return [sum(self.rate(i, j) for j in range(n) if j != i) / max(n - 1, 1) for i in range(n)]

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        intr = self.intransitive()
        circles = self.circles()
        return {
            "seed": self.seed,
            "duels": self.duels,
            "seconds": self.seconds,
            "budgets": list(self.budgets),
            "band": list(BAND),
            "share_in_band": self.share_in_band,
            "share_in_band_all_profiles": self.share_in_band_all_profiles,
            "share_interval_in_band": self.share_ci_in_band,
            "battle": self.battle,
            "intransitive": {
                "circles": [[self.entries[x].label for x in t] for t in circles],
                "unavoidable_share": len(circles) / max(len(self.cells), 1),
                "share_in_band_repriced": intr.share_in_band_repriced,
                "residual_rms": intr.residual_rms,
                "rms": intr.rms,
            },
            "blocks": [
                {"row": a, "col": b, "matchups": n, "win_rate": r, "share_in_band": x}
                for (a, b), (n, r, x) in self.blocks().items()
            ],
            "profiles": [
                {"label": e.label, "points": p, "members": list(e.members), "mean_win_rate": r}
                for e, p, r in zip(self.entries, self.points, self.profile_rates(), strict=True)
            ],
            "cells": [
                {
                    "row": self.entries[c.row].label,
                    "col": self.entries[c.col].label,
                    "duels": c.duels,
                    **c.summary(),
                    "figures": [list(f) for f in c.figures],
                }
                for c in self.cells.values()
            ],
            "matrix": self.matrix(),
        }


def validate(
    armies: Sequence[ArmyList],
    *,
    points: Mapping[str, float] | None = None,
    model: PointsModel | None = None,
    duels_per_budget: int = 500,
    budgets: tuple[int, ...] = BUDGET_FIGURES,
    seed: int = 2026,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    battle: bool = True,
    sampler: Sampler = DEFAULT_SAMPLER,
) -> Validation:
    """The round-robin of every pair of duel profiles at equal points (module notes).

    Points are the profiles' stored ones, or ``points`` (``{"army:profile": points}``), or the
    ``model``'s. Budgets are in reference figures × the reference points of ``model`` (default:
    the shipped model).
    """

    t0 = time.perf_counter()
    model = model or load_model()
    entries = duel_profiles(armies)

    def price(e: DuelProfile) -> float:
        if points is not None and e.label in points:
            return float(points[e.label])
        if e.profile.points is not None and points is None:
            return float(e.profile.points)
        return model.points(e.profile)

    prices = [price(e) for e in entries]
    if any(p <= 0 for p in prices):
        raise InvalidDataError(gettext("every fighting profile needs points > 0 to be validated"))
    budget_points = tuple(b * model.reference_points for b in budgets)
    specs: list[DuelSpec] = []
    sizes: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i in range(len(entries)):
        for j in range(i + 1, len(entries)):
            for b in budget_points:
                n_i = max(1, round(b / prices[i]))
                n_j = max(1, round(b / prices[j]))
                sizes.setdefault((i, j), []).append((n_i, n_j))
                for k in range(duels_per_budget):
                    specs.append((i, j, n_i, n_j, k % 2, f"validate:{seed}:{i}:{j}:{b:g}:{k}"))
    scores = run_duels(
        [e.profile for e in entries],
        specs,
        executor=executor,
        workers=workers,
        progress=progress,
        label="validation",
        battle=battle,
        sampler=sampler,
    )
    wins: dict[tuple[int, int], float] = {}
    count: dict[tuple[int, int], int] = {}
    for s, (sc, _) in zip(specs, scores, strict=True):
        key = (s[0], s[1])
        wins[key] = wins.get(key, 0.0) + sc
        count[key] = count.get(key, 0) + 1
    cells = {k: Cell(k[0], k[1], count[k], wins[k], tuple(sizes[k])) for k in count}
    return Validation(
        list(entries), prices, budget_points, cells, len(specs), time.perf_counter() - t0, seed, battle
    )


__all__ = [
    "BAND",
    "BUDGET_FIGURES",
    "CORRECTION_RIDGE",
    "FEATURES",
    "FITTED_KIND_TERMS",
    "INITIAL_MODEL",
    "MELEE_WEIGHT_GRID",
    "UNMEASURED_ABILITIES",
    "ArmyObservation",
    "CalibrationConfig",
    "CalibrationResult",
    "Cell",
    "DuelProfile",
    "Fit",
    "Intransitivity",
    "Observation",
    "Regenerated",
    "Validation",
    "army_list_paths",
    "calibrate",
    "calibration_targets",
    "default_workers",
    "design",
    "duel_profiles",
    "feature_vector",
    "features",
    "fit_corrections",
    "fit_logistic",
    "fit_model",
    "load_lists",
    "priced",
    "regenerate",
    "roster_costs",
    "run_duel_batch",
    "run_duels",
    "run_tasks",
    "validate",
    "wilson_interval",
    "with_search_winners",
]
