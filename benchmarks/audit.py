"""Full `rubric audit` wall time over the 12 conformance matters, against `rubric lint`
on the same matters measured in the same run.

Both run as fresh processes (`python -m rubric_tools ...`, interpreter start-up
included) with the caches off; best of N each. The audit uses a process pool over
matters (`--jobs`, default the CPU count); the lint reference is the ordinary
`rubric lint`. Also prints the in-process audit time per matter (one worker).

    python benchmarks/audit.py [--rounds N] [--corpus DIR] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "conformance"


def _best_process_time(argv: list[str], rounds: int) -> float:
    env = dict(os.environ, RUBRIC_NO_CACHE="1")
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "rubric_tools", *argv],
            env=env,
            cwd=REPO_ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        best = min(best, time.perf_counter() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="process runs of each command (best is kept)")
    parser.add_argument("--corpus", type=Path, default=None, help="conformance corpus folder")
    parser.add_argument("--jobs", type=int, default=None, help="audit workers (default: CPU count)")
    args = parser.parse_args()
    corpus = args.corpus or Path(os.environ.get("RUBRIC_CONFORMANCE_DIR") or DEFAULT_CORPUS)
    matters = corpus / "matters"
    if not matters.is_dir():
        print(f"conformance corpus not found at {corpus} (set RUBRIC_CONFORMANCE_DIR)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(REPO_ROOT))
    os.environ["RUBRIC_NO_CACHE"] = "1"
    from rubric_tools.commands.audit import audit_matter
    from rubric_tools.config.audit import AuditSection

    roots = sorted(p.parent for p in matters.glob("*/matter.yaml"))
    print(f"{len(roots)} matters, {os.cpu_count()} CPUs")
    total_findings = 0
    for root in roots:
        started = time.perf_counter()
        report = audit_matter(root, AuditSection())
        total_findings += len(report.diagnostics)
        print(f"  {root.name:32} {time.perf_counter() - started:6.3f} s  {len(report.diagnostics):3} findings")
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    audit = _best_process_time(["audit", str(matters), "--output-format", "json", *jobs], args.rounds)
    lint = _best_process_time(["lint", str(matters), "--output-format", "json"], args.rounds)
    print(f"rubric audit (process pool, whole process): {audit:.3f} s, {total_findings} findings")
    print(f"rubric lint  (reference, whole process):    {lint:.3f} s")
    print(f"ratio audit / lint: {audit / lint:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
