"""What `rubric audit` needs to know about a matter beyond its folder: its probe files,
and which trajectories are correct work or expected to trip a gate (from
`expectations.yaml`, else the rubric-repo naming convention)."""

from __future__ import annotations

from pathlib import Path

from rubric_tools.audit.corpus import AuditInputs, TrajectoryRole
from rubric_tools.checking.expectations import (
    REFERENCE_STEMS,
    Expectation,
    conventional_expectations,
    load_expectations,
)
from rubric_tools.loading.layout import probe_paths, trajectory_paths

#: A trajectory declared to score at least this, without a critical failure, is correct work too.
GOOD_SCORE = 0.7


def _is_reference(stem: str, expectation: Expectation | None) -> bool:
    if stem in REFERENCE_STEMS or stem.startswith(tuple(f"{s}_" for s in REFERENCE_STEMS)):
        return True
    if expectation is None or expectation.min_normalized is None:
        return False
    return expectation.critical_failure is False and expectation.min_normalized >= GOOD_SCORE


def _role(path: Path, expectation: Expectation | None) -> TrajectoryRole:
    trips = (
        expectation is not None
        and expectation.critical_failure is True
        and (expectation.cause is None or expectation.cause.kind == "gate")
    )
    cause = expectation.cause if trips and expectation is not None else None
    return TrajectoryRole(
        path,
        reference=_is_reference(path.stem, expectation),
        trips_gate=trips,
        surface=cause.surface if cause else None,
        criterion=cause.criterion if cause else None,
    )


def audit_inputs(matter_root: Path) -> AuditInputs:
    paths = trajectory_paths(matter_root)
    expectations = load_expectations(matter_root) or conventional_expectations([p.stem for p in paths])
    roles = tuple(_role(path, expectations.by_stem.get(path.stem)) for path in paths)
    probes = tuple(path for path in probe_paths(matter_root) if path.is_file())
    return AuditInputs(probes, tuple(role for role in roles if role.reference or role.trips_gate))
