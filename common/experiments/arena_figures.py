"""The arena notebook's figures: the ideas on and off, the critical difference, the regret curves, the anytime view
and the cost against the rank.

Each ``plot_*`` function draws on the axes or figure it is given, every method in its colour (:data:`METHOD_COLORS`),
what :mod:`common.experiments.arena_scoring` computes from the runs, and returns the caption's words for what it drew.
"""
import numpy as np

from common import judging, stats
from common.experiments.arena_methods import IDEAS, METHODS
from common.experiments.arena_scoring import N_TARGETS, RANK_ALPHA, TARGET_DECADES, methods_in_order, untold_groups
from common.experiments.arena_suite import N_INIT


# --------------------------------------------------------------------------- each method's colour and line style
# GP-EI in dark goldenrod, not matplotlib's grey C7: the regret grid draws the methods outside a panel's three best
# in light grey, and a grey GP-EI among the three could not be told from them.
METHOD_COLORS = dict(zip(METHODS, ("C3", "C1", "C2", "C0", "C9", "C4", "black", "darkgoldenrod", "C8", "C5", "C6")))
METHOD_STYLES = {"GP-UCB": "--", "Random search": ":"}


# --------------------------------------------------------------------------- each idea on and off
#: The ratios the idea figure shows; a ratio or interval end beyond is drawn at the edge.
IDEA_RATIO_RANGE = (0.01, 100.0)


def idea_figure_height(n_problems):
    """The height (inches) of :func:`plot_idea_effects` with ``n_problems`` rows: 4.2 for the first suite's 8, a
    quarter inch more per further problem."""
    return 4.2 + 0.25 * max(0, n_problems - 8)


def _edge_marker(ratio, marker):
    """``marker`` for a ratio inside :data:`IDEA_RATIO_RANGE`; beyond it, a triangle at the edge pointing outwards."""
    low, high = IDEA_RATIO_RANGE
    return "<" if ratio < low else ">" if ratio > high else marker


def plot_idea_effects(fig, effects):
    """One panel per idea: on each problem, the ratio of mean final regrets with the idea on and off (against its
    strongest twin) with its 95 % interval, and the median seed's ratio; returns the caption's words."""
    shown = effects[effects["strongest twin"]]
    ideas = [idea for idea in IDEAS if idea.method in set(shown["idea"])]
    problems = list(dict.fromkeys(shown["problem"]))
    axes = fig.subplots(1, len(ideas), sharex=True, sharey=True, squeeze=False)[0]
    for ax, idea in zip(axes, ideas):
        rows = shown[shown["idea"] == idea.method].set_index("problem")
        for position, problem in enumerate(problems):
            if problem not in rows.index:
                continue
            comparison = rows.loc[problem, "comparison"]
            effect, typical = comparison.effect, comparison.typical
            side = stats.lower_or_higher(comparison)
            color = {"lower": "C2", "higher": "C3"}.get(side, "0.35")
            low, high = np.clip([effect.low, effect.high], *IDEA_RATIO_RANGE)
            ax.plot([low, high], [position, position], color=color, lw=2, solid_capstyle="butt")
            ax.plot(np.clip(effect.estimate, *IDEA_RATIO_RANGE), position, _edge_marker(effect.estimate, "o"),
                    color=color, ms=6)
            if typical is not None:
                ax.plot(np.clip(typical.estimate, *IDEA_RATIO_RANGE), position, _edge_marker(typical.estimate, "D"),
                        mfc="none", color="black", ms=5)
        ax.axvline(1.0, color="black", lw=0.8)
        for edge in (1 / (1 + judging.DEFAULT_MARGIN.size), 1 + judging.DEFAULT_MARGIN.size):
            ax.axvline(edge, color="0.6", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_xlim(*IDEA_RATIO_RANGE)
        ticks = [0.01, 0.1, 1, 10, 100]
        ax.set_xticks(ticks, [f"{tick:g}" for tick in ticks])
        ax.set_xticks([], minor=True)
        ax.set_title(f"{idea.method}\n(on / off)", fontsize=9)
        ax.set_xlabel("ratio of mean final regrets")
    axes[0].set_yticks(range(len(problems)), problems)
    axes[0].invert_yaxis()
    return ("Each idea switched on against off inside its own method, per problem: the ratio of mean final regrets "
            "(on / off; below 1 the idea lowers the regret) with its 95 % interval (the bar; green where it lies "
            "below 1, red where above, grey undecided) and the median seed's ratio (the open diamond); EGP-TS "
            "against its strongest single kernel on each problem. Dotted: the project's margin, a factor 1.1 "
            "either way; a ratio beyond 0.01 or 100 is drawn at the edge, a triangle pointing outwards. A problem "
            "without a bar: the idea does not change the method there (Add-GP-UCB where D <= 3) or its twin did "
            "not run.")


# --------------------------------------------------------------------------- ranks and the critical difference
def plot_critical_difference(ax, found, colors=None):
    """Draw the critical-difference figure of :func:`~common.experiments.arena_scoring.critical_difference` on
    ``ax``.

    The methods stand on an axis of average rank (1 at the left, the best); a thick bar joins methods that the
    Nemenyi test does not tell apart; the critical difference is drawn above the axis.

    Returns
    -------
    str
        The caption's words for what is drawn.
    """
    average, cd = found["average_ranks"], found["cd"]
    k = len(average)
    ax.set_xlim(0.5, k + 0.5)
    ax.set_ylim(-0.35 * (k // 2 + 2), 1.6)
    ax.axhline(0, color="black", linewidth=1)
    for rank in range(1, k + 1):
        ax.plot([rank, rank], [0, 0.12], color="black", linewidth=1)
        ax.text(rank, 0.22, str(rank), ha="center", va="bottom", fontsize=8)
    left, right = list(average.index[: (k + 1) // 2]), list(average.index[(k + 1) // 2:])
    for row, name in enumerate(left):
        level = -0.35 * (row + 1)
        ax.plot([average[name], average[name], 0.55], [0, level, level], color=(colors or {}).get(name, "0.3"),
                linewidth=1)
        ax.text(0.5, level, f"{name} ({average[name]:.2f})", ha="right", va="center", fontsize=8)
    for row, name in enumerate(reversed(right)):
        level = -0.35 * (row + 1)
        ax.plot([average[name], average[name], k + 0.45], [0, level, level], color=(colors or {}).get(name, "0.3"),
                linewidth=1)
        ax.text(k + 0.5, level, f"({average[name]:.2f}) {name}", ha="left", va="center", fontsize=8)
    for row, group in enumerate(untold_groups(average, cd)):
        level = -0.12 - 0.08 * row
        ax.plot([average[group[0]] - 0.05, average[group[-1]] + 0.05], [level, level], color="black", linewidth=3,
                solid_capstyle="butt")
    if np.isfinite(cd):
        ax.plot([1, 1 + cd], [1.1, 1.1], color="black", linewidth=1.5)
        ax.text(1 + cd / 2, 1.2, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=8)
    ax.set_axis_off()
    return (f"average rank over {found['n_problems']} problems (each problem's methods ranked by their mean rank "
            f"over the seeds; 1 is best); a bar joins methods whose average ranks differ by less than the Nemenyi "
            f"critical difference at {RANK_ALPHA:g} (Friedman test p = {found['p_value']:.2g})")


# --------------------------------------------------------------------------- regret curves
#: The one method whose spread the regret grid shades: the reference every paper's idea modifies; ten overlapping
#: bands would merge into one block.
SHADED = ("GP-UCB",)


def plot_median_band(ax, t, curves, label, shaded=True, **line_options):
    """The median of several runs' curves with, if ``shaded``, their interquartile range shaded (above zero on a log
    axis, where a mean minus a standard deviation need not be); returns the caption's words."""
    curves = np.asarray(curves, dtype=float)
    low, median, high = np.percentile(curves, [25, 50, 75], axis=0)
    (line,) = ax.plot(t, median, label=label, **line_options)
    if shaded and len(curves) > 1:
        ax.fill_between(t, low, high, color=line.get_color(), alpha=0.12, linewidth=0)
    return f"median over {len(curves)} run{'s' if len(curves) != 1 else ''}, shaded: the interquartile range"


#: Panels per row of :func:`plot_regret_grid`, and the height of a row in inches (:func:`regret_grid_size`).
REGRET_GRID_COLUMNS, REGRET_GRID_ROW_HEIGHT = 4, 3.8


def regret_grid_size(n_problems):
    """The figure size (inches) of :func:`plot_regret_grid` for ``n_problems`` panels: 16 wide, a row's height each."""
    return 16, REGRET_GRID_ROW_HEIGHT * -(-n_problems // REGRET_GRID_COLUMNS)


#: How many methods each panel of :func:`plot_regret_grid` draws in colour: those with the lowest mean final regret.
HIGHLIGHTED = 3
#: The colour of the other methods' lines, drawn thin behind for context.
CONTEXT_COLOR = "0.82"


def plot_regret_grid(fig, table, problems, methods):
    """One panel per problem: each method's simple regret against evaluations (median over the seeds, on a log
    axis), the :data:`HIGHLIGHTED` methods with the lowest mean final regret on that problem in colour and named in
    the panel's title, the reference (:data:`SHADED`) in colour with its interquartile range, every other method a
    thin grey line; beside each panel every run's final regret and their mean (what the hypotheses judge) in a strip
    (:func:`common.plotting.plot_finals`). Returns the caption's words."""
    from matplotlib.lines import Line2D

    from common import plotting

    n_columns = REGRET_GRID_COLUMNS
    n_rows = -(-len(problems) // n_columns)
    grid = fig.add_gridspec(n_rows, 2 * n_columns, width_ratios=[1, 0.45] * n_columns)
    axes = np.array([[fig.add_subplot(grid[row, 2 * column]) for column in range(n_columns)] for row in range(n_rows)])
    strips = np.array([[fig.add_subplot(grid[row, 2 * column + 1]) for column in range(n_columns)]
                       for row in range(n_rows)])
    caption = finals_words = ""
    for ax, strip, problem in zip(axes.flat, strips.flat, problems):
        here = table[table["problem"] == problem]
        wides = {name: here[here["method"] == name].pivot(index="run_key", columns="eval", values="regret")
                 for name in methods if (here["method"] == name).any()}
        finals_of = {name: wide.iloc[:, -1] for name, wide in wides.items()}
        best = sorted(finals_of, key=lambda name: finals_of[name].mean())[:HIGHLIGHTED]
        for name, wide in sorted(wides.items(), key=lambda item: item[0] in best or item[0] in SHADED):
            coloured = name in best or name in SHADED
            band = plot_median_band(ax, wide.columns.to_numpy() + 1, wide.to_numpy(), name, shaded=name in SHADED,
                                    color=METHOD_COLORS.get(name) if coloured else CONTEXT_COLOR,
                                    linestyle=METHOD_STYLES.get(name, "-") if coloured else "-",
                                    linewidth=1.4 if coloured else 0.8)
            caption = band if name in SHADED else caption
        if finals_of:
            finals_words = plotting.plot_finals(strip, finals_of, like=ax, log=True, at="final")
            strip.tick_params(which="both", labelsize=7)
        ax.axvline(N_INIT, color="0.6", linewidth=0.8, linestyle=":")
        ax.set_yscale("log")   # labelled in plain numbers by plotting.save_figure
        ax.set_title(f"{problem}\nlowest: {', '.join(best)}", fontsize=8)
        ax.set_xlabel("evaluations", fontsize=8)
        ax.tick_params(which="both", labelsize=7)
    for ax in [*axes.flat[len(problems):], *strips.flat[len(problems):]]:
        ax.set_axis_off()
    for ax in axes[:, 0]:
        ax.set_ylabel("simple regret", fontsize=8)
    handles = [Line2D([], [], color=METHOD_COLORS.get(name), linestyle=METHOD_STYLES.get(name, "-"), linewidth=1.4)
               for name in methods]
    fig.legend(handles, list(methods), loc="outside lower center", ncol=min(6, len(methods)), fontsize=8)
    return (f"{caption} for {SHADED[0]} only (the reference); in each panel the {HIGHLIGHTED} methods with the lowest "
            f"mean final regret on it (named above the panel) and {SHADED[0]} in colour, every other method's median a "
            f"thin grey line; {finals_words} (the hypotheses judge these means)")


# --------------------------------------------------------------------------- the field's scoring (issue 42)
def plot_anytime(ax, curves, by_cpu=False):
    """The anytime curves (:func:`~common.experiments.arena_scoring.anytime_curves`, or against CPU seconds on a log
    axis: :func:`~common.experiments.arena_scoring.anytime_curves_by_cpu`), one line per method in its colour;
    returns the caption's words."""
    for method in methods_in_order(curves.columns):
        ax.plot(curves.index, curves[method], color=METHOD_COLORS.get(method, "0.3"),
                linestyle=METHOD_STYLES.get(method, "-"), label=method)
    ax.set(xlabel="process CPU seconds since the run began (log scale)" if by_cpu else
           "evaluations (the 10 initial points included)", ylim=(0, 1),
           ylabel="share of (problem, target, seed) reached", xscale="log" if by_cpu else "linear")
    return (f"per method, the share of (problem, target, seed) triples whose target it has reached "
            f"{'within each number of CPU seconds' if by_cpu else 'after each number of evaluations'} "
            f"({N_TARGETS} fixed targets per problem, log-uniform over {TARGET_DECADES} decades below "
            "the median regret of the shared initial design, whichever methods ran)")


def plot_cost_and_rank(ax, costs):
    """Each method's median CPU seconds per run (log axis; the bar: its interquartile range over every run) against
    its average rank over the problems (1 is best, at the top). Returns the caption's words."""
    rows = costs.to_dict("records")
    for row in rows:
        color = METHOD_COLORS.get(row["method"], "0.3")
        ax.plot([row["CPU s (25 %)"], row["CPU s (75 %)"]], [row["average rank"]] * 2, color=color, linewidth=1.5,
                alpha=0.6)
        ax.plot(row["CPU s per run (median)"], row["average rank"], "o", color=color, markersize=6)
    ax.set_xscale("log")
    ax.invert_yaxis()
    ax.set(xlabel="CPU seconds per run (median; bar: interquartile range over all runs)",
           ylabel="average rank over the problems (1 = best)")
    _label_points(ax, [(row["method"], row["CPU s per run (median)"], row["average rank"]) for row in rows])
    return ("each method's median CPU seconds per run over every problem and seed (the bar: the interquartile range) "
            "against its average rank over the problems")


#: Where a point's label goes, tried in turn until it overlaps no label placed before: offset in points, alignment.
LABEL_PLACES = [((6, 3), "left", "bottom"), ((6, -3), "left", "top"), ((-6, 3), "right", "bottom"),
                ((-6, -3), "right", "top")]


def _label_points(ax, points):
    """Name each ``(label, x, y)`` point beside it, on the first side of :data:`LABEL_PLACES` where the label
    overlaps no other label or point (methods of equal rank and cost, GP-UCB and GP-EI say, would otherwise print
    over each other); the axes' limits must be final."""
    from matplotlib.transforms import Bbox

    renderer = ax.figure.canvas.get_renderer()
    pixels = 4 * ax.figure.dpi / 72  # a marker's half-width, 4 points
    placed = [Bbox.from_extents(px - pixels, py - pixels, px + pixels, py + pixels)
              for px, py in ax.transData.transform([(x, y) for _, x, y in points])]
    for name, x, y in points:
        for offset, horizontal, vertical in LABEL_PLACES:
            text = ax.annotate(name, (x, y), textcoords="offset points", xytext=offset, ha=horizontal, va=vertical,
                               fontsize=8, color=METHOD_COLORS.get(name, "0.3"))
            box = text.get_window_extent(renderer)
            if not any(box.overlaps(other) for other in placed):
                break
            if (offset, horizontal, vertical) != LABEL_PLACES[-1]:
                text.remove()
        placed.append(box)
