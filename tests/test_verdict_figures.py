"""The pictures of the verdicts: forest plots a reader can hold, parts of at most about 2,000 px."""
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from common import paths, plotting, verdict_figures, verdict_tables


def _effects(cells_per_claim):
    rows = []
    for number, n_cells in enumerate(cells_per_claim):
        for cell in range(n_cells):
            rows.append({"id": f"claim-{number}", "cell": f"cell {cell}", "claim": "better", "scale": "ratio",
                         "estimate": 0.8, "low": 0.6, "high": 1.05, "typical": 0.9, "typical_low": 0.7,
                         "typical_high": 1.1, "margin": 0.1, "margin_source": "project default",
                         "higher_is_better": False, "seeds": 20, "wins": 12, "ties": 0, "losses": 8,
                         "p_value": 0.2, "judgement": "undecided", "seeds_to_decide": 60})
    return pd.DataFrame(rows, columns=list(verdict_tables.EFFECT_COLUMNS))


def _verdicts(effects):
    ids = list(dict.fromkeys(effects["id"]))
    return pd.DataFrame({"id": ids, "verdict": ["inconclusive"] * len(ids), "exploratory": [""] * len(ids)})


def test_parts_hold_every_claim_whole_and_in_order():
    effects = _effects([12, 3, 30, 8, 25, 40, 1, 12])
    parts = verdict_figures.split_claims(effects)
    assert pd.concat(parts).equals(effects)
    assert all(len(set(part["id"]).intersection(other["id"])) == 0
               for i, part in enumerate(parts) for other in parts[i + 1:])


@pytest.mark.parametrize("cells_per_claim", [[4], [12] * 6, [30, 2, 45, 9, 12]])
def test_each_saved_part_is_at_most_about_2000_px_tall(cells_per_claim, tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "figures_dir", lambda key: tmp_path / key)
    effects = _effects(cells_per_claim)
    figures = verdict_figures.save_effects(effects, _verdicts(effects), "toy", title="toy")
    heights = [fig.get_size_inches()[1] * plotting.STYLE["savefig.dpi"] for fig in figures]
    assert max(heights) <= 2000
    saved = sorted(path.name for path in (tmp_path / "toy").glob("verdict_effects*.png"))
    assert len(saved) == len(figures)
    plt.close("all")


def test_fewer_parts_remove_the_parts_left_from_a_longer_drawing(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "figures_dir", lambda key: tmp_path / key)
    long, short = _effects([40] * 6), _effects([4])
    verdict_figures.save_effects(long, _verdicts(long), "toy")
    verdict_figures.save_effects(short, _verdicts(short), "toy")
    assert sorted(path.name for path in (tmp_path / "toy").glob("verdict_effects*.png")) == ["verdict_effects.png"]
    plt.close("all")


def test_the_typical_seed_is_drawn_beside_the_mean():
    effects = _effects([3])
    fig = verdict_figures.plot_effects(effects, _verdicts(effects))
    mean_at, *_ = verdict_figures.advantage_in_margins(effects)
    typical_at, *_ = verdict_figures.advantage_in_margins(effects, ("typical", "typical_low", "typical_high"))
    drawn = [tuple(np.round(collection.get_offsets()[:, 0], 9)) for collection in fig.axes[0].collections
             if len(collection.get_offsets()) == 3]
    assert tuple(np.round(mean_at, 9)) in drawn and tuple(np.round(typical_at, 9)) in drawn
    plt.close(fig)


def test_a_claim_decided_on_fresh_seeds_is_drawn_with_its_fresh_cells(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "figures_dir", lambda key: tmp_path / key)
    (tmp_path / "toy").mkdir()
    paper = _effects([2, 3])
    fresh = _effects([4, 1]).assign(judgement="supported", seeds=240)
    paper.to_csv(tmp_path / "toy" / "effects.csv", index=False)
    fresh.to_csv(tmp_path / "toy" / verdict_tables.CONFIRMATORY_EFFECTS, index=False)
    verdicts = _verdicts(paper).assign(exploratory=["inconclusive", ""], kind="empirical")  # claim-0: confirmed
    cells = verdict_figures.deciding_cells("toy", verdicts)
    assert sorted(cells.groupby("id")["seeds"].max().items()) == [("claim-0", 240), ("claim-1", 20)]
    assert (cells["id"] == "claim-0").sum() == 4 and (cells["id"] == "claim-1").sum() == 3
    (row,) = [row for row in verdict_figures._claim_rows(verdicts, cells) if row["id"] == "claim-0"]
    assert row["shares"][0] == 1.0  # all supported: the fresh cells, not the paper seeds' undecided ones
