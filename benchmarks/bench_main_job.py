"""Time the main job, `python reproduce.py` from the committed cache, notebook by notebook (issue 44).

Runs in child processes, as a reader would after the set-up, first `python reproduce.py` (which executes only the
notebooks whose recorded inputs changed: none on a clean checkout) and then `python reproduce.py --force` (every
notebook executed); reads each notebook's seconds from its summary line, and prints them side by side with each
job's wall and CPU seconds. With `--record` the numbers go to benchmarks/results/main_job.csv, which the README
quotes. Run it on a quiet machine (nothing else on the cores), from a clean checkout at the repository root:

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


def time_job(arguments):
    """Run ``python reproduce.py *arguments``; return each notebook's seconds and the job's wall and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    finished = subprocess.run([sys.executable, "reproduce.py", *arguments], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if finished.returncode != 0:
        print(finished.stdout[-3000:], finished.stderr[-3000:], sep="\n", file=sys.stderr)
        raise SystemExit(f"error: python reproduce.py {' '.join(arguments)} failed (exit status {finished.returncode})")
    # reproduce.py prints each notebook's line as it finishes and again in its summary: keep the first.
    seconds = {}
    for line in finished.stdout.splitlines():
        if match := SUMMARY_LINE.match(line):
            seconds.setdefault(match["key"], float(match["seconds"]))
    seconds["whole job (wall)"] = round(wall, 1)
    seconds["whole job (CPU, all processes)"] = round(after.ru_utime + after.ru_stime
                                                      - before.ru_utime - before.ru_stime, 1)
    return seconds


JOBS = {"python reproduce.py": [], "python reproduce.py --force": ["--force"]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help=f"write the timings to {RECORD.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    timings = {job: time_job(arguments) for job, arguments in JOBS.items()}
    rows = [{"notebook": name, **{job: timings[job][name] for job in JOBS}} for name in timings["python reproduce.py"]]
    print(f"The main job from the cache on {cpu_model()}, seconds:")
    print("| notebook | " + " | ".join(f"`{job}`" for job in JOBS) + " | ratio |\n|---|" + "---:|" * (len(JOBS) + 1))
    for row in rows:
        default, forced = row["python reproduce.py"], row["python reproduce.py --force"]
        print(f"| {row['notebook']} | {default:.1f} | {forced:.1f} | {forced / max(default, 0.05):.0f}x |")
    if args.record:
        with RECORD.open("w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=["notebook", *JOBS, "cpu"])
            writer.writeheader()
            writer.writerows({**row, "cpu": cpu_model()} for row in rows)
        print(f"recorded in {RECORD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
