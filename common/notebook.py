"""Notebook plumbing: resolve the parameters cell, route the outputs, report what an execution did.

Every notebook starts with a papermill ``parameters`` cell of plain literals, all
``None`` by default::

    scale = None      # None: the published configuration; or "smoke", "quick", "paper"
    n_seeds = None    # None: the value of the chosen scale
    n_jobs = None
    dask_address = None

and resolves them in its next cell with :func:`notebook_parameters`::

    params = notebook_parameters(experiment, globals())

``scale = None`` selects the notebook's *published configuration*,
``PUBLISHED`` in its experiment module (a scale and overrides of it): the one
whose figures, tables and verdicts are committed, and which
``python reproduce.py`` regenerates. Any other value selects that scale's
defaults; a non-None override replaces one value. A bad value, or a name that
is not a parameter (``papermill -p n_seed 3``), stops the notebook there, with
a message naming the parameter and the allowed values.

Only the published configuration writes into ``figures/<key>/``; any other
writes into ``output/<key>/<configuration name>/`` (not tracked by git), so
that trying a scale never replaces what is published. At its end the notebook
calls :func:`write_notebook_summary`.
"""
import ast
import json
import os
from collections.abc import Mapping

from common import interval_record, paths, plotting, provenance, runner
from common.seeding import canonical_json, stable_hash

SCALES = ("smoke", "quick", "paper")
# Parameters every notebook declares that choose where runs are computed, never what is computed.
BACKEND_PARAMETERS = ("n_jobs", "dask_address")
PUBLISHED_NAME = "published"
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
        if not value:
            raise ValueError(f"parameter {name!r} must be a non-empty list (like its default {default!r}); "
                             f"got {value!r}")
        if default:
            element_description, element_accepts = _kind(default[0])
            wrong = [item for item in value if not element_accepts(item)]
            if wrong:
                raise ValueError(f"parameter {name!r} must be a list of {element_description.split(' ', 1)[1]}s "
                                 f"(like its default {default!r}); got {value!r}")
        return type(default)(value)
    return value


def _listed_choice(value, rule):
    """Whether ``value`` is one of the listed choices of a rule, of the same type (True is not 1)."""
    if not isinstance(rule, (list, tuple)) or isinstance(value, (list, tuple)):
        return False
    return any(type(value) is type(choice) and value == choice for choice in rule)


def _mixed_choices(rule):
    """Whether a rule lists choices of more than one type."""
    return isinstance(rule, (list, tuple)) and len({type(choice) for choice in rule}) > 1


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
        if value is None:
            continue
        if _listed_choice(value, allowed.get(name)):
            params[name] = value  # a value the notebook lists is allowed whatever its type (False, True, "powered")
        elif _mixed_choices(allowed.get(name)):   # name every choice, not just the default's type
            raise ValueError(f"parameter {name!r}: {value!r} is not allowed; allowed values: "
                             f"{', '.join(map(repr, allowed[name]))}")
        else:
            params[name] = _checked_type(name, value, scales_table[scale][name])
    for name, rule in allowed.items():
        _check_allowed(name, params[name], rule)
    return params


def parameter_names(experiment):
    """Every parameter a notebook declares: ``scale``, its scale's parameters, the backend ones."""
    return ["scale", *next(iter(experiment.SCALES.values())), *BACKEND_PARAMETERS]


def configuration(experiment, scale=None, **overrides):
    """The parameters of one configuration of a notebook's experiments.

    Parameters
    ----------
    experiment : module
        The notebook's experiment module (``SCALES``, ``PUBLISHED``, optional ``ALLOWED``).
    scale : {"smoke", "quick", "paper"} or None
        None selects the published configuration, ``experiment.PUBLISHED``.
    **overrides
        Values replacing those of the scale (or of the published configuration);
        ``None`` keeps them.

    Returns
    -------
    dict
        As :func:`resolve_parameters`.
    """
    if scale is None:
        published = dict(experiment.PUBLISHED)
        scale = published.pop("scale")
        overrides = {**published, **{name: value for name, value in overrides.items() if value is not None}}
    return resolve_parameters(scale, experiment.SCALES, allowed=getattr(experiment, "ALLOWED", None), **overrides)


def published_label(published):
    """A published configuration as docs/papers.md names it, e.g. ``"scale paper, settings earlier"`` for
    ``{"scale": "paper", "settings": "earlier"}``; a list by its length (``"8 problems"``)."""
    return ", ".join(f"{len(value)} {name}" if isinstance(value, (list, tuple)) else f"{name} {value}"
                     for name, value in published.items())


def configuration_name(experiment, params):
    """``"published"``, the bare scale for its own defaults, else ``"<scale>-<hash of the parameters>"``."""
    if params == configuration(experiment):
        return PUBLISHED_NAME
    if params == configuration(experiment, params["scale"]):
        return params["scale"]
    return f"{params['scale']}-{stable_hash(params)[:8]}"


#: The configurations whose new runs enter the tracked cache ``data/results``: the published one and the paper scale
#: (whose grid the published one extends). Any other caches its new runs apart (:data:`common.paths.SCRATCH_VARIABLE`).
CACHED_CONFIGURATIONS = (PUBLISHED_NAME, "paper")


def route_new_runs(name):
    """Send the new runs of configuration ``name`` to the tracked cache or, for any configuration but
    :data:`CACHED_CONFIGURATIONS`, to the untracked scratch cache (cached runs are still read from
    ``data/results``); workers started later inherit the choice through the environment."""
    os.environ[paths.SCRATCH_VARIABLE] = "0" if name in CACHED_CONFIGURATIONS else "1"


def _assigned_names(sources):
    names = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:  # IPython magics: no parameter is assigned there
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign):
                names.update(target.id for target in node.targets if isinstance(target, ast.Name))
    return names


def notebook_parameters(experiment, namespace):
    """Resolve a notebook's parameters cell and route its outputs; call it right after that cell.

    A configuration other than the published one writes its figures, tables and verdicts under ``output/``, and so
    does the published one when its runs come from another cache than ``data/results``
    (:func:`common.paths.reads_foreign_cache`); one at the smoke scale also caches its runs there
    (:func:`common.paths.smoke_results_root`). The paper's record of refined bootstrap intervals is read, and what
    the execution adds to it written beside its verdicts (:func:`common.interval_record.use`).

    Parameters
    ----------
    experiment : module
        The notebook's experiment module.
    namespace : dict
        The notebook's ``globals()``: the parameters cell's variables, and
        IPython's input history ``In``, whose earlier cells (the parameters cell
        and papermill's injected one) may assign only declared parameters.

    Returns
    -------
    dict
        The resolved parameters (see :func:`configuration`); the backend
        parameters stay in the namespace for :func:`common.runner.run_grid`.

    Raises
    ------
    ValueError
        Naming an unknown parameter or a bad value, and what is allowed.
    """
    declared = parameter_names(experiment)
    earlier_cells = namespace.get("In", [])[:-1]
    unknown = sorted(_assigned_names(earlier_cells) - set(declared))
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r}; allowed parameters: {', '.join(declared)}")
    overrides = {name: namespace.get(name) for name in declared if name not in ("scale", *BACKEND_PARAMETERS)}
    params = configuration(experiment, namespace.get("scale"), **overrides)
    name = configuration_name(experiment, params)
    route_new_runs(name)
    if params["scale"] == "smoke" and not os.environ.get(paths.RESULTS_ROOT_VARIABLE):
        # From Jupyter, nbconvert or papermill as from reproduce.py: smoke runs only check that the code runs.
        os.environ[paths.RESULTS_ROOT_VARIABLE] = str(paths.smoke_results_root())
        print(f"scale 'smoke': its runs are cached in {_shown(paths.smoke_results_root())}/, not in data/results/")
    if (name != PUBLISHED_NAME or paths.reads_foreign_cache()) and not os.environ.get(paths.FIGURES_ROOT_VARIABLE):
        folder = paths.output_dir(experiment.PAPER, name)
        os.environ[paths.FIGURES_ROOT_VARIABLE] = str(folder / "figures")
        why = ("is not the published one" if name != PUBLISHED_NAME else
               f"reads its runs from {paths.results_root()} ({paths.RESULTS_ROOT_VARIABLE}), not the committed cache")
        print(f"configuration {name!r} {why}: its figures, tables and verdicts go to {_shown(folder)}/figures/")
    interval_record.use(experiment.PAPER)
    return params


def _shown(path):
    """``path`` relative to the repository where it lies inside it, else as it is."""
    try:
        return path.relative_to(paths.repo_root())
    except ValueError:
        return path


def write_notebook_summary(paper_key, params, *, verdicts=None):
    """Write what an execution produced and what it did, for ``reproduce.py``.

    ``figures/<key>/summary.json`` holds only what the parameters and the cached
    runs determine (the configuration, the files written, the verdict counts),
    so regenerating from the cache rewrites it byte for byte.
    ``figures/<key>/execution.json`` (not tracked) holds what this execution did:
    runs loaded and computed, and the corrupt or stale cached files it replaced.
    ``figures/<key>/bootstrap_intervals.json`` keeps the refined bootstrap intervals for the next execution
    (:func:`common.interval_record.save`).

    Parameters
    ----------
    paper_key : str
    params : dict
        The resolved parameters (with ``"scale"``).
    verdicts : pandas.DataFrame, optional
        The verdict table (:func:`common.verdict_tables.verdict_table`); its verdicts are counted.

    Returns
    -------
    pathlib.Path
        The summary's path.
    """
    if not isinstance(params, Mapping) or params.get("scale") not in SCALES:
        raise ValueError(f"params must be the resolved parameters, with 'scale' one of {list(SCALES)}; got {params!r}")
    folder = paths.figures_dir(paper_key)
    summary = {
        "paper": paper_key,
        "scale": params["scale"],
        "parameters": json.loads(canonical_json(dict(params))),
        "figures": [path.relative_to(folder).as_posix() for path in plotting.files_written(paper_key)],
        "verdicts": {} if verdicts is None else {str(name): int(count)
                                                 for name, count in verdicts["verdict"].value_counts().items()},
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "summary.json"
    path.write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    (folder / "execution.json").write_text(json.dumps(runner.run_counts(), indent=2, sort_keys=True) + "\n")
    interval_record.save()
    provenance.log_modules()
    return path
