"""Pictures of the verdicts: every judged cell's effect with its interval, against no effect and the margin.

A claim judged by estimation (:mod:`common.stats`) has one effect per cell, on
the ratio scale (a regret, a distance, seconds) or in natural units (an
accuracy). To put every cell of every claim on one axis, each effect is drawn
as an *advantage in margins*: the advantage of the method the paper favours
(the log of the ratio, or the difference, signed so that positive is the
paper's direction) divided by the claim's margin on the same scale
(:attr:`common.judging.Margin.advantage`). So 0 is no difference, +1 a gain as
large as the margin and -1 a loss as large as it, whatever the cell's units: a
"better" cell is supported when its interval lies right of 0, a "no worse" cell
when it lies right of -1.

:func:`plot_effects` draws one paper (a forest plot, one row per cell, grouped
by claim, coloured by the cell's judgement, with each cell's typical seed beside its mean; :func:`save_effects`
saves it in parts of at most about 2,000 px); :func:`plot_claims` draws every
claim of every paper in one row for the scorecard (its verdict and the shares
of its cells).
"""
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from common import paths, plotting, provenance, verdict_tables

#: Colour of each cell judgement.
JUDGEMENT_COLOURS = {"supported": "#1b9e77", "undecided": "#7f7f7f", "contradicted": "#d95f02",
                     "not comparable": "#7570b3"}
#: Advantages beyond this many margins are drawn at the edge, with an arrow (a factor 1.1**100, about 14,000).
CLIP = 100.0
#: The tallest forest plot, in inches: about 2,000 px at the figures' 150 dpi; a paper with more cells is drawn in
#: parts (:func:`save_effects`), each with its axis at the top and the bottom.
MAX_HEIGHT = 13.0
#: Height of one row (a cell or a claim's label) and of the gap after a claim, in inches, and of the axes' frame.
ROW_HEIGHT, CLAIM_GAP, FRAME_HEIGHT = 0.16, 0.4, 1.3


def advantage_in_margins(effects, columns=("estimate", "low", "high")):
    """``(estimate, low, high)`` arrays of each cell's advantage in units of its margin (module docstring).

    Parameters
    ----------
    effects : pandas.DataFrame
        Rows of ``figures/<key>/effects.csv`` (:data:`common.verdict_tables.EFFECT_COLUMNS`).
    columns : tuple of str, default ("estimate", "low", "high")
        The effect's columns: the mean's, or the typical seed's (``("typical", "typical_low", "typical_high")``).
    """
    ratio = (effects["scale"] == "ratio").to_numpy()
    sign = np.where(effects["higher_is_better"].astype(bool).to_numpy(), 1.0, -1.0)
    margin = np.where(ratio, np.log1p(effects["margin"].to_numpy(float)), effects["margin"].to_numpy(float))
    scaled = []
    for column in columns:
        values = effects[column].to_numpy(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            values = np.where(ratio, np.log(values), values)
        scaled.append(sign * values / margin)
    estimate, low, high = scaled
    return estimate, np.minimum(low, high), np.maximum(low, high)


def _draw_cells(ax, y, effects):
    estimate, low, high = (np.clip(values, -CLIP, CLIP) for values in advantage_in_margins(effects))
    colours = [JUDGEMENT_COLOURS[name] for name in effects["judgement"]]
    ax.hlines(y, low, high, colors=colours, linewidth=1.4)
    ax.scatter(estimate, y, c=colours, s=12, zorder=3)
    # The typical seed beside the mean: an open diamond, so a mean carried by a few seeds shows as a gap.
    typical = np.clip(advantage_in_margins(effects, ("typical", "typical_low", "typical_high"))[0], -CLIP, CLIP)
    ax.scatter(typical, y, facecolors="none", edgecolors=colours, marker="D", s=14, linewidths=0.8, zorder=3)
    for side in (-CLIP, CLIP):
        at_edge = np.isclose(low if side < 0 else high, side)
        ax.scatter(np.full(at_edge.sum(), side), y[at_edge], marker="<" if side < 0 else ">",
                   c=np.array(colours, dtype=object)[at_edge].tolist() or None, s=14, zorder=3)


def _reference_lines(ax):
    # Linear within one margin, logarithmic beyond: the decisions happen near 0 and +-1, the spread reaches far.
    ax.set_xscale("symlog", linthresh=1.0, linscale=1.0)
    ax.axvline(0.0, color="black", linewidth=0.8)
    for side in (-1.0, 1.0):
        ax.axvline(side, color="black", linewidth=0.8, linestyle="--")
    ax.set_xlim(-CLIP * 1.3, CLIP * 1.3)
    ax.set_xticks([-100, -10, -1, 0, 1, 10, 100], ["-100", "-10", "-1", "0", "1", "10", "100"])


def _legend(ax, title=""):
    handles = [plt.Line2D([], [], color=colour, marker="o", linewidth=1.4, markersize=4, label=name)
               for name, colour in JUDGEMENT_COLOURS.items()]
    handles.append(plt.Line2D([], [], color="black", marker="D", markerfacecolor="none", linewidth=0,
                              markersize=4, label="median seed (typical per-seed effect)"))
    # The figure's title heads the legend: a title of its own would share the row above the axes with it.
    ax.figure.legend(handles=handles, loc="outside upper left", ncol=3, fontsize=8, title=title or None,
                     title_fontsize=9, alignment="left")


def plot_effects(effects, verdicts, *, title=""):
    """A forest plot of one paper's judged cells, one row each, grouped by claim with its verdict.

    Parameters
    ----------
    effects : pandas.DataFrame
        The cells (``verdict_table.attrs["effects"]`` or ``figures/<key>/effects.csv``).
    verdicts : pandas.DataFrame
        The verdict table, for each claim's verdict in the group labels.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure or None
        None when no claim was judged by estimation (nothing to draw).
    """
    if effects.empty:
        return None
    # The cells are the paper scale's: where a confirmation on fresh seeds leads, name both verdicts.
    exploratory = verdicts["exploratory"] if "exploratory" in verdicts else pd.Series("", index=verdicts.index)
    verdict_of = {claim: verdict if not before else f"{verdict} on fresh seeds; these cells: {before}"
                  for claim, verdict, before in zip(verdicts["id"], verdicts["verdict"], exploratory)}
    claim_ids = list(dict.fromkeys(effects["id"]))
    rows, labels, y, position = [], [], [], 0.0
    group_labels = []
    for claim_id in claim_ids:
        cells = effects[effects["id"] == claim_id]
        group_labels.append((position, f"{claim_id}: {verdict_of.get(claim_id, '')}"))
        position += 1
        for label in cells["cell"]:
            labels.append((position, str(label)))
            y.append(position)
            position += 1
        rows.append(cells)
        position += CLAIM_GAP
    fig, ax = plt.subplots(figsize=(7.5, FRAME_HEIGHT + ROW_HEIGHT * position), layout="constrained")
    _reference_lines(ax)
    _draw_cells(ax, np.array(y), pd.concat(rows))
    ax.set_yticks([at for at, _ in labels], [text for _, text in labels], fontsize=6)
    for at, text in group_labels:
        ax.text(-CLIP * 1.25, at, text, fontsize=7, fontweight="bold", va="center", ha="left")
    ax.set_ylim(position, -1)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("advantage in margins (> 0: the paper's direction)")
    # The axis at the top too: a tall plot is read from either end.
    ax.tick_params(axis="x", top=True, labeltop=True)
    _legend(ax, title)
    return fig


def split_claims(effects, max_height=MAX_HEIGHT):
    """The claims of ``effects`` in consecutive parts whose forest plots are at most ``max_height`` inches tall
    (a claim is never split; one taller than that is a part of its own). Returns a list of DataFrames."""
    parts, current, height = [], [], FRAME_HEIGHT
    for claim_id in dict.fromkeys(effects["id"]):
        cells = effects[effects["id"] == claim_id]
        needed = ROW_HEIGHT * (1 + len(cells) + CLAIM_GAP)
        if current and height + needed > max_height:
            parts.append(pd.concat(current))
            current, height = [], FRAME_HEIGHT
        current.append(cells)
        height += needed
    if current:
        parts.append(pd.concat(current))
    return parts


def save_effects(effects, verdicts, paper_key, *, title=""):
    """Draw a paper's forest plot (:func:`plot_effects`) in parts of at most :data:`MAX_HEIGHT` and save them as
    ``figures/<paper_key>/verdict_effects.png`` and ``verdict_effects_2.png``, ... (parts left from an earlier,
    longer drawing are removed). Returns the figures, which stay open for the notebook to show."""
    parts = split_claims(effects) if not effects.empty else []
    figures = []
    for number, part in enumerate(parts, start=1):
        label = f"{title} (part {number} of {len(parts)})" if len(parts) > 1 else title
        fig = plot_effects(part, verdicts, title=label)
        plotting.save_figure(fig, paper_key, "verdict_effects" if number == 1 else f"verdict_effects_{number}")
        figures.append(fig)
    folder = paths.figures_dir(paper_key)
    for stale in folder.glob("verdict_effects_*.*"):
        number = stale.stem.rsplit("_", 1)[-1]
        if number.isdigit() and int(number) > len(parts):
            stale.unlink()
    return figures


def show_effects(figures):
    """Show the parts of a paper's forest plot (:func:`save_effects`) in the notebook, each with its caption."""
    for number, fig in enumerate(figures, start=1):
        part = f" (part {number} of {len(figures)})" if len(figures) > 1 else ""
        plotting.show_figure(fig, f"The effect of every cell of this paper's claims{part}, in units of its claim's "
                                  f"margin, against no difference. " + margin_units_note())


#: Colour of each claim verdict in :func:`plot_claims` (the judgement colours, paler for "partly").
VERDICT_COLOURS = {"reproduced": "#1b9e77", "partly reproduced": "#66c2a5", "inconclusive": "#7f7f7f",
                   "not reproduced": "#d95f02", "not comparable": "#7570b3", "not run at this scale": "#bdbdbd"}
CELL_SHARES = ("supported", "undecided", "not comparable", "contradicted")


def deciding_cells(key, verdicts):
    """The cells that decide each claim's headline verdict: ``figures/<key>/effects.csv`` (the paper's seeds), with
    the cells of a claim whose verdict a confirmation decides (``exploratory`` filled) taken from the fresh seeds'
    ``effects_confirmatory.csv`` (:data:`common.verdict_tables.CONFIRMATORY_EFFECTS`) instead; an empty table where the
    notebook wrote no cells.

    Parameters
    ----------
    key : str
        The notebook's key (its folder of figures).
    verdicts : pandas.DataFrame
        Its verdict table (``figures/<key>/verdicts.csv``).
    """
    folder = paths.figures_dir(key)
    if not provenance.looked_for(folder / "effects.csv"):
        return pd.DataFrame()
    cells = pd.read_csv(folder / "effects.csv")
    confirmed = set(verdicts.loc[verdicts["exploratory"] != "", "id"]) if "exploratory" in verdicts else set()
    if provenance.looked_for(folder / verdict_tables.CONFIRMATORY_EFFECTS):
        fresh = pd.read_csv(folder / verdict_tables.CONFIRMATORY_EFFECTS)
        cells = pd.concat([cells[~cells["id"].isin(confirmed)], fresh[fresh["id"].isin(confirmed)]],
                          ignore_index=True)
    return cells


def _claim_rows(verdicts, effects):
    """One row per empirical claim: its id, verdict, exploratory verdict and its cells' shares (None: no cells)."""
    rows = []
    for claim in verdicts[verdicts["kind"] == "empirical"].itertuples(index=False):
        cells = effects[effects["id"] == claim.id] if not effects.empty else effects
        shares = None
        if len(cells):
            shares = [float((cells["judgement"] == name).mean()) for name in CELL_SHARES]
        rows.append({"id": claim.id, "verdict": claim.verdict, "exploratory": getattr(claim, "exploratory", ""),
                     "shares": shares, "cells": len(cells)})
    return rows


def plot_claims(verdicts_by_paper, effects_by_paper, *, columns=2):
    """Every empirical claim of every paper in one row: its verdict and the shares of its judged cells.

    Each row is a bar over the cells that decide the claim's verdict (at the paper's seeds, or on the fresh seeds
    where a confirmation decides it): the share supported, undecided, not comparable and contradicted, left to
    right; right of it the claim's verdict, and where a confirmation on fresh seeds is the verdict, the paper-scale
    one beside it. Claims without cells (a count, a threshold on one number) show the
    verdict alone. The papers are laid out in ``columns`` columns of about equal height.

    Parameters
    ----------
    verdicts_by_paper : mapping of str to pandas.DataFrame
        Paper key -> its verdict table (``figures/<key>/verdicts.csv``).
    effects_by_paper : mapping of str to pandas.DataFrame
        Paper key -> the cells that decide its claims (:func:`deciding_cells`); a paper may have none.

    Returns
    -------
    matplotlib.figure.Figure or None
        None when no paper has an empirical claim.
    """
    papers = {key: _claim_rows(verdicts, effects_by_paper.get(key, pd.DataFrame()))
              for key, verdicts in verdicts_by_paper.items()}
    papers = {key: rows for key, rows in papers.items() if rows}
    if not papers:
        return None
    # Fill the columns greedily, each paper whole, so that they end about level.
    heights = [0.0] * columns
    layout = [[] for _ in range(columns)]
    for key, rows in papers.items():
        shortest = heights.index(min(heights))
        layout[shortest].append(key)
        heights[shortest] += len(rows) + 2
    tallest = max(heights)
    fig, axes = plt.subplots(1, columns, figsize=(5.2 * columns, 0.8 + 0.15 * tallest), constrained_layout=True,
                             squeeze=False)
    for ax, keys in zip(axes[0], layout):
        y = 0.0
        for key in keys:
            ax.text(-0.02, y, key, fontsize=8, fontweight="bold", ha="right", va="center")
            y += 1
            for row in papers[key]:
                ax.text(-0.02, y, row["id"], fontsize=5.5, ha="right", va="center")
                if row["shares"] is None:
                    ax.text(0.5, y, "no cells", fontsize=5, ha="center", va="center", color="#7f7f7f")
                else:
                    left = 0.0
                    for name, share in zip(CELL_SHARES, row["shares"]):
                        ax.barh(y, share, left=left, height=0.7, color=JUDGEMENT_COLOURS[name], linewidth=0)
                        left += share
                verdict = row["verdict"]
                text = verdict + (f" (fresh seeds; paper's: {row['exploratory']})" if row["exploratory"] else "")
                ax.text(1.03, y, text, fontsize=5.5, ha="left", va="center",
                        color=VERDICT_COLOURS.get(verdict, "black"), fontweight="bold")
                y += 1
            y += 1
        ax.set_xlim(0, 1)
        ax.set_ylim(tallest, -1)
        ax.set_yticks([])
        ax.set_xticks([0, 0.5, 1], ["0", "½", "all"], fontsize=6)
        ax.set_xlabel("share of the claim's cells", fontsize=7)
        ax.grid(False)
        for side in ("left", "right", "top"):
            ax.spines[side].set_visible(False)
    handles = [plt.Rectangle((0, 0), 1, 1, color=JUDGEMENT_COLOURS[name], label=f"cells {name}")
               for name in CELL_SHARES]
    fig.legend(handles=handles, loc="outside upper center", ncol=len(CELL_SHARES), fontsize=7, frameon=False)
    return fig


def claims_note():
    """The caption of :func:`plot_claims`'s figure, for the scorecard."""
    return ("One row per empirical claim of each paper, and of the arena. The bar splits the cells that decide the "
            "claim's verdict (one comparison on one problem: at the paper's seeds, or on the fresh seeds where a "
            "confirmation decides the verdict) into supported, undecided, not comparable and contradicted, left to "
            "right; right of it, the claim's verdict, and where a confirmation on fresh seeds decides it, the "
            "paper-scale verdict beside it. \"No cells\": a claim judged on one number (a count, a threshold). "
            "Every cell's effect with its interval is in each notebook's `verdict_effects.png` and "
            "`figures/<key>/effects.csv` (on fresh seeds: `effects_confirmatory.csv`).")


def margin_units_note():
    """The caption's sentence on the axis, for notebooks and the scorecard."""
    return (f"Each row is one cell of a claim (one comparison on one problem): the dot is the effect, the bar its "
            f"95 % interval (expanded percentile bootstrap over the seeds), in units of the claim's margin, positive "
            f"in the paper's direction (0: no difference, dashed: ±1 margin; the axis is linear within ±1 and logarithmic "
            f"beyond, where a ratio's factor 2 is 7.3 margins of a factor 1.1; beyond ±{CLIP:g} drawn at the edge). "
            f"Green: supported, grey: undecided, orange: contradicted, purple: not comparable (at least 90 % of the "
            f"seeds tie).")
