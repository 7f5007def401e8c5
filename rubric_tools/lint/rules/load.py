"""Load rules (L0xx): problems the loader met before any other rule could look.

The loader (`rubric_tools.loading`) detects these while reading the matter, because
it has to decide what to do about them on the spot (skip a file, keep the last of
two duplicate keys, stop expanding aliases). These rules only re-emit what it
reported, so that they can be selected, ignored, re-graded and documented like any
other rule. Their codes, names and severities are declared once, in
`rubric_tools.loading.codes`, where the loader finds them.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.codes import (
    DUPLICATE_KEY,
    FILE_OUTSIDE_MATTER,
    FILE_TOO_LARGE,
    MISSING_FILE,
    NON_UTF8_FILE,
    NOT_A_REGULAR_FILE,
    UNREADABLE_FILE,
    YAML_ALIAS_LIMIT,
    YAML_NESTING_LIMIT,
    YAML_SYNTAX,
)


@rule(YAML_SYNTAX)
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
    yield from ctx.loader_findings(YAML_SYNTAX)


@rule(DUPLICATE_KEY)
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
    yield from ctx.loader_findings(DUPLICATE_KEY)


@rule(UNREADABLE_FILE)
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
    yield from ctx.loader_findings(UNREADABLE_FILE)


@rule(NON_UTF8_FILE)
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
    yield from ctx.loader_findings(NON_UTF8_FILE)


@rule(MISSING_FILE)
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
    yield from ctx.loader_findings(MISSING_FILE)


@rule(YAML_ALIAS_LIMIT)
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
    yield from ctx.loader_findings(YAML_ALIAS_LIMIT)


@rule(FILE_OUTSIDE_MATTER)
def file_outside_matter(ctx: LintContext) -> Iterator[Finding]:
    """A matter YAML file is a symlink that leads outside the matter folder.

    What it catches: `matter.yaml`, `rubric.yaml`, `hidden_facts.yaml` or
    `counterparty.yaml` whose symbolic link resolves to a file outside the matter
    folder (`rubric.yaml -> ../../shared/rubric.yaml`, or `-> /etc/passwd`).

    Why it matters: a matter must be self-contained to be shipped and scored
    anywhere, and `rubric check` runs on pull requests from forks: reading a file
    the link points at outside the repository would leak it into the report. The
    toolkit never reads it, so the file counts as unreadable.

    Bad:

    ```yaml
    # my_matter/rubric.yaml is a symlink to ../common/rubric.yaml
    ```

    Good:

    ```yaml
    # my_matter/rubric.yaml is a regular file inside the matter folder
    critical_failure_score_cap: 0.25
    ```
    """
    yield from ctx.loader_findings(FILE_OUTSIDE_MATTER)


@rule(NOT_A_REGULAR_FILE)
def not_a_regular_file(ctx: LintContext) -> Iterator[Finding]:
    """A matter YAML file is a FIFO, a device or a socket.

    What it catches: a matter YAML file (or the target of its symlink) that is a
    named pipe, a character or block device such as `/dev/zero`, or a socket.

    Why it matters: opening a FIFO blocks forever and a device like `/dev/zero`
    never ends, so a CI job reading one hangs or runs out of memory. The toolkit
    checks the file type before opening anything and never reads such a file.

    Bad:

    ```yaml
    # my_matter/hidden_facts.yaml was created with `mkfifo`
    ```

    Good:

    ```yaml
    # my_matter/hidden_facts.yaml is a regular file
    client_answers:
      q_backup_region: Backups must stay in the primary region.
    ```
    """
    yield from ctx.loader_findings(NOT_A_REGULAR_FILE)


@rule(FILE_TOO_LARGE)
def file_too_large(ctx: LintContext) -> Iterator[Finding]:
    """A matter file is larger than the toolkit reads.

    What it catches: a matter YAML file over 2 MiB (real ones are a few kilobytes),
    or a YAML text over that many characters.

    Why it matters: a file that size is generated or hostile, not authored; reading
    and parsing it would cost a CI job memory and time for nothing an author can
    review. The file is not read at all.

    Bad:

    ```yaml
    # rubric.yaml: 40 MB of generated questions
    ```

    Good:

    ```yaml
    # rubric.yaml: the questions, escalations and issues an author wrote
    critical_failure_score_cap: 0.25
    ```
    """
    yield from ctx.loader_findings(FILE_TOO_LARGE)


@rule(YAML_NESTING_LIMIT)
def yaml_nesting_limit(ctx: LintContext) -> Iterator[Finding]:
    """A YAML file nests collections more than 100 levels deep.

    What it catches: lists and mappings nested over 100 deep, typically thousands
    of `[` or `{` in a row. The finding points where the limit is crossed.

    Why it matters: YAML parsers build such input recursively — the C loader
    crashes the whole process on it and the Python one takes seconds to fail. The
    toolkit counts the depth on the parser's event stream before building anything,
    and stops there. No matter needs more than about six levels.

    Bad:

    ```yaml
    concepts: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ ... ]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
    ```

    Good:

    ```yaml
    concepts: ["backup", "region"]
    ```
    """
    yield from ctx.loader_findings(YAML_NESTING_LIMIT)
