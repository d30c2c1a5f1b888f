"""The shared library imports one way: no module of ``common`` reaches itself through its imports, counting the
imports inside functions (a paper's claims module imports its experiment module, never the reverse)."""
import ast
import functools
from pathlib import Path

import pytest

COMMON = Path(__file__).parents[1] / "common"


def module_name(path):
    parts = path.relative_to(COMMON.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path, known):
    """The modules of ``known`` that the file imports anywhere in its body."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found & known


@functools.cache
def import_graph():
    files = {module_name(path): path for path in COMMON.rglob("*.py")}
    return {name: imports_of(path, set(files)) - {name} for name, path in files.items()}


def test_graph_sees_the_claims_modules_importing_their_experiments():
    graph = import_graph()
    assert "common.experiments.bo_pp" in graph["common.experiments.bo_pp_claims"]


@pytest.mark.parametrize("start", sorted(import_graph()))
def test_no_module_imports_itself_through_others(start):
    graph, path, seen = import_graph(), [], set()

    def visit(name):
        if name == start and path:
            pytest.fail(f"import circle: {' -> '.join([start, *path])}")
        if name in seen:
            return
        seen.add(name)
        for imported in sorted(graph[name]):
            path.append(imported)
            visit(imported)
            path.pop()

    visit(start)


@pytest.mark.parametrize("lesson", sorted(name for name in import_graph() if name.startswith("common.lessons")))
def test_no_lesson_imports_an_experiment_module(lesson):
    # A lesson sits below the papers' experiments: what both need lives in a module under both (common.teaching).
    upward = sorted(name for name in import_graph()[lesson] if name.startswith("common.experiments"))
    assert not upward, f"{lesson} imports {upward}: move what it needs below common/experiments"
