"""Load rules (L0xx): problems the loader met before any other rule could look.

The loader (`rubric_tools.loading`) detects these while reading the matter, because
it has to decide what to do about them on the spot (skip a file, keep the last of
two duplicate keys, stop expanding aliases). These rules only re-emit what it
reported, so that they can be selected, ignored, re-graded and documented like any
other rule. The names here must stay those the loader uses.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule


@rule("L001", "yaml-syntax", Severity.ERROR)
def yaml_syntax(ctx: LintContext) -> Iterator[Finding]:
    """A YAML file of the matter does not parse.

    What it catches: any YAML syntax error in `matter.yaml`, `rubric.yaml`,
    `hidden_facts.yaml` or `counterparty.yaml` — a bad indent, an unclosed quote or
    bracket, a tab used for indentation. The finding points at the line and column
    where the parser gave up.

    Why it matters: the reference engine cannot load the matter at all, and no other
    rule can check a file that does not parse, so every later finding for that file is
    missing until this one is fixed.

    Bad:

    ```yaml
    questions:
      - id: q_backup_region
        concepts: ["backup", "region"
    ```

    Good:

    ```yaml
    questions:
      - id: q_backup_region
        concepts: ["backup", "region"]
    ```
    """
    yield from ctx.loader_findings("L001")


@rule("L002", "duplicate-key", Severity.ERROR)
def duplicate_key(ctx: LintContext) -> Iterator[Finding]:
    """A mapping repeats a key; the engine silently keeps only the last value.

    What it catches: the same key written twice in one YAML mapping, e.g. two
    `points:` in one question or two entries for one id in `client_answers`. The
    finding points at the second (winning) occurrence and names the line of the first.

    Why it matters: the reference engine's loader does not complain — it keeps the
    last value and drops the first without a trace. Whichever of the two the author
    meant, half the time the matter scores something else than what they read.

    Bad:

    ```yaml
    - id: q_backup_region
      points: 0.5
      concepts: ["backup", "region"]
      points: 0.25
    ```

    Good:

    ```yaml
    - id: q_backup_region
      points: 0.5
      concepts: ["backup", "region"]
    ```
    """
    yield from ctx.loader_findings("L002")


@rule("L003", "unreadable-file", Severity.ERROR)
def unreadable_file(ctx: LintContext) -> Iterator[Finding]:
    """A matter file exists but cannot be read.

    What it catches: a matter YAML file or a document that the operating system
    refuses to read — a directory where a file should be, missing permissions, a
    broken symlink target.

    Why it matters: the reference engine crashes on it, and nothing in the file can
    be checked.

    Bad:

    ```yaml
    # hidden_facts.yaml is a directory, or is not readable by the CI user
    ```

    Good:

    ```yaml
    # hidden_facts.yaml is a regular, readable file
    client_answers:
      q_backup_region: Backups must stay in the primary region.
    ```
    """
    yield from ctx.loader_findings("L003")


@rule("L004", "non-utf8-file", Severity.ERROR)
def non_utf8_file(ctx: LintContext) -> Iterator[Finding]:
    """A matter file or document is not valid UTF-8.

    What it catches: bytes that do not decode as UTF-8, typically text saved as
    Latin-1 or Windows-1252 (`0xa7` for `§`, `0x92` for a curly apostrophe). The
    finding points at the line and column of the first bad byte.

    Why it matters: the reference engine reads every file as UTF-8 and fails on the
    first undecodable byte; a `§` saved in the wrong encoding also silently breaks
    every citation in the file.

    Bad:

    ```yaml
    # rubric.yaml saved as Windows-1252: the § of the anchor is the single byte 0xa7
    anchor: "hosting §3.1"
    ```

    Good:

    ```yaml
    # rubric.yaml saved as UTF-8: § is the two bytes 0xc2 0xa7
    anchor: "hosting §3.1"
    ```
    """
    yield from ctx.loader_findings("L004")


@rule("L005", "missing-file", Severity.ERROR)
def missing_file(ctx: LintContext) -> Iterator[Finding]:
    """A required matter file is missing.

    What it catches: a matter folder without `matter.yaml`, `rubric.yaml` or
    `hidden_facts.yaml` (`counterparty.yaml` is optional).

    Why it matters: the reference engine refuses to load a matter without them. A
    missing `hidden_facts.yaml` is the usual slip: it is kept out of some
    repositories on purpose and then forgotten in the matter that ships.

    Bad:

    ```yaml
    # my_matter/: matter.yaml, rubric.yaml, documents/   (no hidden_facts.yaml)
    ```

    Good:

    ```yaml
    # my_matter/hidden_facts.yaml
    client_answers:
      q_backup_region: Backups must stay in the primary region.
    escalation_answers: {}
    ```
    """
    yield from ctx.loader_findings("L005")


@rule("L006", "yaml-alias-limit", Severity.ERROR)
def yaml_alias_limit(ctx: LintContext) -> Iterator[Finding]:
    """A YAML file's aliases expand to too much data, or refer to themselves.

    What it catches: nested anchors and aliases that multiply into hundreds of
    thousands of nodes (the "billion laughs" alias bomb), and an alias used inside
    the node it names.

    Why it matters: expanding such a file exhausts the memory of whoever loads it —
    the engine, a CI job, a reviewer's editor. The linter stops expanding and reports
    the file instead of loading it.

    Bad:

    ```yaml
    a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]
    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
    # ... each level multiplies by ten
    ```

    Good:

    ```yaml
    common_aliases: &common [["where", "backups"]]
    questions:
      - id: q_backup_region
        concepts: ["backup", "region"]
        aliases: *common
    ```
    """
    yield from ctx.loader_findings("L006")
