"""Document rules (D0xx): the Markdown files a matter cites, and how they split into sections.

Sections are found by the scorer's own parser (`scoring.sections`), so what these
rules report is exactly what the engine will (or will not) be able to cite.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.codes import (
    DOCUMENT_MISSING,
    DOCUMENT_NOT_REGULAR_FILE,
    DOCUMENT_OUTSIDE_MATTER,
    DOCUMENT_PATH_INVALID,
    DOCUMENT_TOO_LARGE,
)
from rubric_tools.loading.matter import DocumentSource
from rubric_tools.scoring.sections import HEADING_PREFIX, PREAMBLE_TOKEN


def _parsed_documents(ctx: LintContext) -> Iterator[DocumentSource]:
    """Documents that were found and read (the others are D001/D002/L00x findings)."""
    for document in ctx.documents:
        if document.parsed is not None:
            yield document


@rule(DOCUMENT_MISSING)
def document_missing(ctx: LintContext) -> Iterator[Finding]:
    """A document listed in matter.yaml does not exist.

    What it catches: a `documents` entry whose `path`, taken relative to the matter
    folder, names no file.

    Why it matters: every citation of that document is invalid, so each one costs
    the agent the invalid-citation penalty, and any issue anchored in it can never
    be matched.

    Bad:

    ```yaml
    documents:
      - id: msa
        title: Master Services Agreement
        path: documents/mas.md        # the file is documents/msa.md
    ```

    Good:

    ```yaml
    documents:
      - id: msa
        title: Master Services Agreement
        path: documents/msa.md
    ```
    """
    yield from ctx.loader_findings(DOCUMENT_MISSING)


@rule(DOCUMENT_OUTSIDE_MATTER)
def document_outside_matter(ctx: LintContext) -> Iterator[Finding]:
    """A document path leads outside the matter folder.

    What it catches: a `documents` entry whose `path` is absolute or climbs out of
    the matter folder (`../shared/msa.md`), including through a symbolic link.

    Why it matters: a matter must be self-contained to be shipped and scored
    anywhere; the toolkit refuses to read files outside it, so the document is
    treated as missing and its citations never resolve.

    Bad:

    ```yaml
    documents:
      - id: msa
        title: Master Services Agreement
        path: ../common/msa.md
    ```

    Good:

    ```yaml
    documents:
      - id: msa
        title: Master Services Agreement
        path: documents/msa.md        # copy the file into the matter
    ```
    """
    yield from ctx.loader_findings(DOCUMENT_OUTSIDE_MATTER)


@rule("D003", "duplicate-document-id", Severity.ERROR)
def duplicate_document_id(ctx: LintContext) -> Iterator[Finding]:
    """Two documents in matter.yaml share an id.

    What it catches: a `documents` entry whose `id` was already used by an earlier
    entry.

    Why it matters: the engine keeps only the first document with a given id, so
    the later file can never be read or cited: every `<id> §...` citation resolves
    against the first document.

    Bad:

    ```yaml
    documents:
      - {id: msa, title: Master Services Agreement, path: documents/msa.md}
      - {id: msa, title: Data Processing Addendum, path: documents/dpa.md}
    ```

    Good:

    ```yaml
    documents:
      - {id: msa, title: Master Services Agreement, path: documents/msa.md}
      - {id: dpa, title: Data Processing Addendum, path: documents/dpa.md}
    ```
    """
    first_lines: dict[str, int] = {}
    for document in ctx.model.documents:
        document_id = document.written_text("id")
        if document_id is None:
            continue
        where = document.at("id")
        span = where.span
        if document_id not in first_lines:
            first_lines[document_id] = span.line if span else 0
            continue
        yield ctx.report(
            where,
            f"document id {document_id!r} is already used on line {first_lines[document_id]}; "
            "the engine keeps the first document and this one can never be cited",
            hint="give every document its own id",
        )


def _near_miss_heading(document: DocumentSource) -> tuple[int, str] | None:
    """The first line that looks like a section heading but is not one (`###`, `##4.2`).

    A single `# ` title is ordinary Markdown and not a near miss.
    """
    for number, line in enumerate(document.lines, start=1):
        stripped = line.rstrip("\r")
        if stripped.startswith("##") and not stripped.startswith(HEADING_PREFIX):
            return number, stripped
    return None


@rule("D004", "document-without-sections", Severity.WARNING)
def document_without_sections(ctx: LintContext) -> Iterator[Finding]:
    """A document has no `## ` heading, so it has no citable section.

    What it catches: a Markdown document in which no line starts with `## ` (two
    hashes and a space). Lines starting with `#`, `###` or `##4.2` are ordinary
    text to the engine.

    Why it matters: the whole document becomes the single preamble section
    `<id> §full`. Agents cite clauses by number (`msa §4.2`), and every such
    citation of this document is invalid and penalised.

    Bad:

    ```markdown
    <!-- documents/msa.md -->
    # Master Services Agreement
    ### 4.2 Use of Data
    Provider may use Customer Data to train models.
    ```

    Good:

    ```markdown
    <!-- documents/msa.md -->
    # Master Services Agreement
    ## 4.2 Use of Data
    Provider may use Customer Data to train models.
    ```
    """
    for document in _parsed_documents(ctx):
        assert document.parsed is not None
        if document.parsed.headings:
            continue
        hint = f"start each citable section with '{HEADING_PREFIX}<number> <title>'"
        near_miss = _near_miss_heading(document)
        if near_miss is not None:
            hint = (
                f"line {near_miss[0]} ({near_miss[1][:40]!r}) is not a section heading; "
                f"sections start with '{HEADING_PREFIX}' (two hashes and a space)"
            )
        yield ctx.at_document(
            document,
            1,
            f"document {document.id!r} has no '{HEADING_PREFIX}' heading: its only citable "
            f"section is '{document.id} §{PREAMBLE_TOKEN}'",
            hint=hint,
        )


@rule("D005", "empty-heading", Severity.ERROR)
def empty_heading(ctx: LintContext) -> Iterator[Finding]:
    """A `## ` heading has no text, which crashes the reference engine.

    What it catches: a line that is `## ` followed only by whitespace — where a line
    is what Python's `str.splitlines()` makes of the document, as in the engine: a
    `## ` right after a form feed, a vertical tab, `\\x1c`-`\\x1e`, `\\x85`, U+2028,
    U+2029 or a lone carriage return starts a line too, even where an editor shows
    it in the middle of one. The finding points at the `## ` itself.

    Why it matters: the engine takes the first word of a heading as the section
    token; with no word it raises, so the matter cannot be scored at all.

    Bad:

    ```markdown
    <!-- documents/msa.md: the heading line is "## " and nothing else -->
    ##
    Provider may use Customer Data to train models.
    ```

    Good:

    ```markdown
    <!-- documents/msa.md -->
    ## 4.2 Use of Data
    Provider may use Customer Data to train models.
    ```
    """
    for document in _parsed_documents(ctx):
        assert document.parsed is not None
        for heading in document.parsed.empty_headings:
            yield ctx.at_document(
                document,
                heading.line,
                "heading has no section token: the reference engine crashes on it",
                column=heading.column,
                hint="give the heading a number or word (e.g. '## 5 Term') or remove it",
            )


@rule("D006", "duplicate-section-token", Severity.WARNING)
def duplicate_section_token(ctx: LintContext) -> Iterator[Finding]:
    """Two headings of a document have the same section token.

    What it catches: a `## ` heading whose token (its first word, trailing dots
    removed) already opened an earlier section of the same document: `## 3 Fees`
    then `## 3. Payment`.

    Why it matters: the engine appends the second section's text to the first one
    and keeps a single `§3`; the second section cannot be cited on its own, and
    quotes from it verify under the first section's number.

    Bad:

    ```markdown
    <!-- documents/msa.md -->
    ## 3 Fees
    Customer pays monthly.
    ## 3 Payment Terms
    Invoices are due in 30 days.
    ```

    Good:

    ```markdown
    <!-- documents/msa.md -->
    ## 3 Fees
    Customer pays monthly.
    ## 4 Payment Terms
    Invoices are due in 30 days.
    ```
    """
    for document in _parsed_documents(ctx):
        parsed = document.parsed
        assert parsed is not None
        for heading in parsed.duplicate_tokens:
            if heading.token == PREAMBLE_TOKEN:
                # `full` names the preamble, which exists before any heading.
                earlier = "names the preamble (the text before the first heading)"
            else:
                earlier = f"already opened the section on line {parsed.token_lines.get(heading.token or '', 0)}"
            yield ctx.at_document(
                document,
                heading.line,
                column=heading.column,
                message=f"section token {heading.token!r} {earlier}: this section's text is merged "
                f"into '{document.id} §{heading.token}'",
                hint="renumber or rename one of the two headings so each section has its own token",
            )


@rule(DOCUMENT_NOT_REGULAR_FILE)
def document_not_regular_file(ctx: LintContext) -> Iterator[Finding]:
    """A document path names a directory, a FIFO, a device or a socket.

    What it catches: a `documents` entry whose `path` (after symlinks) is not a
    regular file: a folder, a named pipe, `/dev/zero` reached through a symlink
    inside the matter, a socket.

    Why it matters: the engine cannot read a directory, blocks forever on a FIFO
    and never finishes reading a device; `rubric check` runs on pull requests, so a
    hostile repository could hang CI this way. The toolkit checks the file type
    before opening anything and treats the document as missing.

    Bad:

    ```yaml
    documents:
      - id: msa
        title: Master Services Agreement
        path: documents/        # a folder, not the file in it
    ```

    Good:

    ```yaml
    documents:
      - id: msa
        title: Master Services Agreement
        path: documents/msa.md
    ```
    """
    yield from ctx.loader_findings(DOCUMENT_NOT_REGULAR_FILE)


@rule(DOCUMENT_PATH_INVALID)
def document_path_invalid(ctx: LintContext) -> Iterator[Finding]:
    """A document path is a name the operating system refuses.

    What it catches: a `documents` entry whose `path` holds a NUL character, a lone
    surrogate (`"\\ud800"`), or a file name longer than the file system allows
    (typically 255 bytes).

    Why it matters: the engine raises on opening it, so the matter cannot be
    loaded; no file of that name can exist, so the document is missing for sure.

    Bad:

    ```yaml
    documents:
      - id: msa
        title: Master Services Agreement
        path: "documents/msa\\0.md"
    ```

    Good:

    ```yaml
    documents:
      - id: msa
        title: Master Services Agreement
        path: documents/msa.md
    ```
    """
    yield from ctx.loader_findings(DOCUMENT_PATH_INVALID)


@rule(DOCUMENT_TOO_LARGE)
def document_too_large(ctx: LintContext) -> Iterator[Finding]:
    """A document is larger than the toolkit reads (16 MiB).

    What it catches: a `documents` entry whose file is over 16 MiB.

    Why it matters: contracts are kilobytes; a file that size is generated or
    hostile, and reading and scanning it would cost every CI run memory and time.
    The file is not read, so the document counts as missing.

    Bad:

    ```yaml
    documents:
      - id: dump
        title: Data room export
        path: documents/dump.md     # 300 MB
    ```

    Good:

    ```yaml
    documents:
      - id: msa
        title: Master Services Agreement
        path: documents/msa.md      # the agreement under review
    ```
    """
    yield from ctx.loader_findings(DOCUMENT_TOO_LARGE)
