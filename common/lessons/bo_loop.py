r"""Lesson 3, the BO loop in practice: what the lesson computes and draws, as plain functions.

The loop is the library's (:mod:`common.bo`: an initial design, then ask/tell with a method), its GP
:class:`common.gp.GaussianProcess`, its acquisitions and maximizers. This module adds only what a lecture on
practice needs around it:

* initial designs of three kinds, drawn with ``scipy.stats.qmc``, and their space-filling measures;
* a step-through of one EI loop in one dimension, with its hyperparameters refitted by maximum likelihood or held
  fixed, and observations with or without noise (:class:`LessonEI`);
* batch selection by fantasies, the kriging believer and the constant liar of Ginsbourger, Le Riche & Carraro
  (2010) (:func:`select_batch`, :class:`KrigingBeliever`);
* the methods of a small benchmark on Branin, compared seed by seed with the project's paired statistics
  (:mod:`common.stats`).

As in the other lessons, ``*_arrays(...)`` compute what one figure draws (what the experiment module
:mod:`common.experiments.lesson3_bo_loop` caches), ``draw_*(arrays, fig)`` draw it, and ``*_figure(...)`` do both
for a widget's slider (``ipywidgets.interact(loop_figure, **LOOP_SLIDERS)``).
"""
import numpy as np
from scipy.spatial.distance import pdist
from scipy.stats import qmc

from common import stats
from common.acquisitions import ExpectedImprovement
from common.bo import BayesianOptimization, GPAcquisitionMethod, RandomSearch, run_bo
from common.lessons import acquisition as lesson2
from common.lessons import gp_regression as gpr
from common.metrics import fill_distance, simple_regret
from common.optimizers import direct_maximize
from common.seeding import make_rng
from common.teaching import FORRESTER_BOUNDS, TEACHING_X0, forrester, make_kernel
from common.test_functions import get_test_function, on_unit_cube

LESSON = "lesson3_bo_loop"
#: The initial designs of the lesson, with the names the figures use.
DESIGN_NAMES = {"random": "uniform random", "lhs": "Latin hypercube", "sobol": "scrambled Sobol'"}
#: Reference points standing in for the unit square when a fill distance is measured (a Sobol' set).
N_REFERENCE = 4096
#: The lies a batch can tell the GP about its pending points.
LIES = {"believer": "kriging believer (the posterior mean)", "min": "constant liar, min y",
        "max": "constant liar, max y"}
#: DIRECT's budget when the 1-D figures maximize EI.
DIRECT_EVALS_1D = 200
#: The step-through's EI loop: how many restarts the maximum-likelihood fit takes besides the warm start.
MLE_RESTARTS = 3
#: The benchmark's methods, with the names its figures and tables use.
METHODS = {"EI": "EI", "EI-LHS": "EI, LHS design", "EI-fixed": "EI, fixed hyperparameters", "UCB": "UCB",
           "KB-EI": "EI, batches of q (kriging believer)", "random": "random search"}
#: The benchmark's reference method, against which every other one is compared seed by seed.
REFERENCE_METHOD = "EI"
#: Simple regrets below this are drawn at it on the log axes.
REGRET_FLOOR = 1e-6

#: The sliders of each widget: ``(low, high, step)`` or a list of choices, as ``ipywidgets.interact`` reads them.
DESIGN_SLIDERS = {"n_points": (4, 64, 1), "seed": (0, 19, 1)}
LOOP_SLIDERS = {"step": (1, 10, 1), "refit": [True, False], "noise_std": (0.0, 2.0, 0.25)}
BATCH_SLIDERS = {"q": (1, 6, 1), "lie": list(LIES)}


# --------------------------------------------------------------------------- initial designs
def design_points(kind, n_points, dim=2, seed=0):
    """``n_points`` points of the unit cube [0, 1]^dim: uniform random, a Latin hypercube (McKay et al. 1979) or
    the first points of a scrambled Sobol' sequence (Owen 1998), from ``scipy.stats.qmc``.

    A Sobol' set is balanced in blocks of 2^m points: the first ``n_points`` of the enclosing block are taken, as
    :func:`common.optimizers.maximize_with_restarts` does.

    Returns
    -------
    ndarray of shape (n_points, dim)
    """
    if int(n_points) != n_points or n_points < 1:
        raise ValueError(f"n_points must be an integer >= 1; got {n_points!r}")
    rng = make_rng(LESSON, "design", kind, int(n_points), int(dim), int(seed))
    if kind == "random":
        return rng.random((int(n_points), int(dim)))
    if kind == "lhs":
        return qmc.LatinHypercube(int(dim), rng=rng).random(int(n_points))
    if kind == "sobol":
        block = qmc.Sobol(int(dim), rng=rng).random_base2(int(np.ceil(np.log2(n_points))))
        return block[:int(n_points)]
    raise ValueError(f"kind must be one of {list(DESIGN_NAMES)}; got {kind!r}")


def design_quality(points):
    r"""Three measures of how well ``points`` (shape (n, d), in the unit cube) fill it.

    Returns
    -------
    dict
        ``discrepancy``: the centred L2 discrepancy (Hickernell 1998; ``scipy.stats.qmc.discrepancy``), how far the
        share of points in boxes anchored at the centre departs from the boxes' volume (lower is more uniform);
        ``fill_distance``: :math:`\max_x \min_i \|x - x_i\|`, the radius of the largest empty ball, over
        :data:`N_REFERENCE` Sobol' reference points (lower: no large hole, where a GP's sigma would stay at the
        prior's); ``min_distance``: the smallest distance between two points (higher: no wasted near-duplicates).
    """
    points = np.asarray(points, dtype=float)
    reference = qmc.Sobol(points.shape[1], rng=make_rng(LESSON, "reference points")).random_base2(
        int(np.log2(N_REFERENCE)))
    return {"discrepancy": float(qmc.discrepancy(points)),
            "fill_distance": float(fill_distance(points, reference)[-1]),
            "min_distance": float(pdist(points).min()) if len(points) > 1 else float("nan")}


def designs_arrays(n_points=10, seed=0, dim=2):
    """The three designs of ``n_points`` points in the unit square, with their measures (:func:`design_quality`).

    Returns
    -------
    dict
        Per kind ``<kind>`` (n_points, dim) and ``<kind>_<measure>``; ``n_points``, ``seed``.
    """
    arrays = {"n_points": int(n_points), "seed": int(seed)}
    for kind in DESIGN_NAMES:
        points = design_points(kind, n_points, dim, seed)
        arrays[kind] = points
        arrays.update({f"{kind}_{name}": value for name, value in design_quality(points).items()})
    return arrays


def design_study_arrays(kind, n_points, n_seeds, dim=2):
    """The measures of :func:`design_quality` over ``n_seeds`` designs of one kind and size.

    Returns
    -------
    dict
        ``discrepancy``, ``fill_distance``, ``min_distance``: arrays of shape (n_seeds,).
    """
    found = [design_quality(design_points(kind, n_points, dim, seed)) for seed in range(int(n_seeds))]
    return {name: np.array([row[name] for row in found]) for name in found[0]}


# --------------------------------------------------------------------------- the loop, step by step
class LessonEI(GPAcquisitionMethod):
    """EI on lesson 1's GP (Matérn-5/2, constant prior mean), the noise variance known, maximized by DIRECT.

    Parameters
    ----------
    refit : bool
        True: refit the lengthscale and signal variance by maximum likelihood at every step (warm-started, with
        :data:`MLE_RESTARTS` random restarts), as :class:`common.bo.GPAcquisitionMethod` does; False: keep lesson 1's
        lengthscale 0.1 and sigma_f = 5.
    noise_std : float
        The observations' noise standard deviation, told to the GP.
    incumbent : {"observed", "mean"}
        EI's y+: the best observed value (the textbook EI), or the best posterior mean at the observed points
        (the plug-in incumbent of noisy BO, Picheny et al. 2013), which a lucky noisy value cannot inflate.
    """

    def __init__(self, refit=True, noise_std=0.0, incumbent="observed", direct_evals=DIRECT_EVALS_1D):
        if incumbent not in ("observed", "mean"):
            raise ValueError(f"incumbent must be 'observed' or 'mean'; got {incumbent!r}")
        super().__init__(gpr.make_kernel("matern52", lesson2.LENGTHSCALE), FORRESTER_BOUNDS, acquisition="EI",
                         noise_variance=max(noise_std**2, gpr.NOISE_FLOOR), y_transform="center",
                         mle_restarts=MLE_RESTARTS, fit_hyperparameters=bool(refit), optimizer="direct",
                         optimizer_options={"max_evals": int(direct_evals)}, name="EI")
        self.incumbent = incumbent

    def make_acquisition(self, iteration, best):
        """EI with y+ = ``best`` (the best observed value) or the best posterior mean at the data."""
        if self.incumbent == "mean":
            best = float(np.max(self.last_gp.predict(self.last_gp.X)))
        return ExpectedImprovement(best)


def recommend(gp, X, y, rule):
    """The point BO would report after its data ``(X, y)``: the one of the best observed value (``"observed"``), or
    the observed point of the best posterior mean (``"mean"``), which averages the noise of its neighbours."""
    if rule == "observed":
        return X[int(np.argmax(y))]
    if rule == "mean":
        return X[int(np.argmax(gp.predict(X)))]
    raise ValueError(f"rule must be 'observed' or 'mean'; got {rule!r}")


def steps_arrays(n_steps=8, refit=True, noise_std=0.0, n_grid=201):
    """``n_steps`` steps of the EI loop on the Forrester function from bo_basics's four first points (none near
    x*), with what the method saw at each step.

    With noise, every evaluation adds Gaussian noise of std ``noise_std`` (fixed draws, the GP told) and EI's
    incumbent is the best posterior mean (:class:`LessonEI`).

    Returns
    -------
    dict
        Per step (rows): ``mean``, ``std``, ``ei`` (n_steps, n_grid), ``next`` (n_steps,), the hyperparameters
        the GP used, ``lengthscale`` and ``signal_std`` (n_steps,), and ``recommended`` (n_steps,), the observed
        point of the best posterior mean then; the loop's data ``X``, ``y`` (observed), ``f`` (noise-free) and
        ``iteration``; ``x``, ``fx`` (the grid and f on it); the settings.
    """
    x = gpr.grid(n_grid)
    method = LessonEI(refit, noise_std, incumbent="mean" if noise_std > 0 else "observed")
    loop = BayesianOptimization(FORRESTER_BOUNDS, method, make_rng(LESSON, "steps", bool(refit), float(noise_std)))
    noise = make_rng(LESSON, "steps noise").standard_normal(len(TEACHING_X0) + int(n_steps))

    def observe(X):
        start = len(loop.y)
        return forrester(X) + noise_std * noise[start:start + len(X)]

    loop.tell(TEACHING_X0, observe(TEACHING_X0))
    rows = {name: [] for name in ("mean", "std", "ei", "next", "lengthscale", "signal_std", "recommended")}
    for _ in range(int(n_steps)):
        X_seen, y_seen = loop.X.copy(), loop.y.copy()
        x_next = loop.ask()
        gp = method.last_gp
        mean, std = gp.predict(x[:, None], return_std=True)
        rows["mean"].append(mean)
        rows["std"].append(std)
        rows["ei"].append(method.make_acquisition(loop.iteration, float(np.max(y_seen)))(gp, x[:, None]))
        rows["next"].append(float(x_next[0, 0]))
        rows["lengthscale"].append(float(gp.kernel.lengthscale[0]))
        rows["signal_std"].append(float(np.sqrt(gp.kernel.variance)))
        rows["recommended"].append(float(recommend(gp, X_seen, y_seen, "mean")[0]))
        loop.tell(x_next, observe(x_next))
    return {**{name: np.array(values) for name, values in rows.items()}, "X": loop.X[:, 0], "y": loop.y,
            "f": forrester(loop.X), "iteration": loop.iterations, "x": x, "fx": forrester(x[:, None]),
            "n_steps": int(n_steps), "refit": bool(refit), "noise_std": float(noise_std)}


def noisy_loop_arrays(noise_std, seed, n_init=4, n_iterations=15):
    """One EI loop on the Forrester function with noisy observations (std ``noise_std``, known to the GP,
    hyperparameters refitted, EI's incumbent the best posterior mean), and the regret of what it would report at
    the end under each rule of :func:`recommend`.

    Returns
    -------
    dict
        ``X``, ``y`` (observed), ``f`` (noise-free) per evaluation; ``regret_observed`` and ``regret_mean``, f* minus
        f at the point each rule reports after the last evaluation.
    """
    method = LessonEI(True, noise_std, incumbent="mean")
    record = run_bo(forrester, FORRESTER_BOUNDS, method, int(n_init), int(n_iterations),
                    init_rng=make_rng(LESSON, "noisy design", int(seed)),
                    method_rng=make_rng(LESSON, "noisy method", float(noise_std), int(seed)), noise_std=noise_std,
                    noise_rng=make_rng(LESSON, "noise", float(noise_std), int(seed)))
    final = method.fit_model(record["X"], record["y"], make_rng(LESSON, "final fit", float(noise_std), int(seed)))
    regrets = {f"regret_{rule}": float(lesson2.F_STAR - forrester(recommend(final, record["X"], record["y"],
                                                                            rule)[None, :])[0])
               for rule in ("observed", "mean")}
    return {"X": record["X"][:, 0], "y": record["y"], "f": record["f"], **regrets}


# --------------------------------------------------------------------------- batches
def lie_value(gp, x, y, lie):
    """The value a batch tells the GP at a pending point ``x``: the posterior mean there (kriging believer), or the
    smallest or largest observed value (constant liar)."""
    if lie == "believer":
        return float(gp.predict(np.asarray(x, dtype=float).reshape(1, -1))[0])
    if lie == "min":
        return float(np.min(y))
    if lie == "max":
        return float(np.max(y))
    raise ValueError(f"lie must be one of {list(LIES)}; got {lie!r}")


def select_batch(gp, y, q, lie, maximize, on_step=None):
    r"""Choose ``q`` points by fantasies (Ginsbourger, Le Riche & Carraro 2010): maximize EI, tell the GP a lie
    at the maximizer (:func:`lie_value`) as if it were observed, and repeat. The hyperparameters stay as they are
    (:meth:`GaussianProcess.add_observation`, exact, O(n^2)); the lie pins the posterior there (noise-free,
    :math:`\sigma \to 0`), so EI vanishes at a pending point and the next maximizer lies elsewhere.

    Parameters
    ----------
    gp : GaussianProcess
        Fitted to the data; it is modified (it ends with the q lies added).
    y : ndarray
        The observed values (the incumbent y+ and the constant liar's values).
    q : int >= 1
    lie : {"believer", "min", "max"}
    maximize : callable
        ``maximize(acquisition, gp) -> x`` of shape (d,).
    on_step : callable, optional
        ``on_step(gp, acquisition, x, told)`` before each lie ``told`` is told at ``x`` (what a figure records).

    Returns
    -------
    ndarray of shape (q, d)
    """
    if int(q) != q or q < 1:
        raise ValueError(f"q must be an integer >= 1; got {q!r}")
    if lie not in LIES:
        raise ValueError(f"lie must be one of {list(LIES)}; got {lie!r}")
    best, batch = float(np.max(y)), []
    for _ in range(int(q)):
        acquisition = ExpectedImprovement(best)
        x = np.asarray(maximize(acquisition, gp), dtype=float)
        told = lie_value(gp, x, y, lie)
        if on_step is not None:
            on_step(gp, acquisition, x, told)
        gp.add_observation(x, told)
        best = max(best, told)  # the lie counts as data: a lie above y+ is the next choice's incumbent
        batch.append(x)
    return np.array(batch)


class KrigingBeliever(GPAcquisitionMethod):
    """Batch EI: q points a round by fantasies (:func:`select_batch`), after one hyperparameter fit a round.

    Parameters
    ----------
    kernel, bounds, **options
        As :class:`common.bo.GPAcquisitionMethod` (its acquisition is EI).
    q : int
        Points a round.
    lie : {"believer", "min", "max"}
    """

    def __init__(self, kernel, bounds, q=4, lie="believer", **options):
        super().__init__(kernel, bounds, acquisition="EI", **options)
        if int(q) != q or q < 1:
            raise ValueError(f"q must be an integer >= 1; got {q!r}")
        if lie not in LIES:
            raise ValueError(f"lie must be one of {list(LIES)}; got {lie!r}")
        self.q, self.lie = int(q), lie

    def propose(self, X, y, iteration, rng):
        """``q`` points, shape (q, d)."""
        gp = self.fit_model(X, y, rng)
        self.last_gp = gp
        return select_batch(gp, y, self.q, self.lie, lambda acquisition, model: self.maximize(acquisition, model, rng))


def batch_arrays(q=4, lie="believer", n_points=lesson2.N_POINTS, n_grid=201):
    """A batch of ``q`` points chosen by fantasies on lesson 2's posterior (lesson 1's GP after the first
    ``n_points`` design points), with the posterior and EI before each choice.

    Returns
    -------
    dict
        ``mean``, ``std``, ``ei`` (q, n_grid): what the k-th choice saw; ``batch`` (q,) the chosen points and
        ``told`` (q,) the lies told there; ``X``, ``y`` the data; ``x``, ``f``; ``q``, ``lie``.
    """
    X, y, gp = lesson2.fit_state(n_points)
    x = gpr.grid(n_grid)
    rows = {"mean": [], "std": [], "ei": [], "told": []}

    def record(model, acquisition, point, told):
        mean, std = model.predict(x[:, None], return_std=True)
        rows["mean"].append(mean)
        rows["std"].append(std)
        rows["ei"].append(acquisition(model, x[:, None]))
        rows["told"].append(told)

    def maximize(acquisition, model):
        return direct_maximize(lambda Z: acquisition(model, Z), FORRESTER_BOUNDS, DIRECT_EVALS_1D).x

    batch = select_batch(gp, y, q, lie, maximize, on_step=record)
    return {**{name: np.array(values) for name, values in rows.items()}, "batch": batch[:, 0], "X": X[:, 0],
            "y": y, "x": x, "f": forrester(x[:, None]), "q": int(q), "lie": lie}


# --------------------------------------------------------------------------- the benchmark on Branin
def benchmark_method(name, q=4, direct_evals=300):
    """A method of the benchmark on Branin ([0, 1]^2), all on bo_basics's model (Matérn-5/2 ARD on standardized
    values, hyperparameters refitted by maximum likelihood each round, DIRECT) unless the name says otherwise.

    "EI" and "EI-LHS" are the same method (the LHS lies in the design); "EI-fixed" keeps the kernel's starting
    hyperparameters (lengthscale 0.2, variance 1); "UCB" uses beta_t = 0.2 d log(2t) (Kandasamy et al. 2015);
    "KB-EI" chooses ``q`` points a round by the kriging believer; "random" is random search.
    """
    bounds = on_unit_cube(get_test_function("branin")).bounds
    if name == "random":
        return RandomSearch(bounds, name=name)
    if name not in METHODS:
        raise ValueError(f"method must be one of {list(METHODS)}; got {name!r}")
    options = dict(noise_variance=1e-6, y_transform="standardize", mle_restarts=1, optimizer="direct",
                   optimizer_options={"max_evals": int(direct_evals)}, name=name)
    kernel = make_kernel(2)
    if name == "KB-EI":
        return KrigingBeliever(kernel, bounds, q=q, lie="believer", **options)
    if name == "UCB":
        return GPAcquisitionMethod(kernel, bounds, acquisition="UCB", beta="kandasamy", **options)
    return GPAcquisitionMethod(kernel, bounds, acquisition="EI", fit_hyperparameters=name != "EI-fixed", **options)


def benchmark_arrays(method, seed, n_init=5, n_evaluations=40, q=4, direct_evals=300, rounds=None):
    """One run of the benchmark on Branin: ``n_init`` initial points (uniform, or a Latin hypercube for "EI-LHS"),
    then ``method`` until ``n_evaluations`` evaluations (or ``rounds`` BO rounds, a prefix of the run).

    Every method of one seed shares the uniform initial design (common random numbers); "EI-LHS" draws its Latin
    hypercube from the same generator.

    Returns
    -------
    dict
        Per evaluation: ``X`` (n, 2), ``f``, ``regret`` (simple regret f* - best so far) and ``round`` (0 for the
        initial design, then the BO round that proposed it).
    """
    objective = on_unit_cube(get_test_function("branin"))
    batch = q if method == "KB-EI" else 1
    n_rounds = -(-(int(n_evaluations) - int(n_init)) // batch)
    record = run_bo(objective, objective.bounds, benchmark_method(method, q, direct_evals), int(n_init),
                    n_rounds if rounds is None else min(int(rounds), n_rounds),
                    init_rng=make_rng(LESSON, "benchmark design", int(seed)),
                    method_rng=make_rng(LESSON, "benchmark", method, int(seed)),
                    design="lhs" if method == "EI-LHS" else "uniform", max_evaluations=int(n_evaluations))
    return {"X": record["X"], "f": record["f"], "regret": simple_regret(record["f"], objective.optimal_value),
            "round": record["iteration"]}


def compare(a, b):
    """Method a against method b on per-seed final regrets (lower is better), seed by seed: the project's paired
    comparison (:func:`common.stats.paired_comparison`, ratio scale: ``mean(a) / mean(b)`` with a bootstrap
    interval, the median per-seed ratio with a sign-test interval, wins / ties / losses)."""
    return stats.paired_comparison(np.asarray(a, dtype=float), np.asarray(b, dtype=float), higher_is_better=False,
                                   scale="ratio")


# --------------------------------------------------------------------------- drawing
def new_figure(figsize=(6.0, 3.8)):
    """An empty figure with constrained layout, outside pyplot (a widget shows the figure it returns, once)."""
    return gpr.new_figure(figsize)


def _legend_below(fig, axes, ncols=3):
    """One legend under the panels for every labelled artist of ``axes``, each label once."""
    entries = {}
    for ax in np.atleast_1d(axes).ravel():
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    fig.legend(list(entries.values()), list(entries), loc="outside lower center", ncols=ncols)


def draw_designs(arrays, fig):
    """The three designs of :func:`designs_arrays` side by side, each titled with its measures."""
    axes = fig.subplots(1, len(DESIGN_NAMES), sharey=True)
    for ax, (kind, name) in zip(axes, DESIGN_NAMES.items()):
        points = arrays[kind]
        ax.plot(points[:, 0], points[:, 1], "o", color="C0", ms=4)
        n = len(points)
        for edge in np.linspace(0, 1, n + 1)[1:-1] if kind == "lhs" and n <= 16 else []:
            ax.axvline(edge, color="0.85", lw=0.6)
            ax.axhline(edge, color="0.85", lw=0.6)
        ax.set(xlim=(0, 1), ylim=(0, 1), aspect="equal", xlabel="$x_1$",
               title=f"{name}\ndiscrepancy {arrays[f'{kind}_discrepancy']:.4f}\nfill distance "
                     f"{arrays[f'{kind}_fill_distance']:.3f}")
        ax.grid(False)
        ax.tick_params(labelsize=8)
    axes[0].set_ylabel("$x_2$")
    fig.suptitle(f"{arrays['n_points']} points in the unit square (seed {arrays['seed']})"
                 + ("; grey: the Latin hypercube's strata" if arrays["n_points"] <= 16 else ""), fontsize=10)


def draw_design_study(sizes, study, fig):
    """The fill distance and the discrepancy of each kind of design against the number of points: the median over
    seeds and the interquartile range (``study[kind][measure]`` of shape (len(sizes), n_seeds))."""
    axes = fig.subplots(1, 2)
    for ax, (measure, label) in zip(axes, (("fill_distance", "radius of the largest empty ball"),
                                            ("discrepancy", "centred L2 discrepancy"))):
        for number, (kind, name) in enumerate(DESIGN_NAMES.items()):
            values = np.asarray(study[kind][measure], dtype=float)
            low, median, high = np.percentile(values, [25, 50, 75], axis=1)
            ax.fill_between(sizes, low, high, color=f"C{number}", alpha=0.2, lw=0)
            ax.plot(sizes, median, "o-", color=f"C{number}", ms=4, label=name)
        ax.set(xscale="log", yscale="log", xlabel="number of points n", ylabel=label,
               title="fill distance" if measure == "fill_distance" else "discrepancy")
        ax.set_xticks(sizes, [str(size) for size in sizes])
        ax.minorticks_off()
    ticks = [0.05, 0.1, 0.2, 0.4, 0.8]
    axes[0].set_yticks(ticks, [f"{tick:g}" for tick in ticks])
    _legend_below(fig, axes[0], ncols=3)


def draw_step(arrays, fig, step=None):
    """Step ``step`` (1-based; default the last) of :func:`steps_arrays`: the posterior the method saw, the data
    it had (top) and its EI with the query it chose (bottom)."""
    step = arrays["n_steps"] if step is None else int(step)
    if not 1 <= step <= arrays["n_steps"]:
        raise ValueError(f"step must be in 1..{arrays['n_steps']}; got {step!r}")
    row = step - 1
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[2, 1])
    seen = len(arrays["X"]) - arrays["n_steps"] + row  # the evaluations the method had at this step
    panel = {"x": arrays["x"], "f": arrays["fx"], "mean": arrays["mean"][row], "std": arrays["std"][row],
             "X": arrays["X"][:seen], "y": arrays["y"][:seen]}
    hyper = "refitted" if arrays["refit"] else "fixed"
    noise = f"noise σ_n = {arrays['noise_std']:g}" if arrays["noise_std"] else "noise-free"
    gpr.draw_posterior_panel(top, panel, title=f"step {step}: ℓ = {arrays['lengthscale'][row]:.3f}, σ_f = "
                                               f"{arrays['signal_std'][row]:.2f} ({hyper}), {noise}")
    top.axvline(arrays["next"][row], color="C3", lw=1, ls=":")
    top.set_xlabel("")
    ei = arrays["ei"][row]
    bottom.plot(arrays["x"], ei, color="C1", lw=2, label="EI")
    bottom.plot([arrays["next"][row]], [ei.max()], "v", color="C3", ms=8, label=f"query x_{step}")
    bottom.axvline(arrays["next"][row], color="C3", lw=1, ls=":")
    bottom.set(xlabel="x", ylabel="EI", xlim=(0, 1), ylim=(0, 1.15 * max(ei.max(), 1e-12)))
    _legend_below(fig, [top, bottom], ncols=3)


def draw_hyperparameters(runs, fig):
    """The lengthscale the loop's GP used at each step (:func:`steps_arrays`), one line per run.

    Parameters
    ----------
    runs : dict
        Label -> a :func:`steps_arrays` dict, in the order to draw.
    """
    ax = fig.subplots()
    for number, (label, run) in enumerate(runs.items()):
        steps = np.arange(1, run["n_steps"] + 1)
        ax.plot(steps, run["lengthscale"], "o-", color=f"C{number}", ms=4, label=label)
    for bound in gpr.LENGTHSCALE_BOUNDS:
        ax.axhline(bound, color="0.5", lw=1, ls=":", label="the bounds of the fit" if bound == gpr.LENGTHSCALE_BOUNDS[0]
                   else None)
    ax.set(yscale="log", xlabel="step t", ylabel="lengthscale ℓ the GP used",
           ylim=(gpr.LENGTHSCALE_BOUNDS[0] / 2, gpr.LENGTHSCALE_BOUNDS[1] * 2),
           title="Hyperparameters refitted at every step, or held fixed")
    ax.set_xticks(steps)
    _legend_below(fig, ax, ncols=2)


def draw_batch(arrays, fig, step=None):
    """Choice ``step`` (1-based; default the last) of a batch (:func:`batch_arrays`): the posterior with the lies
    told so far (top) and the EI that chose the next point (bottom)."""
    step = arrays["q"] if step is None else int(step)
    if not 1 <= step <= arrays["q"]:
        raise ValueError(f"step must be in 1..{arrays['q']}; got {step!r}")
    row = step - 1
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[2, 1])
    panel = {"x": arrays["x"], "f": arrays["f"], "mean": arrays["mean"][row], "std": arrays["std"][row],
             "X": arrays["X"], "y": arrays["y"]}
    gpr.draw_posterior_panel(top, panel, title=f"{LIES[arrays['lie']]}: choice {step} of q = {arrays['q']}")
    if row:
        top.plot(arrays["batch"][:row], arrays["told"][:row], "o", mfc="white", mec="C3", ms=7,
                 label="pending points, with the lie told")
    top.axvline(arrays["batch"][row], color="C3", lw=1, ls=":")
    top.set_xlabel("")
    ei = arrays["ei"][row]
    bottom.plot(arrays["x"], ei, color="C1", lw=2, label="EI given the lies")
    bottom.plot([arrays["batch"][row]], [ei.max()], "v", color="C3", ms=8, label="the next point of the batch")
    for number, point in enumerate(arrays["batch"][:step]):
        bottom.annotate(str(number + 1), (point, 0), xytext=(0, 3), textcoords="offset points", ha="center",
                        fontsize=8, color="C3")
    bottom.set(xlabel="x", ylabel="EI", xlim=(0, 1), ylim=(0, 1.15 * arrays["ei"][0].max()))
    _legend_below(fig, [top, bottom], ncols=2)


def draw_regret(panels, fig, ncols=2):
    """Simple-regret curves: per panel, per method, the median over seeds and the interquartile range, on a log
    axis (regrets below :data:`REGRET_FLOOR` drawn at it); a method keeps its colour in every panel.

    Parameters
    ----------
    panels : dict
        Panel title -> (x label, {method label -> (x, regrets of shape (n_seeds, len(x)))}), at most three methods
        a panel.
    ncols : int
        Panels a row.
    """
    n_rows = -(-len(panels) // ncols)
    axes = np.atleast_1d(fig.subplots(n_rows, ncols, sharey=True, squeeze=False)).ravel()
    colours = {}
    for ax, (title, (xlabel, curves)) in zip(axes, panels.items()):
        if len(curves) > 3:
            raise ValueError(f"panel {title!r} has {len(curves)} methods; at most 3 bands stay readable")
        for label, (x, regrets) in curves.items():
            colour = colours.setdefault(label, f"C{len(colours)}")
            regrets = np.maximum(np.asarray(regrets, dtype=float), REGRET_FLOOR)
            low, median, high = np.percentile(regrets, [25, 50, 75], axis=0)
            ax.fill_between(x, low, high, color=colour, alpha=0.2, lw=0)
            ax.plot(x, median, color=colour, label=label)
        ax.set(yscale="log", xlabel=xlabel, title=title)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    for ax in axes[::ncols]:
        ax.set_ylabel("simple regret f* − best")
    _legend_below(fig, axes[:len(panels)], ncols=3)


def draw_paired(arrays, fig):
    """Final regrets of two methods seed by seed (a dot per seed; below the diagonal, method a did better), with
    the paired comparison in the title.

    Parameters
    ----------
    arrays : dict
        ``a``, ``b`` (n_seeds,) final regrets; ``a_label``, ``b_label``; ``comparison``, a
        :class:`common.stats.PairedComparison` of a against b.
    """
    ax = fig.subplots()
    a = np.maximum(arrays["a"], REGRET_FLOOR)
    b = np.maximum(arrays["b"], REGRET_FLOOR)
    low, high = min(a.min(), b.min()) / 3, max(a.max(), b.max()) * 3
    ax.plot([low, high], [low, high], color="0.5", lw=1, ls="--", label="equal regret")
    ax.plot(b, a, "o", color="C0", ms=5, alpha=0.8, label="one seed (the same initial design)")
    comparison = arrays["comparison"]
    ax.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high), aspect="equal",
           xlabel=f"final regret of {arrays['b_label']}", ylabel=f"final regret of {arrays['a_label']}",
           title=f"{arrays['a_label']} vs {arrays['b_label']}: {comparison.wins}W/{comparison.ties}T/"
                 f"{comparison.losses}L\nratio of means {comparison.effect}, median ratio {comparison.typical}")
    ax.title.set_fontsize(9)
    _legend_below(fig, ax, ncols=2)


# --------------------------------------------------------------------------- the widgets' functions
def designs_figure(n_points=10, seed=0):
    """Three designs of ``n_points`` points: the function the number-of-points and seed sliders call."""
    fig = new_figure((8.0, 3.6))
    draw_designs(designs_arrays(n_points, seed), fig)
    return fig


def loop_figure(step=1, refit=True, noise_std=0.0):
    """Step ``step`` of the EI loop: the function the step, refit and noise sliders call (it runs the loop up to
    that step)."""
    fig = new_figure((6.4, 5.0))
    draw_step(steps_arrays(step, refit, noise_std), fig)
    return fig


def batch_figure(q=4, lie="believer"):
    """The last choice of a batch of ``q`` points told ``lie``: the function the q and lie sliders call."""
    fig = new_figure((6.4, 5.0))
    draw_batch(batch_arrays(q, lie), fig)
    return fig
