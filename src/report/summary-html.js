'use strict';
// The HTML report of a summary: the figures, a treemap of the folder tree by bytes, bar
// charts of sizes, ages and storage classes, and every section as a sortable table.
const { humanBytes, escapeKey } = require('./format');
const { summarySections, headline } = require('./summary-model');
const { htmlPage, htmlTable, figuresHtml, esc } = require('./html');
const { barChart, columnChart } = require('./svg-charts');
const { cellText } = require('./cells');

const HTML_FOLDERS = 1000; // rows of the folder table (the treemap has the whole tree)

// The tree as the page's script reads it: one array per folder, so 5,000 folders stay
// small: [name, objects, bytes, oldest ms, newest ms, files' objects, files' bytes,
// other's objects, other's bytes, children or 0].
function compactTree(n) {
  if (!n) return null;
  const t = (iso) => (iso ? Date.parse(iso) : 0);
  return [n.name, n.objects, n.bytes, t(n.oldest), t(n.newest), n.files ? n.files.objects : 0, n.files ? n.files.bytes : 0,
    n.other ? n.other.objects : 0, n.other ? n.other.bytes : 0, n.children ? n.children.map(compactTree) : 0];
}

// "4 KiB", "1.5 MiB": sizes as short as a chart's label needs.
const short = (n) => humanBytes(n).replace(/\.0+ /, ' ');
const sizeRange = (h) => (h.max === null ? `≥ ${short(h.min)}` : h.min === 0 ? '0 B' : `${short(h.min)} – ${short(h.max)}`);

const rowsOf = (list, label, value, textOf) => list.map((x) => ({ label: label(x), value: value(x), text: textOf(value(x)) }));
const count = (v) => cellText({ v, t: 'int' });

function section(id, title, inner) {
  return `<section id="${esc(id)}"><h2>${esc(title)}</h2>\n${inner}\n</section>`;
}

function sectionBody(sec) {
  let out = htmlTable(sec);
  if (sec.note) out += `<p class="note">${esc(sec.note)}</p>`;
  if (sec.examples && sec.examples.length) {
    out += `<ul class="examples">${sec.examples.map((e) => `<li>${esc(cellText({ v: e.initiated, t: 'date' }))} <code>${esc(escapeKey(e.key))}</code></li>`).join('')}</ul>`;
  }
  return out;
}

/** options: command (the command line shown), generatedAt (Date or ISO text). */
function summaryHtml(res, { command, generatedAt } = {}) {
  const s = res.summary;
  const secs = new Map(summarySections(res, { folders: HTML_FOLDERS, humanBytes }).map((x) => [x.id, x]));
  const parts = [figuresHtml(headline(res))];
  const done = new Set();
  const use = (id) => { done.add(id); return secs.get(id); };

  if (s.tree && s.tree.root) {
    parts.push(section('treemap-section', 'Folders by size',
      '<div class="tm-nav"><button type="button" id="tm-up" disabled>Up</button><nav id="tm-crumbs" aria-label="folder"></nav></div>' +
      '<p id="tm-caption" class="note"></p><div id="tm-box"><svg id="treemap" data-chart="treemap" role="img" aria-label="treemap of folders by bytes"></svg></div>' +
      `<p class="note">Each rectangle is a folder (to depth ${s.tree.depth}), sized by its bytes; click one to open it, and Up or a name above to go back. ` +
      '"(files here)" is the objects directly in the folder; "(other)" what its smaller subfolders hold past the report\'s folder limit. Folders of 0 bytes have no area.</p>' +
      '<noscript><p class="note">The treemap needs JavaScript; the folder table below has the same figures.</p></noscript>'));
  }
  const size = [];
  if (s.histogram && s.histogram.length) {
    size.push(`<div class="charts">${barChart('size-objects', 'Objects by size', rowsOf(s.histogram, sizeRange, (h) => h.objects, count))}` +
      `${barChart('size-bytes', 'Bytes by size', rowsOf(s.histogram, sizeRange, (h) => h.bytes, humanBytes))}</div>`);
  }
  if (secs.has('quantiles')) size.push(sectionBody(use('quantiles')));
  if (secs.has('size-histogram')) size.push(sectionBody(use('size-histogram')));
  if (size.length) parts.push(section('sizes', 'Object sizes', size.join('\n')));

  const ages = s.ageHistogram;
  if (ages && ages.rows.length) {
    parts.push(section('ages', `Age (last modified, by ${ages.unit})`,
      `<div class="charts">${columnChart('age-bytes', `Bytes by ${ages.unit}`, rowsOf(ages.rows, (r) => r.period, (r) => r.bytes, humanBytes))}` +
      `${columnChart('age-objects', `Objects by ${ages.unit}`, rowsOf(ages.rows, (r) => r.period, (r) => r.objects, count))}</div>\n` +
      sectionBody(use('age-histogram'))));
  }
  if (s.storageClasses && s.storageClasses.length) {
    parts.push(section('classes', 'Storage classes',
      `<div class="charts">${barChart('classes-bytes', 'Bytes by storage class', rowsOf(s.storageClasses, (c) => c.name, (c) => c.bytes, humanBytes))}` +
      `${barChart('classes-objects', 'Objects by storage class', rowsOf(s.storageClasses, (c) => c.name, (c) => c.objects, count))}</div>\n` +
      sectionBody(use('storage-classes'))));
  }
  for (const [id, sec] of secs) {
    if (done.has(id)) continue;
    parts.push(section(id, sec.title, sectionBody(sec)));
  }
  const footer = `<p>${esc(s.sizeQuantiles ? `Size quantiles are approximate: within ${(s.sizeQuantiles.relativeError * 100).toFixed(1)}% of the exact values.` : '')}` +
    `${res.stats ? ` ${esc(count(res.stats.listRequests))} list requests, estimated request cost ${esc(cellText({ v: res.stats.estimatedCostUSD, t: 'usd' }))}.` : ''}</p>`;
  return htmlPage({
    title: `s3blitz report: ${escapeKey(res.source)}`,
    heading: `Bucket report: ${escapeKey(res.source)}`,
    command, generatedAt, complete: res.complete,
    body: parts.join('\n'),
    data: s.tree ? { tree: compactTree(s.tree.root), rootLabel: escapeKey(res.source) } : {},
    footer,
  });
}

module.exports = { summaryHtml, compactTree };
