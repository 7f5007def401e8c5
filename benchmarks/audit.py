"""Full `rubric audit` wall time over the 12 conformance matters, against `rubric lint`
on the same matters measured in the same run.

Both run as fresh processes (`python -m rubric_tools ...`, interpreter start-up
included) with the caches off, interleaved round by round; the median of the rounds'
ratios with its spread (target: audit <= 2x lint). The audit uses a process pool over
matters (`--jobs`, default the CPU count); the lint reference is the ordinary
`rubric lint`. `rubric audit` makes its guard proposals only when asked
(`--unsafe-fixes`): `--with-proposals` measures `rubric audit --unsafe-fixes` too (about
a minute a round), as measured. Also prints the in-process audit time per matter (one
worker): the findings alone, and with `--with-proposals` the proposals' time beside.

    python benchmarks/audit.py [--rounds N] [--corpus DIR] [--jobs N] [--with-proposals]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from measure import (
    REPO_ROOT,
    child_environment,
    corpus_folder,
    interleaved,
    machine,
    ratio_line,
    ratios,
    run_process,
    spread,
)


def _process_seconds(argv: list[str]) -> float:
    return run_process([sys.executable, "-m", "rubric_tools", *argv], child_environment(), REPO_ROOT).wall


def _per_matter(matters: Path, with_proposals: bool) -> int:
    from rubric_tools.commands.audit import audit_matter
    from rubric_tools.config.audit import AuditSection

    roots = sorted(p.parent for p in matters.glob("*/matter.yaml"))
    print(f"{len(roots)} matters, {os.cpu_count()} CPUs; in-process, one worker: findings (and with proposals)")
    total_findings = 0
    for root in roots:
        started = time.perf_counter()
        report = audit_matter(root, AuditSection(), propose=False)
        seconds = time.perf_counter() - started
        total_findings += len(report.diagnostics)
        line = f"  {root.name:32} {seconds:6.3f} s  {len(report.diagnostics):3} findings"
        if with_proposals:
            started = time.perf_counter()
            audit_matter(root, AuditSection())
            line += f"   with proposals {time.perf_counter() - started:6.3f} s"
        print(line)
    return total_findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved process rounds of each command")
    parser.add_argument("--corpus", type=Path, default=None, help="conformance corpus folder")
    parser.add_argument("--jobs", type=int, default=None, help="audit workers (default: CPU count)")
    parser.add_argument("--with-proposals", action="store_true", help="also `rubric audit --unsafe-fixes`")
    args = parser.parse_args()
    corpus = corpus_folder(args.corpus)
    matters = corpus / "matters"
    if not matters.is_dir():
        print(f"conformance corpus not found at {corpus} (set RUBRIC_CONFORMANCE_DIR)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(REPO_ROOT))
    os.environ["RUBRIC_NO_CACHE"] = "1"
    total_findings = _per_matter(matters, args.with_proposals)
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    commands = {
        "audit": ["audit", str(matters), "--output-format", "json", *jobs],
        "lint": ["lint", str(matters), "--output-format", "json"],
    }
    if args.with_proposals:
        commands["proposals"] = ["audit", str(matters), "--output-format", "json", "--unsafe-fixes", *jobs]
    walls = interleaved(
        {name: (lambda argv=argv: _process_seconds(argv)) for name, argv in commands.items()}, args.rounds
    )
    print(machine())
    print(f"rubric audit (process pool, whole process): {spread(walls['audit'], ' s')}, {total_findings} findings")
    print(f"rubric lint  (reference, whole process):    {spread(walls['lint'], ' s')}")
    print(ratio_line("audit ÷ lint, wall", ratios(walls["audit"], walls["lint"]), 2.0))
    if args.with_proposals:
        print(f"rubric audit --unsafe-fixes (whole process): {spread(walls['proposals'], ' s')}")
        print(ratio_line("audit --unsafe-fixes ÷ lint, wall", ratios(walls["proposals"], walls["lint"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
