"""What one `rubric audit --fix --unsafe-fixes` does to gates, measured on sentences the
audit never sees.

(A) unaudited rubrics. Each conformance matter's rubric is de-hardened in memory (every
    structured gate reduced to its bare pattern: guards dropped; with `--narrow`, each
    alternation also narrowed to its first branch, as `audit.seeding` does) and written to
    a temporary copy of the matter *without* its probe file (its trajectories are kept,
    in the corpus layout). One audit fix loop runs on the copy. The matter's probes
    (`probes/<matter>.yaml`) are then scored against the gates before and after:
    - false positives silenced: expect_fire:false probes that fired before and are
      silent after (target >= 90 %);
    - missed sins made to fire: expect_fire:true probes silent before that fire after
      (target >= 50 %);
    - lost catches: expect_fire:true probes that fired before and are silent after (0);
    - new false positives: expect_fire:false probes silent before that fire after (0).
(B) hardened rubrics. The real conformance gates, with their probes beside them, are
    fixed the same way and scored against an independent sentence set
    (`--evalsets DIR`, default ../notes/evalsets: per matter `sentences` of surface,
    criterion, text, expect_fire, kind): new missed sins made to fire (target >= 50 %),
    new wrongly flagged correct sentences silenced (target >= 47 %), and nothing that
    passed broken (sins caught before and lost, correct sentences silent before and now
    flagged). Figures by kind are printed as aggregates only.

Also prints the fix loop's wall time per matter, and any lint error the fix adds (a gate
lint calls never-firing, a rubric PyYAML's `safe_load` cannot read).

    python benchmarks/audit_fix.py [--only A|B] [--narrow] [--matters ID,...] [--corpus DIR] [--evalsets DIR]
"""

from __future__ import annotations

import argparse
import copy
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "conformance"
DEFAULT_EVALSETS = REPO_ROOT.parent / "notes" / "evalsets"
GATE_KEYS = {
    "issue": "critical_failure_patterns",
    "redline": "redline_critical_failure_patterns",
    "settlement": "settlement_critical_failure_patterns",
}


@dataclass(frozen=True)
class Sentence:
    surface: str
    criterion: str
    text: str
    expect_fire: bool
    kind: str = ""


@dataclass
class Score:
    """Before/after verdicts on a set of sentences."""

    fp_before: int = 0  # correct sentences flagged before
    fp_silenced: int = 0
    missed_before: int = 0  # sins silent before
    missed_caught: int = 0
    lost: int = 0
    new_fp: int = 0
    sins: int = 0
    correct: int = 0
    by_kind: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, sentence: Sentence, before: bool, after: bool) -> None:
        kind = sentence.kind or "-"
        if sentence.expect_fire:
            self.sins += 1
            if not before:
                self.missed_before += 1
                self.by_kind[(kind, "missed")] += 1
                if after:
                    self.missed_caught += 1
                    self.by_kind[(kind, "now caught")] += 1
            elif not after:
                self.lost += 1
                self.by_kind[(kind, "lost")] += 1
        else:
            self.correct += 1
            if before:
                self.fp_before += 1
                self.by_kind[(kind, "flagged")] += 1
                if not after:
                    self.fp_silenced += 1
                    self.by_kind[(kind, "now silent")] += 1
            elif after:
                self.new_fp += 1
                self.by_kind[(kind, "new false positive")] += 1

    def merge(self, other: Score) -> None:
        for name in ("fp_before", "fp_silenced", "missed_before", "missed_caught", "lost", "new_fp", "sins", "correct"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.by_kind.update(other.by_kind)


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f} %" if whole else "    - "


def _entries(rubric: Mapping[str, Any]) -> list[tuple[dict[str, Any], str, list[Any]]]:
    found = []
    for issue in rubric.get("issues") or []:
        for surface, key in GATE_KEYS.items():
            if isinstance(issue.get(key), list):
                found.append((issue, surface, issue[key]))
    return found


def dehardened(rubric: dict[str, Any], narrow: bool) -> dict[str, Any]:
    """Every gate entry reduced to its bare pattern (and, with `narrow`, its first alternative)."""
    from rubric_tools.audit.seeding import narrow_alternation

    result = copy.deepcopy(rubric)
    for issue, _surface, gates in _entries(result):
        for index, entry in enumerate(gates):
            pattern = entry.get("pattern") if isinstance(entry, dict) else entry
            if not isinstance(pattern, str):
                continue
            if narrow:
                pattern = narrow_alternation(pattern) or pattern
            gates[index] = pattern
        del issue  # the lists are edited in place
    return result


def gate_lists(root: Path) -> dict[tuple[str, str], tuple[Any, ...]]:
    """(criterion, surface) -> the scorer's gates, as the matter at `root` loads."""
    from rubric_tools.loading.matter import load_matter_source
    from rubric_tools.scoring.model import GATE_SURFACES

    source = load_matter_source(root)
    lists: dict[tuple[str, str], tuple[Any, ...]] = {}
    for issue in source.matter.rubric.issues:
        for surface, attribute in GATE_SURFACES.items():
            lists[(str(issue.id), surface)] = tuple(getattr(issue, attribute))
    return lists


def fires(lists: Mapping[tuple[str, str], tuple[Any, ...]], sentence: Sentence) -> bool:
    from rubric_tools.scoring.gates import run_gates
    from rubric_tools.scoring.text import normalize

    gates = lists.get((sentence.criterion, sentence.surface), ())
    return bool(run_gates(gates, normalize(sentence.text), 1.0).fired)


def read_sentences(path: Path, key: str) -> list[Sentence]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    items = data.get(key) if isinstance(data, dict) else data
    return [
        Sentence(str(s["surface"]), str(s["criterion"]), str(s["text"]), bool(s["expect_fire"]), str(s.get("kind", "")))
        for s in items or []
        if isinstance(s, dict) and s.get("surface") in GATE_KEYS
    ]


def _layout(corpus: Path, matter: str, folder: Path, rubric: dict[str, Any] | None, probes: bool) -> Path:
    """A copy of the matter in the corpus layout (matters/, trajectories/, probes/)."""
    root = folder / "matters" / matter
    shutil.copytree(corpus / "matters" / matter, root)
    if (corpus / "trajectories" / matter).is_dir():
        shutil.copytree(corpus / "trajectories" / matter, folder / "trajectories" / matter)
    if probes and (corpus / "probes" / f"{matter}.yaml").is_file():
        (folder / "probes").mkdir(exist_ok=True)
        shutil.copy(corpus / "probes" / f"{matter}.yaml", folder / "probes" / f"{matter}.yaml")
    if rubric is not None:
        (root / "rubric.yaml").write_text(yaml.safe_dump(rubric, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return root


def run_fix(root: Path) -> tuple[float, int, int]:
    """One `rubric audit --fix --unsafe-fixes` on the matter at `root`: (seconds, fixes, rounds)."""
    from rubric_tools.audit.fix_loop import fix_matter, write_changes
    from rubric_tools.checking.audit_inputs import audit_inputs
    from rubric_tools.config.audit import AuditSection

    started = time.perf_counter()
    result = fix_matter(root, AuditSection(), audit_inputs(root), unsafe=True)
    write_changes([result])
    for problem in result.problems:
        print(f"    ! {problem}", file=sys.stderr)
    return time.perf_counter() - started, result.applied, result.rounds


def lint_errors(root: Path) -> set[str]:
    """The lint errors of the matter at `root` (code and message), and whether the reference's
    reader (PyYAML's pure-Python `safe_load`) loads its rubric: the fix loop must add none."""
    from rubric_tools.diagnostics import Severity
    from rubric_tools.lint.engine import lint_paths

    found = {f"{d.code} {d.message}" for d in lint_paths([root]).diagnostics if d.severity is Severity.ERROR}
    try:
        yaml.load((root / "rubric.yaml").read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        found.add(f"safe_load refuses rubric.yaml: {exc}")
    return found


def measure(
    corpus: Path, matter: str, sentences: Sequence[Sentence], rubric: dict[str, Any] | None, probes: bool
) -> tuple[Score, float, int, int]:
    with tempfile.TemporaryDirectory(prefix="audit-fix-bench-") as folder:
        root = _layout(corpus, matter, Path(folder), rubric, probes)
        before = gate_lists(root)
        errors_before = lint_errors(root)
        seconds, applied, rounds = run_fix(root)
        after = gate_lists(root)
        for problem in sorted(lint_errors(root) - errors_before):
            print(f"    ! after the fix, lint reports {problem}", file=sys.stderr)
    score = Score()
    for sentence in sentences:
        score.add(sentence, fires(before, sentence), fires(after, sentence))
    return score, seconds, applied, rounds


def _report(title: str, score: Score, targets: Sequence[tuple[str, int, int, str]], show_kinds: bool) -> None:
    print(f"\n{title}")
    for label, part, whole, target in targets:
        print(f"  {label:44} {_share(part, whole)}  ({part}/{whole})   target {target}")
    print(f"  {'lost catches':44} {score.lost:7d}   target 0")
    print(f"  {'new false positives':44} {score.new_fp:7d}   target 0")
    if show_kinds and score.by_kind:
        print("  by kind (aggregate counts):")
        kinds = sorted({kind for kind, _ in score.by_kind})
        for kind in kinds:
            parts = ", ".join(f"{what} {n}" for (k, what), n in sorted(score.by_kind.items()) if k == kind)
            print(f"    {kind:24} {parts}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("A", "B"), default=None)
    parser.add_argument("--narrow", action="store_true", help="(A) also narrow each alternation to its first branch")
    parser.add_argument("--matters", default="", help="comma-separated matter ids (default: every matter with probes)")
    parser.add_argument("--corpus", type=Path, default=None, help="conformance corpus folder")
    parser.add_argument("--evalsets", type=Path, default=DEFAULT_EVALSETS, help="(B) independent sentence sets")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO_ROOT))
    os.environ["RUBRIC_NO_CACHE"] = "1"

    corpus = args.corpus or Path(os.environ.get("RUBRIC_CONFORMANCE_DIR") or DEFAULT_CORPUS)
    if not (corpus / "probes").is_dir():
        print(f"conformance corpus not found at {corpus} (set RUBRIC_CONFORMANCE_DIR)", file=sys.stderr)
        return 2
    matters = [m for m in args.matters.split(",") if m] or sorted(p.stem for p in (corpus / "probes").glob("*.yaml"))
    print(f"{len(matters)} matters")
    if args.only in (None, "A"):
        total = Score()
        print(f"\n(A) unaudited rubrics{' (alternations narrowed)' if args.narrow else ''}: fix loop per matter")
        for matter in matters:
            rubric = yaml.safe_load((corpus / "matters" / matter / "rubric.yaml").read_text(encoding="utf-8"))
            probes = read_sentences(corpus / "probes" / f"{matter}.yaml", "probes")
            score, seconds, applied, rounds = measure(corpus, matter, probes, dehardened(rubric, args.narrow), False)
            total.merge(score)
            print(f"  {matter:32} {seconds:6.1f} s  {applied:3d} fixes  {rounds:2d} rounds")
        _report(
            "(A) probes of the unaudited rubrics",
            total,
            [
                ("false positives silenced", total.fp_silenced, total.fp_before, ">= 90 %"),
                ("missed sins made to fire", total.missed_caught, total.missed_before, ">= 50 %"),
            ],
            False,
        )
    if args.only in (None, "B"):
        evalsets = args.evalsets
        if not evalsets.is_dir():
            print(f"\n(B) skipped: no evalsets at {evalsets}")
            return 0
        total = Score()
        print("\n(B) hardened rubrics, their probes beside them: fix loop per matter")
        for matter in matters:
            path = evalsets / f"{matter}.yaml"
            if not path.is_file():
                continue
            sentences = read_sentences(path, "sentences")
            score, seconds, applied, rounds = measure(corpus, matter, sentences, None, True)
            total.merge(score)
            print(f"  {matter:32} {seconds:6.1f} s  {applied:3d} fixes  {rounds:2d} rounds")
        _report(
            "(B) independent sentences on the hardened rubrics",
            total,
            [
                ("new missed sins made to fire", total.missed_caught, total.missed_before, ">= 50 %"),
                ("new wrongly flagged sentences silenced", total.fp_silenced, total.fp_before, ">= 47 %"),
            ],
            True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
