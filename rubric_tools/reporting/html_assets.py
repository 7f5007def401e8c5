"""The inline CSS and JavaScript of the HTML coverage report: no CDN, no network."""

from __future__ import annotations

CSS = """
:root { --none: #f8d0d0; --part: #fbefb5; --full: #d3f0d3; --ink: #1d1d1f; --dim: #6b6b70; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0 2em 3em; }
h1 { font-size: 1.4em; margin: 1em 0 .4em; } h2 { font-size: 1.1em; margin: 1.6em 0 .4em; }
a { color: #0b57d0; } .dim { color: var(--dim); }
table.summary { border-collapse: collapse; margin: .6em 0; }
table.summary th, table.summary td { padding: .25em .8em; border-bottom: 1px solid #ddd; text-align: right; }
table.summary th:first-child, table.summary td:first-child { text-align: left; }
.bar { display: inline-block; width: 80px; height: .7em; background: var(--none); vertical-align: middle; }
.bar > span { display: block; height: 100%; background: #4caf50; }
.legend span { display: inline-block; padding: 0 .6em; margin-right: .4em; border-radius: 3px; }
.source { font: 12.5px/1.5 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; border: 1px solid #ddd; }
.line { display: flex; white-space: pre-wrap; word-break: break-word; }
.line .n { flex: 0 0 4em; text-align: right; padding-right: 1em; color: var(--dim); user-select: none; }
.line .t { flex: 1; }
.line[data-items] { cursor: pointer; }
.cov-none { background-color: var(--none); }
.cov-part { background-color: var(--part); }
.cov-full { background-color: var(--full); }
.line.selected { outline: 2px solid #0b57d0; }
#detail { position: sticky; bottom: 0; background: #fff; border-top: 2px solid #0b57d0; padding: .5em 1em;
          max-height: 40vh; overflow: auto; display: none; }
#detail.open { display: block; }
#detail ul { margin: .2em 0; padding-left: 1.2em; }
.steps { border-collapse: collapse; width: 100%; }
.steps td, .steps th { border-bottom: 1px solid #eee; padding: .3em .5em; vertical-align: top; text-align: left; }
.steps td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.agent { white-space: pre-wrap; }
mark.concept { background: #c8e6ff; } mark.gate { background: #ffb3b3; text-decoration: underline wavy #c00; }
.neg { color: #b00020; } .pos { color: #1b5e20; }
svg.chart { border: 1px solid #ddd; background: #fcfcfd; }
svg.chart .score { fill: none; stroke: #0b57d0; stroke-width: 2; }
svg.chart .axis { stroke: #999; stroke-width: 1; }
svg.chart .grid { stroke: #eee; stroke-width: 1; }
svg.chart text { font-size: 10px; fill: var(--dim); }
"""

JS = """
(function () {
  var dataNode = document.getElementById('coverage-items');
  if (!dataNode) { return; }
  var items = JSON.parse(dataNode.textContent);
  var panel = document.getElementById('detail');
  function show(line) {
    var previous = document.querySelector('.line.selected');
    if (previous) { previous.classList.remove('selected'); }
    line.classList.add('selected');
    while (panel.firstChild) { panel.removeChild(panel.firstChild); }
    line.getAttribute('data-items').split(' ').forEach(function (key) {
      var item = items[key];
      if (!item) { return; }
      var title = document.createElement('div');
      var strong = document.createElement('strong');
      strong.textContent = (item.covered ? 'covered: ' : 'NOT covered: ') + item.id;
      title.appendChild(strong);
      title.appendChild(document.createTextNode(' \\u2014 ' + item.description));
      panel.appendChild(title);
      var list = document.createElement('ul');
      item.by.forEach(function (name) {
        var entry = document.createElement('li');
        entry.textContent = name;
        list.appendChild(entry);
      });
      panel.appendChild(list);
    });
    panel.classList.add('open');
  }
  document.querySelectorAll('.line[data-items]').forEach(function (line) {
    line.addEventListener('click', function () { show(line); });
  });
})();
"""
