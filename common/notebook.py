"""Notebook plumbing: resolve the parameters cell, and report what an execution did.

Every notebook starts with a papermill ``parameters`` cell of plain literals: a
``scale`` and overrides that default to ``None`` (meaning "the scale's value")::

    scale = "quick"
    n_seeds = None
    budget = None

and resolves them against its table of scales in the next cell::

    params = resolve_parameters(scale, SCALES, n_seeds=n_seeds, budget=budget)

so a bad value stops the notebook there, with a message naming the parameter
and the allowed values. At its end the notebook calls
:func:`write_notebook_summary`, which ``reproduce.py`` reads.
"""
import datetime
import json
from collections.abc import Mapping

from common import paths, plotting, runner

SCALES = ("smoke", "quick", "paper")
_CHOICES = (list, tuple, set, frozenset, range)


def positive(value):
    """a number > 0"""
    return value > 0


def non_negative(value):
    """a number >= 0"""
    return value >= 0


def _kind(default):
    if isinstance(default, bool):
        return "a bool", lambda value: isinstance(value, bool)
    if isinstance(default, int):
        return "an int", lambda value: isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return "a number", lambda value: isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, (list, tuple)):
        return "a list", lambda value: isinstance(value, (list, tuple))
    return f"a {type(default).__name__}", lambda value: isinstance(value, type(default))


def _checked_type(name, value, default):
    if default is None:
        return value
    description, accepts = _kind(default)
    if not accepts(value):
        raise ValueError(f"parameter {name!r} must be {description} (like its default {default!r}); "
                         f"got {value!r} ({type(value).__name__})")
    if isinstance(default, float):
        return float(value)
    if isinstance(default, (list, tuple)):
        if default:
            element_description, element_accepts = _kind(default[0])
            wrong = [item for item in value if not element_accepts(item)]
            if wrong:
                raise ValueError(f"parameter {name!r} must be a list of {element_description.split(' ', 1)[1]}s "
                                 f"(like its default {default!r}); got {value!r}")
        return type(default)(value)
    return value


def _check_allowed(name, value, rule):
    if isinstance(rule, _CHOICES):
        items = value if isinstance(value, (list, tuple)) else [value]
        bad = [item for item in items if item not in rule]
        if bad:
            listed = f"{rule.start}..{rule.stop - 1}" if isinstance(rule, range) else ", ".join(map(repr, rule))
            raise ValueError(f"parameter {name!r}: {bad[0]!r} is not allowed; allowed values: {listed}")
    elif callable(rule):
        if not rule(value):
            described = (rule.__doc__ or getattr(rule, "__name__", "")).strip().splitlines()[0]
            raise ValueError(f"parameter {name!r}={value!r} is not allowed; allowed values: {described}")
    else:
        raise TypeError(f"allowed[{name!r}] must be a collection of allowed values or a predicate "
                        f"with a docstring; got {rule!r}")


def resolve_parameters(scale, scales_table, *, allowed=None, **overrides):
    """The parameters of one execution: the scale's defaults with the overrides applied.

    Parameters
    ----------
    scale : {"smoke", "quick", "paper"}
        The scale whose defaults to start from.
    scales_table : dict
        ``{scale: {name: default}}``; every scale defines the same names.
    allowed : dict, optional
        ``{name: rule}``: a collection of allowed values (for a list parameter,
        of allowed elements), or a predicate whose docstring's first line says
        what is allowed (e.g. :func:`positive`). Checked on the final values.
    **overrides
        New values; ``None`` keeps the scale's default. An override must have
        the type of the default (an int is accepted where a float is expected).

    Returns
    -------
    dict
        ``{"scale": scale, name: value, ...}``.

    Raises
    ------
    ValueError
        Naming the parameter, the value given and the values allowed.
    """
    if scale not in SCALES:
        raise ValueError(f"parameter 'scale'={scale!r} is not allowed; allowed values: {', '.join(map(repr, SCALES))}")
    if not isinstance(scales_table, Mapping) or not scales_table or set(scales_table) - set(SCALES):
        raise ValueError(f"scales_table must map some of {list(SCALES)} to parameter dicts; got {scales_table!r}")
    if scale not in scales_table:
        raise ValueError(f"parameter 'scale'={scale!r} is not defined by this notebook; allowed values: "
                         f"{', '.join(map(repr, scales_table))}")
    names = list(scales_table[scale])
    for other, table in scales_table.items():
        if sorted(table) != sorted(names):
            raise ValueError(f"scales_table: scale {other!r} defines {sorted(table)}, scale {scale!r} {sorted(names)}; "
                             f"every scale must define the same parameters")
    if "scale" in names:
        raise ValueError("scales_table: 'scale' is the scale itself, not a parameter of it")
    allowed = dict(allowed or {})
    unknown = sorted(set(overrides) - set(names)) or sorted(set(allowed) - set(names))
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r}; allowed parameters: {', '.join(['scale', *names])}")

    params = {"scale": scale, **scales_table[scale]}
    for name, value in overrides.items():
        if value is not None:
            params[name] = _checked_type(name, value, scales_table[scale][name])
    for name, rule in allowed.items():
        _check_allowed(name, params[name], rule)
    return params


def write_notebook_summary(paper_key, *, scale, verdicts=None):
    """Write ``figures/<key>/summary.json``: what this execution loaded, computed and wrote.

    Parameters
    ----------
    paper_key : str
    scale : {"smoke", "quick", "paper"}
    verdicts : pandas.DataFrame, optional
        The verdict table (:func:`common.claims.verdict_table`); its verdicts are counted.

    Returns
    -------
    pathlib.Path
    """
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {list(SCALES)}; got {scale!r}")
    counts = runner.run_counts()
    folder = paths.figures_dir(paper_key)
    summary = {
        "paper": paper_key,
        "scale": scale,
        "runs_loaded": counts["loaded"],
        "runs_computed": counts["computed"],
        "figures": [path.relative_to(folder).as_posix() for path in plotting.files_written(paper_key)],
        "verdicts": {} if verdicts is None else {str(name): int(count)
                                                 for name, count in verdicts["verdict"].value_counts().items()},
        "written": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "summary.json"
    path.write_text(json.dumps(summary, indent=2) + "\n")
    return path
