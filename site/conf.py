"""Sphinx configuration of the companion site.

``python site/build.py`` copies this file, ``_ext/`` and ``_static/`` into the staging source folder it
writes (``_site/source/`` by default) beside the notebooks and the generated pages, and builds from there.
The notebooks are rendered from their committed outputs: nothing is executed and nothing is fetched.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "Bayesian optimization papers, reproduced"
author = "the BO papers companion"
copyright = "the BO papers companion"  # noqa: A001 (Sphinx's name)

extensions = ["myst_nb", "companion"]

# The committed notebooks, as committed: never executed at build time.
nb_execution_mode = "off"
# Each printed line stays where the cell printed it: merged, a sentence printed after a table moved above it.
nb_merge_streams = False
nb_output_stderr = "show"
# Outputs in text/markdown (the notebooks' tables, verdict_tables.show_table) are GitHub-flavoured markdown; myst-nb's
# default, CommonMark, has no tables and would print their pipes as one paragraph.
nb_render_markdown_format = "gfm"

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "attrs_block"]
myst_heading_anchors = 3

exclude_patterns = ["_build", "**.ipynb_checkpoints", "_ext", "_static/mathjax"]
master_doc = root_doc = "index"

html_theme = "sphinx_book_theme"
html_title = "BO papers, reproduced"
html_static_path = ["_static"]
html_css_files = ["companion.css"]
html_js_files = ["scorecard.js", "companion.js"]
html_favicon = "_static/favicon.png"
html_last_updated_fmt = None
html_show_sourcelink = True
html_copy_source = True
html_sourcelink_suffix = ""  # the download button gives the committed .ipynb itself
# Light by default (the figures and the notebooks' tables are drawn on white); the theme's switch changes it.
html_context = {"default_mode": "light"}
html_theme_options = {
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "show_toc_level": 2,
    "use_download_button": True,
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "navigation_with_keys": False,
    "launch_buttons": {},
    "navbar_persistent": [],  # one search box (the sidebar's), not a second one in an otherwise empty header
    "footer_content_items": [],
    "search_bar_text": "Search the notebooks, scorecard and code",
    # A query goes to search.html; results as you type would load the whole search index into every page
    # (build.py removes its tags from the other pages).
    "search_as_you_type": False,
}
# MathJax 3 from the pinned django-static-mathjax wheel, copied into _static by build.py: no CDN.
mathjax_path = "mathjax/tex-mml-chtml.js"
