r"""Lesson 4, reading BO papers: what the lesson computes and draws, as plain functions.

The lesson takes the five papers of the companion one idea at a time, each in one picture drawn on the library's own
code (no second implementation), then asks the arena which idea helps where. Three parts:

* **From a sentence to a testable claim**: a paper's sentence becomes a :class:`common.claims.ClaimSpec` with a
  quantity, a test and a margin, and each cell is judged by :func:`judging.judge_cell` on a paired comparison
  over seeds (:func:`common.stats.paired_comparison`). :func:`synthetic_regrets` makes two methods' final regrets on
  ten seeds, :func:`with_failed_seed` lets one run fail, and :func:`draw_comparisons` shows what that does to the
  ratio of means, its interval and the median seed.
* **Five ideas, one picture each**:

  - ``bo_pp``, pseudo-points (:func:`pseudo_point_arrays`, :mod:`common.methods.bo_pp`): copies of the data at
    distance tau shrink the posterior standard deviation (Lemma 2) and move the mean (Lemma 4), at no evaluation;
  - ``random_exploration``, one uniform point per iteration (:func:`exploration_run`,
    :class:`common.methods.random_exploration.RandomExploration`): EXPLOIT against EXPLOIT+ on the 1-D Rastrigin
    function;
  - ``add_gp_ucb``, an additive GP (:func:`additive_view_arrays`, :class:`common.kernels.AdditiveKernel`): on a 2-D
    additive function it learns f from fewer points than a GP on both coordinates at once;
  - ``egp_ts``, an ensemble of kernels weighted by their evidence (:func:`ensemble_arrays`,
    :class:`common.methods.egp_ts.EnsembleRFGP`): the weights as points arrive;
  - ``mini_gp_opt``, epochs (:func:`epoch_arrays`, :func:`common.methods.mini_gp_opt.mini_meta`): each epoch
    evaluates one arm B = floor((C^2 - 1) / sigma~^2) times.

* **Which idea helps where**: the arena's cached runs (:mod:`common.experiments.arena`), each idea on against off
  inside its own method beside the whole methods' ranks (:func:`idea_against_rank`).

As in lessons 1-3, three kinds of function: ``*_arrays(...)`` compute what one figure draws (what the experiment
module :mod:`common.experiments.lesson4_reading_papers` caches), ``draw_*(arrays, fig)`` draw it into an empty
figure, and ``*_figure(...)`` compute and draw in one call, what a widget's slider calls
(``live(pseudo_point_figure, PSEUDO_POINT_SLIDERS)``).
"""
import warnings

import numpy as np

from common import judging, plotting, stats
from common.bo import run_bo
from common.gp import GaussianProcess
from common.kernels import AdditiveKernel, Matern, SquaredExponential
from common.lessons import gp_regression as gpr
from common.methods import bo_pp, mini_gp_opt, random_exploration
from common.methods.egp_ts import EnsembleRFGP
from common.random_features import BayesianLinearRegression, RandomFourierFeatures
from common.seeding import make_rng
from common.teaching import forrester
from common.test_functions import Rastrigin

LESSON = "lesson4_reading_papers"


def code_of(function, first=None, last=None):
    """The source of a library function or method as the lesson shows it: without its docstring, or only its lines
    from the first that contains ``first`` to the first after it that contains ``last``."""
    import ast
    import inspect
    import textwrap

    source = textwrap.dedent(inspect.getsource(function))
    lines = source.splitlines()
    if first is not None:
        start = next(number for number, line in enumerate(lines) if first in line)
        stop = next(number for number, line in enumerate(lines) if number >= start and last in line)
        return textwrap.dedent("\n".join(lines[start:stop + 1]))
    body = ast.parse(source).body[0].body
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value,
                                                                                                 str):
        docstring = body[0]
        lines = lines[:docstring.lineno - 1] + lines[docstring.end_lineno:]
    return "\n".join(lines)

# --------------------------------------------------------------------------- 1. a sentence, a claim, a verdict
#: The synthetic example: seeds, method A's typical factor on B's final regret and its spread (log scale).
SYNTHETIC_SEEDS = 10
SYNTHETIC_FACTOR = 0.7
SYNTHETIC_SPREAD = 0.3
#: The seed whose run of method A fails in the example, and by what factor its final regret grows.
FAILED_SEED = 3
FAILURE_FACTOR = 30.0
#: The claim the example judges: "A is better than B" (lower final regret), at the project's default margin.
SYNTHETIC_CLAIM = "better"


def synthetic_regrets(n_seeds=SYNTHETIC_SEEDS, factor=SYNTHETIC_FACTOR, spread=SYNTHETIC_SPREAD):
    """Final regrets of two methods on ``n_seeds`` shared seeds: B's log-normal around 1, A's B's times a log-normal
    factor around ``factor`` (A is better on a typical seed). Fixed draws (keyed by the lesson).

    Returns
    -------
    a, b : ndarray of shape (n_seeds,)
    """
    rng = make_rng(LESSON, "synthetic regrets", int(n_seeds))
    b = np.exp(rng.normal(0.0, 0.5, int(n_seeds)))
    a = b * np.exp(rng.normal(np.log(factor), spread, int(n_seeds)))
    return a, b


def with_failed_seed(a, seed=FAILED_SEED, factor=FAILURE_FACTOR):
    """A copy of ``a`` in which the run of ``seed`` failed: its final regret ``factor`` times larger."""
    failed = np.array(a, dtype=float)
    failed[seed] *= factor
    return failed


def compare(a, b):
    """A against B seed by seed on final regret (lower is better): :func:`common.stats.paired_comparison` on the
    ratio scale, ``mean(a) / mean(b)``."""
    return stats.paired_comparison(a, b, higher_is_better=False, scale="ratio")


def judge(comparison, claim=SYNTHETIC_CLAIM, margin=judging.DEFAULT_MARGIN):
    """The cell's judgement of ``claim`` (A against B) by :func:`judging.judge_cell`."""
    return judging.judge_cell(comparison, claim, margin)


def comparison_summary(a, b):
    """One line per case for a table: W/T/L, the ratio of means with its interval, the median seed's ratio with its
    interval, and the judgement of "A is better" (with its note)."""
    comparison = compare(a, b)
    judged = judge(comparison)
    return {"seeds": comparison.n, "W/T/L (A's wins)": f"{comparison.wins}/{comparison.ties}/{comparison.losses}",
            "ratio of means A / B": str(comparison.effect), "median seed's ratio": str(comparison.typical),
            "'A is better'": judged.judgement + (f" ({judged.note})" if judged.note else "")}


def draw_comparisons(cases, fig):
    """One panel per case: each seed's ratio a_i / b_i (dots), the ratio of means with its 95 % interval and the
    median seed's ratio with its interval (bars at the top), 1 (no difference) and the margin (dotted).

    Parameters
    ----------
    cases : dict
        Panel title -> ``(a, b)``, the two methods' final regrets by seed.
    """
    axes = np.atleast_1d(fig.subplots(1, len(cases), sharex=True, sharey=True))
    margin = 1 + judging.DEFAULT_MARGIN.size
    for ax, (title, (a, b)) in zip(axes, cases.items()):
        comparison = compare(a, b)
        judged = judge(comparison)
        ratios = np.asarray(a) / np.asarray(b)
        rows = np.arange(len(ratios)) + 2
        colours = np.where(ratios < 1, "C2", "C3")
        ax.scatter(ratios, rows, c=colours, s=22, zorder=3)
        for row, (effect, marker) in enumerate(((comparison.effect, "o"), (comparison.typical, "D"))):
            ax.plot([effect.low, effect.high], [row, row], color="black", lw=2, solid_capstyle="butt")
            ax.plot(effect.estimate, row, marker, color="black", ms=6, mfc="white" if marker == "D" else "black")
        ax.axvline(1.0, color="black", lw=0.8)
        for edge in (1 / margin, margin):
            ax.axvline(edge, color="0.5", lw=0.8, ls=":")
        ax.axhline(1.5, color="0.8", lw=0.8)
        ax.set_xscale("log")
        ax.set_title(f"{title}\n'A is better': {judged.judgement}", fontsize=9)
        ax.set_xlabel("A's final regret / B's (below 1: A better)")
        ax.grid(axis="y", visible=False)
    axes[0].set_yticks(range(len(rows) + 2), ["ratio of means", "median seed", *[f"seed {i}" for i in range(len(rows))]])
    axes[0].invert_yaxis()
    shown = [1 / margin, margin]
    for a, b in cases.values():
        comparison = compare(a, b)
        shown += [*(np.asarray(a) / np.asarray(b)), comparison.effect.low, comparison.effect.high,
                  comparison.typical.low, comparison.typical.high]
    shown = np.array(shown)
    shown = shown[np.isfinite(shown) & (shown > 0)]
    axes[0].set_xlim(shown.min() / 1.5, shown.max() * 1.5)
    ticks = [tick for tick in (0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100) if shown.min() / 1.5 <= tick <= shown.max() * 1.5]
    axes[0].set_xticks(ticks, [f"{tick:g}" for tick in ticks])
    axes[0].set_xticks([], minor=True)


# --------------------------------------------------------------------------- 2a. bo_pp: pseudo-points
#: The GP of lessons 1-3 (Matérn-5/2, lengthscale 0.1, sigma_f = 5, noise-free) after the first points of lesson 1's
#: design of the Forrester function.
PSEUDO_POINTS_DATA = 5
PSEUDO_LENGTHSCALE = 0.1
#: The box of the 1-D picture, and the base distance tau0 of the paper's UCB-PP0001 and BO-PP01.
UNIT_BOX = np.array([[0.0, 1.0]])
PAPER_TAU0S = (0.0001, 0.01)
#: Fixed y ranges, so that moving tau moves the curves, not the axes.
PSEUDO_F_LIMITS = (-22.0, 20.0)
PSEUDO_STD_LIMITS = (0.0, 5.5)
#: tau's choices span its effect: none below about 1e-5 (the pseudo-point all but repeats its observation), a
#: zero-slope observation from about 1e-3 on.
PSEUDO_POINT_SLIDERS = {"tau": [0.0, 1e-5, 1e-4, 3e-4, 1e-3, 3e-3, 0.01, 0.03, 0.1]}


def paper_tau(tau0, n_points=PSEUDO_POINTS_DATA, dim=1, width=1.0):
    """The pseudo-points' distance the paper's schedule gives at ``n_points`` observations (§5):
    :func:`common.methods.bo_pp.pseudo_point_distance`, tau = r tau0 / (d l)."""
    return bo_pp.pseudo_point_distance(tau0, n_points, dim, width)


def pseudo_point_arrays(tau, n_points=PSEUDO_POINTS_DATA, n_grid=201):
    """The lesson's posterior without and with one pseudo-point per observation at distance up to ``tau``
    (:func:`common.methods.bo_pp.sample_pseudo_points`, the library's "box" mode, the paper's reading), the
    hyperparameters unchanged (:func:`common.methods.bo_pp.posterior_with_pseudo_points`). tau = 0: none.

    The pseudo-points' offsets are the same draws for every tau (scaled by it), so that a tau slider moves the
    pseudo-points outwards rather than drawing new ones.

    Returns
    -------
    dict
        ``x``, ``f``, ``mean_without``, ``std_without``, ``mean``, ``std`` (n_grid,); the data ``X``, ``y``
        (n_points,) and the pseudo-points ``X_pseudo`` (n_points,; empty at tau = 0); ``tau``, ``n_points``.
    """
    X = gpr.design(int(n_points))
    y = forrester(X)
    gp = gpr.fit_gp(X, y, gpr.make_kernel("matern52", PSEUDO_LENGTHSCALE))
    x = gpr.grid(n_grid)
    mean_without, std_without = gp.predict(x[:, None], return_std=True)
    if tau > 0:
        X_pseudo, y_pseudo = bo_pp.sample_pseudo_points(X, y, float(tau), UNIT_BOX,
                                                        make_rng(LESSON, "pseudo-points", int(n_points)))
        mean, std = bo_pp.posterior_with_pseudo_points(gp, X_pseudo, y_pseudo).predict(x[:, None], return_std=True)
    else:
        X_pseudo, mean, std = np.empty((0, 1)), mean_without, std_without
    return {"x": x, "f": forrester(x[:, None]), "mean_without": mean_without, "std_without": std_without,
            "mean": mean, "std": std, "X": X[:, 0], "y": y, "X_pseudo": X_pseudo[:, 0], "tau": float(tau),
            "n_points": int(n_points)}


def std_at(tau, points, n_points=PSEUDO_POINTS_DATA):
    """The posterior standard deviation at ``points`` (shape (m,)) without and with pseudo-points at ``tau``, as
    :func:`pseudo_point_arrays` computes it: ``(without, with)``, each of shape (m,)."""
    X = gpr.design(int(n_points))
    y = forrester(X)
    gp = gpr.fit_gp(X, y, gpr.make_kernel("matern52", PSEUDO_LENGTHSCALE))
    points = np.asarray(points, dtype=float)[:, None]
    without = gp.predict(points, return_std=True)[1]
    if tau <= 0:
        return without, without
    X_pseudo, y_pseudo = bo_pp.sample_pseudo_points(X, y, float(tau), UNIT_BOX,
                                                    make_rng(LESSON, "pseudo-points", int(n_points)))
    return without, bo_pp.posterior_with_pseudo_points(gp, X_pseudo, y_pseudo).predict(points, return_std=True)[1]


def _label_end(ax, x, y, text, color, *, dx=4, dy=0, ha="left", va="center", fontsize=8):
    """A line's label beside its point (x, y), in the line's colour: lines are labelled directly, not by a legend."""
    ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", color=color, fontsize=fontsize, ha=ha,
                va=va)


def draw_pseudo_points(arrays, fig):
    """The posterior mean (top) and standard deviation (bottom) without pseudo-points (grey, dashed) and with them
    (blue), the data (black dots) and the pseudo-points (red crosses, at the value they copy)."""
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[1.3, 1])
    x, tau = arrays["x"], arrays["tau"]
    top.plot(x, arrays["f"], color="black", lw=0.8, ls=(0, (2, 2)), label="f")
    top.plot(x, arrays["mean_without"], color="0.45", lw=1.2, ls="--", label="mean without")
    top.plot(x, arrays["mean"], color="C0", lw=1.8, label="mean with")
    top.plot(arrays["X"], arrays["y"], "o", color="black", ms=5, zorder=4, label="observations")
    top.plot(arrays["X_pseudo"], arrays["y"][:len(arrays["X_pseudo"])], "x", color="C3", ms=8, mew=1.8, zorder=5,
             label="pseudo-points")
    # the legend sits in the empty upper band of the panel, above every curve
    top.legend(loc="upper left", ncols=5, fontsize=7.5, handlelength=1.6, columnspacing=1.0)
    top.set(ylim=PSEUDO_F_LIMITS, ylabel="f(x)", xlim=(0, 1),
            title=(f"τ = {tau:g}: a pseudo-point (×) beside each observation copies its value"
                   if tau > 0 else "τ = 0: no pseudo-points"))
    bottom.plot(x, arrays["std_without"], color="0.45", lw=1.2, ls="--")
    bottom.plot(x, arrays["std"], color="C0", lw=1.8)
    if tau > 0:
        bottom.fill_between(x, arrays["std"], arrays["std_without"], color="C0", alpha=0.2, lw=0)
    plotting.declare_range(bottom, 0.0, None)
    bottom.plot(arrays["X"], np.zeros_like(arrays["X"]), "o", color="black", ms=4, clip_on=False, zorder=4)
    # the labels sit on the widest gap between two observations, away from the ends of [0, 1]
    inside = (x > arrays["X"].min()) & (x < arrays["X"].max())
    widest = int(np.flatnonzero(inside)[np.argmax(arrays["std_without"][inside])])
    _label_end(bottom, x[widest], arrays["std_without"][widest], "σ without", "0.45", dx=0, dy=3, ha="center",
               va="bottom")
    if tau > 0:
        gain = arrays["std_without"] - arrays["std"]
        bottom.set_title(f"the std shrinks by up to {gain.max():.2f} (shaded); it never grows (Lemma 2)",
                         fontsize=9)
        _label_end(bottom, x[widest], arrays["std"][widest], "σ with", "C0", dx=0, dy=-12, ha="center", va="top")
    bottom.set(ylim=PSEUDO_STD_LIMITS, xlabel="x", ylabel="posterior std σ(x)")


def pseudo_point_figure(tau=0.01):
    """Pseudo-points at distance up to ``tau``: the function the tau slider calls."""
    fig = gpr.new_figure((6.4, 4.6))
    draw_pseudo_points(pseudo_point_arrays(tau), fig)
    return fig


# --------------------------------------------------------------------------- 2b. random_exploration: EXPLOIT+
#: The 1-D Rastrigin function of random_exploration's benchmarks (§5, there d = 10), negated: maximum 0 at x = 0,
#: a local maximum near every integer.
def exploration_problem():
    """Rastrigin in one dimension on [-5.12, 5.12], negated (:class:`common.test_functions.Rastrigin`)."""
    return Rastrigin(1)


#: The methods of the picture: the posterior-mean maximizer (EXPLOIT), and the same with a uniform point added to
#: every iteration (EXPLOIT+).
EXPLORATION_METHODS = ("EXPLOIT", "EXPLOIT+")
#: The paper's acquisition search (random_exploration's paper scale): the best of 2,000 Sobol points, polished by
#: L-BFGS-B from the best 3.
EXPLORATION_SEARCH = {"n_candidates": 2000, "n_restarts": 3}
#: A run "found the global basin" when its best point lies within this distance of x* = 0 (the local maxima sit
#: near the integers, so within 0.5 no other basin's top is nearer).
BASIN_RADIUS = 0.5


def exploration_run(method, seed, budget, n_candidates=EXPLORATION_SEARCH["n_candidates"],
                    n_restarts=EXPLORATION_SEARCH["n_restarts"]):
    """One BO run of EXPLOIT or EXPLOIT+ on :func:`exploration_problem` (the paper's surrogate: Matérn-5/2 on
    standardized y, the lengthscale fitted at every iteration), from one uniform initial point shared by both
    methods of a seed; EXPLOIT+'s uniform points come from a stream of their own
    (:class:`common.methods.random_exploration.RandomExploration`, as :mod:`common.experiments.random_exploration`
    builds it).

    Returns
    -------
    dict
        Per evaluation: ``X`` (budget,), ``f``, ``regret`` (f* - the best f so far), ``iteration`` (0: the initial
        point) and ``uniform`` (True for EXPLOIT+'s uniform points); ``found``, the best point's x.
    """
    if method not in EXPLORATION_METHODS:
        raise ValueError(f"method must be one of {EXPLORATION_METHODS}; got {method!r}")
    problem = exploration_problem()
    base = random_exploration.make_gp_method("mean", problem.bounds,
                                             random_exploration.surrogate_kernel("matern", problem.dim),
                                             n_candidates=int(n_candidates), n_restarts=int(n_restarts),
                                             name="EXPLOIT")
    plus = method.endswith("+")
    chosen = (random_exploration.RandomExploration(base, problem.bounds, make_rng(LESSON, "uniform points", seed),
                                                   name=method) if plus else base)
    per_iteration = random_exploration.QUERIES_PER_ITERATION if plus else 1
    n_init = problem.dim
    with warnings.catch_warnings():
        # the library's lengthscale grid meets 0 * inf where a run repeats a point (harmless: that grid point is
        # skipped); the random_exploration runs do the same
        warnings.simplefilter("ignore", RuntimeWarning)
        record = run_bo(problem, problem.bounds, chosen, n_init, -(-(int(budget) - n_init) // per_iteration),
                        init_rng=make_rng(LESSON, "exploration design", seed),
                        method_rng=make_rng(LESSON, "exploration method", seed, method),
                        max_evaluations=int(budget))
    iteration = np.asarray(record["iteration"])
    # EXPLOIT+ proposes the mean's maximizer first, then the uniform point (RandomExploration.propose)
    position = np.concatenate([np.arange(np.sum(iteration == i)) for i in np.unique(iteration)])
    X = record["X"][:, 0]
    best = int(np.argmax(record["f"]))
    return {"X": X, "f": record["f"], "regret": problem.optimal_value - record["best_so_far"],
            "iteration": iteration, "uniform": (iteration > 0) & (position == 1) if plus else np.zeros(len(X), bool),
            "found": float(X[best])}


def found_global_basin(run):
    """Whether a run's best point lies within :data:`BASIN_RADIUS` of the maximizer x* = 0."""
    return abs(run["found"]) < BASIN_RADIUS


def draw_exploration(runs, fig, *, seed=0):
    """f along x (left, turned sideways) and the queries of EXPLOIT and EXPLOIT+ against the evaluation, one seed
    (``runs``: method -> :func:`exploration_run` arrays); EXPLOIT+'s uniform points as open circles."""
    problem = exploration_problem()
    axes = fig.subplots(1, 1 + len(runs), sharey=True, width_ratios=[0.6] + [1.0] * len(runs))
    line = np.linspace(*problem.bounds[0], 801)
    axes[0].plot(problem(line[:, None]), line, color="black", lw=1)
    axes[0].set(xlabel="f(x)", ylabel="x (the query)", title="f (negated Rastrigin)")
    for ax, (name, run) in zip(axes[1:], runs.items()):
        evaluation = np.arange(1, len(run["X"]) + 1)
        initial = run["iteration"] == 0
        model = ~run["uniform"] & ~initial
        ax.plot(evaluation[initial], run["X"][initial], "s", color="0.5", ms=6)
        ax.plot(evaluation[model], run["X"][model], "o-", color="C0", ms=4, lw=0.6)
        if run["uniform"].any():
            ax.plot(evaluation[run["uniform"]], run["X"][run["uniform"]], "o", mfc="white", color="C1", ms=5)
            last = np.flatnonzero(run["uniform"])[-1]
            _label_end(ax, evaluation[last], run["X"][last], "uniform", "C1", dx=-6, ha="right")
        ax.set(xlabel="evaluation", title=f"{name}: final regret {abs(run['regret'][-1]):.2g}"
               + (" (global basin)" if found_global_basin(run) else ""))
    for ax in axes:
        ax.axhline(0.0, color="C2", lw=1, ls="--")
    _label_end(axes[0], problem.optimal_value, 0.0, "x* = 0", "C2", dx=-4, dy=6, ha="right", va="bottom")
    axes[0].set_ylim(*problem.bounds[0])
    fig.suptitle(f"Seed {seed}: every query of each method (grey square: the initial point; blue: the posterior "
                 f"mean's maximizer)", fontsize=10)


# --------------------------------------------------------------------------- 2c. add_gp_ucb: an additive GP
#: The 2-D additive function of the picture: the lessons' Forrester function along each coordinate,
#: f(x1, x2) = g(x1) + g(x2), maximized on [0, 1]^2.
ADDITIVE_DIM = 2
#: The GPs compared: Matérn-5/2 on both coordinates at once, and the sum of one Matérn-5/2 per coordinate
#: (:class:`common.kernels.AdditiveKernel`, groups {x1}, {x2}); hyperparameters by maximum likelihood.
ADDITIVE_START = {"lengthscale": 0.2, "variance": 25.0}
ADDITIVE_RESTARTS = 2
#: Points per side of the grid the errors are measured on.
ADDITIVE_SIDE = 41


def additive_function(X):
    """f(x) = g(x1) + g(x2), g the negated Forrester function (:func:`common.teaching.forrester`)."""
    X = np.asarray(X, dtype=float)
    return forrester(X[:, :1]) + forrester(X[:, 1:2])


def additive_gps(X, y, seed_key=()):
    """The two GPs fitted to ``(X, y)``: ``{"full": ..., "additive": ...}``, each with its variance and lengthscale
    by maximum likelihood (:meth:`common.gp.GaussianProcess.fit_hyperparameters`, from the same start and
    :data:`ADDITIVE_RESTARTS` random restarts), constant prior mean."""
    kernels = {"full": Matern(2.5, ADDITIVE_START["lengthscale"], ADDITIVE_START["variance"]),
               "additive": AdditiveKernel(Matern(2.5, ADDITIVE_START["lengthscale"], ADDITIVE_START["variance"] / 2),
                                          [[0], [1]])}
    fitted = {}
    for name, kernel in kernels.items():
        gp = GaussianProcess(kernel, noise_variance=gpr.NOISE_FLOOR, y_transform="center").fit(X, y)
        fitted[name] = gp.fit_hyperparameters(make_rng(LESSON, "additive fit", name, *seed_key),
                                              n_restarts=ADDITIVE_RESTARTS)
    return fitted


def additive_grid(n_side=ADDITIVE_SIDE):
    """The ``n_side`` x ``n_side`` grid of [0, 1]^2: ``(side, points)``, points of shape (n_side^2, 2), x1 fastest."""
    side = np.linspace(0.0, 1.0, int(n_side))
    return side, np.stack(np.meshgrid(side, side), axis=-1).reshape(-1, 2)


def relative_error(mean, f):
    """The root-mean-square error of a posterior mean on the grid, in units of f's standard deviation there (1: no
    better than predicting f's average)."""
    return float(np.sqrt(np.mean((np.asarray(mean) - f) ** 2)) / np.std(f))


def additive_design(n_points, seed):
    """``n_points`` uniform random points of [0, 1]^2 (design ``seed``)."""
    return make_rng(LESSON, "additive design", int(n_points), int(seed)).random((int(n_points), ADDITIVE_DIM))


def additive_view_arrays(n_points, seed=0, n_side=ADDITIVE_SIDE):
    """f and both GPs' posterior means on a grid after ``n_points`` random points.

    Returns
    -------
    dict
        ``side`` (n_side,); ``f``, ``full``, ``additive`` (n_side, n_side), rows along x2; ``X`` (n_points, 2);
        ``error_full``, ``error_additive`` (:func:`relative_error`); ``n_points``, ``seed``.
    """
    side, points = additive_grid(n_side)
    X = additive_design(n_points, seed)
    f = additive_function(points)
    arrays = {"side": side, "f": f.reshape(len(side), len(side)), "X": X, "n_points": int(n_points),
              "seed": int(seed)}
    for name, gp in additive_gps(X, additive_function(X), (int(n_points), int(seed))).items():
        mean = gp.predict(points)
        arrays[name] = mean.reshape(len(side), len(side))
        arrays[f"error_{name}"] = relative_error(mean, f)
    return arrays


def additive_error_arrays(n_points, n_seeds, n_side=ADDITIVE_SIDE):
    """Both GPs' relative errors after ``n_points`` random points, over ``n_seeds`` designs.

    Returns
    -------
    dict
        ``error_full``, ``error_additive`` (n_seeds,); ``n_points``.
    """
    _, points = additive_grid(n_side)
    f = additive_function(points)
    errors = {"full": [], "additive": []}
    for seed in range(int(n_seeds)):
        X = additive_design(n_points, seed)
        for name, gp in additive_gps(X, additive_function(X), (int(n_points), seed)).items():
            errors[name].append(relative_error(gp.predict(points), f))
    return {"error_full": np.array(errors["full"]), "error_additive": np.array(errors["additive"]),
            "n_points": int(n_points)}


ADDITIVE_TITLES = {"f": "f(x1, x2) = g(x1) + g(x2)", "full": "GP on (x1, x2)", "additive": "additive GP"}


def draw_additive_view(arrays, fig):
    """f and the two posterior means (same colour levels), the data as white dots."""
    axes = fig.subplots(1, 3, sharex=True, sharey=True)
    from matplotlib.ticker import MaxNLocator

    levels = MaxNLocator(12).tick_values(arrays["f"].min(), arrays["f"].max())
    for ax, name in zip(axes, ("f", "full", "additive")):
        shaded = ax.contourf(arrays["side"], arrays["side"], np.clip(arrays[name], levels[0], levels[-1]),
                             levels=levels, cmap="viridis")
        ax.plot(arrays["X"][:, 0], arrays["X"][:, 1], "o", color="white", mec="black", ms=4)
        error = "" if name == "f" else f"\nerror {arrays[f'error_{name}']:.2f} (RMSE / std of f)"
        ax.set(title=ADDITIVE_TITLES[name] + error, xlabel="x1", aspect="equal")
        ax.title.set_fontsize(9)
        ax.grid(False)
    axes[0].set_ylabel("x2")
    fig.colorbar(shaded, ax=axes, label="f, or its posterior mean", shrink=0.8)


def draw_additive_errors(sizes, errors_full, errors_additive, fig):
    """Both GPs' relative errors against the number of points: the median over random designs, shaded their
    interquartile range (``errors_*``: one row per size, one column per design)."""
    ax = fig.subplots()
    for name, errors, colour in (("GP on (x1, x2)", errors_full, "C3"), ("additive GP", errors_additive, "C0")):
        low, median, high = np.percentile(np.asarray(errors, dtype=float), [25, 50, 75], axis=1)
        ax.fill_between(sizes, low, high, color=colour, alpha=0.2, lw=0)
        ax.plot(sizes, median, "o-", color=colour, ms=4)
        _label_end(ax, sizes[-1], median[-1], name, colour)
    ax.axhline(1.0, color="black", lw=0.8, ls=":")
    _label_end(ax, sizes[-1], 1.0, "1: no better than f's average", "black", dx=0, dy=3, ha="right", va="bottom")
    ax.set(xscale="log", yscale="log", xlabel="number of points n (uniform random)",
           ylabel="error of the posterior mean\n(RMSE / std of f)", xlim=(sizes[0] * 0.9, sizes[-1] * 2.2),
           title=f"Median over {np.shape(errors_full)[1]} designs, shaded the interquartile range")
    ax.set_xticks(sizes, [str(size) for size in sizes])
    ax.set_xticks([], minor=True)


# --------------------------------------------------------------------------- 2d. egp_ts: an ensemble of kernels
#: The ensemble of the picture: three kernels of fixed hyperparameters on f / sigma_f (lesson 1's sigma_f = 5, so
#: each prior has unit variance), each a random-feature GP (200 features, noise variance 0.01), weights 1/3 at first.
ENSEMBLE_KERNEL_NAMES = ("SE, ℓ = 0.5", "SE, ℓ = 0.1", "Matérn-1.5, ℓ = 0.1")
ENSEMBLE_FEATURES = 200
ENSEMBLE_NOISE = 0.01
#: The points arrive in lesson 1's order (:data:`common.lessons.gp_regression.DESIGN`).
ENSEMBLE_MAX_POINTS = len(gpr.DESIGN)
ENSEMBLE_SLIDERS = {"n_points": (0, ENSEMBLE_MAX_POINTS, 1)}
ENSEMBLE_LIMITS = (-4.6, 2.0)


def ensemble_kernels():
    """The ensemble's kernels, in the order of :data:`ENSEMBLE_KERNEL_NAMES`."""
    return [SquaredExponential(0.5), SquaredExponential(0.1), Matern(1.5, 0.1)]


def make_ensemble():
    """The ensemble before any data: one random-feature GP per kernel (features drawn once, keyed by the lesson),
    the library's weight floor switched off (0) so that the weights are eq. 7's exactly."""
    members = [BayesianLinearRegression(RandomFourierFeatures(kernel, ENSEMBLE_FEATURES, 1,
                                                              make_rng(LESSON, "ensemble features", number)),
                                        ENSEMBLE_NOISE)
               for number, kernel in enumerate(ensemble_kernels())]
    return EnsembleRFGP(members, floor=0.0)


def ensemble_arrays(n_points, n_grid=201):
    """The ensemble after the first ``n_points`` points of lesson 1's design, observed one at a time: each
    observation updates the weights by each member's one-step evidence (eq. 10,
    :meth:`common.methods.egp_ts.EnsembleRFGP.update`), which chains to w_m proportional to w_0 p(D | m) (eq. 7).

    Returns
    -------
    dict
        ``weights`` (n_points + 1, M): after 0, 1, ..., n_points points; ``means`` (M, n_grid): each member's
        posterior mean; ``x``, ``f`` (f / sigma_f), the data ``X``, ``y``; ``n_points``.
    """
    if not 0 <= n_points <= ENSEMBLE_MAX_POINTS:
        raise ValueError(f"n_points must be in 0..{ENSEMBLE_MAX_POINTS}; got {n_points!r}")
    X = gpr.DESIGN[:int(n_points), None]
    y = forrester(X) / gpr.SIGNAL_STD
    ensemble = make_ensemble()
    weights = [ensemble.weights.copy()]
    for point, value in zip(X, y):
        ensemble.update(point, value)
        weights.append(ensemble.weights.copy())
    x = gpr.grid(n_grid)
    means = np.array([member.features(x[:, None]) @ member.mean for member in ensemble.members])
    return {"weights": np.array(weights), "means": means, "x": x, "f": forrester(x[:, None]) / gpr.SIGNAL_STD,
            "X": X[:, 0], "y": y, "n_points": int(n_points)}


def draw_ensemble(arrays, fig):
    """Each member's posterior mean with its weight (top) and the weights as the points arrive (bottom)."""
    top, bottom = fig.subplots(2, 1, height_ratios=[1.3, 1])
    x, n = arrays["x"], arrays["n_points"]
    top.plot(x, arrays["f"], color="black", lw=0.8, ls=(0, (2, 2)))
    weights = arrays["weights"][-1]
    # labels at the right edge, spread so that they do not overlap where the means meet
    ends = arrays["means"][:, -1]
    order = np.argsort(ends)
    spread = np.linspace(-1, 1, len(ends)) * 11
    for rank, member in enumerate(order):
        colour = f"C{member}"
        top.plot(x, arrays["means"][member], color=colour, lw=1.6)
        _label_end(top, x[-1], ends[member], f"{ENSEMBLE_KERNEL_NAMES[member]}: w = {weights[member]:.2f}", colour,
                   dy=spread[rank])
    top.plot(arrays["X"], arrays["y"], "o", color="black", ms=5, zorder=4)
    top.set(xlim=(0, 1.55), ylim=ENSEMBLE_LIMITS, xlabel="x", ylabel="f(x) / σ_f",
            title=f"each kernel's posterior mean after n = {n} point{'s' if n != 1 else ''} (dotted: f)")
    top.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    steps = np.arange(len(arrays["weights"]))
    for member in range(arrays["weights"].shape[1]):
        bottom.plot(steps, arrays["weights"][:, member], "o-", color=f"C{member}", ms=3)
    bottom.set(xlim=(-0.3, ENSEMBLE_MAX_POINTS + 0.3), ylim=(-0.03, 1.03), xlabel="points observed",
               ylabel="weight w_m", title="the weights, updated by each point's evidence (eq. 10); colours as above")
    bottom.set_xticks(range(0, ENSEMBLE_MAX_POINTS + 1, 2))


def ensemble_figure(n_points=4):
    """The ensemble after ``n_points`` points: the function the number-of-points slider calls."""
    fig = gpr.new_figure((6.4, 5.0))
    draw_ensemble(ensemble_arrays(n_points), fig)
    return fig


# --------------------------------------------------------------------------- 2e. mini_gp_opt: epochs
#: The arms of the picture: 200 points of [0, 1], f the Forrester function / sigma_f, observed with noise std 0.1;
#: a squared-exponential prior (lengthscale 0.08) and lambda = 0.01 (the noise variance), as mini_gp_opt's own
#: picture of the idea.
EPOCH_ARMS = 200
EPOCH_NOISE_STD = 0.1
EPOCH_LAMBDA = 0.01
EPOCH_LENGTHSCALE = 0.08
EPOCH_SLIDERS = {"threshold": (1.05, 2.0, 0.05)}


def epoch_arms():
    """The arms, shape (EPOCH_ARMS, 1), and f at them."""
    arms = np.linspace(0.0, 1.0, EPOCH_ARMS)[:, None]
    return arms, forrester(arms) / gpr.SIGNAL_STD


def paper_epoch_length(normalized_variance, threshold):
    """B = floor((C^2 - 1) / sigma~^2), at least 1, as mini_gp_opt's Algorithm 2 (line 4) writes it: what the
    figure draws as the rule, and what the tests check the library's epochs against (the library computes it inside
    :func:`common.methods.mini_gp_opt.mini_meta`)."""
    variance = np.asarray(normalized_variance, dtype=float)
    return np.maximum(np.floor((threshold**2 - 1.0) / variance), 1.0)


def epoch_arrays(threshold, n_steps=400):
    """MINI-GP-UCB (epochs) and GP-UCB (one evaluation per acquisition) on the same arms for ``n_steps``
    evaluations (:func:`common.methods.mini_gp_opt.mini_meta`, ``sequential`` for GP-UCB), from the first arm.

    Returns
    -------
    dict
        Per epoch of MINI-GP-UCB: ``chosen_variance`` (sigma~^2 of its arm when chosen), ``lengths`` (B),
        ``unclamped`` (B set by the rule, not by the floor of 1 or the horizon), ``arms``; per step of GP-UCB
        ``sequential_arms``; ``threshold``, ``n_steps``.
    """
    arms, f = epoch_arms()

    def pull(arm, n, rng):
        return f[arm] + EPOCH_NOISE_STD * rng.standard_normal(n)

    kernel = SquaredExponential(EPOCH_LENGTHSCALE)
    found = {}
    for name, sequential in (("mini", False), ("sequential", True)):
        found[name] = mini_gp_opt.mini_meta(kernel, arms, pull, EPOCH_LAMBDA, int(n_steps),
                                            make_rng(LESSON, "epochs", name), threshold=float(threshold),
                                            sequential=sequential, first_arm=0)
    mini = found["mini"]
    return {"chosen_variance": np.array(mini.chosen_variance), "lengths": np.array(mini.lengths, dtype=np.int64),
            "unclamped": np.array(mini.unclamped, dtype=bool), "arms": np.array(mini.arms, dtype=np.int64),
            "sequential_arms": np.array(found["sequential"].arms, dtype=np.int64), "threshold": float(threshold),
            "n_steps": int(n_steps)}


def unique_so_far(arms_per_step):
    """The number of distinct arms among the first t steps, for t = 1, 2, ..."""
    seen, counts = set(), []
    for arm in arms_per_step:
        seen.add(int(arm))
        counts.append(len(seen))
    return np.array(counts)


def draw_epochs(arrays, fig):
    """B against sigma~^2 (left: the rule and MINI-GP-UCB's epochs) and, against the evaluations (right), the
    acquisition maximizations and the distinct arms of both methods."""
    left, right = fig.subplots(1, 2)
    threshold = arrays["threshold"]
    grid = np.geomspace(1e-4, 1e2, 400)
    left.plot(grid, paper_epoch_length(grid, threshold), color="black", lw=1)
    rule = arrays["unclamped"]
    left.plot(arrays["chosen_variance"][rule], arrays["lengths"][rule], "o", color="C0", ms=4)
    left.plot(arrays["chosen_variance"][~rule], arrays["lengths"][~rule], "o", mfc="white", color="C0", ms=4)
    left.set(xscale="log", yscale="log", xlabel="σ̃² = σ² / λ of the chosen arm", ylabel="B, evaluations of the epoch",
             xlim=(1e-4, 1e2), ylim=(0.7, 3e3),
             title=f"C = {threshold:g}: B = ⌊(C² − 1) / σ̃²⌋\n(dots: MINI-GP-UCB's epochs; open: B clamped)")
    left.title.set_fontsize(9)
    steps = np.arange(1, arrays["n_steps"] + 1)
    mini_steps = np.repeat(arrays["arms"], arrays["lengths"])[:arrays["n_steps"]]
    epochs_so_far = np.repeat(np.arange(1, len(arrays["lengths"]) + 1), arrays["lengths"])[:arrays["n_steps"]]
    curves = (("GP-UCB: maximizations", steps, "C3", "-"),
              ("MINI-GP-UCB: epochs", epochs_so_far, "C0", "-"),
              ("GP-UCB: distinct arms", unique_so_far(arrays["sequential_arms"]), "C3", "--"),
              ("MINI-GP-UCB: distinct arms", unique_so_far(mini_steps), "C0", "--"))
    ends = np.array([curve[-1] for _, curve, _, _ in curves], dtype=float)
    # labels at the right end, nudged apart where two curves end close together (log axis: by their ratio)
    order = np.argsort(ends)
    offsets = np.zeros(len(curves))
    for previous, current in zip(order[:-1], order[1:]):
        if ends[current] / ends[previous] < 1.35:
            offsets[current] = offsets[previous] + 9
    for (label, curve, colour, style), offset in zip(curves, offsets):
        right.plot(steps[:len(curve)], curve, color=colour, ls=style)
        _label_end(right, len(curve), curve[-1], f"{label} ({curve[-1]})", colour, dy=offset)
    right.set(xscale="log", yscale="log", xlabel="evaluations t", ylabel="count after t evaluations",
              xlim=(1, arrays["n_steps"] * 12), title="acquisition maximizations and distinct arms")
    right.title.set_fontsize(9)


def epochs_figure(threshold=1.1):
    """Epochs at ``threshold`` C: the function the C slider calls."""
    fig = gpr.new_figure((9.0, 3.8))
    draw_epochs(epoch_arrays(threshold), fig)
    return fig


# --------------------------------------------------------------------------- 3. which idea helps where
def idea_outcomes(effects):
    """Per idea, on the problems where it is active (against its strongest twin): how many problems the idea's
    interval puts lower, higher, or neither, and where the idea never acts (the same observations on every seed;
    :func:`common.experiments.arena_scoring.idea_effects`' outcomes)."""
    import pandas as pd

    shown = effects[effects["strongest twin"]]
    rows = []
    for idea, found in shown.groupby("idea", sort=False):
        counts = found["outcome"].value_counts()
        rows.append({"idea of": idea, "problems": len(found), "lower": int(counts.get("lower", 0)),
                     "higher": int(counts.get("higher", 0)), "undecided": int(counts.get("undecided", 0)),
                     "never acts": int(counts.get("never acts", 0))})
    return pd.DataFrame(rows, columns=["idea of", "problems", "lower", "higher", "undecided", "never acts"])


def disagreements(against):
    """The rows of :func:`idea_against_rank` where the whole method's rank and its idea's effect point different
    ways: a method in the better half of the ranking whose idea raises the regret on more problems than it lowers
    it, or one in the worse half whose idea lowers it on more than it raises it."""
    middle = (against["of methods"] + 1) / 2
    ranked_well = against["whole method's average rank"] < middle
    return against[(ranked_well & (against["higher"] > against["lower"]))
                   | (~ranked_well & (against["lower"] > against["higher"]))]


def idea_against_rank(effects, ranks):
    """Each idea's on/off outcomes (:func:`idea_outcomes`) beside its whole method's average rank among the arena's
    methods, ``ranks`` (a Series by method: each problem's ranking by mean rank, averaged over the problems, as
    ``common.experiments.arena_scoring.problem_ranks(summary).mean(axis=0)`` gives it); best rank first."""
    table = idea_outcomes(effects)
    table.insert(1, "whole method's average rank", table["idea of"].map(ranks).round(2))
    table.insert(2, "of methods", ranks.size)
    return table.sort_values("whole method's average rank").reset_index(drop=True)
