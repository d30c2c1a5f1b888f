"""Figures in one style, saved under the paper's own figure names.

:func:`save_figure` writes ``figures/<key>/<name>.png`` (and ``.pdf``) where
``name`` follows the paper (``fig3``, ``fig2b``); :func:`save_table` writes
``<name>.csv`` (``table1``). Both record what they wrote, for the notebook
summary. :func:`show_figure` shows a figure in the notebook with its caption
under it. :func:`plot_mean_band` draws a mean curve with a shaded band and
returns the words that say what the band is, for the caption.
:func:`panels_with_finals` lays out curve panels each with a narrow strip
beside it, where :func:`plot_finals` draws every run's final value (the values
a claim judges, which overlapping curves hide) with the paper's printed number
as a marker where the paper prints one.

:func:`save_figure` refuses a figure that breaks the companion's rules
(:func:`figure_problems`, :func:`legends_on_curves`): more than
:data:`MAX_BANDS` shaded bands in a panel (:func:`band_or_line` picks which
methods keep theirs, :func:`shaded_only` says so in the caption), a band below
zero on a log axis or outside the range a panel declared
(:func:`declare_range`), a legend drawn over a line.
"""
import html
import os
import re
import weakref

import matplotlib
import matplotlib.collections
import matplotlib.style
import numpy as np

from common import paths

STYLE = {
    "figure.figsize": (6.0, 3.8),
    "figure.dpi": 100,
    "figure.constrained_layout.use": True,
    "savefig.dpi": 150,
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "axes.grid": True,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "grid.alpha": 0.3,
    "legend.frameon": False,
    "legend.fontsize": 9,
    "lines.linewidth": 1.6,
    "image.cmap": "viridis",
}

# Half-width of the band around the mean, from the per-point sample std (ddof=1) and run count,
# with the words a caption uses for it.
BANDS = {
    "se": (lambda std, n: std / np.sqrt(n), "± one standard error of the mean"),
    "ci95": (lambda std, n: 1.96 * std / np.sqrt(n), "± 1.96 standard errors (normal 95% interval of the mean)"),
    "std": (lambda std, n: std, "± one standard deviation"),
    "half_std": (lambda std, n: std / 2, "± half a standard deviation"),
    "quarter_std": (lambda std, n: std / 4, "± a quarter of a standard deviation"),
}
# Bands from the runs' own quantiles: on a log axis they stay above zero where mean - std would not (a band clipped
# at the axis draws curtains down to its bottom that look like runs reaching there).
QUANTILE_BANDS = {"iqr": ((25, 75), "shaded: the runs' interquartile range (25th to 75th percentile)")}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
_written = []
#: At most this many shaded bands in one panel: more overlap into one opaque block that hides the curves.
MAX_BANDS = 3
#: Set to a file: :func:`save_figure` appends what breaks a figure rule there instead of refusing the figure (an
#: audit of every figure at once; never set in a published execution).
AUDIT_VARIABLE = "BO_FIGURE_AUDIT"
_value_ranges = weakref.WeakKeyDictionary()
AREA_GID = "area"


def use_style():
    """Apply the companion's matplotlib style (:data:`STYLE`) to the figures created from now on, and nothing else.

    Every rcParam that reaches a saved figure's bytes is pinned: first matplotlib's built-in defaults, then the rc
    that the notebooks' inline backend sets when it starts, then :data:`STYLE`.

    Notes
    -----
    matplotlib starts from the reader's matplotlibrc (the file ``MATPLOTLIBRC`` names, one in the working directory,
    ``~/.config/matplotlib/matplotlibrc``), where a line such as ``lines.linewidth: 5``, ``savefig.dpi: 50`` or
    ``pdf.fonttype: 42`` would change the PNG and PDF bytes of every published figure, so that a reader regenerating
    the notebooks would see figures change that no input of the companion changed. The inline backend's own rc
    (its default, not a reader's IPython configuration; empty since matplotlib_inline 0.1.4) is applied again so
    that a figure saved outside a notebook kernel has the bytes it has inside one. What runs the session (the
    backend, interactive mode) is left alone.
    """
    from matplotlib_inline.config import InlineBackend

    matplotlib.style.use("default")
    # "default" leaves these to the session, but a date axis is drawn with them.
    matplotlib.rcParams.update({key: matplotlib.rcParamsDefault[key] for key in ("timezone", "date.epoch")})
    matplotlib.rcParams.update(InlineBackend.rc.default())
    matplotlib.rcParams.update(STYLE)


def _target(paper_key, name, suffix):
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"name must be the paper's figure or table name without extension, letters, digits, "
                         f"'_' or '-' (e.g. 'fig3', 'table1'); got {name!r}")
    folder = paths.figures_dir(paper_key)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.{suffix}"


def _record(path):
    if path not in _written:
        _written.append(path)
    return path


def save_figure(fig, paper_key, name, *, pdf=True):
    """Save ``fig`` as ``figures/<paper_key>/<name>.png`` and, if ``pdf``, ``.pdf``.

    The figure stays open so that a notebook still shows it. File metadata
    holds no dates, so an unchanged figure rewrites the same PDF bytes.

    Returns
    -------
    list of pathlib.Path
    """
    problems = figure_problems(fig)
    for ax in fig.axes:
        plain_log_labels(ax)
    written = [_target(paper_key, name, "png")]
    fig.savefig(written[0], metadata={"Software": None})
    problems += legends_on_curves(fig)
    if problems and os.environ.get(AUDIT_VARIABLE):
        with open(os.environ[AUDIT_VARIABLE], "a") as audit:
            audit.writelines(f"{paper_key}/{name}: {problem}\n" for problem in problems)
    elif problems:
        written[0].unlink()
        raise ValueError(f"figure {paper_key}/{name}: " + "; ".join(problems))
    if pdf:
        written.append(_target(paper_key, name, "pdf"))
        fig.savefig(written[1], metadata={"CreationDate": None, "Creator": None, "Producer": None})
    return [_record(path) for path in written]


#: Where a log axis lies within these limits, its ticks are labelled in plain numbers (:func:`plain_log_labels`).
PLAIN_LOG_RANGE = (1e-3, 1e5)


def plain_log_labels(ax):
    """Label the log axes of ``ax`` that lie within :data:`PLAIN_LOG_RANGE` with plain numbers ("20", "0.005")
    instead of matplotlib's "2×10^1": the powers of ten always, and where an axis spans less than two decades its
    minor ticks too (every one within a decade, else those at 2 and 5 times a power of ten). Within a decade the
    minor ticks include 1.5 times a power of ten where matplotlib's own would leave a stretch wider than a factor
    1.5 unlabelled (75 to 165 reads 80, 90, 100, 150). An axis reaching beyond keeps matplotlib's powers of ten.
    :func:`save_figure` applies it to every panel."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
        low, high = sorted(limits)
        if axis.get_scale() != "log" or not PLAIN_LOG_RANGE[0] <= low <= high <= PLAIN_LOG_RANGE[1]:
            continue
        decades = np.log10(high / low)

        def minor(value, position, decades=decades):
            leading = round(value / 10 ** np.floor(np.log10(value)))
            return f"{value:g}" if decades < 1 or leading in (2, 5) else ""

        if decades < 1 and _widest_unlabelled_stretch(axis, low, high) > 1.5:
            default = axis.get_minor_locator()
            axis.set_minor_locator(LogLocator(base=10, subs=(1.5, 2, 3, 4, 5, 6, 7, 8, 9)))
            if _widest_unlabelled_stretch(axis, low, high) >= _widest_unlabelled_stretch(axis, low, high, default):
                axis.set_minor_locator(default)
        axis.set_major_formatter(FuncFormatter(lambda value, position: f"{value:g}"))
        axis.set_minor_formatter(FuncFormatter(minor) if decades < 2 else NullFormatter())


def _widest_unlabelled_stretch(axis, low, high, minor_locator=None):
    """The largest ratio between neighbouring ticks of a log axis within ``[low, high]``, its ends included (every
    tick of an axis under a decade is labelled), with ``minor_locator`` in place of the axis's own if given."""
    minor = axis.get_minor_locator() if minor_locator is None else minor_locator
    ticks = [*axis.get_major_locator().tick_values(low, high), *minor.tick_values(low, high)]
    stops = sorted({low, high, *(tick for tick in ticks if low < tick < high)})
    return max(b / a for a, b in zip(stops, stops[1:]))


def show_figure(fig, caption):
    """Show ``fig`` in the notebook with ``caption`` under it, then close it.

    The caption says first what the figure shows, then, after a semicolon, how to read it: the companion site
    makes the part before the first "; " the image's alt text, and the whole caption its ``<figcaption>``. Outside
    a notebook the caption is printed.
    """
    import matplotlib.pyplot as plt
    from IPython import get_ipython
    from IPython.display import HTML, display

    if get_ipython() is None:
        print(caption)
    else:
        display(fig)
        display(HTML(f'<p class="figure-caption">{html.escape(caption)}</p>'))
    plt.close(fig)


def band_or_line(name, shaded, band="se"):
    """The band :func:`plot_mean_band` draws for method ``name``: ``band`` if it is one of ``shaded``, the at most
    :data:`MAX_BANDS` methods whose spread a panel shades, else ``"none"`` (its mean as a line)."""
    if len(shaded) > MAX_BANDS:
        raise ValueError(f"shaded names {len(shaded)} methods; a panel shades at most {MAX_BANDS}")
    return band if name in shaded else "none"


def shaded_only(shaded):
    """The caption's words for a panel that shades the spread of ``shaded`` alone (see :func:`band_or_line`)."""
    return f"shaded only for {', '.join(shaded)}; the other methods' means as lines"


def declare_range(ax, low=None, high=None):
    """Declare the values a panel's quantity can take (e.g. an accuracy in [0, 1]): :func:`save_figure` refuses a
    shaded band that leaves them, since it would draw spread where no run can be."""
    _value_ranges[ax] = (-np.inf if low is None else low, np.inf if high is None else high)


def mark_areas(collections):
    """Mark filled areas that are the quantity itself (a stack plot's shares), not a spread around a curve: the band
    rules of :func:`figure_problems` leave them alone."""
    for collection in collections:
        collection.set_gid(AREA_GID)


def _bands(ax):
    return [band for band in ax.collections
            if isinstance(band, matplotlib.collections.PolyCollection) and band.get_gid() != AREA_GID]


def _panel(ax):
    return repr(ax.get_title() or ax.get_ylabel() or "untitled")


def figure_problems(fig):
    """What breaks the figure rules before drawing: a shaded band below zero on a log axis or outside the range its
    panel declared (:func:`declare_range`), more than :data:`MAX_BANDS` bands in a panel. One sentence each, saying
    how to fix it."""
    problems = []
    for ax in fig.axes:
        bands = _bands(ax)
        if len(bands) > MAX_BANDS:
            problems.append(f"the panel {_panel(ax)} shades {len(bands)} bands; at most {MAX_BANDS} stay readable: "
                            f"draw the others as lines (plot_mean_band(..., band='none')) and say so in the caption")
        low, high = _value_ranges.get(ax, (-np.inf, np.inf))
        if ax.get_yscale() == "log":
            low = max(low, 0.0)
        ends = [(path.vertices[:, 1].min(), path.vertices[:, 1].max())
                for band in bands for path in band.get_paths() if len(path.vertices)]
        lowest = min((end[0] for end in ends), default=np.inf)
        highest = max((end[1] for end in ends), default=-np.inf)
        if ax.get_yscale() == "log" and lowest <= 0:
            problems.append(f"a shaded band in the panel {_panel(ax)} reaches {lowest:.3g} on a log y axis, where it "
                            f"would be clipped into a curtain: draw the spread with quantiles "
                            f"(plot_mean_band(..., band='iqr')) or use a linear axis")
        elif lowest < low - 1e-12 or highest > high + 1e-12:
            problems.append(f"a shaded band in the panel {_panel(ax)} spans [{lowest:.3g}, {highest:.3g}], outside "
                            f"the quantity's range [{low:.3g}, {high:.3g}]: draw the runs' quantiles "
                            f"(plot_mean_band(..., band='iqr')), which stay inside it")
    return problems


def legends_on_curves(fig):
    """Legends drawn over a plotted line (any of its points inside the legend's box, as drawn last): one sentence
    each. A legend goes beside the panels (``fig.legend(..., loc="outside ...")``) or where no line passes."""
    problems = []
    legends = [(legend, fig.axes) for legend in fig.legends]
    legends += [(ax.get_legend(), [ax]) for ax in fig.axes if ax.get_legend() is not None]
    for legend, axes in legends:
        box = legend.get_window_extent()
        for ax in axes:
            for line in ax.get_lines():
                if not line.get_visible() or len(line.get_xydata()) == 0:
                    continue
                points = line.get_transform().transform(line.get_xydata())
                inside = ((points[:, 0] > box.x0) & (points[:, 0] < box.x1)
                          & (points[:, 1] > box.y0) & (points[:, 1] < box.y1))
                if inside.any():
                    problems.append(f"the legend {('of ' + _panel(ax)) if len(axes) == 1 else 'of the figure'} "
                                    f"lies on the line {line.get_label()!r}: place it beside the panels or where "
                                    f"no line passes")
                    break
    return problems


def save_table(table, paper_key, name):
    """Save a DataFrame as ``figures/<paper_key>/<name>.csv`` (no index); return the path."""
    path = _target(paper_key, name, "csv")
    table.to_csv(path, index=False)
    return _record(path)


def files_written(paper_key=None):
    """Files written by :func:`save_figure` and :func:`save_table` in this process (of one paper if given)."""
    if paper_key is None:
        return list(_written)
    folder = paths.figures_dir(paper_key)
    return [path for path in _written if path.parent == folder]


def plot_mean_band(ax, t, curves, label, *, band="se", ddof=1, color=None, alpha=0.2, **line_kwargs):
    """Draw the mean of several runs' curves with a shaded band; say what the band is.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    t : array-like of shape (n_points,) or None
        Abscissae (None: 1, 2, ..., n_points).
    curves : array-like of shape (n_runs, n_points)
        One curve per run (e.g. simple regret per evaluation).
    label : str
        Legend label of the mean line.
    band : {"se", "ci95", "std", "half_std", "quarter_std", "iqr", "none"}, default="se"
        Half-width of the band, from the per-point sample standard deviation
        over runs (``ddof``), see :data:`BANDS`; or ``"iqr"``, the runs'
        interquartile range per point (:data:`QUANTILE_BANDS`), for a log axis.
    ddof : {0, 1}, default=1
        Delta degrees of freedom of that standard deviation (0: the population
        std, as papers that report "mean ± std" over runs often use).
    color : color, optional
        Of line and band (default: the axes' colour cycle).
    alpha : float, default=0.2
        Opacity of the band.
    **line_kwargs
        Passed to ``ax.plot``.

    Returns
    -------
    str
        E.g. ``"mean over 20 runs ± one standard error of the mean"``, for the caption.
    """
    curves = np.asarray(curves, dtype=float)
    if curves.ndim == 1:
        curves = curves[None, :]
    if curves.ndim != 2 or curves.shape[1] == 0:
        raise ValueError(f"curves must have shape (n_runs, n_points); got shape {curves.shape}")
    if not np.all(np.isfinite(curves)):
        raise ValueError("curves contain NaN or infinite values; align the runs to a common length first")
    if band != "none" and band not in BANDS and band not in QUANTILE_BANDS:
        raise ValueError(f"band must be one of {[*BANDS, *QUANTILE_BANDS, 'none']}; got {band!r}")
    n_runs, n_points = curves.shape
    t = np.arange(1, n_points + 1) if t is None else np.asarray(t)
    if t.shape != (n_points,):
        raise ValueError(f"t must have shape ({n_points},) to match curves; got {t.shape}")
    mean = curves.mean(axis=0)
    (line,) = ax.plot(t, mean, label=label, color=color, **line_kwargs)
    runs = f"{n_runs} run{'s' if n_runs != 1 else ''}"
    if band == "none":
        return f"mean over {runs}, no band"
    if n_runs < 2:
        return "a single run, no band"
    if band in QUANTILE_BANDS:
        quantiles, words = QUANTILE_BANDS[band]
        low, high = np.percentile(curves, quantiles, axis=0)
        ax.fill_between(t, low, high, color=line.get_color(), alpha=alpha, linewidth=0)
        return f"mean over {runs}; {words}"
    half_width_of, words = BANDS[band]
    half_width = half_width_of(curves.std(axis=0, ddof=ddof), n_runs)
    ax.fill_between(t, mean - half_width, mean + half_width, color=line.get_color(), alpha=alpha, linewidth=0)
    return f"mean over {runs} {words}"


#: Marker of a number the paper prints (its tables, its text), drawn beside our runs' final values.
PAPER_MARKER = dict(marker="D", markerfacecolor="none", markeredgecolor="k", markersize=7, markeredgewidth=1.3,
                    linestyle="none")


def panels_with_finals(n_rows, n_cols, *, panel_size=(3.6, 3.1), strip_share=0.3):
    """A grid of curve panels, each with a narrow strip at its right for the runs' final values (:func:`plot_finals`).

    Parameters
    ----------
    n_rows, n_cols : int
        Curve panels down and across.
    panel_size : (float, float), default=(3.6, 3.1)
        Width and height in inches of one curve panel, its strip not included.
    strip_share : float, default=0.3
        The strip's width as a share of its panel's.

    Returns
    -------
    fig : matplotlib.figure.Figure
    panels, strips : numpy.ndarray of Axes, shape (n_rows, n_cols)
    """
    import matplotlib.pyplot as plt

    if int(n_rows) < 1 or int(n_cols) < 1:
        raise ValueError(f"n_rows and n_cols must be at least 1; got {n_rows} and {n_cols}")
    width, height = panel_size
    fig = plt.figure(figsize=(width * (1 + strip_share) * n_cols, height * n_rows))
    grid = fig.add_gridspec(n_rows, 2 * n_cols, width_ratios=[1, strip_share] * n_cols)
    panels = np.array([[fig.add_subplot(grid[row, 2 * col]) for col in range(n_cols)] for row in range(n_rows)])
    strips = np.array([[fig.add_subplot(grid[row, 2 * col + 1]) for col in range(n_cols)] for row in range(n_rows)])
    return fig, panels, strips


def plot_finals(strip, finals, *, like=None, paper=None, paper_label="the paper's mean", log=False, at=None):
    """Draw each run's final value as a dot, one column per method, with the mean as a bar and the paper's printed
    value as an open black diamond; say so, for the caption.

    Parameters
    ----------
    strip : matplotlib.axes.Axes
        Usually from :func:`panels_with_finals`.
    finals : dict of str to array-like
        Method name to its runs' final values, in the order to draw.
    like : matplotlib.axes.Axes, optional
        The curve panel: a method is drawn in the colour of its line there (same label).
    paper : dict of str to float, optional
        The paper's printed value of some methods (methods absent or NaN get no marker).
    paper_label : str, default="the paper's mean"
        Legend label of the paper's marker, e.g. "the paper's Table 1 (mean)".
    log : bool, default=False
        A log y axis; a symmetric log axis (linear below the lowest positive value's decade) when a value is 0.
    at : str, optional
        Where the values are taken (e.g. "T = 100"), the strip's x label.

    Returns
    -------
    str
        The caption's words for the strip.
    """
    if not finals:
        raise ValueError("finals is empty; give at least one method's final values")
    colours = {line.get_label(): line.get_color() for line in (like.get_lines() if like is not None else [])}
    cycle = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
    paper = {name: value for name, value in (paper or {}).items() if value is not None and np.isfinite(value)}
    shown = []
    for column, (name, values) in enumerate(finals.items()):
        values = np.asarray(values, dtype=float).ravel()
        if values.size == 0 or not np.all(np.isfinite(values)):
            raise ValueError(f"the final values of {name!r} must be finite and at least one; got {values}")
        colour = colours.get(name, cycle[column % len(cycle)])
        # a golden-ratio sequence spreads the dots evenly across the column without random numbers
        spread = ((np.arange(values.size) * 0.618034) % 1.0 - 0.5) * 0.55
        strip.scatter(column + spread, values, s=9, color=colour, alpha=0.55, linewidths=0)
        strip.hlines(values.mean(), column - 0.38, column + 0.38, color=colour, linewidth=2.2)
        shown.append(values)
        if name in paper:
            strip.plot([column], [paper[name]], label=paper_label, **PAPER_MARKER)
            shown.append(np.array([paper[name]]))
    everything = np.concatenate(shown)
    if log:
        positive = everything[everything > 0]
        if positive.size < everything.size:
            if positive.size == 0:
                raise ValueError("log=True but no final value is above 0; draw these values on a linear axis")
            strip.set_yscale("symlog", linthresh=10.0 ** np.floor(np.log10(positive.min())))
        else:
            strip.set_yscale("log")
    strip.set_xlim(-0.6, len(finals) - 0.4)
    strip.set_xticks([])
    strip.grid(axis="x", visible=False)
    if at:
        strip.set_xlabel(at)
    words = "beside each panel, every run's final value (dots, one column per method in the legend's order) and " \
            "their mean (bar)"
    if paper:
        words += f"; {paper_label} as an open black diamond"
    return words


def figure_legend(fig, **kwargs):
    """One legend for the whole figure, beside the panels: each label once, from every panel and strip."""
    entries = {}
    for ax in fig.axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    kwargs.setdefault("loc", "outside right upper")
    kwargs.setdefault("fontsize", 8)
    return fig.legend(list(entries.values()), list(entries), **kwargs)
