"""`rubric coverage --html`: static pages, escaped user text, checked in headless chromium."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubric_tools.cli import main
from tests.browser_support import Browser, find_browser
from tests.conftest import MATTERS_DIR

HOSTILE = "<img src=x onerror=\"console.error('injected')\"></script><b>bold</b>"
UNCOVERED_BACKGROUND = "rgb(248, 208, 208)"
COVERED_BACKGROUND = "rgb(211, 240, 211)"


def _report(tmp_path: Path) -> Path:
    """Our two matters, one trajectory removed (so some items are uncovered), one hostile."""
    matters = tmp_path / "matters"
    for name in ("ai_saas_001", "clean_saas_002"):
        shutil.copytree(MATTERS_DIR / name, matters / name)
    (matters / "ai_saas_001" / "trajectories" / "incident_counters_exhausted.jsonl").unlink()
    hostile = [
        {"type": "ask_client", "question": f"What is the deadline? {HOSTILE}"},
        {"type": "submit_final", "summary": HOSTILE},
    ]
    (matters / "clean_saas_002" / "trajectories" / "hostile.jsonl").write_text(
        "".join(json.dumps(a) + "\n" for a in hostile), encoding="utf-8"
    )
    rubric = matters / "clean_saas_002" / "rubric.yaml"
    rubric.write_text(rubric.read_text(encoding="utf-8") + f"# {HOSTILE}\n", encoding="utf-8")
    (tmp_path / "rubric.toml").write_text("", encoding="utf-8")
    html = tmp_path / "htmlcov"
    assert (
        main(["coverage", str(matters), "--mutation", "--html", str(html), "--config", str(tmp_path / "rubric.toml")])
        == 0
    )
    return html


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _report(tmp_path_factory.mktemp("html"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = find_browser()
    if executable is None:
        pytest.skip("no chromium found (.ci/run installs Debian's chromium; or set RUBRIC_BROWSER)")
    driver = Browser(executable)
    try:
        yield driver
    finally:
        driver.close()


def _page(report: Path, matter_id: str, trajectory: str | None = None) -> Path:
    index = (report / "index.html").read_text(encoding="utf-8")
    number = index[: index.index(f">{matter_id}</a>")].rsplit('href="m', 1)[1].split(".html", 1)[0]
    if trajectory is None:
        return report / f"m{number}.html"
    page = (report / f"m{number}.html").read_text(encoding="utf-8")
    return report / page[: page.index(f">{trajectory}</a>")].rsplit('href="', 1)[1].split('"', 1)[0]


def test_user_text_is_escaped_everywhere(report: Path) -> None:
    pages = {path.name: path.read_text(encoding="utf-8") for path in report.glob("*.html")}
    assert len(pages) > 3
    for name, text in pages.items():
        assert "<img" not in text and "<b>bold" not in text, name
    assert any("&lt;img src=x" in text for text in pages.values())


def test_the_pages_need_no_network(report: Path) -> None:
    for path in report.glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "<link" not in text, path.name


def test_index_lists_matters_with_their_scores(browser: Browser, report: Path) -> None:
    browser.console_errors.clear()
    browser.open(report / "index.html")
    rows = browser.evaluate("[...document.querySelectorAll('#matters tbody tr')].map(r => r.innerText)")
    assert [row.split("\t")[0] for row in rows] == ["ai_saas_001", "clean_saas_002"]
    assert all("%" in row for row in rows)
    assert browser.console_errors == []


def test_an_uncovered_item_is_visibly_marked(browser: Browser, report: Path) -> None:
    browser.console_errors.clear()
    browser.open(_page(report, "ai_saas_001"))
    script = "getComputedStyle(document.querySelector('.line.{}')).backgroundColor"
    assert browser.evaluate(script.format("cov-none")) == UNCOVERED_BACKGROUND
    assert browser.evaluate(script.format("cov-full")) == COVERED_BACKGROUND
    # The uncovered line is the `reject_message` of incident_notice in counterparty.yaml.
    line = "document.querySelector('.line.cov-none')"
    assert "reject_message" in browser.evaluate(f"{line}.innerText")
    browser.evaluate(f"{line}.click()")
    assert browser.evaluate("getComputedStyle(document.getElementById('detail')).display") == "block"
    assert "NOT covered: positions.incident_notice.rejected" in browser.evaluate(
        "document.getElementById('detail').innerText"
    )
    browser.evaluate("document.querySelector('.line.cov-full').click()")
    assert ".jsonl" in browser.evaluate("document.getElementById('detail').innerText")
    assert browser.console_errors == []


def test_the_trajectory_view_charts_the_score_and_highlights_the_text(browser: Browser, report: Path) -> None:
    browser.console_errors.clear()
    browser.open(_page(report, "ai_saas_001", "bad_reversed_redline.jsonl"))
    points = browser.evaluate("document.querySelector('#score-chart path').getAttribute('d').split('L').length")
    steps = browser.evaluate("document.querySelectorAll('#steps tr').length - 1")
    assert points == steps + 1 > 10
    width, height = browser.evaluate(
        "(() => { const b = document.querySelector('#score-chart path').getBBox(); return [b.width, b.height]; })()"
    )
    assert width > 100 and height > 10
    assert browser.evaluate("document.querySelectorAll('#steps mark.concept').length") > 5
    gate = browser.evaluate("document.querySelector('#steps mark.gate').innerText")
    assert gate.lower().startswith("customer shall notify")
    assert browser.console_errors == []


def test_hostile_agent_text_stays_text_in_the_browser(browser: Browser, report: Path) -> None:
    browser.console_errors.clear()
    browser.open(_page(report, "clean_saas_002", "hostile.jsonl"))
    assert browser.evaluate("document.querySelectorAll('#steps img, #steps b').length") == 0
    assert "onerror" in browser.evaluate("document.getElementById('steps').innerText")
    browser.open(_page(report, "clean_saas_002"))
    assert browser.evaluate("document.querySelectorAll('.source img').length") == 0
    assert browser.console_errors == []


def test_each_gate_list_shows_its_robustness(report: Path) -> None:
    """The audit's figure per gate list: sins caught and correct work left silent, before →
    after its verified proposals, with a link to the list in rubric.yaml."""
    page = _page(report, "ai_saas_001").read_text(encoding="utf-8")
    section = page[page.index('<table class="steps" id="robustness">') :]
    section = section[: section.index("</table>")]
    rows = section.split("<tr>")[2:]
    assert len(rows) == 8  # three issues, eight gate lists
    assert "data_training/issue" in rows[0] and 'href="#rubric.yaml-L62"' in rows[0]
    figures = [[int(n) for n in re.findall(r"(\d+)/\d+ &rarr; (\d+)/\d+", row)[0]] for row in rows]
    assert all(after >= before for before, after in figures)
    index = (report / "index.html").read_text(encoding="utf-8")
    assert "gate robustness</th>" in index and "sins caught" in index
    clean = _page(report, "clean_saas_002").read_text(encoding="utf-8")
    assert "<h2>Gate robustness</h2>" in clean
