"""What fixes cost, as ratios to a plain lint measured in the same run.

Over a temporary copy of the conformance corpus (matters, trajectories and probes in
the repository layout) with a non-canonical anchor seeded into every matter that has
one, with the caches off, best of N rounds each, in CPU seconds (this process and its
workers):

- plain lint with the replay proof of safe fixes turned off (the reference);
- lint with the proof (every seeded fix is declared safe, replayed against the matter's
  trajectories and probes, and downgraded when a score moves);
- `--diff --unsafe-fixes` (working copies, rounds of lint and splice, proofs included);
- plain lint of the unseeded corpus (no fix anywhere: the proof must cost nothing).

    python benchmarks/fix.py [--rounds N] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "conformance"
_ANCHOR = re.compile(r'(anchor: "[^"§]+) §')


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (the lint's forked workers):
    unlike wall time, barely disturbed by other work on a shared machine."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _best(rounds: int, work: Callable[[], object]) -> float:
    timings = []
    for _ in range(rounds):
        started = _cpu_seconds()
        work()
        timings.append(_cpu_seconds() - started)
    return min(timings)


def _seeded_copy(corpus: Path, target: Path) -> int:
    for folder in ("matters", "trajectories", "probes"):
        if (corpus / folder).is_dir():
            shutil.copytree(corpus / folder, target / folder)
    seeded = 0
    for rubric in sorted((target / "matters").glob("*/rubric.yaml")):
        text = rubric.read_text(encoding="utf-8")
        changed = _ANCHOR.sub(r"\1 § ", text, count=1)
        if changed != text:
            rubric.write_text(changed, encoding="utf-8")
            seeded += 1
    return seeded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args()
    corpus = args.corpus or Path(os.environ.get("RUBRIC_CONFORMANCE_DIR") or DEFAULT_CORPUS)
    if not (corpus / "matters").is_dir():
        print(f"conformance corpus not found at {corpus} (set RUBRIC_CONFORMANCE_DIR)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(REPO_ROOT))
    os.environ["RUBRIC_NO_CACHE"] = "1"

    from rubric_tools.config.lint import LintSection
    from rubric_tools.lint.engine import lint_paths
    from rubric_tools.lint.fix_run import fix_paths

    with tempfile.TemporaryDirectory(prefix="rubric-bench-fix-") as folder:
        copy = Path(folder)
        seeded = _seeded_copy(corpus, copy)
        matters = copy / "matters"
        unproven, proven = LintSection(prove_fixes=False), LintSection()
        lint_paths([matters], proven)  # imports and first-run costs out of the figures
        reference = _best(args.rounds, lambda: lint_paths([matters], unproven))
        with_proof = _best(args.rounds, lambda: lint_paths([matters], proven))
        diff = _best(args.rounds, lambda: fix_paths([matters], proven, unsafe=True, write=False))
        report = lint_paths([matters], proven)
        fixes = [d.fix for d in report.diagnostics if d.fix is not None]
        downgraded = sum(1 for fix in fixes if fix.downgraded)
        clean_reference = _best(args.rounds, lambda: lint_paths([corpus / "matters"], unproven))
        clean_proof = _best(args.rounds, lambda: lint_paths([corpus / "matters"], proven))
    print(f"{seeded} matters seeded with a non-canonical anchor; {len(fixes)} fixes, {downgraded} downgraded")
    print(f"  plain lint, proof off (reference)   : {reference * 1000:8.1f} ms CPU   1.00x")
    print(f"  lint with the replay proof          : {with_proof * 1000:8.1f} ms CPU   {with_proof / reference:.2f}x")
    print(f"  --diff --unsafe-fixes               : {diff * 1000:8.1f} ms CPU   {diff / reference:.2f}x")
    ratio = clean_proof / clean_reference
    print(f"  unseeded corpus, proof on vs off    : {clean_proof * 1000:8.1f} ms CPU   {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
