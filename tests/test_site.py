"""The companion site (``python site/build.py``), built once and checked in a real browser.

Debian's chromium, driven headless through its own ``/usr/bin/chromedriver`` (selenium never downloads a
driver: the path is given and ``SE_OFFLINE`` is set), loads every page of the site from a server on the
loopback interface, with every other host name unresolvable, so a page that needed the network would fail.
Checked: the build runs offline and renders the committed notebooks without executing them; every page loads
with no SEVERE console message; every image decodes; every internal link (and its #fragment) resolves; every
figure of a notebook page links to the code that draws it; the scorecard lists every claim of every
``figures/*/verdicts.csv`` and its filters work; search finds a notebook; and screenshots of the landing page
and of a paper's page are written to ``output/site-screenshots/`` (not tracked) for people to look at.

Nothing here skips: without chromium (``apt-get install -y chromium chromium-driver``) or the site's packages
(``pip install -r requirements-site.txt``) the tests fail and say so. ``.ci/run`` installs both.
"""
import csv
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import unquote, urlsplit

import pytest

import headless

REPO = Path(__file__).resolve().parent.parent
CHROMIUM, CHROMEDRIVER = headless.CHROMIUM, headless.CHROMEDRIVER
SCREENSHOTS = REPO / "output" / "site-screenshots"
PAPER_PAGE = "notebooks/egp_ts.html"
WINDOW = (1400, 1000)


def _requirements():
    """Fail (never skip) with the cure when the browser or the site's packages are missing."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        pytest.fail(f"{', '.join(missing)} missing: apt-get install -y chromium chromium-driver (.ci/run does it)")
    for module in ("selenium", "sphinx", "myst_nb", "sphinx_book_theme", "mathjax"):
        try:
            __import__(module)
        except ImportError as error:
            pytest.fail(f"{error}: pip install -r requirements-site.txt (.ci/run does it)")


def _verdict_rows():
    rows = []
    for path in sorted((REPO / "figures").glob("*/verdicts.csv")):
        with path.open(newline="", encoding="utf-8") as handle:
            rows += [(path.parent.name, row["id"], row["verdict"]) for row in csv.DictReader(handle)]
    return rows


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.external = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("id", "name"):
            if attrs.get(name):
                self.ids.add(attrs[name])
        source = attrs.get("src") if tag in ("script", "img", "iframe") else \
            attrs.get("href") if tag == "link" and "stylesheet" in (attrs.get("rel") or "") else None
        if source and re.match(r"^(https?:)?//", source):
            self.external.append(f"<{tag}> {source}")


@functools.lru_cache(maxsize=None)
def _parsed(path):
    parser = _Ids()
    parser.feed(Path(path).read_text(encoding="utf-8", errors="replace"))
    return parser


# ------------------------------------------------------------------------------------------ fixtures

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built once by the README's command into a temporary folder, with the network unusable."""
    _requirements()
    out = tmp_path_factory.mktemp("site")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("BO_")}
    closed = "http://127.0.0.1:9"  # nothing listens there: any download attempt fails at once
    environment.update(http_proxy=closed, https_proxy=closed, HTTP_PROXY=closed, HTTPS_PROXY=closed,
                       no_proxy="", NO_PROXY="")
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(REPO / "site" / "build.py"), "--out", str(out)], cwd=REPO,
                            env=environment, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - started
    assert result.returncode == 0, f"site/build.py failed:\n{result.stdout}\n{result.stderr}"
    root = out / "html"
    # the site's pages; _static/ holds the themes' assets (among them two Jinja fragments named *.html)
    pages = sorted(path.relative_to(root).as_posix() for path in root.rglob("*.html")
                   if path.relative_to(root).parts[0] not in ("_static", "_sources"))
    print(f"\n{result.stdout.strip()} ({seconds:.1f} s with the interpreter's start)")
    return SimpleNamespace(out=out, root=root, pages=pages, seconds=seconds, log=result.stdout + result.stderr)


@pytest.fixture(scope="module")
def server(site):
    """An HTTP server for the site on the loopback interface, as a reader would serve it."""
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site.root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser(site):
    """Headless chromium through the system chromedriver; no selenium-manager, no download, no other host."""
    _requirements()
    with headless.chromium(WINDOW) as driver:
        yield driver


def _open(browser, url, attempts=3):
    """Navigate to ``url`` and wait until the browser shows it, loaded.

    ``browser.get`` can return while chromium still shows the page before (seen on a loaded machine: a notebook
    page read back as the landing page, with no cell), so the document's own address and readiness are awaited,
    and the navigation is repeated up to ``attempts`` times in all.
    """
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    for _ in range(attempts):
        browser.get(url)
        try:
            WebDriverWait(browser, 20).until(lambda driver: driver.execute_script(
                "return document.readyState === 'complete' && location.href === arguments[0]", url))
            return
        except TimeoutException:
            continue
    pytest.fail(f"the browser did not show {url} after {attempts} navigations (it shows {browser.current_url})")


#: Run in each page once it has loaded: wait until every image has loaded or failed and MathJax has typeset,
#: then report the images, the links, math errors, and, on notebook pages, each figure's code line.
_INSPECT = """
const done = arguments[arguments.length - 1];
const images = Array.from(document.images);
images.forEach(image => { if (image.loading === "lazy") { image.loading = "eager"; } });
const settled = images.map(image => image.complete ? Promise.resolve() : new Promise(resolve => {
  image.addEventListener("load", resolve); image.addEventListener("error", resolve); }));
const typeset = (window.MathJax && MathJax.startup && MathJax.startup.promise) || Promise.resolve();
Promise.all(settled).then(() => typeset).then(() => {
  const figures = Array.from(document.querySelectorAll("div.cell")).filter(
    cell => cell.querySelector("div.cell_output img")).map(cell => {
      const line = cell.nextElementSibling;
      const ok = line && line.matches("p.figure-code");
      return {cell: cell.id, links: ok ? Array.from(line.querySelectorAll("a[href]")).map(a => a.href) : []};
  });
  done({url: location.href, cells: document.querySelectorAll("div.cell").length,
        images: images.map(image => ({src: image.currentSrc || image.src, complete: image.complete,
                                      width: image.naturalWidth})),
        links: Array.from(document.querySelectorAll("a[href]")).map(a => a.href),
        matherrors: document.querySelectorAll("mjx-merror").length,
        outputTables: document.querySelectorAll("div.cell_output table").length,
        rawTables: Array.from(document.querySelectorAll("div.cell_output p")).filter(
          paragraph => !paragraph.closest("table") && /[|] [^|]+ [|] [^|]+ [|]/.test(paragraph.textContent)).length,
        figures: figures});
}).catch(error => done({error: String(error)}));
"""


@pytest.fixture(scope="module")
def crawl(site, server, browser):
    """Every page of the site, loaded once: its console messages, images, links and figures.

    A page that comes back as something else (chromium's renderer can crash under memory pressure on a loaded
    machine, leaving an error page with no content) is loaded again, up to ``PAGE_ATTEMPTS`` times in all; the
    reloads are printed, and ``test_every_page_loads_as_itself`` fails on a page that never loaded.
    """
    browser.get_log("browser")
    visited, reloaded, started = {}, [], time.perf_counter()
    for page in site.pages:
        for attempt in range(1, PAGE_ATTEMPTS + 1):
            _open(browser, f"{server}/{page}")
            report = browser.execute_async_script(_INSPECT)
            report["console"] = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
            if _loaded_as_itself(server, page, report):
                break
            reloaded.append(f"{page} (attempt {attempt}: {report.get('url')}, {report.get('cells')} cells)")
        visited[page] = report
    print(f"\nbrowser visited {len(visited)} pages in {time.perf_counter() - started:.1f} s: "
          f"{sum(len(r.get('images', [])) for r in visited.values())} images, "
          f"{sum(len(r.get('links', [])) for r in visited.values())} links; "
          f"loaded again: {'; '.join(reloaded) or 'none'}")
    return visited


#: Loads of one page before the crawl gives up on it.
PAGE_ATTEMPTS = 3


def _loaded_as_itself(server, page, report):
    """Whether the browser shows the page asked for, with its notebook cells if it is a notebook's page."""
    if "error" in report or report.get("url", "").split("#")[0] != f"{server}/{page}":
        return False
    return not page.startswith("notebooks/") or report.get("cells", 0) > 0


def _local_file(site, server, url):
    """The file a same-origin URL points to (or None for another origin), and its fragment."""
    parts = urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}" != server:
        return None, None
    path = unquote(parts.path).lstrip("/")
    target = site.root / path
    if not path or path.endswith("/"):
        target = target / "index.html"
    return target, parts.fragment


# ---------------------------------------------------------------------------------------------- tests

def test_the_build_renders_the_committed_notebooks_offline_without_running_them(site):
    from common.experiments import NOTEBOOKS, load_experiment

    assert "index.html" in site.pages and "scorecard.html" in site.pages and "search.html" in site.pages
    assert (site.root / "searchindex.js").stat().st_size > 0
    assert not (site.out / ".jupyter_cache").exists(), "myst-nb executed notebooks (execution mode must be off)"
    for key in NOTEBOOKS:
        notebook_name = load_experiment(key).NOTEBOOK
        page = f"notebooks/{Path(notebook_name).stem}.html"
        assert page in site.pages, f"no page for {notebook_name}"
        notebook = json.loads((REPO / "notebooks" / notebook_name).read_text(encoding="utf-8"))
        committed = sum("image/png" in output.get("data", {}) for cell in notebook["cells"]
                        for output in cell.get("outputs", []))
        rendered = len(re.findall(r'<img[^>]+src="\.\./_images/', (site.root / page).read_text(encoding="utf-8")))
        assert rendered >= committed > 0 or committed == rendered == 0, \
            f"{page}: {rendered} images rendered, {committed} image outputs committed"
        source = site.out / "source" / "notebooks" / notebook_name
        assert source.read_bytes() == (REPO / "notebooks" / notebook_name).read_bytes(), \
            "the site must render the committed notebook byte for byte"
    external = {page: _parsed(site.root / page).external for page in site.pages}
    external = {page: found for page, found in external.items() if found}
    assert not external, f"pages load scripts, styles or images from elsewhere (a CDN?): {external}"


def test_every_page_loads_as_itself(site, server, crawl):
    """Each page the browser visited is the page asked for (not a crash page), and notebook pages show cells."""
    failed = {page: (report.get("url"), report.get("cells")) for page, report in crawl.items()
              if not _loaded_as_itself(server, page, report)}
    assert not failed, f"pages the browser could not load in {PAGE_ATTEMPTS} attempts (url, cells): {failed}"


def test_every_page_loads_without_console_errors(crawl):
    errors = {page: [entry["message"] for entry in report["console"]] for page, report in crawl.items()
              if report["console"] or "error" in report}
    errors.update({page: report["error"] for page, report in crawl.items() if "error" in report})
    assert not errors, f"SEVERE console messages on {len(errors)} pages: {errors}"


def test_every_image_decodes(crawl):
    broken = {page: [image["src"] for image in report["images"] if not image["complete"] or image["width"] == 0]
              for page, report in crawl.items()}
    broken = {page: images for page, images in broken.items() if images}
    assert not broken, f"images that do not decode: {broken}"
    assert sum(len(report["images"]) for report in crawl.values()) > 40


def test_every_math_formula_typesets(crawl):
    failed = {page: report["matherrors"] for page, report in crawl.items() if report.get("matherrors")}
    assert not failed, f"MathJax could not typeset formulas (mjx-merror) on: {failed}"


def test_every_markdown_table_output_renders_as_a_table(site, crawl):
    """A table a notebook printed as markdown (``verdict_tables.show_table``) is a ``<table>`` on its page, not pipes."""
    from common.experiments import NOTEBOOKS, load_experiment

    for key in NOTEBOOKS:
        notebook_name = load_experiment(key).NOTEBOOK
        notebook = json.loads((REPO / "notebooks" / notebook_name).read_text(encoding="utf-8"))
        committed = sum("".join(output.get("data", {}).get("text/markdown", "")).lstrip().startswith("|")
                        for cell in notebook["cells"] for output in cell.get("outputs", []))
        report = crawl[f"notebooks/{Path(notebook_name).stem}.html"]
        assert report["rawTables"] == 0, f"{notebook_name}: {report['rawTables']} outputs show a table's raw pipes"
        assert report["outputTables"] >= committed, \
            f"{notebook_name}: {committed} markdown tables committed, {report['outputTables']} rendered as tables"


def test_every_internal_link_resolves(site, server, crawl):
    broken, checked = [], 0
    for page, report in crawl.items():
        for url in report["links"]:
            target, fragment = _local_file(site, server, url)
            if target is None:
                continue
            checked += 1
            if not target.is_file():
                broken.append(f"{page} -> {url} (no file {target.relative_to(site.root)})")
            elif fragment and target.suffix == ".html" and unquote(fragment) not in _parsed(target).ids:
                broken.append(f"{page} -> {url} (no id {fragment!r} in {target.relative_to(site.root)})")
    assert checked > 1000
    assert not broken, f"{len(broken)} internal links do not resolve:\n" + "\n".join(broken[:50])


def test_every_figure_links_to_the_code_that_draws_it(site, server, crawl):
    notebook_pages = [page for page in crawl if page.startswith("notebooks/")]
    assert len(notebook_pages) >= 6
    for page in notebook_pages:
        figures = crawl[page]["figures"]
        assert figures, f"{page} shows no figure"
        for figure in figures:
            code = [url for url in figure["links"] if "/code/" in urlsplit(url).path]
            assert code, f"{page}: the figure of {figure['cell'] or 'a cell'} has no link to its code"
    paper = crawl[PAPER_PAGE]
    assert any(urlsplit(url).path.endswith("/code/common/experiments/egp_ts.html") for url in paper["links"])


def test_the_landing_page_lists_every_notebook(server, browser):
    from common.experiments import NOTEBOOKS, load_experiment

    _open(browser, f"{server}/index.html")
    text = browser.find_element("tag name", "main").text
    for key in NOTEBOOKS:
        assert load_experiment(key).TITLE in text, f"the landing page does not list {key}"
    assert len(browser.find_elements("css selector", "div.paper-card")) == len(NOTEBOOKS)


def test_the_scorecard_lists_every_claim_and_filters_them(server, browser):
    from selenium.webdriver.support.ui import Select, WebDriverWait

    claims = _verdict_rows()
    assert claims
    _open(browser, f"{server}/scorecard.html")
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('#scorecard-table > tbody > tr'))"
        ".map(r => [r.dataset.paper, r.dataset.id, r.dataset.verdict]);")
    assert Counter(map(tuple, rows)) == Counter(claims)

    def visible():
        return browser.execute_script(
            "return Array.from(document.querySelectorAll('#scorecard-table > tbody > tr'))"
            ".filter(r => !r.hidden).map(r => [r.dataset.paper, r.dataset.verdict]);")

    paper, verdict = claims[-1][0], claims[-1][2]
    Select(browser.find_element("id", "scorecard-paper")).select_by_value(paper)
    assert len(visible()) == sum(row[0] == paper for row in claims)
    Select(browser.find_element("id", "scorecard-verdict")).select_by_value(verdict)
    assert len(visible()) == sum(row[0] == paper and row[2] == verdict for row in claims) > 0
    _open(browser, f"{server}/scorecard.html?verdict=reproduced")
    # The page applies the URL's filter in a script after load: wait for it rather than read the rows at once.
    reproduced = sum(row[2] == "reproduced" for row in claims)
    WebDriverWait(browser, 15).until(lambda driver: len(visible()) == reproduced)
    _open(browser, f"{server}/scorecard.html")
    # The page's script marks the sortable headers after load: wait for it (a loaded machine can be slow).
    sortable = WebDriverWait(browser, 15).until(
        lambda driver: driver.find_elements("css selector", "#scorecard-table th[data-sortable]"))
    header = sortable[1]  # the claim ids
    ids = "return Array.from(document.querySelectorAll('#scorecard-table > tbody > tr')).map(r => r.dataset.id);"
    header.click()
    assert browser.execute_script(ids) == sorted(row[1] for row in claims)
    header.click()
    assert browser.execute_script(ids) == sorted((row[1] for row in claims), reverse=True)
    details = browser.find_element("css selector", "#scorecard-table > tbody > tr:not([hidden]) details")
    assert not details.get_attribute("open")
    details.find_element("tag name", "summary").click()
    assert details.get_attribute("open") and details.find_element("tag name", "dl").text


def test_search_finds_a_notebook(server, browser):
    from selenium.webdriver.support.ui import WebDriverWait

    _open(browser, f"{server}/search.html?q=pseudo-points")
    WebDriverWait(browser, 30).until(
        lambda driver: driver.find_elements("css selector", "#search-results ul.search li a"))
    found = [a.get_attribute("href") for a in browser.find_elements("css selector", "#search-results li a")]
    assert any("/notebooks/bo_pp.html" in url for url in found), found


def test_the_landing_page_s_search_box_leads_to_results(server, browser):
    """The landing page loads no search index (build.py drops it), so its search box must still send the query on."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    _open(browser, f"{server}/index.html")
    next(button for button in browser.find_elements("css selector", "button.search-button-field")
         if button.is_displayed()).click()
    box = browser.find_element("css selector", "#pst-search-dialog input[name='q']")
    WebDriverWait(browser, 10).until(lambda driver: box.is_displayed())
    box.send_keys("pseudo-points", Keys.ENTER)
    WebDriverWait(browser, 30).until(
        lambda driver: driver.find_elements("css selector", "#search-results ul.search li a"))
    assert "/search.html" in browser.current_url


#: What a reader of a paper page meets, measured in the page as drawn (after companion.js ran).
_READABLE = """
const column = document.querySelector("article.bd-article") || document.body;
const lines = pre => pre.textContent.replace(/\\n$/, "").split("\\n").length;
const verdicts = document.querySelector("div.cell.verdict-table table");
return {
  markers: document.body.innerText.includes("NBVAL_"),
  column: column.getBoundingClientRect().width,
  height: document.documentElement.scrollHeight,
  closedFolds: document.querySelectorAll("details.folded-section:not([open]), details.folded-output:not([open])").length,
  unfolded: Array.from(document.querySelectorAll("div.cell div.cell_input pre")).filter(
    pre => lines(pre) > 15 && !pre.closest("details.folded-code, details.solution")).length,
  openFolds: document.querySelectorAll("details.folded-code[open]").length,
  verdictColumns: verdicts ? Array.from(verdicts.querySelectorAll("thead th")).filter(
    header => header.offsetParent !== null).map(header => header.textContent.trim()) : null,
  scorecardLink: Array.from(document.querySelectorAll("p.verdict-table-link a")).map(a => a.href),
  unlinkedFigures: Array.from(document.querySelectorAll("div.cell_output img")).filter(
    image => !image.closest("a[href]") && !image.closest("figure.lesson-player")).length,
  uncaptioned: Array.from(document.querySelectorAll("div.cell_output img")).filter(image => {
    const figure = image.closest("figure");
    const caption = figure && figure.querySelector("figcaption");
    return !caption || caption.textContent.trim().length < 20; }).length,
  altIsAPath: Array.from(document.querySelectorAll("div.cell_output img")).filter(
    image => /[.]png$|_images[/]/.test(image.alt) || image.alt.trim().length < 20).length,
};
"""


#: A laptop's screen, at which a paper page is measured.
LAPTOP = (1366, 768)
#: The longest a paper page may be with its folds closed, at :data:`LAPTOP`.
PAPER_PAGE_HEIGHT = 15_000
#: With every fold open: each output table's content (not its box) against the text column, and every element of
#: the page that scrolls inside it.
_CONTENT = """
document.querySelectorAll("details").forEach(fold => { fold.open = true; });
const column = document.querySelector("article.bd-article") || document.body;
return {
  column: column.getBoundingClientRect().width,
  tables: Array.from(document.querySelectorAll("div.cell_output table")).map(table => table.scrollWidth),
  scrolling: Array.from(column.querySelectorAll("*")).filter(element => {
    const style = getComputedStyle(element);
    return /auto|scroll/.test(style.overflowX + style.overflowY) && element.offsetParent !== null
      && (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1);
  }).map(element => element.tagName.toLowerCase() + "." + String(element.className).split(" ")[0]),
};
"""


def _loaded(browser):
    """Wait until every image of the page has loaded (a page's height counts its figures) and MathJax has typeset."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 60).until(lambda driver: driver.execute_script(
        "return document.readyState === 'complete' && Array.from(document.images).every(image => image.complete)"
        " && !document.querySelector('.MathJax_Processing, mjx-container:empty')"))


def test_paper_pages_are_readable(server, browser):
    """At a laptop's 1,366 x 768: a paper page (and the arena's) at most 15,000 px long with its folds closed (the
    sections and outputs its notebook keeps collapsed); with every fold open, no output table whose content is wider
    than the text column and nothing that scrolls inside the page. On every notebook page: no test marker shown,
    every code cell longer than 15 lines folded (a lesson's solution, folded whole, counts), the verdict table as
    four columns with a link to the paper's scorecard, and every figure a link to its full size (a lesson's player
    excepted: its slider changes the image), with a <figcaption> and alt text that is not a file name."""
    from common.experiments import NOTEBOOKS, load_experiment

    browser.set_window_size(*LAPTOP)
    try:
        for key in NOTEBOOKS:
            _check_readable(server, browser, key, load_experiment(key))
    finally:
        browser.set_window_size(*WINDOW)


def _check_readable(server, browser, key, experiment):
    page = f"notebooks/{Path(experiment.NOTEBOOK).stem}.html"
    _open(browser, f"{server}/{page}")
    _loaded(browser)
    found = browser.execute_script(_READABLE)
    a_paper = key != "bo_basics" and getattr(experiment, "KIND", None) != "lesson"
    if a_paper:
        assert found["closedFolds"] > 0 and found["height"] <= PAPER_PAGE_HEIGHT, \
            f"{page}: {found['height']} px long with its {found['closedFolds']} folds closed, above {PAPER_PAGE_HEIGHT}"
    content = browser.execute_script(_CONTENT)
    too_wide = [width for width in content["tables"] if width > content["column"] + 1]
    assert not too_wide, f"{page}: tables {too_wide} px wide in a {content['column']:.0f} px column"
    assert not content["scrolling"], f"{page}: {content['scrolling']} scroll inside the page"
    assert not found["markers"], f"{page} shows a test marker (NBVAL_...)"
    assert found["unfolded"] == 0 and found["openFolds"] == 0, f"{page}: long code cells not folded"
    assert found["unlinkedFigures"] == 0, f"{page}: figures that do not open at full size"
    assert found["uncaptioned"] == 0, f"{page}: {found['uncaptioned']} figures without a <figcaption>"
    assert found["altIsAPath"] == 0, f"{page}: {found['altIsAPath']} figures whose alt text is a file name"
    if a_paper:
        assert found["verdictColumns"] == ["id", "figure", "verdict", "effect"], \
            f"{page}: the verdict table shows {found['verdictColumns']}"
        assert found["scorecardLink"] and found["scorecardLink"][0].endswith(f"scorecard.html?paper={key}")


def _lesson_pages():
    from common.experiments import NOTEBOOKS, load_experiment

    return [f"notebooks/{Path(load_experiment(key).NOTEBOOK).stem}.html" for key in NOTEBOOKS
            if getattr(load_experiment(key), "KIND", None) == "lesson"]


#: A lesson player's state as drawn: its slider, the image's source and whether the frames are embedded.
_PLAYER = """
const player = document.querySelectorAll("figure.lesson-player")[arguments[0]];
const slider = player.querySelector("input[type=range]");
const image = player.querySelector("img");
return {players: document.querySelectorAll("figure.lesson-player").length, value: slider.value, max: slider.max,
        src: image.getAttribute("src"), width: image.naturalWidth, caption: player.querySelector("figcaption").textContent};
"""


def test_a_lesson_player_s_slider_changes_the_drawn_image(site, server, browser):
    """Offline, from the static page: moving a player's slider (as a reader's keyboard does) draws another frame,
    and moving it back draws the first again. Works from disk too (file://), like the rest of the site."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    pages = _lesson_pages()
    assert pages, "no lesson is registered (KIND = 'lesson')"
    for url in (f"{server}/{pages[0]}", (site.root / pages[0]).as_uri()):
        if url.startswith("file:"):
            browser.get(url)
        else:
            _open(browser, url)
        # matplotlib's player starts its script after a zero timeout: wait until it drew the first frame
        WebDriverWait(browser, 20).until(lambda driver: driver.execute_script(
            "const p = document.querySelector('figure.lesson-player'); return p && window['anim' + "
            "p.querySelector('input[type=range]').id.replace('_anim_slider', '')] !== undefined;"))
        before = browser.execute_script(_PLAYER, 0)
        assert before["players"] >= 3 and int(before["max"]) >= 1 and before["width"] > 0, before
        assert before["src"].startswith("data:image/png;base64,")
        slider = browser.find_element("css selector", "figure.lesson-player input[type=range]")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", slider)
        slider.send_keys(Keys.ARROW_RIGHT)
        after = browser.execute_script(_PLAYER, 0)
        assert after["value"] == "1" and after["src"] != before["src"] and after["width"] > 0, (url, after["value"])
        slider.send_keys(Keys.HOME)
        assert browser.execute_script(_PLAYER, 0)["src"] == before["src"]


def test_a_lesson_s_solutions_are_folded_until_opened(server, browser):
    """Every cell tagged ``solution`` sits in a closed <details> whose summary opens it; the exercise above it shows.
    The course has at least 8 exercises (issue 41), each lesson at least one."""
    import nbformat

    from common.experiments import NOTEBOOKS, load_experiment

    total = 0
    for key in NOTEBOOKS:
        module = load_experiment(key)
        if getattr(module, "KIND", None) != "lesson":
            continue
        notebook = nbformat.read(REPO / "notebooks" / module.NOTEBOOK, as_version=4)
        solutions = sum("solution" in cell.metadata.get("tags", []) for cell in notebook.cells
                        if cell.cell_type == "code")
        _open(browser, f"{server}/notebooks/{Path(module.NOTEBOOK).stem}.html")
        found = browser.execute_script("""
            const cells = Array.from(document.querySelectorAll("div.cell.tag_solution"));
            return {cells: cells.length, folded: cells.filter(cell => {
                      const fold = cell.closest("details.solution"); return fold && !fold.open; }).length,
                    visible: cells.filter(cell => cell.checkVisibility()).length};""")
        assert found == {"cells": solutions, "folded": solutions, "visible": 0} and solutions >= 1, (key, found)
        fold = browser.find_element("css selector", "details.solution")
        fold.find_element("tag name", "summary").click()
        assert fold.get_attribute("open") and fold.find_element("css selector", "div.cell.tag_solution").is_displayed()
        total += solutions
    assert total >= 8, f"the course has {total} exercises with solutions; issue 41 asks for at least 8"


def test_the_landing_page_has_the_course_and_the_teacher_s_page(site, server, browser):
    _open(browser, f"{server}/index.html")
    cards = browser.find_elements("css selector", "div.course-cards div.lesson-card")
    assert len(cards) == len(_lesson_pages())
    assert "course.html" in site.pages
    _open(browser, f"{server}/course.html")
    text = browser.find_element("tag name", "main").text
    assert "Teaching a course from the companion" in text and "python -m common.lessons strip" in text


#: The most the landing page may load, its resources included (issue 45: it loaded 2.86 MB, 55 % of it fontawesome.js).
LANDING_PAGE_BYTES = 1_500_000


def test_the_landing_page_loads_under_1_5_mb(server, browser):
    _open(browser, f"{server}/index.html")
    time.sleep(1.0)  # web fonts load after the page's load event
    loaded = browser.execute_script("""
        const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
        return entries.map(entry => [entry.name, entry.encodedBodySize || entry.transferSize || 0]);""")
    total = sum(size for _, size in loaded)
    largest = sorted(loaded, key=lambda item: -item[1])[:5]
    assert 0 < total < LANDING_PAGE_BYTES, f"the landing page loads {total:,} bytes; largest: {largest}"


def test_the_site_holds_no_template_leftovers_and_no_unused_icon_script(site):
    leftovers = sorted(path.relative_to(site.root).as_posix() for path in (site.root / "_static").rglob("*.html"))
    assert not leftovers, f"template files in _static that no page loads: {leftovers}"
    assert not (site.root / "_static" / "scripts" / "fontawesome.js").exists()
    assert not any("fontawesome.js" in (site.root / page).read_text(encoding="utf-8") for page in site.pages)


def test_screenshots_of_the_landing_page_and_a_paper_page(server, browser):
    from PIL import Image, ImageStat

    if SCREENSHOTS.exists():
        shutil.rmtree(SCREENSHOTS)
    SCREENSHOTS.mkdir(parents=True)
    shots = {}
    _open(browser, f"{server}/index.html")
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(WINDOW[0], min(max(height, WINDOW[1]), 4000))
    shots["landing.png"] = browser.get_screenshot_as_png()
    browser.set_window_size(*WINDOW)
    _open(browser, f"{server}/{PAPER_PAGE}")
    shots["paper-egp_ts.png"] = browser.get_screenshot_as_png()
    browser.execute_script("document.querySelector('p.figure-code').scrollIntoView({block: 'end'});")
    time.sleep(0.3)
    shots["paper-egp_ts-figure.png"] = browser.get_screenshot_as_png()
    for name, png in shots.items():
        (SCREENSHOTS / name).write_bytes(png)
        with Image.open(SCREENSHOTS / name) as image:
            spread = ImageStat.Stat(image.convert("L")).stddev[0]
            assert image.width == WINDOW[0] and spread > 10, f"{name} looks empty (grey-level spread {spread:.1f})"
    print(f"\nscreenshots in {SCREENSHOTS}: {', '.join(shots)}")


def test_jupyter_lab_and_nbconvert_come_with_the_set_up():
    bin_dir = Path(sys.executable).parent
    pins = dict(line.strip().split("==") for line in (REPO / "requirements.txt").read_text().splitlines()
                if "==" in line and not line.startswith("#"))
    for command, package in ((["jupyter", "lab", "--version"], "jupyterlab"),
                             (["jupyter", "nbconvert", "--version"], "nbconvert")):
        executable = shutil.which(command[0], path=str(bin_dir)) or shutil.which(command[0])
        assert executable, "jupyter is not installed: pip install -r requirements.txt"
        result = subprocess.run([executable, *command[1:]], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip().splitlines()[-1] == pins[package], (command, result.stdout)


#: The most README.md may weigh (issue 62: a README a newcomer reads in five minutes; the rest is in docs/).
README_BYTES = 12_000


def _github_anchors(text):
    """The anchors GitHub gives a Markdown file's headings (outside fenced code), and its explicit HTML ids."""
    anchors, seen, fenced = set(), Counter(), False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        anchors.update(re.findall(r'<a\s+(?:id|name)="([^"]+)"', line))
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1))  # a link's text only
        slug = re.sub(r"[^\w\- ]", "", title.replace("`", "").lower()).replace(" ", "-")
        anchors.add(f"{slug}-{seen[slug]}" if seen[slug] else slug)
        seen[slug] += 1
    return anchors


def _relative_links(text):
    """``[label](target)`` and ``![alt](target)`` targets of a Markdown text outside fenced code, other than URLs."""
    found, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        line = re.sub(r"(?<!\[)`[^`]*`(?!\])", "", line)  # code spans, unless a link's whole text
        found += [target for target in re.findall(r"\]\(([^)\s]+)\)", line)
                  if not re.match(r"^[a-z][a-z0-9+.-]*:", target)]
    return found


def test_the_readme_is_short_and_every_link_of_the_readme_and_docs_resolves():
    """README.md stays at most 12 KB, and every relative link of README.md and docs/*.md points to a file of the
    repository and, with an anchor, to a heading of that file (as GitHub names it), so that moving a section from
    the README to docs/ cannot leave a link behind."""
    assert (REPO / "README.md").stat().st_size <= README_BYTES, \
        f"README.md is {(REPO / 'README.md').stat().st_size:,} bytes; keep it under {README_BYTES:,}, move the rest " \
        f"to docs/"
    documents = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    assert len(documents) > 5, "the documentation's pages in docs/ are missing"
    broken, checked = [], 0
    for document in documents:
        for target in _relative_links(document.read_text(encoding="utf-8")):
            checked += 1
            path, _, fragment = target.partition("#")
            file = (document.parent / unquote(path)).resolve() if path else document
            where = f"{document.relative_to(REPO)} -> {target}"
            if not file.exists() or not file.is_relative_to(REPO):
                broken.append(f"{where} (no such file)")
            elif fragment and file.suffix != ".md":
                broken.append(f"{where} (an anchor in a file that is not Markdown cannot be checked)")
            elif fragment and fragment not in _github_anchors(file.read_text(encoding="utf-8")):
                broken.append(f"{where} (no heading {fragment!r} in {file.relative_to(REPO)})")
    assert checked > 40
    assert not broken, "links of the README and docs/ that do not resolve:\n" + "\n".join(broken)


def test_the_anchor_names_follow_github():
    text = "# Title\n## How a claim is judged\n## What is bit-for-bit, and what only statistically\n" \
           "```bash\n# a comment, not a heading\n```\n## Papers, notebooks and figures\n## Title\n" \
           "## `reproduce.py` and [the site](x.md)\n"
    assert _github_anchors(text) == {"title", "how-a-claim-is-judged", "papers-notebooks-and-figures", "title-1",
                                     "what-is-bit-for-bit-and-what-only-statistically", "reproducepy-and-the-site"}


def test_every_docs_page_is_a_page_of_the_site_and_the_course_page_the_teacher_s(site):
    """Each docs/*.md is a page at its own path (docs/judging.md -> docs/judging.html), listed in the sidebar;
    docs/course.md is the teacher's page, course.html."""
    for document in sorted((REPO / "docs").glob("*.md")):
        page = "course.html" if document.name == "course.md" else f"docs/{document.stem}.html"
        assert page in site.pages, f"{document.relative_to(REPO)} has no page {page}"
        title = re.search(r"(?m)^# (.+)$", document.read_text(encoding="utf-8")).group(1).replace("`", "")
        assert title in (site.root / page).read_text(encoding="utf-8"), f"{page} does not show {title!r}"
        assert f'href="{page}"' in (site.root / "index.html").read_text(encoding="utf-8"), \
            f"the sidebar of the landing page does not list {page}"


def test_a_corrupt_notebook_stops_the_build_naming_it():
    import importlib.util
    spec = importlib.util.spec_from_file_location("site_build", REPO / "site" / "build.py")
    site_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site_build)
    notebook = REPO / "notebooks" / "bo_pp.ipynb"
    for damaged in (notebook.read_bytes()[:500], b"\xff\xfe", b'{"cells": 3}'):
        with pytest.raises(SystemExit, match="notebooks/bo_pp.ipynb is not a readable notebook.*previous site"):
            site_build._check_notebook(notebook, damaged)
    site_build._check_notebook(notebook, notebook.read_bytes())  # the committed one passes
