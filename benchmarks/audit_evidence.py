"""How natural the audit's evidence reads: a random sample for a human to read, and the
share of evidence sentences that pass the automatic well-formedness checks.

Every evidence sentence the audit shows for its gate findings (U002 correct work, U003
frames, U004 rewrites and habitats: the first `max-evidence` of each finding, as `rubric
audit` prints them) is checked with `rubric_tools.audit.naturalness.problems`: regex
debris, doubled words, dangling prepositions, disagreement, and — for the sentences the
audit wrote itself — a capital, a final stop and a verb in every clause. The matter's own
texts are judged without the sentence checks (they are the author's words).

The audit runs on our matters (`matters/`) and the conformance matters (read from
../shared at run time, never copied); `--from-json FILE` instead reads the output of
`rubric audit --output-format json` (of any version: the way to measure "before").

    python benchmarks/audit_evidence.py [--sample N] [--seed S] [--only-ours] [--from-json FILE ...]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "conformance"
GATE_CODES = ("U002", "U003", "U004")
#: Evidence kinds that are the matter's own texts; everything else the audit generated.
MATTER_KINDS = ("document", "hidden-answer", "concepts", "probe", "reference-trajectory", "critical-trajectory")


def _findings_from_audit(roots: list[Path]) -> list[dict[str, Any]]:
    from rubric_tools.commands.audit import audit_roots
    from rubric_tools.config.audit import AuditSection
    from rubric_tools.reporting.audit import AuditReport, report_document

    report = AuditReport(matters=audit_roots(roots, AuditSection(), jobs=None))
    return [f for m in report_document(report)["matters"] for f in m["findings"]]


def _findings_from_json(paths: list[Path]) -> list[dict[str, Any]]:
    found = []
    for path in paths:
        document = json.loads(path.read_text(encoding="utf-8"))
        found += [f for m in document["matters"] for f in m["findings"]]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=10, help="evidence sentences printed for a human to read")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--only-ours", action="store_true", help="only the repository's own matters/")
    parser.add_argument("--corpus", type=Path, default=None, help="conformance corpus folder")
    parser.add_argument("--from-json", type=Path, nargs="+", default=None, help="`rubric audit` JSON outputs")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO_ROOT))
    from rubric_tools.audit.naturalness import problems

    if args.from_json:
        findings = _findings_from_json(args.from_json)
    else:
        roots = sorted(p.parent for p in (REPO_ROOT / "matters").glob("*/matter.yaml"))
        corpus = args.corpus or Path(os.environ.get("RUBRIC_CONFORMANCE_DIR") or DEFAULT_CORPUS)
        if not args.only_ours and (corpus / "matters").is_dir():
            roots += sorted(p.parent for p in (corpus / "matters").glob("*/matter.yaml"))
        findings = _findings_from_audit(roots)
    rows = []
    for finding in findings:
        if finding["code"] not in GATE_CODES:
            continue
        for item in finding["evidence"]:
            own = item["kind"] in MATTER_KINDS
            found = problems(item["sentence"], sentence=not own)
            rows.append((finding["code"], item["kind"], item["sentence"], found))
    if not rows:
        print("no gate evidence found")
        return 1
    passing = sum(1 for row in rows if not row[3])
    print(f"{len(rows)} evidence sentences of {len({id(f) for f in findings})} findings ({', '.join(GATE_CODES)})")
    print(f"well-formed: {passing}/{len(rows)} ({100 * passing / len(rows):.1f} %)")
    style = ("no capital first letter", "no final stop")
    lenient = sum(1 for row in rows if not [p for p in row[3] if p not in style])
    print(f"well-formed but for a capital or a final stop: {lenient}/{len(rows)} ({100 * lenient / len(rows):.1f} %)")
    by_code = {}
    for code in GATE_CODES:
        mine = [row for row in rows if row[0] == code]
        if mine:
            good = sum(1 for row in mine if not row[3])
            by_code[code] = f"{good}/{len(mine)}"
    print("by code: " + ", ".join(f"{code} {share}" for code, share in by_code.items()))
    print(f"\na random sample of {min(args.sample, len(rows))} (seed {args.seed}):")
    for code, kind, sentence, found in random.Random(args.seed).sample(rows, min(args.sample, len(rows))):
        verdict = "ok" if not found else "; ".join(found)
        print(f"  {code} [{kind}] {sentence}\n      -> {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
