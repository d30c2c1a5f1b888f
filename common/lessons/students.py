"""A student's copy of a lesson: the notebook without its solutions.

An exercise's solution is a code cell tagged ``solution``: it computes the answer, checks it with ``assert`` and
shows the answer's text (:func:`common.lessons.answer`). The student's copy keeps that cell, empty, as the place to
write one's own solution (a comment says so), and keeps every other cell as it is, outputs included: the lesson's
figures and players stay, only the answers go. A Markdown cell tagged ``solution`` (a written answer) is dropped.

``python -m common.lessons strip notebooks/lesson1_gp_regression.ipynb student.ipynb`` writes such a copy.
"""
import argparse
import sys
from pathlib import Path

import nbformat

#: The tag that marks a solution cell.
SOLUTION_TAG = "solution"
#: What an emptied solution cell says.
PLACEHOLDER = "# Your solution here: the cell above states the exercise."


def is_solution(cell):
    """Whether ``cell`` is tagged :data:`SOLUTION_TAG`."""
    return SOLUTION_TAG in cell.get("metadata", {}).get("tags", [])


def strip_solutions(notebook):
    """A copy of ``notebook`` (an :mod:`nbformat` notebook) for students.

    Each code cell tagged ``solution`` becomes an empty exercise cell (source :data:`PLACEHOLDER`, no outputs, no
    execution count, the tag removed); each Markdown or raw cell tagged ``solution`` is left out. Every other cell
    is kept unchanged, with its outputs.

    Returns
    -------
    nbformat.NotebookNode
        The copy; ``notebook`` itself is not changed.
    """
    copy = nbformat.from_dict(notebook)  # rebuilds every dict and list: the caller's notebook stays as it was
    cells = []
    for cell in copy.cells:
        if not is_solution(cell):
            cells.append(cell)
        elif cell.cell_type == "code":
            cell.source = PLACEHOLDER
            cell.outputs = []
            cell.execution_count = None
            cell.metadata["tags"] = [tag for tag in cell.metadata["tags"] if tag != SOLUTION_TAG]
            if not cell.metadata["tags"]:
                del cell.metadata["tags"]
            cells.append(cell)
    copy.cells = cells
    return copy


def strip_file(source, destination):
    """Write the student's copy (:func:`strip_solutions`) of the notebook file ``source`` to ``destination``.

    Returns
    -------
    int
        How many solutions were removed.

    Raises
    ------
    ValueError
        If ``destination`` is ``source`` (the lesson would lose its solutions), or if ``source`` has no cell
        tagged ``solution`` (probably not a lesson).
    """
    source, destination = Path(source), Path(destination)
    if destination.resolve() == source.resolve():
        raise ValueError(f"OUT must differ from IN ({source}): the lesson itself keeps its solutions")
    notebook = nbformat.read(source, as_version=4)
    removed = sum(is_solution(cell) for cell in notebook.cells)
    if not removed:
        raise ValueError(f"{source} has no cell tagged {SOLUTION_TAG!r}: is it a lesson of the course?")
    destination.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(strip_solutions(notebook), destination)
    return removed


def main(argv=None):
    """``python -m common.lessons strip IN OUT``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m common.lessons",
                                     description="Tools for the course's lessons.")
    commands = parser.add_subparsers(dest="command", required=True)
    strip = commands.add_parser("strip", help="write a student's copy of a lesson without its solutions")
    strip.add_argument("source", metavar="IN", help="the lesson's notebook, e.g. notebooks/lesson1_gp_regression.ipynb")
    strip.add_argument("destination", metavar="OUT", help="the student's copy to write, e.g. student.ipynb")
    args = parser.parse_args(argv)
    try:
        removed = strip_file(args.source, args.destination)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {args.destination}: {args.source} without its {removed} solutions")
    return 0
