r"""Lesson 1, Gaussian-process regression: what the lesson computes and draws, as plain functions.

Everything runs on the library's own GP (:class:`common.gp.GaussianProcess`, :mod:`common.kernels`): there is no
second implementation here, only the small computations a lecture shows and the figures that show them. Equation
numbers are those of Rasmussen & Williams, *Gaussian Processes for Machine Learning* (2006), "RW" below.

The lesson works in one dimension, on the Forrester function (:func:`common.teaching.forrester`,
negated so that it is maximized: f* = 6.02 at x* = 0.757), seen through a GP with a constant prior mean (the data's
mean) and a signal standard deviation sigma_f = 5, about the spread of f over [0, 1] (its std there is 4.5).

Three kinds of function:

* ``*_arrays(...)`` compute what one figure draws and return it as a dict of arrays (also what the lesson's
  experiment module caches, :mod:`common.experiments.lesson1_gp_regression`);
* ``draw_*(arrays, fig)`` draw such a dict into an empty figure;
* ``*_figure(...)`` compute and draw in one call, returning the figure: what a widget's slider calls
  (``common.lessons.live(posterior_figure, POSTERIOR_SLIDERS)``); ``*_SLIDERS`` are their sliders' ranges.
"""
import numpy as np
from matplotlib.figure import Figure

from common import plotting
from common.gp import GaussianProcess, jittered_cholesky
from common.kernels import Matern, SquaredExponential
from common.seeding import make_rng
from common.teaching import forrester

LESSON = "lesson1_gp_regression"
#: The prior's signal standard deviation sigma_f (units of f) where it is not fitted.
SIGNAL_STD = 5.0
#: Noise variance of a "noise-free" GP: it keeps K + sigma_n^2 I factorizable and is far below anything drawn.
NOISE_FLOOR = 1e-6
#: The kernels of the lesson, by id, with the names the figures use.
KERNEL_NAMES = {"matern52": "Matérn-5/2", "se": "squared exponential"}
#: Where maximum likelihood may look (natural units): lengthscales and signal variances.
LENGTHSCALE_BOUNDS = (1e-2, 1e1)
VARIANCE_BOUNDS = (1e-1, 1e4)
#: The points a lecture observes, in order: x_i = (0.1 + i (sqrt 5 - 1) / 2) mod 1, a golden-ratio sequence whose
#: first n points spread over [0, 1] for every n (n = 6: 0.10, 0.72, 0.34, 0.95, 0.57, 0.19).
DESIGN = (0.1 + np.arange(16) * (np.sqrt(5.0) - 1.0) / 2.0) % 1.0
#: Half-width of a pointwise 95 % band, in posterior standard deviations.
BAND_Z = 1.96
#: Fixed y ranges, so that moving a slider moves the curves, not the axes.
F_LIMITS = (-24.0, 18.0)
PRIOR_LIMITS = (-18.0, 18.0)

#: The sliders of each widget: ``(low, high, step)`` or a list of choices, as ``ipywidgets.interact`` reads them.
PRIOR_SLIDERS = {"lengthscale": (0.02, 1.0, 0.02)}
POSTERIOR_SLIDERS = {"lengthscale": (0.02, 1.0, 0.02), "noise_std": (0.0, 4.0, 0.25), "n_points": (2, 16, 1),
                     "kernel": [(name, kernel) for kernel, name in KERNEL_NAMES.items()]}
OVERCONFIDENCE_SLIDERS = {"n_points": (3, 16, 1), "seed": (0, 19, 1)}


# --------------------------------------------------------------------------- computing
def make_kernel(kernel, lengthscale, variance=SIGNAL_STD**2):
    r"""The lesson's kernel ``kernel`` ("matern52" or "se") at the given hyperparameters, with the bounds that
    maximum likelihood may search.

    Matérn-5/2 (RW eq. 4.17) and squared exponential (RW eq. 4.9), with r = |x - x'|:

    .. math:: k_{5/2}(r) = \sigma_f^2 \left(1 + \frac{\sqrt5 r}{\ell} + \frac{5 r^2}{3 \ell^2}\right)
              e^{-\sqrt5 r / \ell}, \qquad k_{SE}(r) = \sigma_f^2 e^{-r^2 / (2 \ell^2)}.
    """
    options = dict(lengthscale=lengthscale, variance=variance, lengthscale_bounds=LENGTHSCALE_BOUNDS,
                   variance_bounds=VARIANCE_BOUNDS)
    if kernel == "matern52":
        return Matern(2.5, **options)
    if kernel == "se":
        return SquaredExponential(**options)
    raise ValueError(f"kernel must be one of {list(KERNEL_NAMES)}; got {kernel!r}")


def grid(n_grid):
    """``n_grid`` equally spaced points of [0, 1], shape (n_grid,)."""
    return np.linspace(0.0, 1.0, int(n_grid))


def design(n_points):
    """The first ``n_points`` points of :data:`DESIGN`, shape (n_points, 1)."""
    if not 1 <= n_points <= len(DESIGN):
        raise ValueError(f"n_points must be in 1..{len(DESIGN)}; got {n_points!r}")
    return DESIGN[:n_points, None]


def observe(X, noise_std):
    """f at the design points ``X`` (the first rows of :data:`DESIGN`) plus Gaussian noise of std ``noise_std``.

    The noise draws are fixed (one standard normal per design point, scaled by ``noise_std``), so that a slider
    over ``noise_std`` or ``n_points`` changes only what it names.
    """
    standard = make_rng(LESSON, "observation noise").standard_normal(len(DESIGN))
    return forrester(X) + noise_std * standard[:len(X)]


def fit_gp(X, y, kernel, noise_std=0.0):
    r"""The GP posterior given ``(X, y)`` at fixed hyperparameters: constant prior mean (the mean of ``y``), noise
    variance ``noise_std**2`` (at least :data:`NOISE_FLOOR`); its ``predict`` gives RW eqs. 2.25-2.26,

    .. math:: \mu(x) = m + k_*^\top (K + \sigma_n^2 I)^{-1} (y - m), \qquad
              \sigma^2(x) = k(x, x) - k_*^\top (K + \sigma_n^2 I)^{-1} k_*.
    """
    return GaussianProcess(kernel, noise_variance=max(noise_std**2, NOISE_FLOOR), y_transform="center").fit(X, y)


def fit_hyperparameters(X, y, kernel="matern52", noise_std=0.0, *, seed_key=(), n_restarts=5):
    """The GP with sigma_f^2 and the lengthscale that maximize the log marginal likelihood (RW eq. 5.8, "ML-II"),
    by L-BFGS-B from the kernel's starting point and ``n_restarts`` random ones (:meth:`GaussianProcess.fit_hyperparameters`);
    the random starts are drawn from a generator keyed by ``seed_key``."""
    gp = fit_gp(X, y, make_kernel(kernel, 0.2), noise_std)
    return gp.fit_hyperparameters(make_rng(LESSON, "hyperparameters", *seed_key), n_restarts=n_restarts)


def prior_samples(kernel, x, standard_normals):
    """Joint samples of f ~ GP(0, k) at the points ``x`` (shape (m,)): L z with L L^T = K(x, x) (RW App. A.2),
    one per row of ``standard_normals`` (shape (n_samples, m))."""
    factor, _ = jittered_cholesky(kernel(x[:, None]))
    return standard_normals @ factor.T


def likelihood_terms(gp, y):
    r"""The three terms of the log marginal likelihood of a fitted GP (RW eq. 5.8), in the units of its y:

    .. math:: \log p(y \mid X, \theta) = \underbrace{-\tfrac12 (y - m)^\top K_y^{-1} (y - m)}_{\text{data fit}}
              \underbrace{- \tfrac12 \log |K_y|}_{\text{complexity penalty}} - \tfrac n2 \log 2\pi,
              \qquad K_y = K + \sigma_n^2 I.

    Parameters
    ----------
    gp : GaussianProcess
        Fitted to ``y``.
    y : ndarray of shape (n,)

    Returns
    -------
    dict
        ``data_fit``, ``complexity`` and ``constant``; their sum is ``gp.log_marginal_likelihood()``.
    """
    centred = (np.asarray(y, dtype=float) - gp.y_mean) / gp.y_scale
    return {"data_fit": float(-0.5 * centred @ gp.alpha), "complexity": float(-np.log(np.diag(gp.L)).sum()),
            "constant": float(-0.5 * len(centred) * np.log(2.0 * np.pi))}


def fraction_outside(f, mean, std, z=BAND_Z):
    """The share of the points where the true f leaves the pointwise band mean +- z std (z = 1.96: 95 %)."""
    return float(np.mean(np.abs(np.asarray(f) - np.asarray(mean)) > z * np.asarray(std)))


# --------------------------------------------------------------------------- what each figure draws
def kernel_profiles(lengthscales=(0.1, 0.3), n_points=201):
    """k(r) of both kernels against the distance r in [0, 0.6], at each of ``lengthscales`` (sigma_f = 1: the
    correlation of f(x) and f(x + r)). Computed from each kernel's profile g(r^2 / l^2), elementwise.

    Returns
    -------
    dict
        ``r`` (n_points,) and ``"<kernel> <lengthscale>"`` -> correlations (n_points,).
    """
    r = np.linspace(0.0, 0.6, int(n_points))
    profiles = {"r": r}
    for kernel in KERNEL_NAMES:
        for lengthscale in lengthscales:
            profiles[f"{kernel} {lengthscale:g}"] = make_kernel(kernel, lengthscale).profile((r / lengthscale) ** 2)
    return profiles


def prior_arrays(lengthscale, n_samples=3, n_grid=201):
    """Samples of the Matérn-5/2 and squared-exponential priors at ``lengthscale`` (sigma_f = :data:`SIGNAL_STD`).

    Both kernels, and every lengthscale, use the same standard normal draws z: a slider over the lengthscale then
    shows the same samples stretched, not new ones.

    Returns
    -------
    dict
        ``x`` (n_grid,), ``matern52`` and ``se`` (n_samples, n_grid), ``lengthscale``.
    """
    x = grid(n_grid)
    standard = make_rng(LESSON, "prior samples", int(n_grid)).standard_normal((int(n_samples), len(x)))
    arrays = {"x": x, "lengthscale": float(lengthscale)}
    for kernel in KERNEL_NAMES:
        arrays[kernel] = prior_samples(make_kernel(kernel, lengthscale), x, standard)
    return arrays


def posterior_arrays(lengthscale=0.1, noise_std=0.0, n_points=6, kernel="matern52", n_grid=201):
    """The posterior after the first ``n_points`` design points observed with noise std ``noise_std``, at fixed
    hyperparameters (``lengthscale``, sigma_f = :data:`SIGNAL_STD`), noise variance known to the GP.

    Returns
    -------
    dict
        ``x``, ``f``, ``mean``, ``std`` (n_grid,); the data ``X`` (n_points,) and ``y``, and the posterior there,
        ``mean_at_data`` and ``std_at_data``; the settings.
    """
    X = design(int(n_points))
    y = observe(X, noise_std)
    x = grid(n_grid)
    gp = fit_gp(X, y, make_kernel(kernel, lengthscale), noise_std)
    mean, std = gp.predict(x[:, None], return_std=True)
    mean_at_data, std_at_data = gp.predict(X, return_std=True)
    return {"x": x, "f": forrester(x[:, None]), "mean": mean, "std": std, "X": X[:, 0], "y": y,
            "mean_at_data": mean_at_data, "std_at_data": std_at_data, "lengthscale": float(lengthscale),
            "noise_std": float(noise_std), "n_points": int(n_points), "kernel": kernel}


def landscape_arrays(n_points=6, size=41, n_grid=201, kernel="matern52"):
    """The log marginal likelihood (RW eq. 5.8) of the first ``n_points`` noise-free design points over a grid of
    lengthscales and signal variances, the maximum found by L-BFGS-B (:func:`fit_hyperparameters`), the likelihood's
    terms along the lengthscale at the fitted variance, and the fitted posterior.

    Returns
    -------
    dict
        ``lengthscales`` and ``variances`` (size,), log-spaced within the fit's bounds; ``log_likelihood``
        (size, size), rows by variance; ``data_fit``, ``complexity`` and ``total`` along the lengthscales (size,);
        ``best_lengthscale``, ``best_variance``, ``best_log_likelihood``; ``x``, ``f``, ``mean``, ``std`` of the
        fitted posterior; the data ``X``, ``y``.
    """
    X = design(int(n_points))
    y = forrester(X)
    lengthscales = np.geomspace(0.02, 2.0, int(size))
    variances = np.geomspace(1.0, 1000.0, int(size))
    gp = fit_gp(X, y, make_kernel(kernel, 0.2))
    log_likelihood = np.array([[gp.log_marginal_likelihood(np.log([variance, lengthscale]))
                                for lengthscale in lengthscales] for variance in variances])
    fitted = fit_hyperparameters(X, y, kernel, seed_key=("landscape", int(n_points)))
    best_variance, best_lengthscale = float(fitted.kernel.variance), float(fitted.kernel.lengthscale[0])
    terms = [likelihood_terms(fit_gp(X, y, make_kernel(kernel, lengthscale, best_variance)), y)
             for lengthscale in lengthscales]
    x = grid(n_grid)
    mean, std = fitted.predict(x[:, None], return_std=True)
    return {"lengthscales": lengthscales, "variances": variances, "log_likelihood": log_likelihood,
            "data_fit": np.array([term["data_fit"] for term in terms]),
            "complexity": np.array([term["complexity"] for term in terms]),
            "total": np.array([sum(term.values()) for term in terms]),
            "best_lengthscale": best_lengthscale, "best_variance": best_variance,
            "best_log_likelihood": float(fitted.log_marginal_likelihood()),
            "x": x, "f": forrester(x[:, None]), "mean": mean, "std": std, "X": X[:, 0], "y": y,
            "n_points": int(n_points)}


def overconfidence_arrays(n_points=4, seed=0, n_grid=201):
    """A posterior whose hyperparameters are fitted by maximum likelihood on ``n_points`` uniform random points
    (noise-free), and the share of [0, 1] where f leaves its pointwise 95 % band.

    Returns
    -------
    dict
        ``x``, ``f``, ``mean``, ``std`` (n_grid,); ``X``, ``y`` (n_points,); ``fitted_lengthscale`` and
        ``fitted_variance``; ``fraction_outside``; ``n_points`` and ``seed``.
    """
    X = make_rng(LESSON, "random design", int(n_points), int(seed)).random((int(n_points), 1))
    y = forrester(X)
    gp = fit_hyperparameters(X, y, seed_key=("overconfidence", int(n_points), int(seed)))
    x = grid(n_grid)
    f = forrester(x[:, None])
    mean, std = gp.predict(x[:, None], return_std=True)
    return {"x": x, "f": f, "mean": mean, "std": std, "X": X[:, 0], "y": y,
            "fitted_lengthscale": float(gp.kernel.lengthscale[0]), "fitted_variance": float(gp.kernel.variance),
            "fraction_outside": fraction_outside(f, mean, std), "n_points": int(n_points), "seed": int(seed)}


# --------------------------------------------------------------------------- drawing
def new_figure(figsize=(6.0, 3.8)):
    """An empty figure with constrained layout, outside pyplot (a widget shows the figure it returns, once)."""
    return Figure(figsize=figsize, layout="constrained")


def _legend_below(fig, ax, ncols=2):
    """One legend under the panels, where no curve passes."""
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=ncols)


def draw_posterior_panel(ax, arrays, *, title=None):
    """f (dashed), the posterior mean and its pointwise 95 % band, and the data, on one axes."""
    x = arrays["x"]
    ax.plot(x, arrays["f"], "k--", lw=1, label="f (unknown to the GP)")
    ax.plot(x, arrays["mean"], color="C0", label=r"posterior mean $\mu(x)$")
    ax.fill_between(x, arrays["mean"] - BAND_Z * arrays["std"], arrays["mean"] + BAND_Z * arrays["std"],
                    color="C0", alpha=0.2, lw=0, label=r"$\mu \pm 1.96\,\sigma$ (pointwise 95 %)")
    ax.plot(arrays["X"], arrays["y"], "o", color="k", ms=4, label="observations")
    ax.set(xlim=(0, 1), ylim=F_LIMITS, xlabel="x", ylabel="f(x)", title=title)


def draw_kernels(profiles, fig):
    """The correlation k(r) / sigma_f^2 against the distance r (:func:`kernel_profiles`): a colour per
    lengthscale, each labelled on its curves; solid Matérn-5/2, dashed squared exponential (the legend under the
    panel gives the two line styles only)."""
    from matplotlib.lines import Line2D

    ax = fig.subplots()
    lengthscales = sorted({float(name.split()[1]) for name in profiles if name != "r"})
    r = profiles["r"]
    for number, lengthscale in enumerate(lengthscales):
        for kernel, style in (("matern52", "-"), ("se", "--")):
            ax.plot(r, profiles[f"{kernel} {lengthscale:g}"], style, color=f"C{number}")
        # the label sits under the curves, left of where the Matérn curve crosses r = l (correlation 0.52): the
        # squared exponential is above it there, and a shorter lengthscale's curves are further left
        at = np.searchsorted(r, lengthscale)
        ax.annotate(f"ℓ = {lengthscale:g}", (r[at], profiles[f"matern52 {lengthscale:g}"][at]), xytext=(-6, -6),
                    textcoords="offset points", ha="right", va="top", color=f"C{number}", fontsize=10)
    ax.set(xlabel="distance r = |x − x′|", ylabel=r"correlation $k(r) / \sigma_f^2$", xlim=(0, r[-1]),
           ylim=(0, 1.02), title="How fast two values of f decorrelate")
    styles = [Line2D([], [], color="k", ls=style, label=KERNEL_NAMES[kernel])
              for kernel, style in (("matern52", "-"), ("se", "--"))]
    fig.legend(handles=styles, loc="outside lower center", ncols=2)


def draw_prior(arrays, fig):
    """Prior samples of both kernels side by side at one lengthscale (:func:`prior_arrays`)."""
    axes = fig.subplots(1, 2, sharey=True)
    if fig.get_layout_engine() is not None:  # constrained layout: room between the panels for "1.0" and "0.0"
        fig.get_layout_engine().set(wspace=0.08)
    for ax, kernel in zip(axes, KERNEL_NAMES):
        for number, sample in enumerate(arrays[kernel]):
            ax.plot(arrays["x"], sample, color=f"C{number}", lw=1.2)
        for edge in (-BAND_Z * SIGNAL_STD, BAND_Z * SIGNAL_STD):
            ax.axhline(edge, color="0.5", lw=0.8, ls=":", label=r"$\pm 1.96\,\sigma_f$: the prior's pointwise 95 %"
                       if edge > 0 else None)
        ax.set(xlim=(0, 1), ylim=PRIOR_LIMITS, xlabel="x", title=KERNEL_NAMES[kernel])
    axes[0].set_ylabel("f(x), a prior sample")
    _legend_below(fig, axes[0], ncols=1)
    fig.suptitle(f"Prior samples, lengthscale ℓ = {arrays['lengthscale']:.2f}, $\\sigma_f$ = {SIGNAL_STD:g}",
                 fontsize=10)


def draw_posterior(arrays, fig):
    """The posterior of :func:`posterior_arrays`, its settings in the title."""
    ax = fig.subplots()
    noise = f"$\\sigma_n$ = {arrays['noise_std']:g}" if arrays["noise_std"] else "noise-free"
    draw_posterior_panel(ax, arrays, title=f"{KERNEL_NAMES[arrays['kernel']]}, ℓ = {arrays['lengthscale']:.2f}, "
                                           f"{noise}, n = {arrays['n_points']}")
    _legend_below(fig, ax)


def draw_landscape(arrays, fig):
    """The log marginal likelihood over lengthscale and signal variance (left, RW Fig. 5.3(b)-like), and its
    data-fit and complexity terms along the lengthscale at the fitted variance (right, RW Fig. 5.3(a)), each curve
    labelled at its left end."""
    from matplotlib.ticker import FuncFormatter

    plain = FuncFormatter(lambda value, _: f"{value:g}")  # 0.1 and 100 rather than 10^-1 and 10^2, for students
    left, right = fig.subplots(1, 2, width_ratios=[1.15, 1])
    best = arrays["best_log_likelihood"]
    below = np.clip(best - arrays["log_likelihood"], 0.0, 60.0)
    levels = [0, 1, 2, 4, 8, 16, 32, 60]
    shaded = left.contourf(arrays["lengthscales"], arrays["variances"], below, levels=levels, cmap="viridis_r")
    fig.colorbar(shaded, ax=left, label="log-likelihood below its maximum (nats)")
    left.plot(arrays["best_lengthscale"], arrays["best_variance"], "*", color="C3", ms=12,
              label="maximum found by L-BFGS-B")
    left.set(xscale="log", yscale="log", xlabel="lengthscale ℓ", ylabel="signal variance $\\sigma_f^2$",
             title=f"log p(y | X, θ), n = {arrays['n_points']}")
    left.grid(False)
    lengthscales = arrays["lengthscales"]
    terms = ((arrays["data_fit"], "C0", r"data fit $-\frac{1}{2} y^\top K_y^{-1} y$"),
             (arrays["complexity"], "C1", r"complexity $-\frac{1}{2} \log|K_y|$"),
             (arrays["total"], "k", "log marginal likelihood"))
    for values, color, label in terms:
        right.plot(lengthscales, values, color=color)
        # each curve labelled above its highest point, where no other curve passes: the data fit's at short
        # lengthscales, the complexity's at long ones, the total's at the fitted lengthscale
        at = int(np.argmax(values))
        align = "left" if at == 0 else "right" if at == len(values) - 1 else "center"
        right.annotate(label, (lengthscales[at], values[at]), xytext=(0, 3), textcoords="offset points",
                       ha=align, va="bottom", color=color, fontsize=9,
                       bbox=dict(facecolor="white", edgecolor="none", pad=1.5), zorder=4)  # over the fitted-ℓ line
    right.axvline(arrays["best_lengthscale"], color="C3", lw=1, ls=":", label="fitted ℓ")
    # the data-fit term plunges at long lengthscales: cut it where the three terms still show their trade-off
    low = min(arrays["total"].max(), arrays["complexity"].min(), np.percentile(arrays["data_fit"], 30)) - 5
    right.set(xscale="log", xlabel="lengthscale ℓ", ylabel="nats",
              ylim=(low, max(arrays["complexity"].max(), arrays["data_fit"].max()) + 8),
              title=f"its terms at the fitted $\\sigma_f^2$ = {arrays['best_variance']:.3g}")
    for axis in (left.xaxis, left.yaxis, right.xaxis):
        axis.set_major_formatter(plain)
    handles, labels = [], []
    for ax in (left, right):
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.append(handle)
            labels.append(label)
    fig.legend(handles, labels, loc="outside lower center", ncols=2)


def draw_overconfidence(arrays, fig):
    """A posterior with fitted hyperparameters (:func:`overconfidence_arrays`), the stretches of [0, 1] where f
    leaves its 95 % band marked in red."""
    ax = fig.subplots()
    outside = np.abs(arrays["f"] - arrays["mean"]) > BAND_Z * arrays["std"]
    step = arrays["x"][1] - arrays["x"][0]
    for number, (start, stop) in enumerate(_runs(outside)):
        ax.axvspan(arrays["x"][start] - step / 2, arrays["x"][stop - 1] + step / 2, color="C3", alpha=0.15, lw=0,
                   label="f outside the band" if number == 0 else None)
    draw_posterior_panel(ax, arrays, title=(
        f"ML-II on n = {arrays['n_points']} random points (seed {arrays['seed']}): "
        f"ℓ = {arrays['fitted_lengthscale']:.3f}, $\\sigma_f^2$ = {arrays['fitted_variance']:.3g}\n"
        f"f leaves the band on {arrays['fraction_outside']:.0%} of [0, 1]"))
    _legend_below(fig, ax)


def _runs(mask):
    """``[(start, stop), ...]`` of the stretches where the boolean array ``mask`` is True."""
    edges = np.flatnonzero(np.diff(np.r_[0, mask.astype(int), 0]))
    return list(zip(edges[::2], edges[1::2]))


def draw_coverage_by_size(sizes, fractions, fig):
    """The share of [0, 1] outside the fitted posterior's 95 % band against the number of points: the median over
    random designs and their interquartile range (``fractions`` has one row per size, one column per seed)."""
    ax = fig.subplots()
    fractions = np.asarray(fractions, dtype=float)
    low, median, high = np.percentile(fractions, [25, 50, 75], axis=1)
    ax.fill_between(sizes, low, high, color="C3", alpha=0.2, lw=0, label="interquartile range over designs")
    ax.plot(sizes, median, "o-", color="C3", label="median over designs")
    ax.axhline(0.05, color="k", lw=1, ls=":", label="5 %: what a calibrated 95 % band leaves out")
    ax.set(xlabel="number of points n (hyperparameters fitted on them)", ylabel="share of [0, 1] outside the band",
           ylim=(0, 1), title=f"Overconfidence of ML-II over {fractions.shape[1]} random designs per n")
    plotting.declare_range(ax, 0.0, 1.0)
    _legend_below(fig, ax, ncols=2)


# --------------------------------------------------------------------------- the widgets' functions
def prior_figure(lengthscale=0.2):
    """Prior samples of both kernels at ``lengthscale``: the function a lengthscale slider calls."""
    fig = new_figure((7.5, 3.4))
    draw_prior(prior_arrays(lengthscale), fig)
    return fig


def posterior_figure(lengthscale=0.1, noise_std=0.0, n_points=6, kernel="matern52"):
    """The posterior at fixed hyperparameters: the function the lengthscale, noise and number-of-points sliders
    call."""
    fig = new_figure()
    draw_posterior(posterior_arrays(lengthscale, noise_std, n_points, kernel), fig)
    return fig


def overconfidence_figure(n_points=4, seed=0):
    """A posterior with hyperparameters fitted on ``n_points`` random points: the function the number-of-points and
    seed sliders call."""
    fig = new_figure()
    draw_overconfidence(overconfidence_arrays(n_points, seed), fig)
    return fig
