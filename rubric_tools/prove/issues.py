"""Moves for each rubric issue's work product: the `submit_issue` and the redline."""

from __future__ import annotations

from rubric_tools.prove.dialogue import Analysis
from rubric_tools.prove.moves import Move
from rubric_tools.prove.shortfalls import RUBRIC_FILE, UNLOCATED, InstancePath, Places, Reason, Shortfall
from rubric_tools.prove.wording import Wording, compose, pick_quote
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT
from rubric_tools.scoring.model import Issue, Matter
from rubric_tools.scoring.text import concept_fraction, format_citation, normalize, split_citation

#: (title, recommendation) framings tried around the analysis; the bare one last, for
#: rubrics whose gates fire on the framing words themselves.
FRAMES = (("Finding on {anchor}", "Revise the provision as proposed."), ("", ""))
REDLINE_RATIONALE = "Brings the clause in line with the client's position."


def anchor_blocker(matter: Matter, index: int, places: Places = UNLOCATED) -> str | None:
    """Why issue `index` can never be matched by a read, cited anchor; None when it can."""
    rubric = matter.rubric
    issue = rubric.issues[index]
    anchor = issue.anchor
    earlier_id = next((j for j in range(index) if rubric.issues[j].id == issue.id), None)
    if earlier_id is not None:
        return f"its id is also {places.label('issues', earlier_id)}'s: matching it scores as a duplicate issue"
    owner = rubric.anchors.get(anchor)
    if owner is not None and owner is not issue:
        return f"its anchor {anchor!r} is also the anchor of an earlier issue ({owner.id!r}), which wins"
    if anchor != anchor.strip():
        return f"its anchor {anchor!r} has surrounding whitespace; citations are stripped before matching"
    parsed = split_citation(anchor)
    if parsed is None:
        return f"its anchor {anchor!r} has no '§', so no citation of it resolves"
    document_id, token = parsed
    document = matter.documents.get(document_id)
    if document is None:
        return f"its anchor {anchor!r} names document {document_id!r}, which the matter does not load"
    if token not in document.sections:
        return f"its anchor {anchor!r} names section {token!r}, which document {document_id!r} lacks"
    if format_citation(document_id, token) != anchor:
        return (
            f"its anchor {anchor!r} is not written as {format_citation(document_id, token)!r}, "
            "the form a read records, so it can never count as read"
        )
    return None


def _gate_shortfalls(
    issue: Issue,
    path: InstancePath,
    wording: Wording,
    concepts: tuple[str, ...],
    points: float,
    field: str,
    gate_list: str,
) -> list[Shortfall]:
    shortfalls = []
    for blocked in wording.blocked:
        share = points * concepts.count(blocked.concept) / len(concepts)
        how = "on its own" if blocked.alone else "whenever it is stated beside the other concepts"
        shortfalls.append(
            Shortfall(
                Reason.GATE_ON_REQUIRED_LANGUAGE,
                share,
                f"issue {issue.id!r}: {field.replace('_concepts', ' concept')} {blocked.concept!r} "
                f"trips the {gate_list} gate "
                f"{blocked.gate!r} {how}",
                RUBRIC_FILE,
                (*path, field, concepts.index(blocked.concept)),
                detail={"gate": blocked.gate, "concept": blocked.concept},
            )
        )
    return shortfalls


def _issue_wording(issue: Issue, timeout: float) -> tuple[Wording, str, str]:
    concepts = issue.required_concepts if issue.concept_points > 0 else ()
    wording = Wording("", ())
    title = recommendation = ""
    for title_form, recommendation in FRAMES:
        title = title_form.format(anchor=issue.anchor)
        wording = compose(
            concepts, issue.critical_failure_patterns, prefix=title, suffix=recommendation, timeout=timeout
        )
        if wording.usable:
            break
    return wording, title, recommendation


def issue_moves(
    matter: Matter, index: int, label: str, timeout: float = DEFAULT_SEARCH_TIMEOUT, places: Places = UNLOCATED
) -> Analysis:
    """The `submit_issue` (and redline) earning issue `index`'s work-product points."""
    analysis = Analysis()
    issue = matter.rubric.issues[index]
    final = matter.rubric.final_submission
    path = places.entry("issues", index)
    what = f"issue {issue.id!r}"
    penalty_avoided = final.missing_required_issue_penalty * final.required_issue_ids.count(issue.criterion)
    components = (
        issue.base_points,
        issue.severity_points,
        issue.citation_points,
        issue.concept_points,
        issue.quote_points,
    )
    blocker = anchor_blocker(matter, index, places)
    if blocker is not None:
        lost = sum(p for p in components if p > 0) + max(issue.redline_points, 0.0)
        analysis.shortfalls.append(
            Shortfall(Reason.MISSING_ANCHOR, lost, f"{what}: {blocker}", RUBRIC_FILE, (*path, "anchor"))
        )
        if penalty_avoided > 0:
            analysis.shortfalls.append(_penalty_shortfall(matter, issue, penalty_avoided, Reason.MISSING_ANCHOR))
        return analysis
    # The anchor was checked above to resolve, so it splits.
    document_id, token = split_citation(issue.anchor)  # type: ignore[misc]
    section_text = matter.documents[document_id].sections[token]
    normalized_section = matter.documents[document_id].normalized_sections[token]

    wording, title, recommendation = _issue_wording(issue, timeout)
    if not wording.usable:
        lost = sum(p for p in components if p > 0)
        analysis.shortfalls.append(
            Shortfall(
                Reason.GATE_ON_REQUIRED_LANGUAGE,
                lost,
                f"{what}: critical_failure_patterns gate {wording.frame_gate!r} fires on any issue text",
                RUBRIC_FILE,
                (*path, "critical_failure_patterns"),
                detail={"gate": wording.frame_gate},
            )
        )
        if penalty_avoided > 0:
            analysis.shortfalls.append(
                _penalty_shortfall(matter, issue, penalty_avoided, Reason.GATE_ON_REQUIRED_LANGUAGE)
            )
    else:
        analysis.moves.append(
            _submit_issue_move(
                matter,
                index,
                label,
                wording,
                title,
                recommendation,
                section_text,
                normalized_section,
                penalty_avoided,
                timeout,
                analysis.shortfalls,
                path,
            )
        )
    analysis.extend(redline_moves(matter, index, label, document_id, token, timeout, places))
    return analysis


def _penalty_shortfall(matter: Matter, issue: Issue, penalty: float, reason: Reason) -> Shortfall:
    position = matter.rubric.final_submission.required_issue_ids.index(issue.criterion)
    return Shortfall(
        reason,
        penalty,
        f"issue {issue.id!r} is a required issue that cannot be matched: submit_final charges "
        "missing_required_issue_penalty",
        RUBRIC_FILE,
        ("final_submission", "required_issue_ids", position),
    )


def _submit_issue_move(
    matter: Matter,
    index: int,
    label: str,
    wording: Wording,
    title: str,
    recommendation: str,
    section_text: str,
    normalized_section: str,
    penalty_avoided: float,
    timeout: float,
    shortfalls: list[Shortfall],
    path: InstancePath,
) -> Move:
    issue = matter.rubric.issues[index]
    citations = [issue.anchor]
    unresolvable = []
    for position, citation in enumerate(issue.required_citations):
        parsed = split_citation(citation)
        if parsed is None or matter.resolve(*parsed) is None:
            unresolvable.append(position)  # citing it would cost 0.75 and earn nothing
        elif citation not in citations:
            citations.append(citation)
    points = issue.base_points + issue.severity_points
    if unresolvable:
        for order, position in enumerate(unresolvable):
            shortfalls.append(
                Shortfall(
                    Reason.UNRESOLVABLE_CITATION,
                    issue.citation_points if order == 0 else 0.0,
                    f"issue {issue.id!r}: required citation {issue.required_citations[position]!r} resolves "
                    "to no section, so citation_points can never be earned",
                    RUBRIC_FILE,
                    (*path, "required_citations", position),
                )
            )
    else:
        points += issue.citation_points
    if issue.concept_points > 0 and not issue.required_concepts:
        shortfalls.append(
            Shortfall(
                Reason.UNREACHABLE_COMPONENT,
                issue.concept_points,
                f"issue {issue.id!r}: concept_points enter max_score but required_concepts is empty",
                RUBRIC_FILE,
                (*path, "concept_points"),
            )
        )
    elif issue.required_concepts:
        text = normalize(f"{title} {wording.text} {recommendation}")
        found, _ = concept_fraction(issue.required_concepts, text)
        points += issue.concept_points * len(found) / len(issue.required_concepts)
        shortfalls += _gate_shortfalls(
            issue,
            path,
            wording,
            issue.required_concepts,
            issue.concept_points,
            "required_concepts",
            "critical_failure_patterns",
        )
    quotes = []
    if issue.quote_points > 0:
        quote = pick_quote(section_text, normalized_section, issue.critical_failure_patterns, timeout)
        if quote is None:
            shortfalls.append(
                Shortfall(
                    Reason.UNQUOTABLE_ANCHOR,
                    issue.quote_points,
                    f"issue {issue.id!r}: anchor section {issue.anchor!r} has no verbatim text of 15 "
                    "normalized characters to quote",
                    RUBRIC_FILE,
                    (*path, "anchor"),
                )
            )
        else:
            quotes.append({"citation": issue.anchor, "text": quote})
            points += issue.quote_points
    action = {
        "type": "submit_issue",
        "issue_id": label,
        "title": title,
        "severity": issue.severity,
        "citations": citations,
        "analysis": wording.text,
        "recommendation": recommendation,
        "quotes": quotes,
    }
    document_id = split_citation(issue.anchor)[0]  # type: ignore[index]
    return Move(
        "issue",
        [action],
        points,
        points + penalty_avoided,
        f"issue {issue.id!r}",
        RUBRIC_FILE,
        path,
        document=document_id,
        issue_index=index,
    )


def redline_moves(
    matter: Matter,
    index: int,
    label: str,
    document_id: str,
    token: str,
    timeout: float,
    places: Places = UNLOCATED,
) -> Analysis:
    """The redline earning `redline_points`, aimed at the anchor section."""
    analysis = Analysis()
    issue = matter.rubric.issues[index]
    path = places.entry("issues", index)
    if issue.redline_points <= 0:
        return analysis
    if not issue.redline_concepts:
        analysis.shortfalls.append(
            Shortfall(
                Reason.UNREACHABLE_COMPONENT,
                issue.redline_points,
                f"issue {issue.id!r}: redline_points enter max_score but redline_concepts is empty, "
                "so every redline scores 0",
                RUBRIC_FILE,
                (*path, "redline_points"),
            )
        )
        return analysis
    if issue.native_id is not None:
        analysis.shortfalls.append(
            Shortfall(
                Reason.UNREACHABLE_COMPONENT,
                issue.redline_points,
                f"issue {issue.id!r}: YAML 1.1 reads this id as a {type(issue.native_id).__name__}, not text, "
                "and the engine scores no redline of such an issue (quote the id)",
                RUBRIC_FILE,
                (*path, "id"),
            )
        )
        return analysis
    wording = compose(issue.redline_concepts, issue.redline_critical_failure_patterns, timeout=timeout)
    found, _ = concept_fraction(issue.redline_concepts, normalize(wording.text))
    if not wording.usable or not found:
        gate = wording.frame_gate or (wording.blocked[0].gate if wording.blocked else "")
        analysis.shortfalls.append(
            Shortfall(
                Reason.GATE_ON_REQUIRED_LANGUAGE,
                issue.redline_points,
                f"issue {issue.id!r}: redline_critical_failure_patterns gate {gate!r} fires on every "
                "replacement text that carries a redline concept",
                RUBRIC_FILE,
                (*path, "redline_critical_failure_patterns"),
                detail={"gate": gate},
            )
        )
        return analysis
    analysis.shortfalls += _gate_shortfalls(
        issue,
        path,
        wording,
        issue.redline_concepts,
        issue.redline_points,
        "redline_concepts",
        "redline_critical_failure_patterns",
    )
    points = issue.redline_points * len(found) / len(issue.redline_concepts)
    action = {
        "type": "propose_redline",
        "issue_id": label,
        "document_id": document_id,
        "section": token,
        "replacement_text": wording.text,
        "rationale": REDLINE_RATIONALE,
    }
    analysis.moves.append(
        Move(
            "redline",
            [action],
            points,
            points,
            f"the redline of issue {issue.id!r}",
            RUBRIC_FILE,
            (*path, "redline_points"),
            issue_index=index,
        )
    )
    return analysis
