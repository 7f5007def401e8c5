"""The audit's recall on seeded defects, and its findings on the unmodified matters.

Every generic defect operator of `rubric_tools.audit.seeding` (drop a negation_guard,
narrow an alternation, anchor with `^…$`, an unescaped `$` before a digit, YAML's
backspace for `\\b`, a tightened window, an `exclude_context` that matches everything, a
concept written as a regex or cut to two letters, a redline concept copied from the
clause, …) is applied in memory to up to `--max-sites` gate entries or concepts of each
matter — ours (`matters/`) and the conformance matters (read from ../shared at run time,
never copied) — and the matter is re-audited. A defect is detected when a finding appears
on that node that the unmodified matter did not have. The control operator rewrites a
gate into an equivalent one: anything it "detects" is a false positive of the audit.

Prints the detection rate per operator and overall, the control's count, and the number
of findings on the unmodified matters (by code).

    python benchmarks/audit_recall.py [--max-sites N] [--corpus DIR] [--only-ours]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "conformance"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-sites", type=int, default=6, help="seeded nodes per operator per matter")
    parser.add_argument("--corpus", type=Path, default=None, help="conformance corpus folder")
    parser.add_argument("--only-ours", action="store_true", help="only the repository's own matters/")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO_ROOT))
    os.environ["RUBRIC_NO_CACHE"] = "1"
    from rubric_tools.audit.recall import measure
    from rubric_tools.audit.seeding import CONCEPT_OPERATORS, GATE_OPERATORS
    from rubric_tools.checking.audit_inputs import audit_inputs
    from rubric_tools.loading.matter import load_matter_source

    roots = sorted(p.parent for p in (REPO_ROOT / "matters").glob("*/matter.yaml"))
    corpus = args.corpus or Path(os.environ.get("RUBRIC_CONFORMANCE_DIR") or DEFAULT_CORPUS)
    if not args.only_ours:
        if not (corpus / "matters").is_dir():
            print(f"conformance corpus not found at {corpus} (set RUBRIC_CONFORMANCE_DIR)", file=sys.stderr)
            return 2
        roots += sorted(p.parent for p in (corpus / "matters").glob("*/matter.yaml"))
    started = time.perf_counter()
    sources = [(load_matter_source(root), audit_inputs(root)) for root in roots]
    report = measure([(s, i) for s, i in sources if s.ok], max_sites=args.max_sites)
    elapsed = time.perf_counter() - started
    print(f"{len(sources)} matters, up to {args.max_sites} seeded nodes per operator per matter, {elapsed:.1f} s")
    print(f"{'operator':24} {'detected':>8} {'seeded':>6} {'rate':>6}  codes")
    for name in [o.name for o in GATE_OPERATORS] + [o.name for o in CONCEPT_OPERATORS]:
        detected, seeded = report.rate(name)
        codes = Counter(code for s in report.seeded if s.operator == name for code in s.codes)
        rate = f"{detected / seeded:6.0%}" if seeded else "     -"
        shown = ", ".join(f"{c} {n}" for c, n in sorted(codes.items()))
        print(f"{name:24} {detected:8} {seeded:6} {rate}  {shown}")
    detected, seeded = report.rate()
    print(f"{'overall (no control)':24} {detected:8} {seeded:6} {detected / max(seeded, 1):6.0%}")
    controls = [s for s in report.seeded if s.control]
    print(f"control (equivalent rewrite) findings: {sum(s.detected for s in controls)} of {len(controls)}")
    baseline = Counter(d.code for found in report.baseline.values() for d in found)
    total = sum(baseline.values())
    print(f"findings on the unmodified matters: {total} ({', '.join(f'{c} {n}' for c, n in sorted(baseline.items()))})")
    if os.environ.get("AUDIT_RECALL_MISSES"):
        for s in report.seeded:
            if not s.detected and not s.control:
                print(f"  missed {s.operator:22} {s.matter}: {s.node}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
