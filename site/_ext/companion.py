"""Sphinx extension of the companion site: every figure of a notebook page links to the code that draws it.

``site/build.py`` writes ``companion.json`` beside the staged notebooks: per notebook page, its paper key, its
modules' code pages and, per code cell with an image output, the library functions (and the notebook's own
functions) that the cell uses. This extension

* gives every code cell of a notebook page the anchor ``cell-<index>`` (the cell's index in the notebook);
* puts a line under every cell that draws a figure: "Code for this figure: the cell above · <functions>",
  each linked to its section on the code pages (``code/common/...html#<name>``);
* puts a banner under the notebook's title: the committed notebook it renders, its code, its verdicts, and how
  to run it in Jupyter Lab;
* on every page, turns an inline ``common/....py`` (or ``reproduce.py``) into a link to that file's code page;
* leaves out of a code cell's shown source its first line where that is a marker for the tests
  (``# NBVAL_CHECK_OUTPUT``: nbval compares the cell's output), which says nothing to a reader;
* makes each figure of a notebook a ``<figure>``: the image, with alt text from what its caption says it shows, and
  the caption that ``common.plotting.show_figure`` displays under it as its ``<figcaption>``;
* marks the cell that prints the verdict table (``verdict-table``), which ``companion.js`` shows as its id, figure,
  verdict and effect columns, and puts under it a link to the paper's claims on the scorecard, where each has its
  reason;
* folds every cell tagged ``solution`` (a lesson's exercise solutions, which myst-nb marks ``tag_solution``) into a
  closed ``<details>`` that the student opens after trying, without any script;
* folds every section whose heading the notebook keeps collapsed (JupyterLab's ``jp-MarkdownHeadingCollapsed``,
  listed in ``companion.json``) into a closed ``<details>`` under its title, and the output of every cell it keeps
  collapsed (``jupyter.outputs_hidden``) into a closed ``<details>``.
"""
import html
import json
import re
from pathlib import Path

from docutils import nodes


def _companion(app):
    data = getattr(app.env, "companion_data", None)
    if data is None:
        path = Path(app.srcdir) / "companion.json"
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"notebooks": {}}
        app.env.companion_data = data
    return data


def _link(refuri, text, literal=False, classes=()):
    child = nodes.literal(text, text) if literal else nodes.Text(text)
    return nodes.reference("", "", child, refuri=refuri, internal=True, classes=list(classes))


def add_links(app, doctree, docname):
    page = _companion(app)["notebooks"].get(docname)
    if page is None:
        return

    def uri(doc, anchor=None, query=None):
        base = app.builder.get_relative_uri(docname, doc) if doc else ""
        return base + (f"?{query}" if query else "") + (f"#{anchor}" if anchor else "")

    figures = 0
    for cell in list(doctree.findall(nodes.container)):
        if cell.get("nb_element") != "cell_code":
            continue
        index = cell.get("cell_index")
        cell["ids"].append(f"cell-{index}")
        source = _drop_test_marker(cell)
        if source.strip() == VERDICT_TABLE_SOURCE and page["has_verdicts"]:
            cell["classes"].append("verdict-table")
            note = nodes.paragraph(classes=["verdict-table-link"])
            note += nodes.Text("Shown here: each claim's id, figure, verdict and effect. Its statement, the paper's "
                               "numbers and ours, and the reason for its verdict: ")
            note += _link(uri("scorecard", query=f"paper={page['key']}"), "this paper's claims on the scorecard")
            note += nodes.Text(" (or the notebook itself).")
            cell.parent.insert(cell.parent.index(cell) + 1, note)
        make_figures(cell)
        links = page["figure_links"].get(str(index))
        if links is None or not draws_a_figure(cell):
            continue
        figures += 1
        line = nodes.paragraph(classes=["figure-code"])
        line += nodes.Text("Code for this figure: ")
        line += _link(uri(None, f"cell-{index}"), "the cell above")
        for link in links:
            line += nodes.Text(" · ")
            line += _link(uri(link["doc"], link["anchor"]), link["text"], literal=True)
        if page["modules"]:
            line += nodes.Text(" · all of ")
            module = page["modules"][0]
            line += _link(uri(module["doc"]), module["module"].replace(".", "/") + ".py", literal=True)
        cell.parent.insert(cell.parent.index(cell) + 1, line)

    fold_solutions(doctree)
    fold_sections(doctree, page.get("folded", ()))
    fold_outputs(doctree)
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        return
    banner = nodes.container(classes=["companion-banner"])
    first = nodes.paragraph()
    first += nodes.Text("This page is the committed notebook ")
    first += nodes.literal(page["notebook"], page["notebook"])
    first += nodes.Text(" with the outputs of its published configuration, rendered without running it "
                        "(the download button at the top gives the .ipynb file). ")
    if figures:
        first += nodes.Text(f"Under each of its {figures} figures, a line links to the code that draws it.")
    banner += first
    code = nodes.paragraph()
    code += nodes.Text("Code: ")
    for number, module in enumerate(page["modules"]):
        if number:
            code += nodes.Text(" · ")
        code += _link(uri(module["doc"]), module["module"].replace(".", "/") + ".py", literal=True)
        code += nodes.Text(f" ({module['role']})")
    if page["has_verdicts"]:
        code += nodes.Text(". Verdicts: ")
        code += _link(uri("scorecard", query=f"paper={page['key']}"), page["counts"])
    code += nodes.Text(".")
    banner += code
    if page.get("lesson"):
        course = nodes.paragraph()
        course += nodes.Text("A lesson of the course (see ")
        course += _link(uri("course"), "the teacher's page")
        course += nodes.Text("). Its sliders are live in Jupyter; here each interactive figure is a player over "
                             "positions drawn in advance. Each exercise's solution is folded under it: try first, "
                             "then open it.")
        banner += course
    run = nodes.paragraph()
    run += nodes.Text("To run it yourself and change its parameters: ")
    command = f"jupyter lab {page['notebook']}"
    run += nodes.literal(command, command)
    run += nodes.Text(" (see ")
    run += _link(uri("readme", "opening-a-notebook-in-jupyter-lab"), "opening a notebook in Jupyter Lab")
    run += nodes.Text(").")
    banner += run
    title_index = next((i for i, child in enumerate(section.children) if isinstance(child, nodes.title)), -1)
    section.insert(title_index + 1, banner)


def draws_a_figure(cell):
    """Whether a rendered cell shows a figure: an image, or a lesson's player (raw HTML with its own image)."""
    return (next(iter(cell.findall(nodes.image)), None) is not None
            or any('class="lesson-player"' in raw.astext() for raw in cell.findall(nodes.raw)))


#: The tag of an exercise's solution cell (``common.lessons.students.SOLUTION_TAG``), as myst-nb's class.
SOLUTION_CLASS = "tag_solution"
#: What the closed fold of a solution says.
SOLUTION_SUMMARY = "Solution (open it after trying the exercise)"


def fold_solutions(doctree):
    """Put every solution cell into a closed ``<details class="solution">`` headed :data:`SOLUTION_SUMMARY`; return
    how many. Raw HTML around the cell's node: docutils has no details element, and the fold needs no script."""
    cells = [cell for cell in doctree.findall(nodes.container)
             if cell.get("nb_element") == "cell_code" and SOLUTION_CLASS in cell["classes"]]
    for cell in cells:
        opening = nodes.raw("", f'<details class="solution"><summary>{SOLUTION_SUMMARY}</summary>\n', format="html")
        cell.parent.insert(cell.parent.index(cell), opening)
        cell.parent.insert(cell.parent.index(cell) + 1, nodes.raw("", "</details>\n", format="html"))
    return len(cells)


def _plain(heading):
    """A heading as words: the markdown's marks (math dollars, backquotes, stars) and typographic quotes set aside, so
    that the notebook's source and the page's title compare."""
    text = heading.translate(str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}))
    return " ".join(re.sub(r"[$`*]", "", text).split())


def fold_sections(doctree, headings):
    """Put the body of each section titled by one of ``headings`` (the notebook's collapsed headings) into a closed
    ``<details class="folded-section">`` under its title, whose summary says what it holds; return how many.

    Raises
    ------
    ValueError
        If a heading names no section of the page (a renamed heading would otherwise unfold silently).
    """
    wanted = {_plain(heading) for heading in headings}
    sections = [section for section in doctree.findall(nodes.section)
                if section.children and isinstance(section[0], nodes.title) and _plain(section[0].astext()) in wanted]
    missing = wanted - {_plain(section[0].astext()) for section in sections}
    if missing:
        raise ValueError(f"collapsed heading(s) {sorted(missing)} match no section of the page")
    for section in sections:
        tables = sum(1 for _ in section.findall(nodes.table))
        figures = sum(1 for _ in section.findall(nodes.image))
        holds = ", ".join(f"{count} {name}{'s' if count != 1 else ''}"
                          for count, name in ((figures, "figure"), (tables, "table")) if count)
        summary = "Open this section" + (f" ({holds})" if holds else "")
        section.insert(1, nodes.raw("", f'<details class="folded-section"><summary>{summary}</summary>\n',
                                    format="html"))
        section.append(nodes.raw("", "</details>\n", format="html"))
    return len(sections)


#: The cell metadata that names a folded output in its summary (else the output's first words name it).
FOLD_SUMMARY = "fold_summary"


def fold_outputs(doctree):
    """Put the output of each code cell the notebook keeps collapsed (JupyterLab's ``jupyter.outputs_hidden``) into a
    closed ``<details class="folded-output">``, whose summary is the cell's :data:`FOLD_SUMMARY` or else the output's
    first words up to a colon or a bracket (e.g. "What the numbers show"); return how many."""
    folded = 0
    for cell in list(doctree.findall(nodes.container)):
        if cell.get("nb_element") != "cell_code" or not cell.get("cell_metadata", {}).get("jupyter", {}).get(
                "outputs_hidden"):
            continue
        output = next((child for child in cell.children if child.get("nb_element") == "cell_code_output"), None)
        if output is None:
            continue
        first = cell["cell_metadata"].get(FOLD_SUMMARY) or re.split(r"[:(]", output.astext().strip(), maxsplit=1)[0]
        summary = f"Open: {html.escape(first.strip()[:80])}"
        output.parent.insert(output.parent.index(output), nodes.raw(
            "", f'<details class="folded-output"><summary>{summary}</summary>\n', format="html"))
        output.parent.insert(output.parent.index(output) + 1, nodes.raw("", "</details>\n", format="html"))
        folded += 1
    return folded


#: The first line of a cell that nbval checks (its output is compared), a marker for the tests, not for readers.
TEST_MARKER = re.compile(r"^# NBVAL_\w+[^\n]*\n")
#: The source of the cell that prints a paper's verdict table.
VERDICT_TABLE_SOURCE = "verdict_tables.show_table(verdict_table)"


def _drop_test_marker(cell):
    """Remove a leading test marker from the source shown in ``cell``; return the source as shown."""
    block = next((node for node in cell.findall(nodes.literal_block)
                  if node.parent.get("nb_element") == "cell_code_source"), None)
    if block is None:
        return ""
    text = block.astext()
    shown = TEST_MARKER.sub("", text, count=1)
    if shown != text:
        block.clear()
        block += nodes.Text(shown)
        block.rawsource = shown
    return shown


#: The caption that ``common.plotting.show_figure`` displays under a figure, an HTML output of the same cell.
CAPTION_HTML = re.compile(r'<p class="figure-caption">(.*?)</p>', re.S)
#: The longest alt text, cut at a word.
ALT_LENGTH = 240


def make_figures(cell):
    """Turn every image output of ``cell`` that a caption output follows into a figure: the image, with alt text
    from the caption (:func:`alt_text`), and the caption as its ``<figcaption>``; return how many."""
    output = next((child for child in cell.children if child.get("nb_element") == "cell_code_output"), None)
    if output is None:
        return 0
    children = list(output.children)
    made = 0
    for shown, following in zip(children, children[1:]):
        image = next(iter(shown.findall(nodes.image)), None)
        raw = next(iter(following.findall(nodes.raw)), None)
        found = CAPTION_HTML.search(raw.astext()) if raw is not None else None
        if image is None or found is None:
            continue
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())
        image["alt"] = alt_text(text)
        figure = nodes.figure(classes=["notebook-figure"], ids=[f"cell-{cell.get('cell_index')}-figure-{made + 1}"])
        output.replace(shown, figure)
        figure += shown
        figure += nodes.caption(text, text)
        output.remove(following)
        made += 1
    return made


def alt_text(caption):
    """A figure's alt text: what its caption says it shows, the part before the first "; " (the rest says how to
    read it), at most :data:`ALT_LENGTH` characters."""
    first = caption.split("; ", 1)[0].rstrip(".")
    return first if len(first) <= ALT_LENGTH else first[:ALT_LENGTH].rsplit(" ", 1)[0] + " ..."


CODE_PATH = re.compile(r"^(?:common/[\w/]+|reproduce)\.py$")


def link_code_paths(app, doctree, docname):
    for literal in list(doctree.findall(nodes.literal)):
        text = literal.astext()
        if not CODE_PATH.match(text) or isinstance(literal.parent, nodes.reference):
            continue
        target = "code/" + text[:-len(".py")]
        if target == docname or target not in app.env.found_docs:
            continue
        reference = nodes.reference("", "", refuri=app.builder.get_relative_uri(docname, target), internal=True)
        literal.replace_self(reference)
        reference += literal


def setup(app):
    app.connect("doctree-resolved", add_links)
    app.connect("doctree-resolved", link_code_paths)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
