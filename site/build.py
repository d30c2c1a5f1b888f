"""Build the companion site from the committed, executed notebooks: ``python site/build.py``.

Nothing is executed and nothing is downloaded: the notebooks are rendered with the outputs they were
committed with (myst-nb, execution "off"), MathJax comes from the pinned ``django-static-mathjax`` wheel,
and the theme (sphinx-book-theme) ships its own assets. Needs ``pip install -r requirements-site.txt``.

The build writes, under ``--out`` (default ``_site/``, not tracked):

``source/``
    the Sphinx project: ``conf.py``, ``_ext/`` and ``_static/`` from this folder, a copy of every registered
    notebook, and the generated pages (landing page, scorecard, README, the pages of ``docs/``, the teacher's page,
    code pages, ``companion.json``);
``html/``
    the site; open ``html/index.html``, or serve it: ``python -m http.server -d _site/html``.

Every build starts from an empty ``html/``, so building twice gives the same site.
"""
import common  # noqa: F401  (first, as everywhere: it pins BLAS's threads and kernels before numpy loads)

import argparse  # noqa: E402
import ast  # noqa: E402
import csv  # noqa: E402
import html  # noqa: E402
import importlib  # noqa: E402
import importlib.util  # noqa: E402
import inspect  # noqa: E402
import json  # noqa: E402
import posixpath  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from common.checks import IDENTITY_VERDICTS, VERDICTS  # noqa: E402
from common.verdict_tables import format_counts  # noqa: E402
from common.experiments import NOTEBOOKS, load_experiment  # noqa: E402

SITE = Path(__file__).resolve().parent
REPO = SITE.parent
DEFAULT_OUT = REPO / "_site"
#: Python files that get a code page: the library, and the script that draws the scorecard's figure.
CODE_ROOTS = ("common", "reproduce.py")
#: Markdown files of the repository shown as pages (beside README.md, shown as ``readme``, and ``docs/*.md``).
DATA_PAGES = ("data/datasets/README.md", "data/nas_cells/README.md")
#: The documentation's pages: every ``docs/*.md`` is a page of the site at the same path (``docs/judging.md`` ->
#: ``docs/judging.html``), listed under "About" in this order (pages not named here follow, by name); the course's
#: page, :data:`COURSE_PAGE`, is the teacher's page instead.
DOCS = "docs"
DOCS_ORDER = ("judging", "papers", "substitutes", "scales-and-caching", "jupyter", "dask", "site", "tests",
              "reproducibility", "layout")
#: What each kind of module does, as a paper page's banner says it.
MODULE_ROLES = (("common.experiments.{key}", "experiments: grid, run function, figures"),
                ("common.experiments.{key}_claims", "claims and their checks"),
                ("common.experiments.{key}_findings", "what the numbers show"),
                ("common.methods.{key}", "the paper's method"),
                ("common.lessons.{topic}", "the lesson's computations and drawings"))
#: The documentation's page that is also the site's teacher's page (``course.html``), whole.
COURSE_PAGE = "docs/course.md"
VERDICT_ORDER = tuple(VERDICTS) + tuple(IDENTITY_VERDICTS)
NUMBER_WORDS = dict(enumerate(("No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")))


# ---------------------------------------------------------------------------------------------- helpers

#: Every file this build staged (written or found unchanged); what else is in the source folder is a leftover.
_STAGED = set()


def write_if_changed(path, content):
    """Write ``content`` (str or bytes) to ``path`` unless it already holds exactly that."""
    _STAGED.add(Path(path).resolve())
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode() if isinstance(content, str) else content
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)
    return path


def esc(text):
    return html.escape(" ".join(str(text).split()), quote=True)


def read_csv(path):
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def notebook_entries():
    """One dict per registered notebook, in the registry's order, the course's lessons first, then the teaching
    notebook, the papers and the arena."""
    entries = []
    for key in NOTEBOOKS:
        module = load_experiment(key)
        kind = getattr(module, "KIND", None)
        verdicts = read_csv(REPO / "figures" / key / "verdicts.csv")
        counts = {verdict: sum(row["verdict"] == verdict for row in verdicts) for verdict in VERDICT_ORDER}
        entries.append({"key": key, "title": module.TITLE, "notebook": module.NOTEBOOK,
                        "outputs": list(module.OUTPUTS), "docname": f"notebooks/{Path(module.NOTEBOOK).stem}",
                        "lesson": kind == "lesson", "arena": kind == "arena",
                        "teaching": kind != "lesson" and "teaching" in module.TITLE.lower(), "verdicts": verdicts,
                        "exercises": count_solutions(REPO / "notebooks" / module.NOTEBOOK) if kind == "lesson" else 0,
                        "counts": format_counts(counts) if verdicts else "no verdicts yet"})
    order = {"lesson": 0, "teaching": 1, "arena": 3}
    return sorted(entries, key=lambda entry: next((rank for name, rank in order.items() if entry[name]), 2))


def count_solutions(path):
    """How many cells of a notebook are tagged ``solution`` (its exercises' solutions)."""
    if not path.exists():
        return 0
    cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    return sum("solution" in cell.get("metadata", {}).get("tags", []) for cell in cells)


# ------------------------------------------------------------------------------------------ code pages

def code_files():
    """Repository-relative paths of the Python files that get a code page."""
    files = []
    for root in CODE_ROOTS:
        path = REPO / root
        files += [path] if path.is_file() else sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
    return [p.relative_to(REPO).as_posix() for p in files]


def module_name(relpath):
    name = relpath[:-3].replace("/", ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


def code_docname(relpath):
    return "code/" + relpath[:-3]


def definitions(source):
    """``[(name, kind, first line)]`` of the top-level functions and classes (decorators and comments included)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # shown whole, without sections
        return []
    lines = source.splitlines()
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            while start > 1 and lines[start - 2].lstrip().startswith("#"):
                start -= 1
            found.append((node.name, "class" if isinstance(node, ast.ClassDef) else "def", start))
    return found


def fence_for(code):
    longest = max((len(run) for run in re.findall(r"`{3,}", code)), default=2)
    return "`" * max(3, longest + 1)


def code_block(lines, first_line):
    code = "\n".join(lines).rstrip()
    fence = fence_for(code)
    return (f"{fence}{{code-block}} python\n:linenos:\n:lineno-start: {first_line}\n\n{code}\n{fence}\n")


def code_page(relpath):
    """A page with the file's source, one section per top-level function or class (anchor: its name)."""
    source = (REPO / relpath).read_text(encoding="utf-8")
    lines = source.splitlines()
    defs = definitions(source)
    parts = [f"# `{relpath}`\n",
             f"The source of `{relpath}` as it is in the repository, split at each top-level function and class "
             f"(line numbers are the file's). Anchors are the names, e.g. "
             f"`{code_docname(relpath).split('/')[-1]}.html#{defs[0][0] if defs else 'name'}`.\n"]
    starts = [start for _, _, start in defs] + [len(lines) + 1]
    head = lines[:starts[0] - 1]
    if any(line.strip() for line in head):
        parts.append(code_block(head, 1))
    for (name, kind, start), end in zip(defs, starts[1:]):
        parts.append(f'<span id="{name}" class="code-anchor"></span>\n\n## `{kind} {name}`\n')
        parts.append(code_block(lines[start - 1:end - 1], start))
    return "\n".join(parts), [name for name, _, _ in defs]


def write_code_pages(source_dir):
    """Write every code page and the code index; return ``{module name: (docname, {top-level names})}``."""
    pages = {}
    for relpath in code_files():
        text, names = code_page(relpath)
        docname = code_docname(relpath)
        write_if_changed(source_dir / f"{docname}.md", text)
        pages[module_name(relpath)] = (docname, set(names))
    groups = {}
    for relpath in code_files():
        package = posixpath.dirname(relpath) or "(scripts)"
        groups.setdefault(package, []).append(relpath)
    index = ["# The code\n",
             "Every module of the shared library `common/`, and `reproduce.py`, as they are in the repository. "
             "A paper's experiments (its grid, run function, figures) are in `common/experiments/<key>.py`, its "
             "claims as a table in `common/experiments/<key>_claims.py` (how each is measured: `<key>_measures.py`; what "
             "the numbers show: `<key>_findings.py`), its method in `common/methods/<key>.py`. Each figure of a notebook "
             "page links to the functions of the cell that draws it.\n"]
    for package, files in sorted(groups.items(), key=lambda item: (item[0] == "(scripts)", item[0])):
        index.append("## Scripts\n" if package == "(scripts)" else f"## `{package}/`\n")
        index += [f"- [`{relpath}`]({code_docname(relpath)[len('code/'):]}.md)" for relpath in files]
        index.append("")
    index.append("```{toctree}\n:hidden:\n\n" + "\n".join(code_docname(p)[len("code/"):] for p in code_files())
                 + "\n```\n")
    write_if_changed(source_dir / "code" / "index.md", "\n".join(index))
    return pages


# ------------------------------------------------------------------------- figure -> code links

def cell_source(cell):
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def parse_cell(source):
    """The cell's syntax tree, IPython magics and shell escapes blanked out; None if it does not parse."""
    cleaned = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    try:
        return ast.parse(cleaned)
    except SyntaxError:
        return None


def is_figure_output(output):
    """Whether a cell's output draws a figure: an image, or a lesson's player (``common.lessons.player``)."""
    data = output.get("data", {})
    html_text = data.get("text/html", "")
    html_text = "".join(html_text) if isinstance(html_text, list) else html_text
    return "image/png" in data or "image/svg+xml" in data or 'class="lesson-player"' in html_text


def dotted(node):
    """``["a", "b", "c"]`` for the expression ``a.b.c``, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id] + parts[::-1]
    return None


def is_module(name):
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


class Linker:
    """Finds the library functions and notebook functions that a figure's cell uses, with where they are."""

    def __init__(self, code_pages):
        self.code_pages = code_pages

    def anchor_of(self, obj):
        """``(docname, anchor, shown name)`` of a function or class of the library, else None."""
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            return None
        module = getattr(obj, "__module__", "") or ""
        name = getattr(obj, "__name__", "")
        page = self.code_pages.get(module)
        if page is None or name not in page[1] or getattr(obj, "__qualname__", name) != name:
            return None
        return page[0], name, f"{module}.{name}"

    def resolve(self, namespace, parts):
        """Resolve a dotted name used in a cell against the notebook's ``common`` imports."""
        head = namespace.get(parts[0])
        if head is None:
            return None
        try:
            obj = importlib.import_module(head[1]) if head[0] == "module" else \
                getattr(importlib.import_module(head[1]), head[2])
            for attr in parts[1:]:
                if inspect.ismodule(obj) and not hasattr(obj, attr) and is_module(f"{obj.__name__}.{attr}"):
                    obj = importlib.import_module(f"{obj.__name__}.{attr}")
                else:
                    obj = getattr(obj, attr)
                if not inspect.ismodule(obj):
                    break
        except (ImportError, AttributeError):
            return None
        return self.anchor_of(obj)

    def notebook_links(self, notebook):
        """``{cell index: [link, ...]}`` for every code cell with an image output.

        A link is ``{"text", "doc", "anchor"}``; ``doc`` None means an anchor of the notebook's own page
        (``cell-<index>``, which the companion extension gives every code cell).
        """
        cells = notebook["cells"]
        namespace, defined, trees = {}, {}, {}
        for index, cell in enumerate(cells):
            if cell.get("cell_type") != "code":
                continue
            tree = parse_cell(cell_source(cell))
            trees[index] = tree
            for node in (tree.body if tree else []):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        if alias.name.split(".")[0] == "common":
                            local = alias.asname or alias.name.split(".")[0]
                            namespace[local] = ("module", alias.name if alias.asname else local)
                elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "common":
                    for alias in node.names:
                        full = f"{node.module}.{alias.name}"
                        namespace[alias.asname or alias.name] = ("module", full) if is_module(full) else \
                            ("object", node.module, alias.name)
                elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    defined[node.name] = (index, node)
        links = {}
        for index, cell in enumerate(cells):
            outputs = cell.get("outputs", []) if cell.get("cell_type") == "code" else []
            if not any(is_figure_output(output) for output in outputs) or trees.get(index) is None:
                continue
            found = []
            self._collect(trees[index], namespace, defined, index, found, depth=0)
            unique, seen = [], set()
            for link in found:
                if (link["doc"], link["anchor"]) not in seen:
                    seen.add((link["doc"], link["anchor"]))
                    unique.append(link)
            links[str(index)] = unique
        return links

    def _collect(self, tree, namespace, defined, index, found, depth):
        names = []
        for node in ast.walk(tree):
            if isinstance(node, (ast.Attribute, ast.Name)):
                parts = dotted(node)
                if parts:
                    names.append((node.lineno, node.col_offset, parts))
        used = set()
        for _, _, parts in sorted(names, key=lambda item: (item[0], item[1], -len(item[2]))):
            if parts[0] in used and len(parts) == 1:
                continue
            if parts[0] in namespace:
                target = self.resolve(namespace, parts)
                if target is not None:
                    found.append({"text": target[2], "doc": target[0], "anchor": target[1]})
                    used.add(parts[0])
            elif len(parts) == 1 and parts[0] in defined and depth == 0:
                where, definition = defined[parts[0]]
                if where != index:
                    found.append({"text": f"{parts[0]} (this notebook)", "doc": None, "anchor": f"cell-{where}"})
                # what the notebook's own function uses from the library, one level down
                self._collect(definition, namespace, defined, index, found, depth=1)
                used.add(parts[0])


# ------------------------------------------------------------------------------------ link rewriting

def rewrite_markdown(text, repo_relpath, staged, code_pages_by_file, wrap_tables=True):
    """Point a repository Markdown file's relative links at the site's pages.

    ``staged`` maps repository paths to the site's source paths of the files the site has (notebooks,
    README-like pages, ``REPRODUCTION.md`` -> the scorecard); a ``.py`` file goes to its code page; any other
    relative target (a folder, a CSV) is unlinked, its text kept. `` `common/x.py` `` code spans become links.
    """
    here = posixpath.dirname(repo_relpath)
    staged_here = posixpath.dirname(staged[repo_relpath])

    def target_for(target):
        path, _, fragment = target.partition("#")
        if not path:
            return target
        if re.match(r"^[a-z]+:", path):
            return target
        full = posixpath.normpath(posixpath.join(here, path))
        site_path = staged.get(full) or (code_pages_by_file.get(full) and code_pages_by_file[full] + ".md")
        if site_path is None:
            return None
        return posixpath.relpath(site_path, staged_here or ".") + (f"#{fragment}" if fragment else "")

    def link(match):
        label, target = match.group(1), match.group(2)
        new = target_for(target)
        return label if new is None else f"[{label}]({new})"

    def code_span(match):
        path = match.group(1)
        site_path = code_pages_by_file.get(path)
        if site_path is None:
            return match.group(0)
        return f"[`{path}`]({posixpath.relpath(site_path + '.md', staged_here or '.')})"

    out, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced:
            line = re.sub(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)", link, line)
            line = re.sub(r"(?<!\[)`((?:common/[\w/]+|reproduce)\.py)`(?!\])", code_span, line)
            if wrap_tables and line.startswith("|") and not (out and out[-1].startswith("|")):
                # a prose table: its cells wrap anywhere rather than push the table past the page
                out += ([""] if out and out[-1].strip() else []) + ["{.wrap-table}"]
        out.append(line)
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------------------- the pages

def thumbnail(key, destination):
    """A 480-pixel-wide copy of the paper's first figure, for the landing page; its name, or None."""
    from PIL import Image

    summary_path = REPO / "figures" / key / "summary.json"
    names = json.loads(summary_path.read_text())["figures"] if summary_path.exists() else []
    pngs = [name for name in names if name.endswith(".png") and (REPO / "figures" / key / name).exists()]
    pngs = [name for name in pngs if name.startswith("fig")] or pngs
    if not pngs:
        return None
    with Image.open(REPO / "figures" / key / pngs[0]) as image:
        image = image.convert("RGB")
        image.thumbnail((480, 480 * image.height // max(image.width, 1)))
        destination.parent.mkdir(parents=True, exist_ok=True)
        from io import BytesIO
        buffer = BytesIO()
        image.save(buffer, format="PNG", optimize=True)
    write_if_changed(destination, buffer.getvalue())
    return pngs[0]


def landing_page(entries, source_dir):
    cards = []
    for entry in entries:
        key = entry["key"]
        shown = thumbnail(key, source_dir / "_static" / "thumbs" / f"{key}.png")
        image = (f'<a href="{entry["docname"]}.html"><img class="card-thumb" src="_static/thumbs/{key}.png" '
                 f'alt="{esc(entry["title"])}: {esc(shown)}"></a>') if shown else ""
        if entry["lesson"]:
            cards.append(lesson_card(entry, image))
            continue
        kind = "teaching notebook" if entry["teaching"] else "arena" if entry["arena"] else "paper"
        claims = (f'<a href="scorecard.html?paper={key}">{esc(entry["counts"])}</a>' if entry["verdicts"]
                  else esc(entry["counts"]))
        claims_label = "Hypotheses" if entry["arena"] else "Claims"
        cards.append(f"""<div class="paper-card" data-key="{key}">
{image}
<div class="card-body">
<p class="card-kind">{kind} · <code>{key}</code></p>
<p class="card-title"><a href="{entry['docname']}.html">{esc(entry['title'])}</a></p>
<p class="card-outputs">Regenerates: {esc(', '.join(entry['outputs']))}</p>
<p class="card-claims">{claims_label}: {claims}</p>
<p class="card-links"><a href="{entry['docname']}.html">notebook</a> ·
<a href="code/common/experiments/{key}.html">experiment code</a> ·
<a href="scorecard.html?paper={key}">verdicts</a></p>
</div>
</div>""")
    lessons = [entry for entry in entries if entry["lesson"]]
    lesson_cards = [card for card, entry in zip(cards, entries) if entry["lesson"]]
    cards = [card for card, entry in zip(cards, entries) if not entry["lesson"]]
    papers = [entry for entry in entries if not entry["teaching"] and not entry["arena"] and not entry["lesson"]]
    teaching = [entry for entry in entries if entry["teaching"]]
    arena = [entry for entry in entries if entry["arena"]]
    course_toc = "\n".join(["course", *(entry["docname"] for entry in lessons)])
    toc_notebooks = "\n".join(entry["docname"] for entry in entries if not entry["lesson"])
    course = f"""
## The course

{NUMBER_WORDS.get(len(lessons), str(len(lessons)))} lessons of a course on Bayesian optimization, each a 90-minute
lecture with learning goals, figures a student can move (sliders in Jupyter, players here), exercises with their
solutions folded, and a summary. **[The teacher's page](course.md)** says which lesson goes with which lecture,
what to show live, and how to run the course offline in a classroom.

```{{raw}} html
<div class="paper-cards course-cards">
{chr(10).join(lesson_cards)}
</div>
```

```{{toctree}}
:hidden:
:caption: Course

{course_toc}
```
""" if lessons else ""
    data_docs = "\n".join([*(path[:-3] for path in docs_pages()),
                           *(path[:-3] for path in DATA_PAGES if (REPO / path).exists())])
    count = NUMBER_WORDS.get(len(papers), str(len(papers)))
    return f"""---
html_theme.sidebar_secondary.remove: true
---

# Bayesian optimization papers, reproduced

{count} papers on Bayesian optimization, each with one notebook that regenerates its figures and tables from our
own runs, shows them beside the paper's numbers and gives a verdict for every claim;
{"and a teaching notebook that introduces GP regression, acquisition functions and the BO loop. " if teaching else ""}
{"An arena puts the papers' methods side by side on one suite of problems, with one budget and the same initial "
 "points, and asks which idea helps where, and at what cost. " if arena else ""}
These pages are the committed notebooks as they were executed, rendered without running anything. To run them
yourself, and change their parameters, open them in Jupyter Lab
([how](readme.md#opening-a-notebook-in-jupyter-lab)).

- **[The scorecard](scorecard.md)**: every claim of every paper with its verdict, effect size and interval, filterable
  by paper and verdict.
- **[How a claim is judged](docs/judging.md#how-a-claim-is-judged)**, the
  **[substitutes](docs/substitutes.md#substitutes)** used where a paper's data cannot be had offline, and the
  **[scales](docs/scales-and-caching.md#scales-and-the-published-configuration)** (smoke, quick, paper) of every
  notebook; all the documentation starts from the [README](readme.md).
- **[The code](code/index.md)**: every module of the shared library; each figure links to the functions that draw it.
- **Search** (the box at the top left, or press Ctrl+K) covers the notebooks, the scorecard and the code.
{course}
## The notebooks

```{{raw}} html
<div class="paper-cards">
{chr(10).join(cards)}
</div>
```

```{{toctree}}
:hidden:
:caption: Notebooks

{toc_notebooks}
```

```{{toctree}}
:hidden:
:caption: Results

scorecard
```

```{{toctree}}
:hidden:
:caption: About

readme
{data_docs}
```

```{{toctree}}
:hidden:
:caption: Code

code/index
```
"""


def lesson_card(entry, image):
    """A lesson's card on the landing page: what it covers, its exercises, links to it and its code."""
    key = entry["key"]
    exercises = entry["exercises"]
    return f"""<div class="paper-card lesson-card" data-key="{key}">
{image}
<div class="card-body">
<p class="card-kind">lesson · <code>{key}</code></p>
<p class="card-title"><a href="{entry['docname']}.html">{esc(entry['title'])}</a></p>
<p class="card-outputs">Figures: {esc(', '.join(entry['outputs']))}</p>
<p class="card-claims">Exercises: {exercises}, each with its checked solution (folded)</p>
<p class="card-links"><a href="{entry['docname']}.html">lesson</a> ·
<a href="code/common/experiments/{key}.html">its computations</a> ·
<a href="course.html">teacher's page</a></p>
</div>
</div>"""


def course_page(staged, code_pages_by_file):
    """The teacher's page (``course.md``): :data:`COURSE_PAGE`, whole, its links pointing at the site's pages."""
    path = REPO / COURSE_PAGE
    if not path.is_file():
        raise SystemExit(f"error: {COURSE_PAGE} is missing: it is the site's teacher's page")
    return rewrite_markdown(path.read_text(encoding="utf-8"), COURSE_PAGE, staged, code_pages_by_file)


def format_interval(row):
    try:
        estimate, low, high = (float(row[name]) for name in ("estimate", "low", "high"))
    except (TypeError, ValueError):
        return esc(row.get("estimate", ""))
    if row.get("scale") == "ratio":
        return f"{estimate:.3g}× [{low:.3g}, {high:.3g}]"
    return f"{estimate:+.3g} [{low:+.3g}, {high:+.3g}]"


def cells_table(cells):
    if not cells:
        return ""
    rows = []
    for cell in cells:
        wins = "/".join(cell.get(name, "") for name in ("wins", "ties", "losses"))
        rows.append(f"<tr><td>{esc(cell.get('cell', ''))}</td><td class='num'>{esc(format_interval(cell))}</td>"
                    f"<td>{esc(cell.get('claim', ''))}</td><td class='num'>{esc(wins)}</td>"
                    f"<td class='num'>{esc(cell.get('seeds', ''))}</td>"
                    f"<td>{esc(cell.get('judgement', ''))}</td></tr>")
    return ("<table class='cells'><thead><tr><th>cell</th><th>effect [95 % interval]</th><th>claim</th>"
            "<th>W/T/L</th><th>seeds</th><th>judgement</th></tr></thead><tbody>" + "".join(rows)
            + "</tbody></table>")


def verdict_class(verdict):
    return "verdict-" + re.sub(r"[^a-z]+", "-", verdict.lower()).strip("-")


def scorecard_page(entries, source_dir, staged, code_pages_by_file):
    """The scorecard: REPRODUCTION.md's preamble and figure, then every claim in one filterable, sortable table."""
    reproduction = REPO / "REPRODUCTION.md"
    preamble = ""
    if reproduction.exists():
        text = reproduction.read_text(encoding="utf-8")
        preamble = text.split("\n## ", 1)[0].split("\n", 1)[1] if "\n" in text else ""
        preamble = preamble.replace("(figures/scorecard_claims.png)", "(_static/scorecard_claims.png)")
        preamble = rewrite_markdown(preamble, "REPRODUCTION.md", staged, code_pages_by_file, wrap_tables=False)
    # the table first; REPRODUCTION.md's figure of every judged cell, and its caption, after it
    lines = preamble.strip().splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("![")), len(lines))
    preamble, drawn = "\n".join(lines[:at]).strip(), "\n".join(lines[at:]).strip()
    figure = REPO / "figures" / "scorecard_claims.png"
    if figure.exists():
        write_if_changed(source_dir / "_static" / "scorecard_claims.png", figure.read_bytes())
    rows, papers, verdicts_present = [], [], set()
    for entry in entries:
        key = entry["key"]
        if not entry["verdicts"]:
            continue
        papers.append(key)
        effects = {}
        for cell in read_csv(REPO / "figures" / key / "effects.csv"):
            effects.setdefault(cell["id"], []).append(cell)
        for number, row in enumerate(entry["verdicts"]):
            verdict = row.get("verdict", "")
            verdicts_present.add(verdict)
            rank = VERDICT_ORDER.index(verdict) if verdict in VERDICT_ORDER else len(VERDICT_ORDER)
            cells = effects.get(row.get("id", ""), [])
            effect = esc(row.get("effect", ""))
            exploratory = row.get("exploratory", "")
            if len(cells) == 1 and not exploratory:  # the cells are the paper scale's; a confirmed effect is not
                effect = f"<span class='interval'>{esc(format_interval(cells[0]))}</span><br>" \
                         f"<span class='small'>{effect}</span>"
            margin = row.get("margin", "")
            shown_margin = margin if len(margin) <= 60 else "per cell, in the details"
            effect = (effect or "—") + (f"<br><span class='small'>margin {esc(shown_margin)}</span>" if margin else "")
            details = [("Check", row.get("check")), ("The paper", row.get("paper")), ("Ours", row.get("ours")),
                       ("Why this verdict", row.get("reason")), ("Margin", margin),
                       ("Exploratory verdict (the paper's seeds)", exploratory),
                       ("Verdict by the p-value rule", row.get("verdict_by_p_value")),
                       ("Seeds that would decide it", row.get("seeds_to_decide")),
                       ("Confirmatory", row.get("confirmatory")), ("Disclosure", row.get("disclosure")),
                       ("Scale", row.get("scale"))]
            body = "".join(f"<dt>{name}</dt><dd>{esc(value)}</dd>" for name, value in details if value)
            anchor = f"claim-{key}-{re.sub(r'[^A-Za-z0-9_-]+', '-', row.get('id', ''))}"
            summary = "why, our numbers, the paper's" + (f", {len(cells)} cells" if cells else "")
            rows.append(
                f'<tr id="{anchor}" data-paper="{key}" data-id="{esc(row.get("id", ""))}" '
                f'data-verdict="{esc(verdict)}" data-kind="{esc(row.get("kind", ""))}" data-order="{len(rows)}">'
                f'<td data-sort="{key}"><a href="{entry["docname"]}.html">{key}</a></td>'
                f'<td data-sort="{esc(row.get("id", ""))}"><code>{esc(row.get("id", ""))}</code>'
                f'<br><span class="small">{esc(row.get("figure", ""))}</span></td>'
                f'<td class="statement">{esc(row.get("statement", ""))}'
                f'<details><summary>{summary}</summary><dl>{body}</dl>{cells_table(cells)}</details></td>'
                f'<td data-sort="{rank:02d}"><span class="verdict {verdict_class(verdict)}">{esc(verdict)}</span>'
                + (f'<br><span class="small">on fresh seeds; exploratory: {esc(exploratory)}</span>'
                   if exploratory else "") + '</td>'
                f'<td class="effect">{effect}</td></tr>')
    paper_options = "".join(f'<option value="{key}">{key}</option>' for key in papers)
    verdict_options = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in VERDICT_ORDER
                              if v in verdicts_present)
    verdict_options += "".join(f'<option value="{esc(v)}">{esc(v)}</option>'
                               for v in sorted(verdicts_present - set(VERDICT_ORDER)))
    table = f"""<div class="scorecard-controls">
<label>Paper <select id="scorecard-paper"><option value="">all papers</option>{paper_options}</select></label>
<label>Verdict <select id="scorecard-verdict"><option value="">all verdicts</option>{verdict_options}</select></label>
<label>Text <input id="scorecard-text" type="search" placeholder="claim, figure, statement…"></label>
<span id="scorecard-count" class="small">{len(rows)} claims</span>
</div>
<table id="scorecard-table" class="scorecard">
<thead><tr><th data-sortable="1">Paper</th><th data-sortable="1">Claim</th><th>Statement</th>
<th data-sortable="1">Verdict</th><th>Effect [95 % interval]</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody>
</table>"""
    return f"""---
html_theme.sidebar_secondary.remove: true
---

# Scorecard

{preamble}

## Every claim

One row per claim, from `figures/<key>/verdicts.csv`; the effect of every cell, with its interval, from
`figures/<key>/effects.csv`. Filter by paper, verdict or text; sort by clicking a column's name; unfold
a claim's details for the check, our numbers, the paper's, why the verdict is what it is, and every cell's
effect with its interval.

```{{raw}} html
{table}
```

## Every claim, drawn

{drawn}

The figure is drawn by `_claims_figure` in [`reproduce.py`](code/reproduce.md#def-_claims_figure) with
`plot_claims` of [`common/verdict_figures.py`](code/common/verdict_figures.md#def-plot_claims).
"""


def docs_pages():
    """Repository paths of the documentation's pages shown at their own path (every ``docs/*.md`` but the course's
    page, :data:`COURSE_PAGE`), in :data:`DOCS_ORDER`, then by name."""
    found = sorted(path.relative_to(REPO).as_posix() for path in (REPO / DOCS).glob("*.md"))
    rank = {f"{DOCS}/{name}.md": number for number, name in enumerate(DOCS_ORDER)}
    return sorted((path for path in found if path != COURSE_PAGE), key=lambda path: (rank.get(path, len(rank)), path))


def readme_pages(source_dir, staged, code_pages_by_file):
    """The README (``readme.md``), every page of ``docs/`` and the data folders' READMEs, their links pointing at
    the site's pages."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    text = re.sub(r"\A# [^\n]*", "# About the companion (README)", text, count=1)
    write_if_changed(source_dir / "readme.md", rewrite_markdown(text, "README.md", staged, code_pages_by_file))
    for path in docs_pages():
        write_if_changed(source_dir / path, rewrite_markdown((REPO / path).read_text(encoding="utf-8"), path,
                                                             staged, code_pages_by_file))
    for path in DATA_PAGES:
        if (REPO / path).exists():
            write_if_changed(source_dir / path, rewrite_markdown((REPO / path).read_text(encoding="utf-8"), path,
                                                                 staged, code_pages_by_file))


def copy_mathjax(destination):
    """MathJax 3's TeX+MathML CHTML component, its fonts and lazily loaded parts, from the pinned wheel."""
    import mathjax

    es5 = Path(mathjax.__file__).resolve().parent / "static" / "mathjax" / "es5"
    if not (es5 / "tex-mml-chtml.js").exists():
        raise SystemExit(f"error: MathJax not found in {es5}; pip install -r requirements-site.txt")
    wanted = ["tex-mml-chtml.js", "input", "output/chtml", "output/chtml.js", "ui", "a11y", "adaptors", "sre"]
    for name in wanted:
        origin = es5 / name
        files = [origin] if origin.is_file() else sorted(p for p in origin.rglob("*") if p.is_file())
        for path in files:
            write_if_changed(destination / path.relative_to(es5), path.read_bytes())
    licence = es5.parent / "LICENSE"
    if licence.exists():
        write_if_changed(destination / "LICENSE", licence.read_bytes())


def favicon(destination):
    """A 32-pixel icon (a posterior band and its mean), drawn here rather than committed as a binary."""
    from io import BytesIO

    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (32, 32), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, 31, 31), radius=6, fill=(10, 125, 145, 255))
    band = [(x, 16 + 7 * ((x - 16) / 16) ** 2 - 6 + (4 if 8 < x < 24 else 0)) for x in range(3, 30)]
    draw.line([(x, y) for x, y in band], fill=(255, 255, 255, 255), width=3)
    buffer = BytesIO()
    image.save(buffer, format="PNG")
    write_if_changed(destination, buffer.getvalue())


def stage(source_dir):
    """Write the Sphinx project into ``source_dir``; remove what an earlier build left there and this one not."""
    source_dir.mkdir(parents=True, exist_ok=True)
    for path in sorted(p for p in SITE.rglob("*") if p.is_file()):
        relative = path.relative_to(SITE)
        if relative.parts[0] in ("_ext", "_static") or relative.as_posix() == "conf.py":
            if "__pycache__" not in relative.parts:
                write_if_changed(source_dir / relative, path.read_bytes())
    copy_mathjax(source_dir / "_static" / "mathjax")
    favicon(source_dir / "_static" / "favicon.png")
    entries = notebook_entries()
    code_pages = write_code_pages(source_dir)
    code_pages_by_file = {relpath: code_docname(relpath) for relpath in code_files()}
    staged = {"README.md": "readme.md", "REPRODUCTION.md": "scorecard.md"}
    staged.update({path: path for path in DATA_PAGES if (REPO / path).exists()})
    staged.update({path: path for path in docs_pages()})
    if any(entry["lesson"] for entry in entries):
        staged[COURSE_PAGE] = "course.md"  # links to docs/course.md go to the teacher's page
    linker = Linker(code_pages)
    notebooks = {}
    for entry in entries:
        origin = REPO / "notebooks" / entry["notebook"]
        raw = origin.read_bytes()
        _check_notebook(origin, raw)
        write_if_changed(source_dir / "notebooks" / entry["notebook"], raw)
        staged[f"notebooks/{entry['notebook']}"] = f"notebooks/{entry['notebook']}"
        key = entry["key"]
        modules = []
        for pattern, role in MODULE_ROLES:
            name = pattern.format(key=key, topic=key.split("_", 1)[-1])  # a lesson's topic: lesson1_gp_regression
            if name in code_pages:
                modules.append({"module": name, "doc": code_pages[name][0], "role": role})
        notebooks[entry["docname"]] = {
            "key": key, "title": entry["title"], "notebook": f"notebooks/{entry['notebook']}",
            "modules": modules, "counts": entry["counts"], "has_verdicts": bool(entry["verdicts"]),
            "lesson": entry["lesson"],
            "figure_links": linker.notebook_links(json.loads(raw)),
            "folded": folded_headings(json.loads(raw)),
        }
    write_if_changed(source_dir / "companion.json", json.dumps({"notebooks": notebooks}, indent=1, sort_keys=True))
    write_if_changed(source_dir / "index.md", landing_page(entries, source_dir))
    write_if_changed(source_dir / "scorecard.md", scorecard_page(entries, source_dir, staged, code_pages_by_file))
    readme_pages(source_dir, staged, code_pages_by_file)
    if any(entry["lesson"] for entry in entries):
        write_if_changed(source_dir / "course.md", course_page(staged, code_pages_by_file))
    for path in sorted(p for p in source_dir.rglob("*") if p.is_file()):
        if path.resolve() not in _STAGED:
            path.unlink()
    return entries


def _check_notebook(path, raw):
    """Stop the build, naming ``path``, if its bytes are not a notebook (before anything of the old site is gone)."""
    import nbformat

    try:
        nbformat.validate(nbformat.reads(raw.decode("utf-8"), as_version=4))
    except Exception as exc:  # undecodable bytes, broken JSON, or JSON that is not a notebook
        raise SystemExit(f"error: {path.relative_to(REPO)} is not a readable notebook ({type(exc).__name__}: "
                         f"{str(exc).splitlines()[0][:200]}); restore it with `git checkout -- "
                         f"{path.relative_to(REPO)}` or regenerate it with `python reproduce.py`. The previous site "
                         f"is kept.") from None


#: Theme files that no reader needs, left out of the built site: ``fontawesome.js`` (with its source map and licence)
#: redraws as SVG the icons that the theme's stylesheet already draws from its web fonts (1.56 MB, more than half of
#: what the landing page loaded); the two Jinja macro files are templates the theme copies into ``_static`` although
#: no page loads them, and opened on their own they ask for files that do not exist.
UNUSED_ASSETS = ("_static/scripts/fontawesome.js", "_static/scripts/fontawesome.js.map",
                 "_static/scripts/fontawesome.js.LICENSE.txt", "_static/webpack-macros.html",
                 "_static/sbt-webpack-macros.html")
#: The tag that loads fontawesome.js, in every page the theme writes.
FONTAWESOME_SCRIPT = re.compile(r'<script[^>]*src="[^"]*_static/scripts/fontawesome\.js[^"]*"[^>]*>\s*</script>\s*')
#: The tags that load Sphinx's search tools and the whole search index (330 kB) into every page, for the theme's
#: search-as-you-type, which ``conf.py`` leaves off: the search box sends its query to ``search.html``, which loads
#: them itself.
SEARCH_SCRIPTS = re.compile(r'<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|searchindex\.js)">'
                            r'\s*</script>\s*')


def drop_unused_assets(html_dir):
    """Delete :data:`UNUSED_ASSETS` from a built site, the tag that loads fontawesome.js from its pages, and the
    search tools' tags from every page but the search page."""
    for pattern in UNUSED_ASSETS:
        for path in html_dir.glob(pattern):
            path.unlink()
    for page in html_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        trimmed = FONTAWESOME_SCRIPT.sub("", text)
        if page != html_dir / "search.html":
            trimmed = SEARCH_SCRIPTS.sub("", trimmed)
        if trimmed != text:
            page.write_text(trimmed, encoding="utf-8")


#: JupyterLab's mark of a collapsed heading, kept in the markdown cell's metadata: the notebook opens with that
#: section folded, and the site folds it too.
COLLAPSED = "jp-MarkdownHeadingCollapsed"


def folded_headings(notebook):
    """The text of each heading a notebook keeps collapsed (:data:`COLLAPSED`): the first heading of each such
    markdown cell, without its ``#`` marks."""
    folded = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown" or not cell.get("metadata", {}).get(COLLAPSED):
            continue
        source = "".join(cell["source"])
        heading = next((line for line in source.splitlines() if line.startswith("#")), None)
        if heading is None:
            raise ValueError(f"a markdown cell marked {COLLAPSED} has no heading to fold under: {source[:60]!r}")
        folded.append(heading.lstrip("#").strip())
    return folded


def build(out, jobs=1, quiet=True):
    """Stage the sources and build the HTML into ``out/html``; return (seconds, number of pages, warnings).

    The HTML is built beside the previous site and replaces it only when the build succeeded."""
    from sphinx.cmd.build import build_main

    started = time.perf_counter()
    out = Path(out).resolve()
    source_dir, html_dir, doctrees = out / "source", out / "html", out / "doctrees"
    new_html = out / "html.new"
    stage(source_dir)
    for folder in (new_html, doctrees):
        shutil.rmtree(folder, ignore_errors=True)
    warnings = out / "warnings.log"
    arguments = ["-b", "html", "-d", str(doctrees), "-j", str(jobs), "-w", str(warnings), "-E"]
    if quiet:
        arguments.append("-q")
    status = build_main([*arguments, str(source_dir), str(new_html)])
    if status != 0:
        raise SystemExit(f"error: sphinx-build failed (exit status {status}); see {warnings}. The previous site "
                         f"is kept.")
    drop_unused_assets(new_html)
    shutil.rmtree(html_dir, ignore_errors=True)
    new_html.rename(html_dir)
    pages = sum(1 for path in html_dir.rglob("*.html")
                if path.relative_to(html_dir).parts[0] not in ("_static", "_sources"))
    return time.perf_counter() - started, pages, warnings


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(DEFAULT_OUT),
                        help="output folder (default: _site/ in the repository); the site is OUT/html")
    parser.add_argument("--jobs", type=int, default=1, help="Sphinx processes (default 1)")
    parser.add_argument("--verbose", action="store_true", help="show Sphinx's progress")
    args = parser.parse_args(argv)
    seconds, pages, warnings = build(args.out, jobs=args.jobs, quiet=not args.verbose)
    out = Path(args.out).resolve()
    shown = out.relative_to(Path.cwd()) if out.is_relative_to(Path.cwd()) else out
    warned = warnings.read_text().count("WARNING") if warnings.exists() else 0
    print(f"site built in {seconds:.1f} s: {pages} pages in {shown}/html "
          f"(open {shown}/html/index.html, or: python -m http.server -d {shown}/html); "
          f"{warned} Sphinx warnings{f' in {warnings}' if warned else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
