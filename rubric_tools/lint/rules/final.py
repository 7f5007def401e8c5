"""Final-submission rules (F0xx): what `submit_final` is checked against."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.matter import RUBRIC_FILE


def _final(ctx: LintContext) -> Mapping[str, object]:
    final = ctx.rubric_data.get("final_submission")
    return final if isinstance(final, Mapping) else {}


@rule("F001", "unknown-required-issue", Severity.ERROR)
def unknown_required_issue(ctx: LintContext) -> Iterator[Finding]:
    """`final_submission.required_issue_ids` names an issue that does not exist.

    What it catches: an entry of `required_issue_ids` that is not the `id` of any
    issue in `rubric.yaml`.

    Why it matters: the engine checks each entry against the issues the agent
    matched. An id no issue carries is never matched, so every run — the perfect one
    included — pays `missing_required_issue_penalty` for it. Usually an issue was
    renamed and the list was not.

    Bad:

    ```yaml
    issues:
      - id: uptime_credit
    final_submission:
      required_issue_ids: [uptime_credits]
    ```

    Good:

    ```yaml
    final_submission:
      required_issue_ids: [uptime_credit]
    ```
    """
    required = _final(ctx).get("required_issue_ids")
    if not isinstance(required, list):
        return
    issue_ids = {str(raw.get("id")) for _, raw in ctx.raw_issues() if raw.get("id") is not None}
    for index, entry in enumerate(required):
        if str(entry) not in issue_ids:
            yield ctx.at(
                RUBRIC_FILE,
                ("final_submission", "required_issue_ids", index),
                f"required issue {str(entry)!r} is not a rubric issue id: every run pays the "
                "missing-issue penalty for it",
                hint=f"use one of: {', '.join(sorted(issue_ids))}" if issue_ids else "remove it, or add the issue",
            )


@rule("F002", "non-positive-minimum-characters", Severity.ERROR)
def non_positive_minimum_characters(ctx: LintContext) -> Iterator[Finding]:
    """`final_submission.minimum_characters` is zero or negative.

    What it catches: a `minimum_characters` of 0 or less.

    Why it matters: the final points are zeroed when the stripped summary is shorter
    than `minimum_characters`. At 0 or below, an empty summary earns them: the final
    points reward submitting, not summarising.

    Bad:

    ```yaml
    final_submission:
      points: 0.5
      minimum_characters: 0
    ```

    Good:

    ```yaml
    final_submission:
      points: 0.5
      minimum_characters: 200
    ```
    """
    value = _final(ctx).get("minimum_characters")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return  # absent (the default 80 applies) or not a number (a schema finding)
    if value <= 0:
        yield ctx.at(
            RUBRIC_FILE,
            ("final_submission", "minimum_characters"),
            f"minimum_characters is {value:g}: an empty summary earns the final points",
            hint="require a real summary, e.g. minimum_characters: 200 (the default is 80)",
        )
