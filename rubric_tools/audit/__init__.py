"""`rubric audit`: execute every gate and concept against texts whose verdict is known, and
propose fixes for the gates that fail them.

Modules, by role:

- texts of known verdict: `corpus` (the matter's own probes, trajectories, documents),
  `texts` (every text of a gate list), `frames`, `habitats` and `negations` (generated
  correct work and sins in their habitats), `dodges` (rewrites of a sin: `quantities`,
  `money`, `inflection`, `lexicon`, `thesaurus`, `names`), `clauses` and `completion`
  (a regex fragment completed into a clause), `naturalness`, `grammar`, `wording`,
  `words`, `word_use` and `stems` (what reads as a lawyer's sentence);
- verdicts and findings: `gate_audit`, `concepts`, `findings`, `robustness`, `codes`,
  `thresholds`, `runner`, `probe_writer`;
- proposals: `proposals` (one entry's change), `verification` (what a candidate does to
  the texts), guards scoped by meaning (`scoped_guards`, `guard_keys`, `guard_key_choice`,
  `guard_windows`, `guard_evidence`, `markers`), widening by principle (`widening`,
  `widening_proposal`, `word_alternatives`, `passive_voice`, `pattern_tree`), and
  `fix_loop` (`--fix` to a fixed point);
- `seeding` and `recall`: the seeded-defect benchmark.

The cheap parts shared with lint rules U001/U005 live in `gate_analysis`. The settings
(`[tool.rubric.audit]`) are `rubric_tools.config.audit`. The command is
`rubric_tools.commands.audit`.
"""
