"""Run every benchmark of this folder in one process, one after the other.

Run from the repository root:

    python benchmarks/run_all.py

Each script prints its own markdown table; together they are the tables of
benchmarks/README.md. They are run in sequence, never in parallel, because
the timings are single-threaded and a second process would slow the first.
"""
import runpy
from pathlib import Path

BENCHMARKS = ("bench_gp.py", "bench_direct.py", "bench_bo_loop.py")


def main():
    folder = Path(__file__).resolve().parent
    for name in BENCHMARKS:
        print(f"\n## {name}\n", flush=True)
        runpy.run_path(str(folder / name), run_name="__main__")


if __name__ == "__main__":
    main()
