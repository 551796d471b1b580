'use strict';
// The report of a comparison (compare's result), and the line of one pair for --show.
const { escapeKey, humanBytes, table } = require('./format');
const { fmtInt } = require('../progress');
const { classSection, folderSection, judgedSection, comparisonHeadline } = require('./comparison-model');
const { cellText } = require('./cells');
const { mdEscape, mdTable, mdSection, mdCode } = require('./markdown');
const { htmlPage, htmlTable, figuresHtml, esc } = require('./html');
const { barChart } = require('./svg-charts');

const TEXT_FOLDER_ROWS = 30;

// One row per class, in the result's order (compare's precedence).
function classTable(classes, human = false) {
  const rows = [human ? ['class', 'objects', 'size'] : ['class', 'objects', 'bytes', 'size']];
  for (const [c, t] of Object.entries(classes)) rows.push(human ? [c, fmtInt(t.objects), humanBytes(t.bytes)] : [c, fmtInt(t.objects), fmtInt(t.bytes), humanBytes(t.bytes)]);
  return table(rows, human ? ['l', 'r', 'r'] : ['l', 'r', 'r', 'r']) + '\n';
}

// How pairs were judged, as one line, where some took requests beyond the listings: "judged
// by: ETag 150, stored checksum CRC64NVME 8 (16 HEAD requests)".
function judgedText(r) {
  const sec = judgedSection(r);
  const by = r.judgedBy || {};
  if (!sec.rows.length || !Object.keys(by).some((how) => how === 'read' || how === 'part sizes' || how.startsWith('checksum'))) return '';
  return `judged by: ${sec.rows.map(([how, n]) => `${how.v} ${fmtInt(n.v)}`).join(', ')}${sec.note ? ` (${sec.note})` : ''}\n`;
}

// Where the differences are, as a text table (nothing when nothing differs).
function folderText(folders, limit = TEXT_FOLDER_ROWS) {
  const sec = folderSection(folders, { limit });
  if (!sec || !sec.rows.length) return '';
  const rows = [sec.columns.map(([label]) => label), ...sec.rows.map((r) => r.map(cellText))];
  return `\n${sec.title}\n${table(rows, sec.columns.map(([, a]) => a))}\n${sec.note ? `${sec.note}\n` : ''}`;
}

function comparisonMarkdown(r, { command, generatedAt } = {}) {
  let out = `# Comparison: ${mdEscape(r.source)} → ${mdEscape(r.target)}\n\n`;
  out += `Made ${cellText({ v: generatedAt || new Date(), t: 'date' })}${command ? ` by ${mdCode(command)}` : ''}.` +
    `${r.complete === false ? ' **A listing is incomplete: it stopped early.**' : ''}\n\n`;
  out += mdTable([['figure', 'l'], ['value', 'r']], comparisonHeadline(r).map((f) => [{ v: f.label, t: 'text' }, { v: f.v, t: f.t }])) + '\n';
  out += mdSection(classSection(r.classes));
  const js = judgedSection(r);
  if (js.rows.length) out += mdSection(js);
  const fs = folderSection(r.folders);
  if (fs && fs.rows.length) out += mdSection(fs);
  return out;
}

function comparisonHtml(r, { command, generatedAt } = {}) {
  const classes = classSection(r.classes);
  const parts = [figuresHtml(comparisonHeadline(r))];
  parts.push(`<section id="classes"><h2>Classes</h2><div class="charts">${barChart('compare-classes', 'Keys by class',
    Object.entries(r.classes).map(([c, t]) => ({ label: c, value: t.objects, text: fmtInt(t.objects) })))}` +
    `${barChart('compare-bytes', 'Bytes by class', Object.entries(r.classes).map(([c, t]) => ({ label: c, value: t.bytes, text: humanBytes(t.bytes) })))}</div>\n${htmlTable(classes)}</section>`);
  const js = judgedSection(r);
  if (js.rows.length) parts.push(`<section id="judged-by"><h2>${esc(js.title)}</h2>${htmlTable(js)}${js.note ? `<p class="note">${esc(js.note)}</p>` : ''}</section>`);
  const fs = folderSection(r.folders);
  if (fs && fs.rows.length) parts.push(`<section id="difference-folders"><h2>${esc(fs.title)}</h2>${htmlTable(fs)}${fs.note ? `<p class="note">${esc(fs.note)}</p>` : ''}</section>`);
  return htmlPage({
    title: `s3blitz comparison: ${escapeKey(r.source)} → ${escapeKey(r.target)}`,
    heading: `Comparison: ${escapeKey(r.source)} → ${escapeKey(r.target)}`,
    command, generatedAt, complete: r.complete, body: parts.join('\n'), data: {}, // the script sorts its tables
  });
}

// "identical" only when every pair's content was checked; pairs judged by size (and
// modification time) alone are counted instead.
function verdict(r) {
  if (!r.identical) return 'different\n';
  if (!r.judgedBySize) return 'identical\n';
  const pairs = Object.entries(r.classes).filter(([c]) => c !== 'only-source' && c !== 'only-target').reduce((n, [, t]) => n + t.objects, 0);
  return `no differences found; ${fmtInt(r.judgedBySize)} of ${fmtInt(pairs)} pairs were judged by size${r.classes.unknown.objects < r.judgedBySize ? ' and modification time' : ''} only (--checksum checks them by stored checksums, --checksum=download by reading)\n`;
}

/** options: human (text: sizes in units only); command and generatedAt (Markdown and HTML). */
function comparisonReport(r, options = {}) {
  return {
    text: () => classTable(r.classes, Boolean(options.human)) + judgedText(r) + folderText(r.folders) + verdict(r),
    json: () => JSON.stringify({ source: r.source, target: r.target, identical: r.identical, judgedBySize: r.judgedBySize, judgedBy: r.judgedBy, verified: r.verified, method: r.method, classes: r.classes, folders: r.folders, complete: r.complete, unmappable: r.unmappable, stats: r.stats }, null, 2) + '\n',
    markdown: () => comparisonMarkdown(r, options),
    html: () => comparisonHtml(r, options),
  };
}

const pairSide = (i) => (i ? { Size: i.Size, ETag: i.ETag === undefined ? null : i.ETag, LastModified: i.LastModified ? new Date(i.LastModified).toISOString() : null } : null);

const pairLine = {
  text: (rec) => `${rec.class}\t${escapeKey(rec.key === null ? rec.targetKey : rec.key)}\n`,
  json: (rec) => JSON.stringify({ class: rec.class, key: rec.key, targetKey: rec.targetKey, source: pairSide(rec.source), target: pairSide(rec.target) }) + '\n',
};

module.exports = { comparisonReport, pairLine, classTable, folderText };
