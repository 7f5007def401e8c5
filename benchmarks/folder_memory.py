"""Peak memory and throughput of `rubric replay` and `rubric rescore` over a folder of
trajectory files, against the same trajectories as one archive file, in the same run.

For each size (default 1k, 10k and 100k) a temporary folder gets `trajectories/<matter_id>/
NNNNNN.jsonl` (hard links to one copy of each conformance trajectory, cycling through the
corpus), the matters beside it, a list file naming every trajectory and one JSONL archive of
the same episodes. Then, with `--jobs 1` and `--jobs 2`, interleaved:

- `rubric replay FOLDER --output-format jsonl` against `rubric replay @LIST` (the same files
  named one per line in a list, read a line at a time: the one-file input of replay);
- `rubric rescore FOLDER --matters M` against `rubric rescore ARCHIVE.jsonl --matters M`
  (one JSONL archive holding the same episodes);

printing the peak resident memory of the whole process tree (sampled from /proc every
50 ms), trajectories per second and per CPU second. Target: a folder of 100,000 files within
60 MB in one process, and within the memory of the one-file input.

    python benchmarks/folder_memory.py [--sizes 1000,10000,100000] [--jobs 1,2] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import child_environment, corpus_folder, machine

PEAK_TARGET_MB = 60  # one process, a folder of 100,000 trajectory files
TARGET_SIZE = 100_000


def _tree_memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of a process and its descendants, from /proc (Linux). RSS counts pages a
    forked worker shares with its parent once per process; PSS divides them among them."""
    rss, pss, pending = 0, 0, [pid]
    while pending:
        current = pending.pop()
        try:
            with open(f"/proc/{current}/smaps_rollup", encoding="ascii") as rollup:
                for line in rollup:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as children:
                    pending.extend(int(child) for child in children.read().split())
        except (OSError, ValueError):
            continue
    return rss, pss


def measure(command: list[str]) -> tuple[float, float, float, float, int]:
    """(wall seconds, CPU seconds of the tree, peak tree RSS and PSS in MB, exit code)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=child_environment())
    peak_rss = peak_pss = 0
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        rss, pss = _tree_memory_kb(process.pid)
        peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
        time.sleep(0.05)
    wall = time.perf_counter() - started
    # Not ru_maxrss: it would count the benchmark's own memory, which the child had before exec.
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, peak_rss / 1024, peak_pss / 1024, os.waitstatus_to_exitcode(status)


def build(corpus: Path, folder: Path, count: int) -> tuple[Path, Path, Path, Path]:
    """(trajectory folder, matters, list file, archive) holding `count` trajectories."""
    sources = sorted(corpus.glob("trajectories/*/*.jsonl"))
    matters, copies = folder / "matters", folder / "corpus"
    if not matters.exists():
        shutil.copytree(corpus / "matters", matters)
        for source in sources:
            (copies / source.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copies / source.parent.name / source.name)
    size_folder = folder / f"size-{count}"
    trajectories = size_folder / "trajectories"
    size_folder.mkdir()
    (size_folder / "matters").symlink_to(matters, target_is_directory=True)  # found beside the trajectories
    listing, archive = size_folder / "list.txt", size_folder / "episodes.jsonl"
    episodes = {
        source: json.dumps(
            {
                "matter_id": source.parent.name,
                "actions": [
                    json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()
                ],
            }
        )
        for source in sources
    }
    with listing.open("w", encoding="utf-8") as names, archive.open("w", encoding="utf-8") as lines:
        for index in range(count):
            source = sources[index % len(sources)]
            target = trajectories / source.parent.name / f"{index:06d}.jsonl"
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(copies / source.parent.name / source.name, target)
            names.write(f"{target}\n")
            lines.write(episodes[source] + "\n")
    return trajectories, matters, listing, archive


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="trajectory counts")
    parser.add_argument("--jobs", default="1,2", help="--jobs values to run each command with")
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args()
    corpus = corpus_folder(args.corpus)
    if not (corpus / "trajectories").is_dir():
        print(f"corpus not found at {corpus}", file=sys.stderr)
        return 2
    rubric = [sys.executable, "-m", "rubric_tools"]
    print(machine())
    _, _, bare, _, _ = measure([sys.executable, "-c", "import time; time.sleep(0.3)"])
    print(
        f"peak RSS of the process tree (a bare interpreter: {bare:.0f} MB) and its PSS (pages shared by forked\n"
        "workers counted once); trajectories/s wall and per CPU second"
    )
    with tempfile.TemporaryDirectory(prefix="rubric-folder-bench-") as temp:
        for count in (int(size) for size in args.sizes.split(",") if size.strip()):
            trajectories, matters, listing, archive = build(corpus, Path(temp), count)
            for jobs in (int(value) for value in args.jobs.split(",") if value.strip()):
                pairs = {
                    "replay": (
                        [*rubric, "replay", str(trajectories), "--output-format", "jsonl", "--jobs", str(jobs)],
                        [*rubric, "replay", f"@{listing}", "--output-format", "jsonl", "--jobs", str(jobs)],
                        "@LIST",
                    ),
                    "rescore": (
                        [*rubric, "rescore", str(trajectories), "--matters", str(matters), "--jobs", str(jobs)],
                        [*rubric, "rescore", str(archive), "--matters", str(matters), "--jobs", str(jobs)],
                        "one archive",
                    ),
                }
                for name, (folder_command, file_command, file_label) in pairs.items():
                    folder_figures = measure(folder_command)
                    file_figures = measure(file_command)
                    for label, (wall, cpu, peak, pss, code) in (("folder", folder_figures), (file_label, file_figures)):
                        target = ""
                        if label == "folder" and count >= TARGET_SIZE and jobs == 1:
                            verdict = "met" if peak <= PEAK_TARGET_MB else "NOT MET"
                            target = f"   target <= {PEAK_TARGET_MB} MB: {verdict}"
                        print(
                            f"  {name:<7} {count:>7,} --jobs {jobs} {label:<11}: "
                            f"peak RSS {peak:5.1f} MB (PSS {pss:5.1f}), "
                            f"{count / wall:6,.0f}/s wall, {count / cpu:6,.0f}/CPU s, exit {code}{target}"
                        )
                    print(f"    folder ÷ {file_label} peak memory: {folder_figures[2] / file_figures[2]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
