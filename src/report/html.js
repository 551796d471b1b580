'use strict';
// The HTML page every HTML report is: one file that needs nothing else. Its style, script
// and charts are inline, a Content-Security-Policy forbids it any request (not even a
// favicon), it reads on a phone (one column, tables scroll sideways) and prints (no
// buttons, no page breaks inside a chart or a figure).
const { esc } = require('./svg-charts');
const { cellText, cellSortValue } = require('./cells');
const { isoDate } = require('./format');
const { s3blitzReport } = require('./html-client');
const pkg = require('../../package.json');

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const CSS = `
:root{--fg:#1d232b;--muted:#5b6673;--line:#d9dee4;--bar:#3b7dd8;--bg:#fff;--soft:#f5f7f9}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:16px}
h1{font-size:1.45em;margin:.2em 0;word-break:break-all}
h2{font-size:1.15em;margin:1.6em 0 .5em;padding-bottom:.2em;border-bottom:1px solid var(--line)}
.meta,.note,footer{color:var(--muted);font-size:.88em}
.warn{background:#fff4d6;border:1px solid #e9c46a;padding:.5em .8em;border-radius:6px}
code{font:.92em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all}
.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin:14px 0}
.figure{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:10px 12px;break-inside:avoid}
.figure .v{font-size:1.35em;font-weight:600;font-variant-numeric:tabular-nums}
.figure .l{color:var(--muted);font-size:.85em}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:14px}
figure.chart{margin:0;break-inside:avoid}
figure.chart figcaption{font-size:.9em;color:var(--muted);margin-bottom:4px}
figure.chart svg .mark{fill:var(--bar)}
svg text{font-size:11px;fill:var(--fg)}
svg .axis{stroke:var(--line)}
#treemap{display:block;max-width:100%;height:auto;background:var(--soft);border-radius:6px}
#treemap .mark,#treemap .sub{stroke:#fff;stroke-width:1}
#treemap .sub{pointer-events:none}
#treemap .cell.drill{cursor:pointer}
#treemap .cell.drill:hover .mark,#treemap .cell.drill:focus .mark{stroke:#1d232b;stroke-width:2}
#treemap text{font-size:12px;pointer-events:none}
#treemap text.size{fill:var(--muted);font-size:11px}
#treemap text.sub-label{font-size:10px;fill:#333}
.tm-nav{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:6px 0}
.tm-nav button{font:inherit;font-size:.9em;border:1px solid var(--line);background:var(--bg);border-radius:5px;padding:3px 9px;cursor:pointer}
.tm-nav button[aria-current]{font-weight:600;background:var(--soft)}
.tm-nav button:disabled{opacity:.45;cursor:default}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;width:100%;font-size:.9em;font-variant-numeric:tabular-nums}
th,td{padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{text-align:left;background:var(--soft);white-space:nowrap}
table.sortable th{cursor:pointer;user-select:none}
th[aria-sort=descending]::after{content:" ▾"}
th[aria-sort=ascending]::after{content:" ▴"}
.r{text-align:right;white-space:nowrap}
.nw{white-space:nowrap}
td.key{overflow-wrap:anywhere;min-width:9em;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
ul.examples{margin:.3em 0;padding-left:1.2em;font-size:.9em}
@media (max-width:600px){main{padding:10px}body{font-size:14px}.figure .v{font-size:1.15em}}
@media print{.tm-nav button{display:none}main{max-width:none;padding:0}h2{break-after:avoid}section{break-inside:auto}tr{break-inside:avoid}a{color:inherit}}
`;

// JSON inside <script>: nothing in it may end the element or read as markup.
function scriptJson(value) {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

// A section of summary-model.js (or any {columns, rows} of typed cells) as a sortable table.
function htmlTable(sec, { sortable = true } = {}) {
  const numeric = (t) => t !== 'text' && t !== 'key' && t !== 'date';
  const types = sec.columns.map((_, i) => (sec.rows.length ? sec.rows[0][i].t : 'text'));
  const head = sec.columns.map(([label, align], i) => `<th class="${align === 'r' ? 'r' : ''}" data-type="${numeric(types[i]) ? 'num' : 'text'}" scope="col">${esc(label)}</th>`).join('');
  const body = sec.rows.map((r) => `<tr>${r.map((c, i) => {
    const short = c.t === 'text' && String(c.v ?? '').length <= 24; // "only-source", "STANDARD_IA": kept on one line
    const cls = c.t === 'key' ? 'key' : sec.columns[i][1] === 'r' ? 'r' : short ? 'nw' : '';
    return `<td${cls ? ` class="${cls}"` : ''} data-v="${esc(cellSortValue(c))}">${esc(cellText(c))}</td>`;
  }).join('')}</tr>`).join('\n');
  return `<div class="scroll"><table class="${sortable ? 'sortable' : ''}" data-table="${esc(sec.id)}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

function figuresHtml(figures) {
  return `<section class="figures">${figures.map((f) => `<div class="figure" data-figure="${esc(f.id)}" data-value="${esc(f.v === null || f.v === undefined ? '' : f.v)}">` +
    `<div class="v"${f.t === 'date' ? ` title="${esc(cellText({ v: f.v, t: f.t }))}"` : ''}>${esc(f.t === 'date' && f.v ? cellText({ v: f.v, t: f.t }).slice(0, 10) : cellText({ v: f.v, t: f.t }))}</div><div class="l">${esc(f.label)}</div></div>`).join('')}</section>`;
}

/**
 * The whole page. heading: the h1 text; command, generatedAt: shown under it and in the
 * footer; body: the sections' HTML; data: what the page's script reads (may be null).
 */
function htmlPage({ title, heading, command, generatedAt, complete = true, body, data, footer = '' }) {
  const made = isoDate(generatedAt || new Date());
  const script = data ? `<script type="application/json" id="s3blitz-data">${scriptJson(data)}</script>\n` +
    `<script>(${s3blitzReport.toString()})(document, JSON.parse(document.getElementById('s3blitz-data').textContent));</script>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="generator" content="s3blitz ${esc(pkg.version)}">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<header>
<h1>${esc(heading)}</h1>
<p class="meta">Made <time datetime="${esc(made)}">${esc(made)}</time>${command ? ` by <code data-command>${esc(command)}</code>` : ''}</p>
${complete === false ? '<p class="warn">The listing is incomplete: it stopped early (--max-list-requests), so these figures cover part of the source.</p>' : ''}
</header>
${body}
<footer>
<p>Made ${esc(made)} by s3blitz ${esc(pkg.version)}${command ? ` with <code>${esc(command)}</code>` : ''}. This page is one self-contained file: it loads nothing from the network.</p>
${footer}
</footer>
</main>
${script}
</body>
</html>
`;
}

module.exports = { htmlPage, htmlTable, figuresHtml, scriptJson, esc };
