"""Time the main job, `python reproduce.py` from the committed cache, notebook by notebook (issue 44).

Runs `python reproduce.py` once in a child process, as a reader would after the set-up, reads each notebook's
seconds from its summary line, and prints them with the whole job's wall and CPU seconds. With `--record` the
numbers go to benchmarks/results/main_job.csv (one row per notebook and the total), which the README quotes.
Run it on a quiet machine (nothing else on the cores), from the repository root:

    python benchmarks/bench_main_job.py --record      # about 10 minutes on 2 cores
"""
import argparse
import csv
import platform
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "benchmarks" / "results" / "main_job.csv"
SUMMARY_LINE = re.compile(r"^(?P<key>[a-z_]+)\s+ok\s+(?P<seconds>[0-9.]+) s\s")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as lines:
            return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")),
                        platform.processor())
    except OSError:
        return platform.processor()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help=f"write the timings to {RECORD.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    finished = subprocess.run([sys.executable, "reproduce.py"], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if finished.returncode != 0:
        print(finished.stdout[-3000:], finished.stderr[-3000:], sep="\n", file=sys.stderr)
        raise SystemExit(f"error: python reproduce.py failed (exit status {finished.returncode})")
    # reproduce.py prints each notebook's line as it finishes and again in its summary: keep the first.
    seconds = {}
    for line in finished.stdout.splitlines():
        if match := SUMMARY_LINE.match(line):
            seconds.setdefault(match["key"], float(match["seconds"]))
    rows = [{"notebook": key, "seconds": value} for key, value in seconds.items()]
    rows.append({"notebook": "whole job (wall)", "seconds": round(wall, 1)})
    rows.append({"notebook": "whole job (CPU, all processes)", "seconds": round(usage.ru_utime + usage.ru_stime, 1)})
    print(f"python reproduce.py from the cache on {cpu_model()}:")
    print("| notebook | seconds |\n|---|---:|")
    for row in rows:
        print(f"| {row['notebook']} | {row['seconds']:.1f} |")
    if args.record:
        with RECORD.open("w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=["notebook", "seconds", "cpu"])
            writer.writeheader()
            writer.writerows({**row, "cpu": cpu_model()} for row in rows)
        print(f"recorded in {RECORD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
