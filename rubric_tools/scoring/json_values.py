"""Values of the scorer's results that JSON has no type for, and how our JSON outputs write them.

The reference engine keeps ids as YAML 1.1 read them (see `rubric_tools.scoring.model.YamlId`): a
boolean or a number is already JSON, but an unquoted `2024-01-01` is a `datetime.date` (and
`2024-01-01 10:00:00` a `datetime.datetime`). Every JSON output of a result writes those as ISO 8601
strings, as the reference's own result files show them.
"""

from __future__ import annotations

import datetime


def json_default(value: object) -> str:
    """`json.dumps(..., default=json_default)`: a date or datetime as its ISO 8601 text."""
    if isinstance(value, datetime.date):  # datetime.datetime is a date too
        return value.isoformat()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def json_default_or_repr(value: object) -> str:
    """As `json_default`, and any other value as its `repr()` (for traces, which show everything)."""
    return value.isoformat() if isinstance(value, datetime.date) else repr(value)
