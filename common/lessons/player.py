"""A slider over precomputed frames, for pages that have no Python kernel (the static site, a notebook read as it is).

In Jupyter a lesson's interactive figure is an ``ipywidgets`` slider on a plain drawing function. Without a kernel
nothing can redraw it, so the lesson draws the same function once per value of a short list of slider positions,
and :func:`player_html` packs those frames into matplotlib's JavaScript player (``Animation.to_jshtml``): an image,
a slider and play buttons, every frame embedded as a PNG, nothing fetched. :func:`show_player` displays it in the
notebook inside a ``<figure>`` with its caption, so that the companion site, which renders the committed outputs,
shows a figure the reader can move.

matplotlib's player is adjusted in four ways (:func:`offline_player`): the Font Awesome stylesheet it links from a
CDN is dropped and its button icons become plain characters (it works offline and fetches nothing), its random
element id becomes one derived from the player's name (the notebook's output is the same at every execution), and
its image gets alt text and the first frame as its source (a page whose scripts do not run, such as a notebook
Jupyter does not trust yet, still shows a figure).
"""
import hashlib
import html
import re

import matplotlib
from matplotlib.animation import FuncAnimation
from matplotlib.figure import Figure

from common import plotting

#: Resolution of the frames: the notebook's own (a frame of 6 x 3.8 in is 600 x 380 px, about 45 KB), whose 10-point
#: labels stay legible; at 80 dpi they were 8 px high.
FRAME_DPI = 100
#: Frames a second when the player's play button runs them.
FRAMES_PER_SECOND = 1.5
#: The button icons of matplotlib's player (Font Awesome classes), as plain characters that common fonts have (the
#: media symbols U+23EE-U+23F8 show as empty boxes in Debian's chromium); each button also has its title.
BUTTON_SYMBOLS = {"fa-minus": "\u2212", "fa-fast-backward": "|\u25c0", "fa-step-backward": "\u25c0\u258f",
                  "fa-play fa-flip-horizontal": "\u25c0", "fa-pause": "||", "fa-play": "\u25b6",
                  "fa-step-forward": "\u2595\u25b6", "fa-fast-forward": "\u25b6|", "fa-plus": "+"}
#: The class of the ``<figure>`` around a player; the site's scripts leave its image alone (no link to full size).
PLAYER_CLASS = "lesson-player"


def player_html(draw, frames, *, name, alt, figsize=(6.0, 3.8), dpi=FRAME_DPI):
    """Draw ``draw(frame, fig)`` for every frame and return matplotlib's JavaScript player of the images.

    Every frame is checked against the figure rules (:func:`common.plotting.figure_problems`,
    :func:`common.plotting.legends_on_curves`) as a saved figure would be.

    Parameters
    ----------
    draw : callable
        ``draw(frame, fig)`` draws one frame into the empty :class:`~matplotlib.figure.Figure` ``fig``.
    frames : sequence
        What ``draw`` needs for each position of the slider, in the slider's order.
    name : str
        Names the player: its element ids derive from it, so two players of a page need two names.
    alt : str
        The image's alt text: what the frames show.
    figsize : (float, float)
        Inches.
    dpi : int
        Pixels per inch of the embedded frames.

    Returns
    -------
    str
        HTML with its script, to display (:func:`show_player`).

    Raises
    ------
    ValueError
        If a frame breaks a figure rule, naming the frame.
    """
    frames = list(frames)
    if not frames:
        raise ValueError("frames is empty; give at least one frame")
    fig = Figure(figsize=figsize, layout="constrained")

    def draw_frame(index):
        fig.clear()
        draw(frames[index], fig)

    for index in range(len(frames)):  # the figure rules, checked once per frame before anything is embedded
        draw_frame(index)
        fig.draw_without_rendering()
        problems = plotting.figure_problems(fig) + plotting.legends_on_curves(fig)
        if problems:
            raise ValueError(f"player {name!r}, frame {index}: " + "; ".join(problems))
    animation = FuncAnimation(fig, draw_frame, frames=len(frames), repeat=False)
    with matplotlib.rc_context({"savefig.dpi": dpi, "animation.frame_format": "png"}):
        raw = animation.to_jshtml(fps=FRAMES_PER_SECOND, default_mode="once")
    return offline_player(raw, name=name, alt=alt)


def offline_player(raw, *, name, alt):
    """matplotlib's player HTML (``Animation.to_jshtml``) without the CDN stylesheet, with plain-character buttons,
    element ids derived from ``name`` instead of a random one, ``alt`` as its image's alt text and its first frame
    as the image's source until the script takes over."""
    found = re.search(r'id="_anim_img([0-9a-f]+)"', raw)
    if found is None:
        raise ValueError("not matplotlib's player: no element _anim_img<id>")
    stable = "p" + hashlib.sha256(name.encode()).hexdigest()[:16]
    text = raw.replace(found.group(1), stable)
    text = re.sub(r'<link rel="stylesheet"\s+href="https?://[^"]*font-awesome[^"]*">\s*', "", text)
    for icon, symbol in BUTTON_SYMBOLS.items():
        text = text.replace(f'<i class="fa {icon}"></i>', symbol)
    if 'class="fa ' in text:
        raise ValueError("matplotlib's player uses an icon this module does not replace; add it to BUTTON_SYMBOLS")
    first = re.search(r'frames\[0\] = "(data:image/png;base64,[^"]*)"', text)
    if first is None:
        raise ValueError("matplotlib's player embeds no PNG frame (embed_frames=True, frame format png)")
    source = first.group(1).replace("\\\n", "")
    return text.replace(f'<img id="_anim_img{stable}">',
                        f'<img id="_anim_img{stable}" alt="{html.escape(alt, quote=True)}" src="{source}">')


def show_player(player, caption):
    """Show a player (:func:`player_html`) in the notebook inside a ``<figure>`` with ``caption`` under it.

    The caption says what the frames show, then, after a semicolon, how to move them (as
    :func:`common.plotting.show_figure`'s captions do). Outside a notebook the caption is printed.
    """
    from IPython import get_ipython
    from IPython.display import HTML, display

    if get_ipython() is None:
        print(caption)
        return
    display(HTML(f'<figure class="{PLAYER_CLASS}">\n{player}\n<figcaption>{html.escape(caption)}</figcaption>\n'
                 f'</figure>'))
