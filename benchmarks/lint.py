"""Lint wall time over the conformance matters: in-process and as a cold process.

Prints, for `rubric lint <corpus>/matters` with every rule:
- the first in-process run (imports of the rule modules and schemas included),
- warm in-process runs (best and median of several rounds), per matter too,
- the rendering cost of each output format on the warm report,
- one cold `python -m rubric_tools lint` subprocess, interpreter start-up included.

    python benchmarks/lint.py [--rounds N] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "conformance"


def _timed_lint(matters: Path, output_format: str) -> tuple[float, int]:
    from rubric_tools.reporting.lint_command import LintOptions, OutputFormat, run_lint

    options = LintOptions(paths=[matters], output_format=OutputFormat(output_format), cwd=matters.parent)
    started = time.perf_counter()
    code = run_lint(options, io.StringIO(), io.StringIO())
    return time.perf_counter() - started, code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="warm in-process rounds")
    parser.add_argument("--corpus", type=Path, default=None, help="conformance corpus folder")
    args = parser.parse_args()
    corpus = args.corpus or Path(os.environ.get("RUBRIC_CONFORMANCE_DIR") or DEFAULT_CORPUS)
    matters = corpus / "matters"
    if not matters.is_dir():
        print(f"conformance corpus not found at {corpus} (set RUBRIC_CONFORMANCE_DIR)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(REPO_ROOT))
    count = sum(1 for _ in matters.glob("*/matter.yaml"))

    import_started = time.perf_counter()
    from rubric_tools.lint.engine import lint_paths
    from rubric_tools.lint.registry import all_rules
    from rubric_tools.reporting.lint_command import OutputFormat, render_report

    rule_count = len(all_rules())
    import_seconds = time.perf_counter() - import_started
    first_seconds, exit_code = _timed_lint(matters, "concise")
    warm = [_timed_lint(matters, "concise")[0] for _ in range(args.rounds)]
    print(f"rubric lint over {count} conformance matters, {rule_count} rules (exit code {exit_code})")
    print(f"  import of rubric_tools and the rules : {import_seconds * 1000:8.1f} ms")
    print(f"  first in-process run                 : {first_seconds * 1000:8.1f} ms")
    print(
        f"  warm in-process run, best / median   : {min(warm) * 1000:8.1f} ms / "
        f"{statistics.median(warm) * 1000:.1f} ms ({args.rounds} rounds, "
        f"{statistics.median(warm) / count * 1000:.1f} ms per matter)"
    )

    report = lint_paths([matters])
    for output_format in OutputFormat:
        started = time.perf_counter()
        render_report(report, output_format, color=False, cwd=corpus)
        elapsed = time.perf_counter() - started
        print(f"  render {output_format.value:<8} ({len(report.diagnostics):3d} findings)   : {elapsed * 1000:8.1f} ms")

    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])),
    }
    started = time.perf_counter()
    process = subprocess.run(
        [sys.executable, "-m", "rubric_tools", "lint", str(matters), "--output-format", "concise"],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    cold = time.perf_counter() - started
    print(f"  cold subprocess `rubric lint`        : {cold * 1000:8.1f} ms (exit code {process.returncode})")
    if process.returncode == 2:
        print(process.stderr, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
