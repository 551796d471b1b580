'use strict';
// The text report of a summary, for a terminal: the figures, then the sections of
// summary-model.js as aligned tables.
const chalk = require('chalk');
const { escapeKey, humanBytes, isoDate, table, pct } = require('./format');
const { fmtInt } = require('../progress');
const { summarySections, pricedCost } = require('./summary-model');
const { cellText, usdText } = require('./cells');

// Sections the text report shows from the model after the group tables (the others it
// draws its own way, or places among them, below).
const AFTER_GROUPS = ['folders', 'largest', 'oldest', 'empty', 'trouble', 'uploads', 'metadata-scan'];
const TEXT_FOLDERS = 20;

// human: sizes in units only (--human-readable), without the exact byte counts.
function groupTable(title, rows, total, costs, human = false) {
  if (!rows || !rows.length) return '';
  const drop = (row) => (human ? row.filter((_, i) => i !== 2) : row);
  const head = [chalk.bold(title), chalk.bold('objects'), chalk.bold('bytes'), chalk.bold('size'), chalk.bold('share')];
  if (costs) head.push(chalk.bold('est. $/month'));
  const body = [drop(head)];
  for (const r of rows) {
    const line = [escapeKey(r.name), fmtInt(r.objects), fmtInt(r.bytes), humanBytes(r.bytes), pct(r.bytes, total)];
    if (costs) line.push(usdText(costs.get(r.name) ?? null));
    body.push(drop(line));
  }
  return table(body, drop(['l', 'r', 'r', 'r', 'r', 'r'])) + '\n';
}

function sectionText(sec) {
  const rows = [sec.columns.map(([label]) => chalk.bold(label))];
  for (const r of sec.rows) rows.push(r.map((c) => cellText(c)));
  let out = `${chalk.bold(sec.title)}\n${table(rows, sec.columns.map(([, a]) => a))}\n`;
  if (sec.note) out += `${sec.note}\n`;
  for (const e of sec.examples || []) out += `  ${isoDate(e.initiated)}  ${escapeKey(e.key)}\n`;
  return out;
}

function summaryText(res, { human = false } = {}) {
  const { summary: s, source, stats, complete } = res;
  const sections = new Map(summarySections(res, { folders: TEXT_FOLDERS, humanBytes }).map((x) => [x.id, x]));
  const model = (id) => (sections.has(id) ? sectionText(sections.get(id)) : undefined);
  const out = [];
  out.push(chalk.bold(`Summary of ${source}`) + (complete ? '' : chalk.yellow('  (incomplete: stopped early)')));
  out.push(table([
    // --all-versions counts every version that holds bytes: the row says so.
    ...(s.versions ? [['versions', `${fmtInt(s.objects)} (every version with bytes, of ${fmtInt(s.versions.keys)} keys)`]] : [['objects', fmtInt(s.objects)]]),
    ['total size', human ? humanBytes(s.bytes) : `${humanBytes(s.bytes)} (${fmtInt(s.bytes)} bytes)`],
    ['smallest', s.minSize === null ? '-' : humanBytes(s.minSize)],
    ['mean', s.meanSize === null ? '-' : humanBytes(Math.round(s.meanSize))],
    ['largest', s.maxSize === null ? '-' : humanBytes(s.maxSize)],
    ['oldest', s.oldest ? `${isoDate(s.oldest.lastModified)}  ${escapeKey(s.oldest.key)}` : '-'],
    ['newest', s.newest ? `${isoDate(s.newest.lastModified)}  ${escapeKey(s.newest.key)}` : '-'],
  ], ['l', 'l']));
  out.push('');
  out.push(model('quantiles'));
  if (s.histogram.length) {
    const rows = [[chalk.bold('size'), chalk.bold('objects'), chalk.bold('bytes'), '']];
    const max = Math.max(...s.histogram.map((h) => h.objects));
    for (const h of s.histogram) {
      const label = h.max === null ? `>= ${humanBytes(h.min)}` : h.min === 0 ? '0 B' : `${humanBytes(h.min)} .. ${humanBytes(h.max)}`;
      rows.push([label, fmtInt(h.objects), humanBytes(h.bytes), chalk.cyan('#'.repeat(Math.max(1, Math.round((30 * h.objects) / max))))]);
    }
    out.push(table(rows, ['r', 'r', 'r', 'l']), '');
  }
  out.push(model('age-histogram'));
  const cost = pricedCost(s);
  const costs = cost ? new Map(cost.classes.map((c) => [c.name, c.usdPerMonth])) : null;
  out.push(groupTable('storage class', s.storageClasses, s.bytes, costs, human));
  if (cost) out.push(`${sections.get('storage-classes').note}\n`);
  out.push(model('multipart'));
  for (const id of ['by', 'versions', 'noncurrent-age']) out.push(model(id));
  if (s.folders) out.push(groupTable(`folder (depth ${s.depth})`, s.folders, s.bytes, null, human));
  out.push(groupTable('extension', s.extensions, s.bytes, null, human));
  for (const id of AFTER_GROUPS) out.push(model(id));
  if (s.approximate) out.push(chalk.yellow('groups beyond the 10,000 largest are folded into (other); their counts are approximate'));
  if (stats && stats.listRequests) {
    out.push(`list requests: ${fmtInt(stats.listRequests)} (efficiency ${stats.efficiency === null ? '-' : stats.efficiency.toFixed(2)}), estimated request cost $${stats.estimatedCostUSD.toFixed(4)}` +
      (res.elapsedMs !== undefined ? `, ${(res.elapsedMs / 1000).toFixed(1)} s` : ''));
  }
  return out.filter((x) => x !== undefined).join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

module.exports = { summaryText };
