"""Lint, check and audit over the conformance matters, against peers measured in the same run.

Processes, interleaved round by round (ours and the peers back to back, the order rotating),
caches off, bytecode written as on a user's machine; median of the rounds' ratios with the
spread, wall and CPU time:

- `rubric lint <corpus>/matters` against the upstream's own linter, `playbook-lint --all`,
  run in the reference checkout when one is given (`--reference PATH` or
  `$RUBRIC_REFERENCE_DIR`; the command is the checkout's `playbook-lint` console script, or
  `--upstream-lint "COMMAND"`). Target: <= 1.0x its wall time. Without a checkout the peer
  is not measured, and the benchmark says so.
- the same against a floor process (labelled as such; it is not the upstream): start Python,
  import PyYAML and jsonschema, `yaml.safe_load` every matter YAML file. What any Python
  linter of these files pays before it checks anything.
- `rubric check` and `rubric audit` of the same matters against our own `rubric lint`.
  Target: <= 2.0x each (wall; CPU printed beside). `rubric audit` makes no guard
  proposals unless asked (`--unsafe-fixes`); `--with-proposals` also measures
  `rubric audit --unsafe-fixes` (about a minute a round), as measured, against no target.

Then (unless `--processes-only`), in-process: the first and warm lint runs, where the time goes per stage, the rendering
cost of each output format, and YAML parsing of every corpus file (ruamel.yaml's pure-Python
composer, the loader before, against the loader now), as ratios.

    python benchmarks/lint.py [--rounds N] [--process-rounds N] [--corpus DIR] [--reference PATH]
                              [--upstream-lint "CMD"] [--processes-only] [--with-proposals]
"""

from __future__ import annotations

import argparse
import io
import os
import shlex
import shutil
import statistics
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

from measure import (
    NO_REFERENCE,
    REPO_ROOT,
    Run,
    child_environment,
    corpus_folder,
    interleaved,
    machine,
    ratio_line,
    ratios,
    reference_checkout,
    run_process,
    spread,
)


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


def upstream_lint_command(checkout: Path, given: str | None) -> tuple[list[str], dict[str, str]] | None:
    """How to run the upstream's `playbook-lint --all` in `checkout`: `--upstream-lint`, else its
    `playbook-lint` console script declared in the checkout's pyproject.toml, else one on PATH."""
    environment = child_environment()
    folders = [str(folder) for folder in (checkout / "src", checkout) if folder.is_dir()]
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [*folders, os.environ.get("PYTHONPATH")]))
    if given:
        return shlex.split(given), environment
    project = checkout / "pyproject.toml"
    if project.is_file():
        scripts = tomllib.loads(project.read_text(encoding="utf-8")).get("project", {}).get("scripts", {})
        target = scripts.get("playbook-lint")
        if isinstance(target, str) and ":" in target:
            module, function = target.split(":", 1)
            call = (
                f"import sys; sys.argv[0] = 'playbook-lint'; from {module} import {function} as main; sys.exit(main())"
            )
            return [sys.executable, "-c", call, "--all"], environment
    found = shutil.which("playbook-lint")
    return ([found, "--all"], environment) if found else None


FLOOR = """
import sys, yaml, jsonschema
from pathlib import Path
for path in sorted(Path(sys.argv[1]).glob("*/*.yaml")):
    yaml.safe_load(path.read_text(encoding="utf-8"))
"""


def process_figures(
    matters: Path, rounds: int, checkout: Path | None, upstream: str | None, with_proposals: bool = False
) -> None:
    ours = [sys.executable, "-m", "rubric_tools"]
    environment = child_environment()
    commands: dict[str, tuple[list[str], dict[str, str], Path | None]] = {
        "lint": ([*ours, "lint", str(matters)], environment, None),
        "floor": ([sys.executable, "-c", FLOOR, str(matters)], environment, None),
        "check": ([*ours, "check", str(matters)], environment, None),
        "audit": ([*ours, "audit", str(matters)], environment, None),
    }
    if with_proposals:
        commands["proposals"] = ([*ours, "audit", "--unsafe-fixes", str(matters)], environment, None)
    peer = upstream_lint_command(checkout, upstream) if checkout is not None else None
    if peer is not None and checkout is not None:
        commands["upstream"] = (peer[0], peer[1], checkout)
    for command, command_environment, cwd in commands.values():
        run_process(command, command_environment, cwd)  # bytecode written, files in the page cache
    runs: dict[str, list[Run]] = {name: [] for name in commands}

    def measure(name: str) -> float:
        command, command_environment, cwd = commands[name]
        runs[name].append(run_process(command, command_environment, cwd))
        return runs[name][-1].wall

    walls = interleaved({name: (lambda name=name: measure(name)) for name in commands}, rounds)  # type: ignore[misc]
    count = sum(1 for _ in matters.glob("*/matter.yaml"))
    print(f"processes over the {count} conformance matters, caches off, {rounds} interleaved rounds; median (min, max)")
    labels = {
        "lint": "rubric lint",
        "floor": "floor (python + import yaml, jsonschema + safe_load of every matter file; not the upstream)",
        "check": "rubric check",
        "audit": "rubric audit",
        "proposals": "rubric audit --unsafe-fixes (the guard proposals made and shown)",
        "upstream": f"upstream playbook-lint --all ({' '.join(commands['upstream'][0][-1:])} in {checkout})"
        if "upstream" in commands
        else "",
    }
    for name in commands:
        exits = sorted({run.code for run in runs[name]})
        print(f"  {labels[name]}")
        cpu = [run.cpu for run in runs[name]]
        print(f"    wall {spread(walls[name], ' s')}   CPU {spread(cpu, ' s')}   exit {exits}")
    if "upstream" in commands:
        print(ratio_line("lint ÷ upstream playbook-lint --all, wall", ratios(walls["lint"], walls["upstream"]), 1.0))
    elif checkout is None:
        print(f"  lint ÷ upstream playbook-lint --all: {NO_REFERENCE}")
    else:
        print(
            f"  lint ÷ upstream playbook-lint --all: peer not measured: no playbook-lint found in {checkout} "
            '(its pyproject.toml declares none, none on PATH; pass --upstream-lint "COMMAND")'
        )
    print(ratio_line("lint ÷ floor, wall", ratios(walls["lint"], walls["floor"])))
    print(ratio_line("check ÷ lint, wall", ratios(walls["check"], walls["lint"]), 2.0))
    print(ratio_line("audit ÷ lint, wall", ratios(walls["audit"], walls["lint"]), 2.0))
    lint_cpu = [run.cpu for run in runs["lint"]]
    for name in ("check", "audit"):
        print(ratio_line(f"{name} ÷ lint, CPU", ratios([run.cpu for run in runs[name]], lint_cpu)))
    if with_proposals:
        print(ratio_line("audit --unsafe-fixes ÷ lint, wall", ratios(walls["proposals"], walls["lint"])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="warm in-process rounds")
    parser.add_argument("--corpus", type=Path, default=None, help="conformance corpus folder")
    parser.add_argument("--process-rounds", type=int, default=5, help="interleaved process rounds")
    parser.add_argument("--reference", type=Path, default=None, help="a checkout of the upstream repository")
    parser.add_argument(
        "--upstream-lint", default=None, help="the upstream linter's command (default: playbook-lint --all)"
    )
    parser.add_argument("--processes-only", action="store_true", help="only the process figures")
    parser.add_argument(
        "--with-proposals", action="store_true", help="also `rubric audit --unsafe-fixes` (about a minute a round)"
    )
    args = parser.parse_args()
    corpus = corpus_folder(args.corpus)
    matters = corpus / "matters"
    if not matters.is_dir():
        print(f"conformance corpus not found at {corpus} (set RUBRIC_CONFORMANCE_DIR)", file=sys.stderr)
        return 2
    print(machine())
    process_figures(
        matters, args.process_rounds, reference_checkout(args.reference), args.upstream_lint, args.with_proposals
    )
    if args.processes_only:
        return 0
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

    _yaml_parse_figures(corpus, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
