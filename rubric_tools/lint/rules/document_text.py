"""Document text rules (D010, D011): characters of a document that break citing or quoting it.

The engine reads a document's text as it is: a heading's section token is its first
word, punctuation and invisible characters included, and a quote is verified against
the section's text character for character. These rules find what an author cannot
see but an agent trips over.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from rubric_tools.diagnostics import Severity, Span
from rubric_tools.fixing.fixes import Applicability, Edit, Fix
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.elements import DocumentElement
from rubric_tools.scoring.sections import HEADING_PREFIX, Heading
from rubric_tools.scoring.text import SECTION_SIGN, format_citation, split_citation

#: C0 control characters and DEL that are neither whitespace nor a line break to Python
#: (tab, form feed, vertical tab, `\x1c`-`\x1f` are: the engine splits and normalizes on them).
_CONTROL_CHARACTER = re.compile("[\x00-\x08\x0e-\x1b\x7f]")
#: Lines reported per document: a binary file pasted in has thousands.
_CONTROL_LINES_REPORTED = 5
_CONTROL_NAMES = {"\x00": "NUL", "\x1b": "ESC", "\x7f": "DEL", "\x07": "BEL", "\x08": "BACKSPACE"}


@rule("D010", "control-character-in-document", Severity.ERROR)
def control_character_in_document(ctx: LintContext) -> Iterator[Finding]:
    """A document holds a NUL byte or another invisible control character.

    What it catches: a character from U+0000 to U+0008, U+000E to U+001B, or U+007F
    (DEL) anywhere in a Markdown document — typically a NUL left by a bad export or
    an escape sequence pasted from a terminal. Tabs, form feeds and the other
    characters Python counts as whitespace or line breaks are left alone. The finding
    points at the first one on each line (at most five lines per document).

    Why it matters: the character is invisible in editors and in review, and git
    treats a file holding a NUL as binary, so a pull request shows no diff of it.
    The engine keeps it in the section text that quotes are verified against, but
    the channels that carry documents to an agent and its answers back commonly
    strip or refuse it: a quote of the words around it can then never be verbatim,
    and an unverified quote is a fabrication (−1.0 and a critical failure).

    Bad:

    ```markdown
    <!-- documents/msa.md: a NUL between "Customer" and "Data" -->
    ## 4.2 Use of Data
    Provider shall not use Customer\\0 Data to train models.
    ```

    Good:

    ```markdown
    <!-- documents/msa.md -->
    ## 4.2 Use of Data
    Provider shall not use Customer Data to train models.
    ```
    """
    for element in ctx.model.documents:
        document = element.source
        if document.text is None or not _CONTROL_CHARACTER.search(document.text):
            continue
        hits = [
            (number, found)
            for number, line in enumerate(document.lines, start=1)
            if (found := _CONTROL_CHARACTER.search(line)) is not None
        ]
        for shown, (number, found) in enumerate(hits[:_CONTROL_LINES_REPORTED], start=1):
            char = found.group()
            more = len(hits) - _CONTROL_LINES_REPORTED
            tail = f" ({more} more lines hold one)" if shown == _CONTROL_LINES_REPORTED and more > 0 else ""
            yield ctx.at_document(
                document,
                number,
                f"document {document.id!r} holds the invisible control character U+{ord(char):04X} "
                f"({_CONTROL_NAMES.get(char, 'control character')}){tail}",
                column=found.start() + 1,
                width=1,
                hint="delete it (re-export the document as plain UTF-8 text)",
            )


#: Words that name a provision before its number: `## Section 4.2 Use of Data` has the
#: token `Section`, while every author cites `msa §4.2`.
_LABEL_WORDS = frozenset(
    {
        "section",
        "sec",
        "article",
        "art",
        "clause",
        "paragraph",
        "para",
        "schedule",
        "exhibit",
        "annex",
        "appendix",
        "part",
        "item",
        "rider",
        "attachment",
        SECTION_SIGN,
    }
)
#: What a number or label after a label word looks like: `4.2`, `10`, `IV`, `B`, `4(a)`.
_PROVISION_NUMBER = re.compile(r"(?:\d+(?:\.\d+)*[a-z]?|[ivxlcdm]+|[a-z])(?:\([0-9a-z]+\))*", re.IGNORECASE)
#: Wrapping and punctuation around a token that citations never carry (trailing dots are
#: already dropped by the engine).
_LEADING = SECTION_SIGN + "([{<*_`\"'“‘«#~"
_TRAILING = ":;,!?)]}>*_`\"'”’»—–-~/\\."


def _visible(word: str) -> str:
    """`word` without format and control characters (zero-width space, soft hyphen, marks)."""
    return "".join(c for c in word if unicodedata.category(c) not in ("Cf", "Cc"))


def _bare(word: str) -> str:
    """`word` without the wrapping and punctuation authors leave out when they cite it.
    A closing bracket stays when it closes one inside the word: `4(a)` is cited so."""
    word = _visible(word)
    while word and word[0] in _LEADING:
        word = word[1:]
    while word and word[-1] in _TRAILING:
        closing = {")": "(", "]": "["}.get(word[-1])
        if closing is not None and word.count(closing) >= word.count(word[-1]):
            break
        word = word[:-1]
    return word


@dataclass(frozen=True)
class _Uncitable:
    heading: Heading
    citable: str  # the token an author writes
    written: str  # the words of the heading the fix replaces
    start: int  # their 0-based offset in the heading line
    why: str


def _uncitable(heading: Heading) -> _Uncitable | None:
    """Why the heading's token is not the one authors cite, with the one they would."""
    token = heading.token
    if token is None:
        return None
    rest = heading.text[len(HEADING_PREFIX) :]
    words = rest.split()
    start = len(HEADING_PREFIX) + rest.index(words[0])
    label = _bare(token).lower()
    if label in _LABEL_WORDS and len(words) > 1:
        number = _bare(words[1]).rstrip(".")
        if _PROVISION_NUMBER.fullmatch(number):
            end = heading.text.index(words[1], start + len(words[0])) + len(words[1])
            written = heading.text[start:end]
            why = f"the label word {words[0]!r} comes first, so the token is {token!r}, not {number!r}"
            return _Uncitable(heading, number, written, start, why)
    # Compatibility forms (full-width digits, a one-dot leader for the dot) are typed as
    # their plain characters by everyone who cites them.
    citable = unicodedata.normalize("NFKC", _bare(token)).rstrip(".")
    if not citable or citable == token:
        return None
    hidden = [c for c in token if unicodedata.category(c) in ("Cf", "Cc")]
    if hidden:
        why = f"it holds the invisible character U+{ord(hidden[0]):04X}"
    elif _bare(token) == token:
        why = f"it is written with compatibility characters ({token!r} is typed {citable!r})"
    else:
        extra = "".join(dict.fromkeys(c for c in token if c not in citable))
        why = f"it keeps {extra!r} from the heading"
    return _Uncitable(heading, citable, words[0], start, why)


def _citations_of(ctx: LintContext, document_id: str) -> dict[str, str]:
    """The rubric's citations of `document_id`, by the section token they name."""
    found: dict[str, str] = {}
    for issue in ctx.model.issues:
        for entry in (issue.anchor, *(issue.required_citations or ())):
            parts = split_citation(entry.text) if entry is not None else None
            if parts is not None and parts[0] == document_id:
                found.setdefault(parts[1], entry.text)  # type: ignore[union-attr]
    return found


def _heading_fix(element: DocumentElement, found: _Uncitable, clash: bool) -> Fix | None:
    document = element.source
    path = document.path
    if path is None or clash:
        return None
    heading = found.heading
    line = heading.line
    column = heading.column + found.start
    span = Span(line, column, line, column + len(found.written))
    edits = [Edit(path, span, found.written, found.citable)]
    message = f"rewrite the heading so its token is {found.citable!r}"
    return Fix(message, tuple(edits), Applicability.UNSAFE)


@rule("D011", "uncitable-section-token", Severity.ERROR, fixable=True)
def uncitable_section_token(ctx: LintContext) -> Iterator[Finding]:
    """A heading's section token is not what anyone would write to cite it.

    What it catches: a `## ` heading whose first word — the engine's section token —
    keeps punctuation, wrapping or an invisible character that citations never carry
    (`## 4.2: Use of Data` has the token `4.2:`, `## **7** Fees` has `**7**`,
    `## §9 Term` has `§9`, a zero-width space after `4.2` is part of the token,
    full-width digits `４.２` are not the `4.2` anyone types), or
    starts with a label word before the number (`## Section 4.2 Use of Data` has the
    token `Section`). A token in balanced parentheses (`4(a)`) is cited as written
    and is left alone. The message says which citation of the rubric aims at the
    section, when one does.

    Why it matters: a citation resolves only when its token equals the heading's
    token exactly. Agents, like authors, write `msa §4.2`; against `## 4.2:` that
    citation is invalid (−0.75 each), the section can never be cited, and an issue
    anchored on it can never be matched. The fix rewrites the heading (unsafe: the
    heading line is part of the section's text).

    Bad:

    ```markdown
    <!-- documents/msa.md -->
    ## 4.2: Use of Data
    ## Section 5 Security
    ```

    Good:

    ```markdown
    <!-- documents/msa.md -->
    ## 4.2 Use of Data
    ## 5 Security
    ```
    """
    for element in ctx.model.documents:
        parsed = element.source.parsed
        if parsed is None:
            continue
        tokens = {heading.token for heading in parsed.headings}
        cited = _citations_of(ctx, element.id)
        for heading in parsed.headings:
            found = _uncitable(heading)
            if found is None:
                continue
            natural = format_citation(element.id, found.citable)
            aimed = cited.get(found.citable)
            if aimed is not None:
                consequence = f"the rubric's {aimed!r} does not resolve"
            elif heading.token in cited:
                consequence = f"only the rubric's {cited[heading.token]!r} resolves; an agent's {natural!r} does not"
            else:
                consequence = f"an agent citing {natural!r} gets an invalid citation"
            clash = found.citable in tokens
            column = heading.column + found.start
            yield Finding(
                f"section token {heading.token!r} of document {element.id!r} cannot be cited as authors write "
                f"it: {found.why}; {consequence}",
                element.source.path or ctx.root / element.source.path_text,
                Span(heading.line, column, heading.line, column + len(found.written)),
                f"write the heading as '{HEADING_PREFIX}{found.citable} ...'"
                + (f" (the document already has a §{found.citable}: renumber one of them)" if clash else ""),
                _heading_fix(element, found, clash),
            )
