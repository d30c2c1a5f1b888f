"""Move a paper's run files into packs, one new pack per block (its ``experiment``), so that its grid loads in
one read per block and the cache stops growing by thousands of files.

Usage, from the repository root::

    python -m common.pack_runs bo_pp                # pack bo_pp's run files in data/results/bo_pp/
    python -m common.pack_runs bo_pp --dry-run      # say what would be packed, change nothing

Each run file is read and verified (:func:`common.store.read_run`); the runs of one block go into a new pack
``data/results/<paper>/packs/<block>-<n>.npz`` (:mod:`common.run_packs`), numbered after the block's packs
already there, which are never rewritten: so git stores each run's bytes once, and the repository grows by the
compressed size of the new runs only. A run file is deleted only once its run reads back from the new pack with
the same configuration, metadata, checksum and arrays. A damaged run file is left where it is and named. New
runs are still written as run files; run this again to pack them.
"""
from common import _threads  # noqa: F401  (one BLAS thread, before numpy loads)

import argparse  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
from collections import defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from common import paths, run_packs, store  # noqa: E402


def _stored_parts(run):
    """What a run file holds, in the form :func:`common.run_packs.write_pack` takes."""
    with np.load(run.path, allow_pickle=False) as npz:
        config_json = str(npz[store._CONFIG_ENTRY])
        meta_json = str(npz[store._META_ENTRY])
        checksum = str(npz[store._CHECKSUM_ENTRY])
        arrays = {name[len(store._ARRAY_PREFIX):]: npz[name] for name in npz.files
                  if name.startswith(store._ARRAY_PREFIX)}
    return run.key, config_json, meta_json, checksum, arrays


def _same_parts(packed, loose):
    key, config_json, meta_json, checksum, arrays = loose
    return (packed[:4] == (key, config_json, meta_json, checksum) and packed[4].keys() == arrays.keys()
            and all(packed[4][name].dtype == array.dtype and packed[4][name].shape == array.shape
                    and packed[4][name].tobytes() == array.tobytes() for name, array in arrays.items()))


def next_pack_path(folder, block):
    """The path of a new pack of ``block`` in a paper's folder: numbered one after its packs already there."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", block)
    numbers = [int(match.group(1)) for path in store.pack_paths(folder)
               if (match := re.fullmatch(re.escape(stem) + r"-(\d+)\.npz", path.name))]
    return Path(folder) / run_packs.PACK_FOLDER / f"{stem}-{max(numbers, default=0) + 1:03d}.npz"


def pack_paper(paper_key, dry_run=False, out=None):
    """Pack the run files of one paper (see the module docstring).

    Returns
    -------
    dict
        ``{"packed": runs moved into packs, "packs": new pack paths, "damaged": run files left as they were}``.
    """
    folder = paths.results_dir(paper_key)
    blocks, damaged = defaultdict(list), []
    for path in sorted(folder.glob("*.npz")):
        try:
            run = store.read_run(path)
        except store._Corrupt as exc:
            damaged.append(f"{path}: {exc}")
            continue
        blocks[run.config["experiment"]].append(run)
    packed, packs = 0, []
    for block, runs in sorted(blocks.items()):
        target = next_pack_path(folder, block)
        shown = target.relative_to(paths.repo_root()) if target.is_relative_to(paths.repo_root()) else target
        print(f"{paper_key}: {len(runs)} run files of block {block!r} -> {shown}", file=out)
        if dry_run:
            continue
        parts = [_stored_parts(run) for run in runs]
        run_packs.write_pack(target, parts)
        read_back = {entry[0]: entry for entry in run_packs.read_pack(target)}
        unequal = [loose[0] for loose in parts if not _same_parts(read_back.get(loose[0], ()), loose)]
        if unequal:
            target.unlink()
            raise RuntimeError(f"pack {target} did not read back {len(unequal)} runs as written, e.g. {unequal[:3]}; "
                               f"it was removed and every run file kept")
        for run in runs:
            run.path.unlink()
        packed += len(runs)
        packs.append(target)
    for problem in damaged:
        print(f"{paper_key}: left a damaged run file as it was: {problem}", file=out)
    return {"packed": packed, "packs": packs, "damaged": damaged}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m common.pack_runs", description=__doc__.split("\n\n")[0])
    parser.add_argument("papers", nargs="+", metavar="PAPER", help="paper keys whose run files to pack")
    parser.add_argument("--dry-run", action="store_true", help="say what would be packed, change nothing")
    args = parser.parse_args(argv)
    for paper_key in args.papers:
        try:
            folder = paths.results_dir(paper_key)
        except ValueError as exc:
            parser.error(f"PAPER: {exc}")
        if not folder.is_dir():
            parser.error(f"PAPER: no folder of runs {folder} for {paper_key!r}")
    for paper_key in args.papers:
        summary = pack_paper(paper_key, args.dry_run)
        print(f"{paper_key}: {summary['packed']} runs packed into {len(summary['packs'])} new packs, "
              f"{len(summary['damaged'])} damaged run files left", file=sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
