"""What the tests of lessons 2-4 check of every widget: its drawing function at each end of each slider, within
the project's figure rules, and every range slider's ends on its step."""
import numpy as np
import pytest

from common import plotting


def end_values(slider):
    """The two ends of an ``ipywidgets.interact`` abbreviation: (low, high, step) or a list of choices."""
    return [slider[0], slider[1]] if isinstance(slider, tuple) else [slider[0], slider[-1]]


def slider_ends(widgets):
    """(function, keyword arguments) for every end of every slider, the other sliders at their defaults."""
    for function, sliders in widgets:
        for name, slider in sliders.items():
            for value in end_values(slider):
                yield pytest.param(function, {name: value}, id=f"{function.__name__}-{name}={value}")


def assert_follows_the_figure_rules(fig):
    fig.draw_without_rendering()
    assert plotting.figure_problems(fig) + plotting.legends_on_curves(fig) == []


def assert_every_slider_end_lies_on_its_step(widgets):
    for _, sliders in widgets:
        for name, slider in sliders.items():
            if isinstance(slider, tuple):
                low, high, step = slider
                assert np.isclose(round((high - low) / step) * step, high - low), name
