"""`rubric lsp`: a Language Server Protocol server for matter files, built on pygls.

For every file of a matter (its YAML files, documents, trajectories, probes and
expectations) it gives an editor, as the author types:

- diagnostics: every lint finding (code, severity, exact range, related locations, a link
  to the code's documentation), `rubric check`'s trajectory, expectation and probe
  results, and the audit's findings on save (`analysis`, `convert`);
- code actions: every lint and audit fix, an inline suppression with a reason, fix all
  safe fixes in the file (`actions`);
- hover, go to definition, references, completion and document symbols (`hover`,
  `navigation`, `completion`, `symbols`, over the symbol table of `index` and what
  `locate` finds at a position).

The server (`server`) only translates: every analysis comes from the project through
`adapter`, the one module that calls into lint, the audit, the loader, the
configuration and the code documentation. pygls and lsprotocol are the optional `lsp`
extra (`pip install 'rubric-tools[lsp]'`); nothing else in the package imports this one.
"""
