"""Lint wall time over the conformance matters: in-process and as a whole process.

Prints, for `rubric lint <corpus>/matters` with every rule:
- the first in-process run (imports of the rule modules and schemas included),
- warm in-process runs with the caches off (best and median), per matter too: the
  real linting work,
- the rendering cost of each output format on the warm report,
- `python -m rubric_tools lint` as a fresh process, interpreter start-up included,
  best of three each: with every cache off; on an empty cache (the first run on a
  machine, which fills it); and again on that cache (the pre-commit case: unchanged
  matters are restored, not linted).

    python benchmarks/lint.py [--rounds N] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "conformance"


def _timed_lint(matters: Path, output_format: str) -> tuple[float, int]:
    from rubric_tools.commands.lint import LintOptions, OutputFormat, run_lint

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
    os.environ["RUBRIC_NO_CACHE"] = "1"  # in-process figures measure the linting itself
    count = sum(1 for _ in matters.glob("*/matter.yaml"))

    import_started = time.perf_counter()
    from rubric_tools.commands.lint import OutputFormat, render_report
    from rubric_tools.lint.engine import lint_paths
    from rubric_tools.lint.registry import all_rules

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

    base_environment = {k: v for k, v in os.environ.items() if k not in ("RUBRIC_NO_CACHE", "RUBRIC_CACHE_DIR")}
    base_environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory(prefix="rubric-bench-cache-") as cache:
        settings = [
            ("caches off", {"RUBRIC_NO_CACHE": "1"}, True),
            ("empty cache (first run)", {"RUBRIC_CACHE_DIR": cache}, False),
            ("warm cache (unchanged)", {"RUBRIC_CACHE_DIR": cache}, True),
        ]
        for label, extra, repeat in settings:
            timings = []
            for _ in range(3 if repeat else 1):
                started = time.perf_counter()
                process = subprocess.run(
                    [sys.executable, "-m", "rubric_tools", "lint", str(matters), "--output-format", "concise"],
                    capture_output=True, text=True, env={**base_environment, **extra}, check=False,
                )
                timings.append(time.perf_counter() - started)
                if process.returncode == 2:
                    print(process.stderr, file=sys.stderr)
                    return 1
            print(f"  process, {label:<24}    : {min(timings) * 1000:8.1f} ms (exit code {process.returncode})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
