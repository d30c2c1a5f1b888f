r"""Lesson 2, acquisition functions: what the lesson computes and draws, as plain functions.

Everything runs on the library: the GP of lesson 1 (:mod:`common.lessons.gp_regression`: Matérn-5/2, lengthscale
0.1, sigma_f = 5, constant prior mean, noise-free), the acquisitions of :mod:`common.acquisitions`, the maximizers
of :mod:`common.optimizers` and the loop of :mod:`common.bo`. The acquisitions (maximize convention), with
:math:`y^+` the best observed value, :math:`z = (\mu(x) - y^+ - \xi) / \sigma(x)` and :math:`\Phi`,
:math:`\varphi` the standard normal cdf and density:

.. math::
    \mathrm{UCB}(x) = \mu(x) + \sqrt\beta\, \sigma(x) \quad\text{(Srinivas et al. 2010)}, \qquad
    \mathrm{PI}(x) = \Phi(z) \quad\text{(Kushner 1964)},

.. math::
    \mathrm{EI}(x) = (\mu(x) - y^+ - \xi)\, \Phi(z) + \sigma(x)\, \varphi(z) \quad\text{(Jones et al. 1998)},

and Thompson sampling (Thompson 1933), which queries the maximizer of one function drawn from the posterior.

The lesson's one-dimensional problem is lesson 1's: the Forrester function, negated so that it is maximized
(:func:`common.teaching.forrester`), observed at the first :data:`N_POINTS` points of lesson 1's
golden-ratio design. As there, three kinds of function:

* ``*_arrays(...)`` compute what one figure draws, as a dict of arrays (what the experiment module
  :mod:`common.experiments.lesson2_acquisition` caches);
* ``draw_*(arrays, fig)`` draw such a dict into an empty figure;
* ``*_figure(...)`` compute and draw in one call: what a widget's slider calls
  (``ipywidgets.interact(ucb_figure, **UCB_SLIDERS)``).
"""
import itertools

import numpy as np
from scipy.optimize import minimize_scalar

from common.acquisitions import ExpectedImprovement, ProbabilityOfImprovement, UpperConfidenceBound
from common.bo import GPAcquisitionMethod, run_bo
from common.gp import GaussianProcess
from common.lessons import gp_regression as gpr
from common.optimizers import direct_maximize, maximize_with_restarts
from common.seeding import make_rng
from common.teaching import FORRESTER_BOUNDS, ThompsonSampling, forrester, make_kernel
from common.test_functions import get_test_function, on_unit_cube

LESSON = "lesson2_acquisition"
#: The GP of lesson 1's posterior figures: its lengthscale (sigma_f = gpr.SIGNAL_STD, noise-free).
LENGTHSCALE = 0.1
#: The points observed in the one-dimensional figures: the first three of lesson 1's design (0.10, 0.72, 0.34).
N_POINTS = 3
#: The Forrester function's maximizer x* and maximum f*, found once by a bounded scalar search (Brent's method).
_found = minimize_scalar(lambda x: -forrester(np.array([[x]]))[0], bounds=(0.7, 0.8), method="bounded",
                         options={"xatol": 1e-10})
X_STAR, F_STAR = float(_found.x), float(-_found.fun)
#: The local maximizer left of the plateau, where a greedy search can get stuck.
X_LOCAL = float(minimize_scalar(lambda x: -forrester(np.array([[x]]))[0], bounds=(0.05, 0.3), method="bounded",
                                options={"xatol": 1e-10}).x)
#: A loop "reaches" x* when it queries a point this close to it (units of x, on [0, 1]).
REACH_DISTANCE = 0.01
#: The acquisitions of the lesson and the name of each one's exploration parameter.
PARAMETER_OF = {"UCB": "β", "EI": "ξ", "PI": "ξ", "TS": None}
#: Fixed y ranges of the figures, so that moving a slider moves the curves, not the axes: the posterior panels
#: (UCB's up to beta = 25 stays inside) and the probability panels.
UCB_LIMITS = (-24.0, 34.0)
THOMPSON_LIMITS = (-24.0, 28.0)
#: Thompson draws computed for every figure (a figure shows the first few) and for the maximizer's distribution.
N_DRAWS = 20
N_HISTOGRAM_DRAWS = 2000
#: Bins of the histogram of the draws' maximizers on [0, 1].
N_BINS = 40
#: The acquisition maximizers compared, with the names the figures use.
MAXIMIZER_NAMES = {"grid": "dense grid", "direct": "DIRECT", "restarts": "multi-start L-BFGS-B"}
#: L-BFGS-B runs of the multi-start maximizer, started from its best candidates (1-D, 6-D problem).
RESTARTS = {"forrester": 1, "hartmann6": 5}
#: The acquisition problems of the maximization study: EI on the lesson's 1-D posterior, and EI of a GP fitted
#: by maximum likelihood to 30 uniform random points of Hartmann-6 (d = 6).
MAXIMIZATION_PROBLEMS = {"forrester": "EI, Forrester (d = 1)", "hartmann6": "EI, Hartmann-6 (d = 6)"}
HARTMANN_POINTS = 30
#: Relative gaps below this are drawn at it (a maximizer that finds the reference itself has gap 0).
GAP_FLOOR = 1e-8

#: The sliders of each widget: ``(low, high, step)``, as ``ipywidgets.interact`` reads them.
UCB_SLIDERS = {"beta": (0.0, 25.0, 0.1), "n_points": (2, 8, 1)}
IMPROVEMENT_SLIDERS = {"xi": (0.0, 10.0, 0.25), "n_points": (2, 8, 1)}
THOMPSON_SLIDERS = {"n_draws": (1, N_DRAWS, 1), "n_points": (2, 8, 1)}
MAXIMIZER_SLIDERS = {"budget": (3, 99, 2), "seed": (0, 9, 1)}


# --------------------------------------------------------------------------- the posterior and its acquisitions
def make_acquisition(name, parameter, best):
    """The library's acquisition ``name`` ("UCB", "EI" or "PI") with its exploration parameter.

    Parameters
    ----------
    name : {"UCB", "EI", "PI"}
    parameter : float
        beta of UCB (>= 0), or xi of EI and PI (units of f).
    best : float
        The incumbent y+ of EI and PI (ignored by UCB).

    Returns
    -------
    common.acquisitions.Acquisition
    """
    if name == "UCB":
        return UpperConfidenceBound(parameter)
    if name == "EI":
        return ExpectedImprovement(best, parameter)
    if name == "PI":
        return ProbabilityOfImprovement(best, parameter)
    raise ValueError(f"acquisition must be one of 'UCB', 'EI', 'PI'; got {name!r}")


def fit_state(n_points=N_POINTS, noise_std=0.0, lengthscale=LENGTHSCALE):
    """The GP of lesson 1 after the first ``n_points`` design points, observed with noise std ``noise_std``
    (known to the GP).

    Returns
    -------
    X : ndarray of shape (n_points, 1)
    y : ndarray of shape (n_points,)
    gp : GaussianProcess
    """
    X = gpr.design(int(n_points))
    y = gpr.observe(X, noise_std)
    return X, y, gpr.fit_gp(X, y, gpr.make_kernel("matern52", lengthscale), noise_std)


def state_arrays(n_points=N_POINTS, n_grid=201, noise_std=0.0):
    """The posterior every figure of the lesson starts from, on a grid of [0, 1].

    Returns
    -------
    dict
        ``x``, ``f``, ``mean``, ``std`` (n_grid,); the data ``X`` (n_points,) and ``y``; ``best``, the incumbent
        max y; ``n_points``.
    """
    return _state(n_points, n_grid, noise_std)[0]


def _state(n_points, n_grid, noise_std=0.0):
    """:func:`state_arrays` and the fitted GP."""
    X, y, gp = fit_state(n_points, noise_std)
    x = gpr.grid(n_grid)
    mean, std = gp.predict(x[:, None], return_std=True)
    return {"x": x, "f": forrester(x[:, None]), "mean": mean, "std": std, "X": X[:, 0], "y": y,
            "best": float(y.max()), "n_points": int(n_points)}, gp


def ucb_arrays(beta, n_points=N_POINTS, n_grid=201):
    """UCB with ``beta`` on the lesson's posterior, and its maximizer (the next query).

    Returns
    -------
    dict
        :func:`state_arrays` with ``ucb`` (n_grid,), ``next`` (its maximizer on the grid) and ``beta``.
    """
    arrays = state_arrays(n_points, n_grid)
    arrays["ucb"] = UpperConfidenceBound(beta).from_moments(arrays["mean"], arrays["std"])
    arrays["next"] = float(arrays["x"][np.argmax(arrays["ucb"])])
    arrays["beta"] = float(beta)
    return arrays


def improvement_arrays(xi, n_points=N_POINTS, n_grid=201):
    """EI and PI with ``xi`` on the lesson's posterior, and their maximizers.

    Returns
    -------
    dict
        :func:`state_arrays` with ``ei`` and ``pi`` (n_grid,), their maximizers ``next_ei`` and ``next_pi``,
        ``ei_limit`` (the largest EI at xi = 0, which bounds every xi's: EI decreases with xi) and ``xi``.
    """
    arrays = state_arrays(n_points, n_grid)
    mean, std, best = arrays["mean"], arrays["std"], arrays["best"]
    arrays["ei"] = ExpectedImprovement(best, xi).from_moments(mean, std)
    arrays["pi"] = ProbabilityOfImprovement(best, xi).from_moments(mean, std)
    arrays["next_ei"] = float(arrays["x"][np.argmax(arrays["ei"])])
    arrays["next_pi"] = float(arrays["x"][np.argmax(arrays["pi"])])
    arrays["ei_limit"] = float(ExpectedImprovement(best, 0.0).from_moments(mean, std).max())
    arrays["xi"] = float(xi)
    return arrays


def thompson_arrays(n_draws=3, n_points=N_POINTS, n_grid=201):
    """Thompson sampling on the lesson's posterior: ``n_draws`` joint posterior draws on the grid (exact, RW App.
    A.2, :meth:`GaussianProcess.sample`) with their maximizers, and the maximizers of :data:`N_HISTOGRAM_DRAWS`
    draws, whose histogram estimates the probability that x is the maximizer, the distribution Thompson sampling
    queries from.

    The figure's draws are the first ``n_draws`` of the same :data:`N_DRAWS`, so that a slider over ``n_draws``
    adds draws rather than replacing them.

    Returns
    -------
    dict
        :func:`state_arrays` with ``draws`` (n_draws, n_grid), ``draw_maximizers`` (n_draws,),
        ``maximizers`` (N_HISTOGRAM_DRAWS,) and ``n_draws``.
    """
    if not 1 <= n_draws <= N_DRAWS:
        raise ValueError(f"n_draws must be in 1..{N_DRAWS}; got {n_draws!r}")
    arrays, gp = _state(n_points, n_grid)
    points = arrays["x"][:, None]
    draws = gp.sample(points, N_DRAWS, make_rng(LESSON, "thompson draws", int(n_points), int(n_grid)))[:n_draws]
    many = gp.sample(points, N_HISTOGRAM_DRAWS, make_rng(LESSON, "thompson histogram", int(n_points), int(n_grid)))
    arrays.update(draws=draws, draw_maximizers=arrays["x"][np.argmax(draws, axis=1)],
                  maximizers=arrays["x"][np.argmax(many, axis=1)], n_draws=int(n_draws))
    return arrays


def overview_arrays(n_points=N_POINTS, n_grid=201, beta=4.0):
    """The four rules side by side on the lesson's posterior: UCB (``beta``), EI and PI (xi = 0), one Thompson
    draw.

    Returns
    -------
    dict
        :func:`state_arrays` with ``UCB``, ``EI``, ``PI``, ``TS`` (n_grid,) and ``beta``.
    """
    arrays = thompson_arrays(1, n_points, n_grid)
    mean, std, best = arrays["mean"], arrays["std"], arrays["best"]
    scores = {"UCB": UpperConfidenceBound(beta).from_moments(mean, std),
              "EI": ExpectedImprovement(best).from_moments(mean, std),
              "PI": ProbabilityOfImprovement(best).from_moments(mean, std), "TS": arrays["draws"][0]}
    kept = {name: arrays[name] for name in ("x", "f", "mean", "std", "X", "y", "best", "n_points")}
    return {**kept, **scores, "beta": float(beta)}


# --------------------------------------------------------------------------- the loop: exploration in practice
class ExplorationMethod(GPAcquisitionMethod):
    """The BO method of the lesson's loops: lesson 1's GP at fixed hyperparameters, one acquisition with a
    constant exploration parameter (beta of UCB, xi of EI or PI), maximized by DIRECT.

    :class:`common.bo.GPAcquisitionMethod` refits hyperparameters and takes xi = 0; here the model stays fixed, so
    that the runs differ only in the acquisition and its parameter.

    Parameters
    ----------
    acquisition : {"UCB", "EI", "PI"}
    parameter : float
        beta (UCB) or xi (EI, PI).
    direct_evals : int
        DIRECT's budget for maximizing the acquisition at each step.
    lengthscale : float
    """

    def __init__(self, acquisition, parameter, direct_evals=200, lengthscale=LENGTHSCALE):
        make_acquisition(acquisition, parameter, 0.0)  # checks the name and the parameter
        super().__init__(gpr.make_kernel("matern52", lengthscale), FORRESTER_BOUNDS, acquisition="mean",
                         noise_variance=gpr.NOISE_FLOOR, y_transform="center", fit_hyperparameters=False,
                         optimizer="direct", optimizer_options={"max_evals": int(direct_evals)},
                         name=f"{acquisition} {PARAMETER_OF[acquisition]} = {parameter:g}")
        self.rule, self.parameter = acquisition, float(parameter)

    def make_acquisition(self, iteration, best):
        """The acquisition of every step: the rule with its constant parameter, incumbent ``best``."""
        return make_acquisition(self.rule, self.parameter, best)


def loop_method(acquisition, parameter=0.0, direct_evals=200, lengthscale=LENGTHSCALE):
    """The method of one loop: :class:`ExplorationMethod`, or for "TS" the library's Thompson sampling
    (:class:`common.teaching.ThompsonSampling`: a random-feature draw maximized by DIRECT) on the same
    fixed GP."""
    if acquisition == "TS":
        return ThompsonSampling(gpr.make_kernel("matern52", lengthscale), FORRESTER_BOUNDS, acquisition="mean",
                                noise_variance=gpr.NOISE_FLOOR, y_transform="center", fit_hyperparameters=False,
                                optimizer_options={"max_evals": int(direct_evals)}, name="TS")
    return ExplorationMethod(acquisition, parameter, direct_evals, lengthscale)


def loop_arrays(acquisition, parameter, seed, n_init=2, n_iterations=20, direct_evals=200):
    """One BO loop on the Forrester function from ``n_init`` uniform random points (drawn from ``seed`` alone, so
    every acquisition of a seed starts from the same points).

    Returns
    -------
    dict
        Per evaluation: ``X`` (the query, shape (n,)), ``f`` (its value), ``iteration`` (0 for the initial design)
        and ``regret`` (f* minus the best value so far).
    """
    record = run_bo(forrester, FORRESTER_BOUNDS, loop_method(acquisition, parameter, direct_evals), int(n_init),
                    int(n_iterations), init_rng=make_rng(LESSON, "loop design", int(seed)),
                    method_rng=make_rng(LESSON, "loop", acquisition, float(parameter), int(seed)))
    return {"X": record["X"][:, 0], "f": record["f"], "iteration": record["iteration"],
            "regret": F_STAR - record["best_so_far"]}


def steps_to_reach(X, iteration, distance=REACH_DISTANCE):
    """The BO iteration of the first query within ``distance`` of x* (0 if the initial design has one), or None
    if no query gets that close."""
    close = np.flatnonzero(np.abs(np.asarray(X, dtype=float) - X_STAR) <= distance)
    return int(np.asarray(iteration)[close[0]]) if close.size else None


# --------------------------------------------------------------------------- maximizing the acquisition
def acquisition_problem(problem):
    """EI of one problem of the maximization study, as the maximizers see it.

    "forrester": EI (xi = 0) on the lesson's posterior. "hartmann6": EI of a GP fitted by maximum likelihood
    (Matérn-5/2 ARD on standardized values, bo_basics's model) to :data:`HARTMANN_POINTS` uniform random points of
    Hartmann-6 on [0, 1]^6.

    Returns
    -------
    values : callable
        Batched EI, ``values(Z)`` with Z of shape (n, d), in chunks of 50,000 rows (a dense 6-D grid has a million).
    value_and_gradient : callable
        EI and its gradient at one point of shape (d,), for L-BFGS-B.
    bounds : ndarray of shape (d, 2)
    """
    if problem == "forrester":
        X, y, gp = fit_state(N_POINTS)
        bounds = FORRESTER_BOUNDS
    elif problem == "hartmann6":
        objective = on_unit_cube(get_test_function("hartmann6"))
        X = make_rng(LESSON, "hartmann6 data").random((HARTMANN_POINTS, 6))
        y = objective(X)
        gp = GaussianProcess(make_kernel(6), noise_variance=1e-6, y_transform="standardize").fit(X, y)
        gp.fit_hyperparameters(make_rng(LESSON, "hartmann6 hyperparameters"), n_restarts=5)
        bounds = objective.bounds
    else:
        raise ValueError(f"problem must be one of {list(MAXIMIZATION_PROBLEMS)}; got {problem!r}")
    acquisition = ExpectedImprovement(float(np.max(y)))

    def values(Z):
        Z = np.asarray(Z, dtype=float)
        return np.concatenate([acquisition(gp, Z[start:start + 50_000]) for start in range(0, len(Z), 50_000)]
                              or [np.empty(0)])

    return values, (lambda x: acquisition.value_and_gradient(gp, x)), np.asarray(bounds, dtype=float)


def grid_points(bounds, per_side):
    """The ``per_side``^d cell centres of a regular grid over the box: (i + 1/2) / per_side along each side."""
    bounds = np.asarray(bounds, dtype=float)
    sides = [low + (high - low) * (np.arange(per_side) + 0.5) / per_side for low, high in bounds]
    return np.array(list(itertools.product(*sides)))


def maximize(problem, maximizer, size, seed=0, *, record_points=False):
    """Maximize the acquisition of ``problem`` with one maximizer at one size, counting its evaluations.

    Parameters
    ----------
    problem : {"forrester", "hartmann6"}
    maximizer : {"grid", "direct", "restarts"}
        A dense grid of ``size`` points per side (size^d evaluations); DIRECT with a budget of ``size`` evaluations
        and no other stopping rule (the library's default tolerances would stop it earlier); or ``size`` uniform
        random candidates whose best :data:`RESTARTS` start L-BFGS-B with the analytic gradient
        (:func:`common.optimizers.maximize_with_restarts`; every gradient step counts as an evaluation).
    size : int >= 1
    seed : int
        Draws the random candidates (``"restarts"`` only).
    record_points : bool
        Also return every evaluated point (for the 1-D view).

    Returns
    -------
    dict
        ``evaluations`` (int), ``found`` (the best value), ``x`` (its point, shape (d,)); with ``record_points``,
        ``points`` (evaluations, d) in the order evaluated.
    """
    if int(size) != size or size < 1:
        raise ValueError(f"size must be an integer >= 1; got {size!r}")
    values, value_and_gradient, bounds = acquisition_problem(problem)
    seen = []

    def counted(Z):
        seen.append(np.asarray(Z, dtype=float))
        return values(Z)

    def counted_gradient(x):
        seen.append(np.asarray(x, dtype=float)[None, :])
        return value_and_gradient(x)

    if maximizer == "grid":
        Z = grid_points(bounds, int(size))
        scores = counted(Z)
        best = int(np.argmax(scores))
        x, found = Z[best], float(scores[best])
    elif maximizer == "direct":
        result = direct_maximize(counted, bounds, int(size), vol_tol=0.0, len_tol=0.0)
        x, found = result.x, float(result.fun)
    elif maximizer == "restarts":
        result = maximize_with_restarts(counted, bounds, make_rng(LESSON, "maximizer", problem, int(seed)),
                                        n_candidates=int(size), n_restarts=RESTARTS[problem],
                                        fun_and_grad=counted_gradient)
        x, found = result.x, float(result.fun)
    else:
        raise ValueError(f"maximizer must be one of {list(MAXIMIZER_NAMES)}; got {maximizer!r}")
    points = np.vstack(seen)
    arrays = {"evaluations": int(len(points)), "found": found, "x": np.asarray(x, dtype=float)}
    if record_points:
        arrays["points"] = points
    return arrays


def reference_maximum(problem, n_candidates=2**14, n_restarts=20):
    """The reference maximum of the study's acquisition: multi-start L-BFGS-B from the best of ``n_candidates``
    Sobol points, far more than any maximizer of the study gets. (A gap is measured against the larger of this and
    every value the study found.)"""
    values, value_and_gradient, bounds = acquisition_problem(problem)
    result = maximize_with_restarts(values, bounds, make_rng(LESSON, "reference", problem),
                                    n_candidates=n_candidates, n_restarts=n_restarts, sampler="sobol",
                                    fun_and_grad=value_and_gradient)
    return {"found": float(result.fun), "x": result.x}


def maximizer_view_arrays(budget=9, seed=0, n_grid=201):
    """What the three maximizers evaluate on the lesson's 1-D EI at about ``budget`` evaluations: a grid of
    ``budget`` points, DIRECT with ``budget`` evaluations, and ``budget`` random candidates polished by L-BFGS-B
    (which adds its own evaluations).

    Returns
    -------
    dict
        ``x``, ``ei`` (n_grid,) and ``reference`` (EI's maximum); per maximizer ``<name>_points`` (its evaluated
        points), ``<name>_x`` and ``<name>_found``; ``budget`` and ``seed``.
    """
    arrays = {"x": gpr.grid(n_grid), "budget": int(budget), "seed": int(seed)}
    values, _, _ = acquisition_problem("forrester")
    arrays["ei"] = values(arrays["x"][:, None])
    arrays["reference"] = reference_maximum("forrester")["found"]
    for name in MAXIMIZER_NAMES:
        found = maximize("forrester", name, budget, seed, record_points=True)
        arrays[f"{name}_points"] = found["points"][:, 0]
        arrays[f"{name}_x"] = float(found["x"][0])
        arrays[f"{name}_found"] = found["found"]
    return arrays


def relative_gap(found, reference):
    """(reference - found) / reference, floored at :data:`GAP_FLOOR` so that a log axis can draw it."""
    return np.maximum((reference - np.asarray(found, dtype=float)) / reference, GAP_FLOOR)


# --------------------------------------------------------------------------- drawing
def new_figure(figsize=(6.0, 3.8)):
    """An empty figure with constrained layout, outside pyplot (a widget shows the figure it returns, once)."""
    return gpr.new_figure(figsize)


def _legend_below(fig, axes, ncols=3):
    """One legend under the panels for every labelled artist of ``axes``, each label once."""
    entries = {}
    for ax in np.atleast_1d(axes):
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    fig.legend(list(entries.values()), list(entries), loc="outside lower center", ncols=ncols)


def _mark_next(ax, x, y, color, label="next query (maximizer)"):
    """A triangle at the maximizer and a thin vertical line down through the panel."""
    ax.axvline(x, color=color, lw=0.8, ls=":")
    ax.plot([x], [y], "v", color=color, ms=8, label=label)


def _posterior(ax, arrays, title=None, ylim=gpr.F_LIMITS):
    gpr.draw_posterior_panel(ax, arrays, title=title)
    ax.set_ylim(*ylim)


def draw_ucb(arrays, fig):
    """The posterior with UCB = mu + sqrt(beta) sigma drawn over it (:func:`ucb_arrays`), and its maximizer."""
    ax = fig.subplots()
    _posterior(ax, arrays, ylim=UCB_LIMITS,
               title=f"UCB with β = {arrays['beta']:g}: μ + {np.sqrt(arrays['beta']):.2f} σ, "
                     f"n = {arrays['n_points']}; next query x = {arrays['next']:.3f}")
    ax.plot(arrays["x"], arrays["ucb"], color="C1", lw=2, label=r"UCB $\mu + \sqrt{\beta}\,\sigma$")
    _mark_next(ax, arrays["next"], arrays["ucb"].max(), "C1")
    _legend_below(fig, ax)


def draw_improvement(arrays, fig):
    """The posterior with the incumbent y+ and the target y+ + xi (top), EI (middle) and PI (bottom) with their
    maximizers (:func:`improvement_arrays`)."""
    top, middle, bottom = fig.subplots(3, 1, sharex=True, height_ratios=[2, 1, 1])
    _posterior(top, arrays, title=f"ξ = {arrays['xi']:g}, n = {arrays['n_points']}: next query EI x = "
                                  f"{arrays['next_ei']:.3f}, PI x = {arrays['next_pi']:.3f}")
    top.axhline(arrays["best"], color="C2", lw=1, label="incumbent $y^+$ (best observed)")
    if arrays["xi"] > 0:
        top.axhline(arrays["best"] + arrays["xi"], color="C2", lw=1, ls="--", label=r"target $y^+ + \xi$")
    top.set_xlabel("")
    middle.plot(arrays["x"], arrays["ei"], color="C1", lw=2, label="EI")
    _mark_next(middle, arrays["next_ei"], arrays["ei"].max(), "C1", label="next query of EI")
    middle.set(ylabel="EI", ylim=(0, 1.1 * arrays["ei_limit"]))
    bottom.plot(arrays["x"], arrays["pi"], color="C4", lw=2, label="PI")
    _mark_next(bottom, arrays["next_pi"], arrays["pi"].max(), "C4", label="next query of PI")
    bottom.set(ylabel="PI", ylim=(0, 1.05), xlabel="x", xlim=(0, 1))
    _legend_below(fig, [top, middle, bottom])


def draw_thompson(arrays, fig):
    """Posterior draws and their maximizers (top) and the histogram of the maximizers of many draws (bottom): the
    probability that the maximizer lies in each bin, from which Thompson sampling draws its query
    (:func:`thompson_arrays`)."""
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[2, 1])
    several = arrays["n_draws"] > 1
    _posterior(top, arrays, ylim=THOMPSON_LIMITS,
               title=f"{arrays['n_draws']} posterior draw{'s' if several else ''} and {'their' if several else 'its'} "
                     f"maximizer{'s' if several else ''}, n = {arrays['n_points']}")
    for number, draw in enumerate(arrays["draws"]):
        last = number == len(arrays["draws"]) - 1
        top.plot(arrays["x"], draw, color="C2", lw=1.6 if last else 0.7, alpha=1.0 if last else 0.5,
                 label="posterior draw (the last one bold)" if last else None)
    top.plot(arrays["draw_maximizers"], arrays["draws"].max(axis=1), "v", color="C2", ms=7,
             label="each draw's maximizer: a Thompson query")
    top.set_xlabel("")
    edges = np.linspace(0.0, 1.0, N_BINS + 1)
    counts, _ = np.histogram(arrays["maximizers"], bins=edges)
    bottom.bar(edges[:-1], counts / counts.sum(), width=np.diff(edges), align="edge", color="C2", alpha=0.6,
               label=f"share of {len(arrays['maximizers'])} draws whose maximizer is in the bin")
    bottom.axvline(X_STAR, color="k", lw=1, ls="--", label="x*, the true maximizer")
    bottom.set(xlabel="x", ylabel="P(maximizer in bin)", xlim=(0, 1), ylim=(0, 1.25 * counts.max() / counts.sum()))
    _legend_below(fig, [top, bottom], ncols=2)


def draw_overview(arrays, fig):
    """The posterior (top) and UCB, EI, PI and a Thompson draw under it, each with its next query
    (:func:`overview_arrays`)."""
    axes = fig.subplot_mosaic([["posterior"] * 4, ["UCB", "EI", "PI", "TS"]], height_ratios=[2, 1.2])
    _posterior(axes["posterior"], arrays, title=f"The posterior after n = {arrays['n_points']} points")
    titles = {"UCB": f"UCB, β = {arrays['beta']:g}", "EI": "EI, ξ = 0", "PI": "PI, ξ = 0",
              "TS": "Thompson draw"}
    for number, name in enumerate(titles):
        ax, values = axes[name], arrays[name]
        best = int(np.argmax(values))
        ax.plot(arrays["x"], values, color=f"C{number + 1}")
        ax.plot(arrays["x"][best], values[best], "v", color=f"C{number + 1}", ms=7)
        axes["posterior"].axvline(arrays["x"][best], color=f"C{number + 1}", lw=1, ls=":",
                                  label=f"next query of {name}")
        ax.set(title=titles[name], xlabel="x", xlim=(0, 1))
        ax.tick_params(labelsize=8)
    _legend_below(fig, axes["posterior"], ncols=3)


def draw_reach(steps, n_iterations, fig):
    """For each loop setting, the BO iterations each seed needed to query within :data:`REACH_DISTANCE` of x*:
    one dot per seed, a bar at the median over the seeds that reached it, and the seeds that never did within
    ``n_iterations`` as crosses right of the axis's limit.

    Parameters
    ----------
    steps : dict
        Setting label -> list of :func:`steps_to_reach` results over seeds (None: never), in the order to draw
        (top to bottom).
    n_iterations : int
        The loops' budget of BO iterations.
    """
    ax = fig.subplots()
    never_at = n_iterations + 2
    labels = list(steps)
    for row, label in enumerate(labels):
        found = steps[label]
        reached = np.array([step for step in found if step is not None], dtype=float)
        # a golden-ratio sequence spreads the dots of a row without random numbers
        spread = ((np.arange(len(found)) * 0.618034) % 1.0 - 0.5) * 0.5
        colour = f"C{['UCB', 'EI', 'PI', 'TS'].index(label.split()[0])}"
        values = np.array([never_at if step is None else step for step in found], dtype=float)
        hit = np.array([step is not None for step in found])
        ax.scatter(values[hit], row + spread[hit], s=14, color=colour, alpha=0.7, lw=0)
        ax.scatter(values[~hit], row + spread[~hit], s=22, color=colour, marker="x", lw=1)
        if reached.size:
            ax.vlines(np.median(reached), row - 0.35, row + 0.35, color=colour, lw=2.2)
        ax.text(never_at + 1.5, row, f"{hit.sum()}/{len(found)}", va="center", fontsize=8)
    ax.text(never_at + 1.5, -0.8, "reached", va="center", fontsize=8)
    ax.axvline(n_iterations + 1, color="0.5", lw=0.8)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xticks(range(0, n_iterations + 1, 5))
    ax.set(ylim=(len(labels) - 0.5, -1.1), xlim=(-0.5, never_at + 4.5),
           xlabel=f"BO iterations until a query within {REACH_DISTANCE:g} of x* "
                  f"(× right of the grey line: not within {n_iterations})",
           title="Steps to x*: a dot per seed, a bar at the median of the seeds that reached it")
    ax.grid(axis="y", visible=False)


def draw_query_traces(runs, fig):
    """The queries of one loop per setting against the iteration (:func:`loop_arrays`), x* and the local maximum
    dashed.

    Parameters
    ----------
    runs : dict
        Panel title -> a :func:`loop_arrays` dict, in the order to draw (left to right).
    """
    axes = np.atleast_1d(fig.subplots(1, len(runs), sharey=True))
    for number, (ax, (title, run)) in enumerate(zip(axes, runs.items())):
        initial = run["iteration"] == 0
        ax.plot(run["iteration"][initial], run["X"][initial], "s", color="0.5", ms=5,
                label="initial design" if number == 0 else None)
        ax.plot(run["iteration"][~initial], run["X"][~initial], "o-", color="C0", ms=4, lw=0.8,
                label="BO query" if number == 0 else None)
        ax.axhline(X_STAR, color="k", lw=1, ls="--", label="x* (global maximum)" if number == 0 else None)
        ax.axhline(X_LOCAL, color="k", lw=1, ls=":", label="local maximum" if number == 0 else None)
        ax.set(title=title, xlabel="BO iteration t", ylim=(-0.04, 1.04))
    axes[0].set_ylabel("query $x_t$")
    _legend_below(fig, axes[0], ncols=4)


def draw_maximizer_cost(study, fig):
    """The gap to the acquisition's maximum against the evaluations each maximizer spent, one panel per problem.

    Parameters
    ----------
    study : dict
        Problem -> ``{"reference": float, "grid": (evaluations, found), "direct": (evaluations, found),
        "restarts": (evaluations (n_seeds, n_sizes), found (n_seeds, n_sizes))}``.
    """
    axes = np.atleast_1d(fig.subplots(1, len(study)))
    styles = {"grid": dict(color="C0", marker="s"), "direct": dict(color="C1", marker="o"),
              "restarts": dict(color="C2", marker="^")}
    for ax, (problem, found) in zip(axes, study.items()):
        reference = found["reference"]
        for name in MAXIMIZER_NAMES:
            evaluations, values = (np.asarray(part, dtype=float) for part in found[name])
            gaps = relative_gap(values, reference)
            if name == "restarts":  # random candidates: every seed as a faint dot, the medians as the line
                ax.scatter(evaluations.ravel(), gaps.ravel(), s=8, alpha=0.35, lw=0, color=styles[name]["color"])
                evaluations, gaps = np.median(evaluations, axis=0), np.median(gaps, axis=0)
            ax.plot(evaluations, gaps, lw=1.4, ms=5, label=MAXIMIZER_NAMES[name]
                    + (" (median over seeds; dots: each seed)" if name == "restarts" else ""), **styles[name])
        ax.set(xscale="log", yscale="log", xlabel="acquisition evaluations", title=MAXIMIZATION_PROBLEMS[problem],
               ylim=(GAP_FLOOR / 3, 3))
    axes[0].set_ylabel("relative gap to the maximum of EI")
    _legend_below(fig, axes[0], ncols=3)


def draw_maximizer_view(arrays, fig):
    """Where each maximizer evaluates the lesson's 1-D EI (ticks) and what it finds (triangle), one panel per
    maximizer (:func:`maximizer_view_arrays`)."""
    axes = fig.subplots(len(MAXIMIZER_NAMES), 1, sharex=True)
    top = 1.15 * arrays["ei"].max()
    for number, (ax, (name, title)) in enumerate(zip(axes, MAXIMIZER_NAMES.items())):
        points = arrays[f"{name}_points"]
        gap = float(relative_gap(arrays[f"{name}_found"], max(arrays["reference"], arrays[f"{name}_found"])))
        ax.plot(arrays["x"], arrays["ei"], color="0.3", lw=1.2, label="EI" if number == 0 else None)
        ax.plot(points, np.full(len(points), 0.04 * top), "|", color=f"C{number}", ms=9,
                label="evaluated points" if number == 0 else None)
        ax.plot([arrays[f"{name}_x"]], [arrays[f"{name}_found"]], "v", color=f"C{number}", ms=8,
                label="best point found" if number == 0 else None)
        gap_words = "the maximum" if gap <= GAP_FLOOR else f"relative gap {gap:.1e}"
        ax.set(ylim=(0, top), ylabel="EI", title=f"{title}: {len(points)} evaluations, {gap_words}")
    axes[-1].set(xlabel="x", xlim=(0, 1))
    _legend_below(fig, axes[0], ncols=3)


# --------------------------------------------------------------------------- the widgets' functions
def ucb_figure(beta=4.0, n_points=N_POINTS):
    """UCB at ``beta`` after ``n_points`` points: the function the beta slider calls."""
    fig = new_figure((6.4, 4.0))
    draw_ucb(ucb_arrays(beta, n_points), fig)
    return fig


def improvement_figure(xi=0.0, n_points=N_POINTS):
    """EI and PI at ``xi`` after ``n_points`` points: the function the xi slider calls."""
    fig = new_figure((6.4, 5.6))
    draw_improvement(improvement_arrays(xi, n_points), fig)
    return fig


def thompson_figure(n_draws=3, n_points=N_POINTS):
    """The first ``n_draws`` posterior draws and the distribution of the maximizer: the function the draws slider
    calls."""
    fig = new_figure((6.4, 5.0))
    draw_thompson(thompson_arrays(n_draws, n_points), fig)
    return fig


def maximizer_figure(budget=9, seed=0):
    """Where a grid, DIRECT and multi-start L-BFGS-B evaluate EI at about ``budget`` evaluations: the function the
    budget slider calls."""
    fig = new_figure((6.4, 5.6))
    draw_maximizer_view(maximizer_view_arrays(budget, seed), fig)
    return fig
