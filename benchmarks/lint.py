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
- YAML parsing of every corpus YAML file: ruamel.yaml's pure-Python composer (what
  the loader used before) against the loader now (PyYAML's C parser with the
  pre-check and conversion), and against its pure-Python fallback, as ratios;
- caches-off `rubric lint` processes of the tree before the C loader (`--before REV`,
  by default the parent of the commit that introduced it) against this tree, as a
  ratio, in the same run.

    python benchmarks/lint.py [--rounds N] [--corpus DIR] [--before REV]
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
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "conformance"


def _timed_lint(matters: Path, output_format: str) -> tuple[float, int]:
    from rubric_tools.commands.lint import LintOptions, OutputFormat, run_lint

    options = LintOptions(paths=[matters], output_format=OutputFormat(output_format), cwd=matters.parent)
    started = time.perf_counter()
    code = run_lint(options, io.StringIO(), io.StringIO())
    return time.perf_counter() - started, code


def _best_seconds(call: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - started)
    return best


def _yaml_parse_figures(corpus: Path, rounds: int) -> None:
    from ruamel.yaml import YAML

    from rubric_tools.loading import yaml_source

    texts = [path.read_text(encoding="utf-8") for path in sorted(corpus.rglob("*.yaml"))]
    size = sum(len(text) for text in texts)

    def parse_all() -> None:
        for text in texts:
            yaml_source.parse_yaml_text(Path("x.yaml"), text)

    ruamel = _best_seconds(lambda: [YAML(typ="rt", pure=True).compose(text) for text in texts], max(1, rounds // 3))
    fast = _best_seconds(parse_all, rounds)
    loader, yaml_source.LOADER = yaml_source.LOADER, yaml_source.PURE_LOADER
    try:
        pure = _best_seconds(parse_all, max(1, rounds // 3))
    finally:
        yaml_source.LOADER = loader
    print(f"YAML parsing of {len(texts)} corpus files ({size / 1024:.0f} KiB), best of several, caches off")
    print(f"  ruamel.yaml round-trip compose (before) : {ruamel * 1000:8.1f} ms")
    print(f"  loader now ({loader.__name__})          : {fast * 1000:8.1f} ms   ruamel/now  = {ruamel / fast:5.1f}x")
    print(f"  loader, pure-Python fallback            : {pure * 1000:8.1f} ms   ruamel/pure = {ruamel / pure:5.1f}x")


def _default_before() -> str | None:
    """The parent of the commit that introduced the C loader (yaml_convert.py)."""
    found = subprocess.run(
        [
            "git",
            "-C",
            str(REPO_ROOT),
            "log",
            "--diff-filter=A",
            "--format=%H",
            "--",
            "rubric_tools/loading/yaml_convert.py",
        ],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    return f"{found[-1]}^" if found else None


def _process_seconds(tree: Path, matters: Path, environment: dict[str, str], rounds: int) -> float:
    environment = {**environment, "PYTHONPATH": str(tree), "RUBRIC_NO_CACHE": "1"}
    command = [sys.executable, "-m", "rubric_tools", "lint", str(matters), "--output-format", "concise"]
    return _best_seconds(
        lambda: subprocess.run(command, capture_output=True, env=environment, cwd=tree, check=False), rounds
    )


def _before_after_figures(matters: Path, before: str | None, environment: dict[str, str]) -> None:
    if before is None:
        print("lint before/after: no earlier revision found (pass --before REV)")
        return
    with tempfile.TemporaryDirectory(prefix="rubric-bench-before-") as folder:
        archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", before], capture_output=True, check=False)
        if archive.returncode != 0:
            print(f"lint before/after: cannot read revision {before!r}")
            return
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        old = _process_seconds(Path(folder), matters, environment, 3)
        new = _process_seconds(REPO_ROOT, matters, environment, 3)
    print(f"caches-off `rubric lint` process over {matters} (best of 3, every rule)")
    print(f"  before ({before[:12]}, ruamel loader)  : {old * 1000:8.1f} ms")
    print(f"  now                                     : {new * 1000:8.1f} ms   before/now  = {old / new:5.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="warm in-process rounds")
    parser.add_argument("--corpus", type=Path, default=None, help="conformance corpus folder")
    parser.add_argument("--before", default=None, help="revision to compare caches-off lint against")
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
                    capture_output=True,
                    text=True,
                    env={**base_environment, **extra},
                    check=False,
                )
                timings.append(time.perf_counter() - started)
                if process.returncode == 2:
                    print(process.stderr, file=sys.stderr)
                    return 1
            print(f"  process, {label:<24}    : {min(timings) * 1000:8.1f} ms (exit code {process.returncode})")
    _yaml_parse_figures(corpus, args.rounds)
    _before_after_figures(matters, args.before or _default_before(), base_environment)
    return 0


if __name__ == "__main__":
    sys.exit(main())
