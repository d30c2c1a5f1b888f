"""The course's lessons: what each one computes and draws, as plain functions a widget or a test can call.

One module per lesson (:mod:`common.lessons.gp_regression`, :mod:`common.lessons.acquisition`,
:mod:`common.lessons.bo_loop`, :mod:`common.lessons.reading_papers`), each built on the library (GP, kernels,
acquisitions, optimizers, BO loop) with no second implementation; :mod:`common.lessons.player` turns precomputed
frames into a slider that works without a kernel (the static site); :mod:`common.lessons.students` makes a student's
copy of a lesson without its solutions (``python -m common.lessons strip IN OUT``). The lessons' notebooks are registered like the papers'
(``common/experiments/lesson*.py``, ``KIND = "lesson"``), so ``reproduce.py`` runs them.

This module holds what every lesson's notebook uses: :func:`live` (a figure's sliders in Jupyter, and only there:
unlike a bare ``ipywidgets.interact``, it opens no widget in a batch execution), :func:`answer` (an exercise's
answer, shown under its solution) and :func:`stored_arrays` (a figure's precomputed numbers).
"""
import os

from common import store

#: Set to "1" to show a lesson's live sliders (:func:`live`) wherever the notebook runs, to "0" never to show them.
LIVE_VARIABLE = "BO_LIVE_WIDGETS"
#: Set by Jupyter Server (Jupyter Lab, Notebook 7) in the environment of every kernel it starts for a notebook.
JUPYTER_SESSION_VARIABLE = "JPY_SESSION_NAME"
#: What a slider's keyword of :func:`live` may be: ``(low, high, step)`` or a list of choices (ipywidgets'
#: abbreviations, :func:`ipywidgets.interact`).
SLIDER_FORMS = "(low, high, step) or a list of choices"


def widgets_are_live():
    """Whether :func:`live` draws sliders: in a kernel Jupyter Server started for a notebook, unless
    :data:`LIVE_VARIABLE` says otherwise.

    A batch execution (``reproduce.py``, papermill, nbval, nbconvert) gets no sliders: nobody can move them, their
    state would enter the committed notebook with random ids, and nbclient can wait for ever on a cell that opens
    widgets (jupyter/nbclient#312, seen here with ipykernel 7). The committed outputs show the player instead.
    """
    forced = os.environ.get(LIVE_VARIABLE)
    if forced not in (None, "", "0", "1"):
        raise ValueError(f"{LIVE_VARIABLE} must be '1' (sliders), '0' (no sliders) or unset; got {forced!r}")
    if forced:
        return forced == "1"
    return bool(os.environ.get(JUPYTER_SESSION_VARIABLE))


def live(draw, sliders):
    """Show sliders on ``draw`` in Jupyter (:func:`slider_widget`), print a one-line note elsewhere.

    Parameters
    ----------
    draw : callable
        Returns a :class:`matplotlib.figure.Figure` for the keyword arguments the sliders set (e.g.
        :func:`common.lessons.gp_regression.posterior_figure`).
    sliders : dict
        ``{argument: (low, high, step) or [choices]}`` (e.g. ``gp_regression.POSTERIOR_SLIDERS``).

    Where sliders are not live (:func:`widgets_are_live`), the note says what they would move and that the player
    below shows positions drawn in advance.

    Raises
    ------
    ValueError
        If a slider is neither ``(low, high, step)`` nor a non-empty list of choices (checked everywhere, so that a
        batch execution catches it too).
    """
    check_sliders(sliders)
    if not widgets_are_live():
        print(f"Live in Jupyter: sliders for {', '.join(sliders)} redraw this figure. Here (executed without a "
              f"browser), the player below moves through positions drawn in advance.")
        return
    from IPython.display import display

    display(slider_widget(draw, sliders))


def check_sliders(sliders):
    """Raise ValueError, naming the slider, unless every one is ``(low, high, step)`` or a non-empty list."""
    for name, form in sliders.items():
        if not (isinstance(form, list) and form or isinstance(form, tuple) and len(form) == 3):
            raise ValueError(f"slider {name!r} must be {SLIDER_FORMS}; got {form!r}")


def slider_widget(draw, sliders):
    """What ``ipywidgets.interact(draw, **sliders)`` shows, not yet displayed: one slider (or drop-down) per
    argument, the figure ``draw`` returns under them, redrawn whenever one moves (:func:`check_sliders` first)."""
    check_sliders(sliders)
    import matplotlib.pyplot  # noqa: F401  (selects the inline backend, which shows a returned Figure as an image)
    from ipywidgets import interact

    # interact's factory, not a bare ipywidgets.interactive: only interact's options display what draw returns
    return interact(**sliders).widget(draw)


def answer(text):
    """Show an exercise's answer under its solution: ``text`` as Markdown headed "Answer." (printed outside a
    notebook). It belongs in the solution's cell (tagged ``solution``), so that the site folds it with the code and
    a student's copy drops it; numbers in it are the solution's, formatted into ``text``."""
    from IPython import get_ipython
    from IPython.display import Markdown, display

    if get_ipython() is None:
        print(f"Answer. {text}")
    else:
        display(Markdown(f"*Answer.* {text}"))


def without_settings(arrays, config):
    """``arrays`` without the entries that ``config`` holds: what a lesson's ``run`` stores (the store keeps a run's
    settings in its configuration, and refuses a result that repeats them)."""
    return {name: value for name, value in arrays.items() if name not in config}


def stored_arrays(config):
    """The arrays one of a lesson's computations stored (its experiment module's ``run``), by its configuration,
    with the configuration's settings beside them (as the computing function returns them).

    A lesson's notebook first loads or computes its whole grid (``run_grid(make_grid(params), run)``); its figures
    are then drawn from these stored arrays, never from a computation repeated at drawing time, so that a figure's
    pixels do not depend on the last bits of this machine's BLAS (the regeneration check compares them byte for
    byte under other BLAS kernels).

    Raises
    ------
    LookupError
        If the computation is not stored: it is not in the grid the notebook ran.
    """
    return {**config, **store.load_run(config).result}
