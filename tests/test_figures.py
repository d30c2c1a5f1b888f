"""Every committed figure is a picture a reader can use: it decodes, and it draws data.

The project draws its data in colour (curves, bands, markers, heat maps) and its
frames, ticks, labels and grids in black and greys. A figure saved from empty
axes, or with every curve clipped away, has no coloured pixel. The check reads
the committed PNGs themselves: what the README, the notebooks and the site show.
"""
import matplotlib.image
import numpy as np
import pytest

from common import paths

FIGURES = sorted(paths.repo_root().glob("figures/**/*.png"))
#: The sparsest committed figure (a dot plot of a few cells) colours about 0.2 % of its pixels; an empty frame none.
LEAST_COLOURED_SHARE = 0.001


def _coloured_share(image):
    """The share of pixels with a colour, not a grey: their largest and smallest channels differ by more than 0.15."""
    rgb = image[..., :3]
    return float(np.mean(rgb.max(axis=-1) - rgb.min(axis=-1) > 0.15))


def test_the_figures_folder_holds_the_figures_of_every_paper():
    assert {figure.parent.name for figure in FIGURES} >= {
        "bo_basics", "bo_pp", "random_exploration", "add_gp_ucb", "mini_gp_opt", "egp_ts"}


@pytest.mark.parametrize("figure", FIGURES, ids=lambda figure: str(figure.relative_to(paths.repo_root())))
def test_a_committed_figure_decodes_and_draws_data_in_colour(figure):
    image = matplotlib.image.imread(figure)
    assert image.shape[0] >= 200 and image.shape[1] >= 200, f"{figure.name} is {image.shape[1]}x{image.shape[0]} px"
    assert _coloured_share(image) >= LEAST_COLOURED_SHARE, f"{figure.name} draws no data: hardly a coloured pixel"


def test_the_coloured_share_tells_an_empty_frame_from_a_plot(tmp_path):
    import matplotlib.pyplot as plt

    def saved(draw):
        fig, ax = plt.subplots(figsize=(4, 3))
        ax.set(title="t", xlabel="x", ylabel="y")
        draw(ax)
        path = tmp_path / f"{len(list(tmp_path.iterdir()))}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        return _coloured_share(matplotlib.image.imread(path))

    x = np.linspace(0, 1, 50)
    empty = saved(lambda ax: None)
    curves = saved(lambda ax: [ax.fill_between(x, x ** 2 - 0.2, x ** 2 + 0.2, alpha=0.3), ax.plot(x, x ** 2, lw=2)])
    assert empty < LEAST_COLOURED_SHARE <= curves
