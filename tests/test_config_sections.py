"""The project configuration's sections: one registry, each section validated where the
file is read with its errors at file:line, and names checked against an injected vocabulary."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from rubric_tools.config.attack import AttackSection
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.project import KNOWN_KEYS, SECTIONS, ProjectConfig, config_from_mapping
from rubric_tools.config.resolve import apply_overrides, load_config_file
from rubric_tools.config.vocabulary import Vocabulary
from rubric_tools.diagnostics import Severity


@dataclass(frozen=True)
class FakeRule:
    code: str
    name: str


RULES = (FakeRule("Q101", "quiet-rule"), FakeRule("Q102", "loud-rule"), FakeRule("R201", "other-rule"))
STRATEGIES = ("alpha-stuffing", "beta-padding")


class Counting:
    """A vocabulary that counts how often each list was asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.vocabulary = Vocabulary(rules=self._rules, strategies=self._strategies)

    def _rules(self) -> tuple[FakeRule, ...]:
        self.asked.append("rules")
        return RULES

    def _strategies(self) -> tuple[str, ...]:
        self.asked.append("strategies")
        return STRATEGIES


VOCABULARY = Counting().vocabulary


def load(tmp_path: Path, text: str, vocabulary: Vocabulary = VOCABULARY) -> ProjectConfig:
    path = tmp_path / "rubric.toml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return load_config_file(path, vocabulary)


def error(tmp_path: Path, text: str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, text)
    assert caught.value.file == tmp_path / "rubric.toml"
    return caught.value


# --------------------------------------------------------------------------- the registry
def test_every_section_is_a_field_and_every_field_a_section() -> None:
    section_fields = [section.field for section in SECTIONS]
    assert sorted(section_fields) == sorted(f.name for f in fields(ProjectConfig) if f.name != "source")
    assert len(set(section_fields)) == len(section_fields)


def test_known_keys_are_the_sections_keys_each_owned_once() -> None:
    owned = [key for section in SECTIONS for key in section.keys]
    assert KNOWN_KEYS == tuple(owned) and len(set(owned)) == len(owned)
    assert {"attack", "audit", "check", "coverage", "select", "fail-level"} <= set(KNOWN_KEYS)


def test_every_section_parses_to_its_field_type(tmp_path: Path) -> None:
    config = load(tmp_path, "")
    assert config == ProjectConfig(source=tmp_path / "rubric.toml")
    for section in SECTIONS:
        assert type(getattr(config, section.field)) is type(getattr(ProjectConfig(), section.field))


def test_sections_are_frozen() -> None:
    with pytest.raises(AttributeError):
        ProjectConfig().attack.exempt = ()  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "suggestion"),
    [
        ("[coverag]\nfail-under = 1\n", "'coverage'"),
        ("[audits]\n", "'audit'"),
        ("fail_level = 'info'\n", "'fail-level'"),
    ],
)
def test_an_unknown_top_level_key_suggests_a_known_one(tmp_path: Path, text: str, suggestion: str) -> None:
    problem = error(tmp_path, text)
    assert problem.line == 1 and f"did you mean {suggestion}?" in problem.message
    assert "known keys: select," in problem.message and "coverage" in problem.message


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ('select = ["Q1"]\n\n[attack]\nmax-fraction-of-reference = 3\n', 4, "attack.max-fraction-of-reference must be"),
        ("[attack]\nunanchored-max-raw = 0\nrounds = 5\n", 3, "unknown setting attack.rounds"),
        ('[attack]\nexempt = [\n  "alpha-stuffing",\n  "beta-paddin",\n]\n', 4, "did you mean 'beta-padding'?"),
        ('[audit]\nignore = ["U008"]\nfail-on = ["X1"]\n', 3, "audit.fail-on must be a list of audit codes"),
        ("[audit]\nmax-evidence = 0\n", 2, "audit.max-evidence must be a positive integer, not 0"),
        ("[audit.thesaurus]\nend = ['stop']\nlicence = 'license'\n", 3, "audit.thesaurus.licence must be a list"),
        ("[audit]\nmax-evidance = 2\n", 2, "unknown setting audit.max-evidance (did you mean 'max-evidence'?)"),
        ("[coverage]\njobs = 2\nfail-under = 101\n", 3, "coverage.fail-under must be a percentage"),
        ("[coverage]\nmax-mutants = 1.5\n", 2, "coverage.max-mutants must be a positive integer"),
        ("[check]\nstrict = 'yes'\n", 2, "'check.strict' must be true or false"),
        ("[check]\nstrikt = true\n", 2, "did you mean 'strict'?"),
        ("[lint]\nbaseline = 3\n", 2, "'baseline' must be a file name"),
        ('audit = "all"\n', 1, "'audit' must be a table (it holds `rubric audit` settings)"),
        ("coverage = [1]\n", 1, "'coverage' must be a table (it holds `rubric coverage` settings)"),
    ],
)
def test_each_sections_errors_point_at_their_line(tmp_path: Path, text: str, line: int, fragment: str) -> None:
    problem = error(tmp_path, text)
    assert problem.line == line and fragment in problem.message
    assert str(problem).startswith(f"{tmp_path / 'rubric.toml'}:{line}: ")


def test_settings_built_in_memory_have_no_file() -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_mapping({"attack": {"unanchored-max-raw": "zero"}}, VOCABULARY)
    assert caught.value.file is None and str(caught.value) == "attack.unanchored-max-raw must be a number, not 'zero'"
    lenient = config_from_mapping({"attack": {"unanchored-max-raw": 2}}, VOCABULARY)
    assert lenient.attack == AttackSection(unanchored_max_raw=2.0)


# --------------------------------------------------------------------------- the vocabulary
def test_selectors_are_checked_against_the_injected_rules(tmp_path: Path) -> None:
    config = load(tmp_path, 'select = ["Q1", "other-rule"]\nseverity = { Q = "info", Q102 = "warning" }\n')
    assert config.lint.select == ("Q1", "other-rule")
    assert config.lint.severity == {"Q101": Severity.INFO, "Q102": Severity.WARNING}
    problem = error(tmp_path, 'ignore = ["quiet-rul"]\n')
    assert problem.line == 1 and "unknown rule code, prefix or name 'quiet-rul' in 'ignore'" in problem.message
    assert "did you mean 'quiet-rule'?" in problem.message
    # a real rule code the injected vocabulary does not hold is unknown
    assert "'G003' in 'select'" in error(tmp_path, 'select = ["G003"]\n').message


def test_attack_strategies_are_checked_against_the_injected_names(tmp_path: Path) -> None:
    assert load(tmp_path, '[attack]\nexempt = ["beta-padding"]\n').attack.exempt == ("beta-padding",)
    problem = error(tmp_path, '[attack]\nexempt = ["concept-stuffing-read"]\n')
    assert "unknown strategy 'concept-stuffing-read'" in problem.message
    assert "known: alpha-stuffing, beta-padding" in problem.message


def test_the_vocabulary_is_asked_for_only_when_a_setting_names_something(tmp_path: Path) -> None:
    counting = Counting()
    load(tmp_path, 'canary = "c"\nfail-level = "warning"\n[coverage]\njobs = 1\n', counting.vocabulary)
    assert counting.asked == []
    load(tmp_path, 'ignore = ["Q1"]\n[attack]\nexempt = []\n', counting.vocabulary)
    assert counting.asked == ["rules", "strategies"]


def test_command_line_selectors_use_the_injected_rules() -> None:
    overridden = apply_overrides(ProjectConfig(), VOCABULARY, select=["Q101,R2"], ignore=["loud-rule"])
    assert overridden.lint.select == ("Q101", "R2") and overridden.lint.ignore == ("loud-rule",)
    with pytest.raises(ConfigError) as caught:
        apply_overrides(ProjectConfig(), VOCABULARY, select=["Q9"])
    assert caught.value.file is None and "'Q9' in '--select'" in caught.value.message


def test_reading_the_configuration_imports_nothing_heavy(tmp_path: Path) -> None:
    # Every command reads the configuration before its work: it must stay cheap to import.
    (tmp_path / "rubric.toml").write_text("[coverage]\njobs = 1\n", encoding="utf-8")
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from rubric_tools.config.resolve import resolve_config\n"
        "from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY\n"
        f"resolve_config([Path({str(tmp_path)!r})], CONFIG_VOCABULARY)\n"
        "heavy = ('yaml', 'ruamel', 'jsonschema', 'rich', 'regex', 'rubric_tools.lint.rules', 'rubric_tools.prove')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
