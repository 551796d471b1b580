'use strict';
// The report of a comparison (compare's result), and the line of one pair for --show.
const { escapeKey, humanBytes, table } = require('./format');
const { fmtInt } = require('../progress');

// One row per class, in the result's order (compare's precedence).
function classTable(classes, human = false) {
  const rows = [human ? ['class', 'objects', 'size'] : ['class', 'objects', 'bytes', 'size']];
  for (const [c, t] of Object.entries(classes)) rows.push(human ? [c, fmtInt(t.objects), humanBytes(t.bytes)] : [c, fmtInt(t.objects), fmtInt(t.bytes), humanBytes(t.bytes)]);
  return table(rows, human ? ['l', 'r', 'r'] : ['l', 'r', 'r', 'r']) + '\n';
}

// "identical" only when every pair's content was checked; pairs judged by size (and
// modification time) alone are counted instead.
function verdict(r) {
  if (!r.identical) return 'different\n';
  if (!r.judgedBySize) return 'identical\n';
  const pairs = Object.entries(r.classes).filter(([c]) => c !== 'only-source' && c !== 'only-target').reduce((n, [, t]) => n + t.objects, 0);
  return `no differences found; ${fmtInt(r.judgedBySize)} of ${fmtInt(pairs)} pairs were judged by size${r.classes.unknown.objects < r.judgedBySize ? ' and modification time' : ''} only (--checksum reads their content)\n`;
}

function comparisonReport(r, { human = false } = {}) {
  return {
    text: () => classTable(r.classes, human) + verdict(r),
    json: () => JSON.stringify({ source: r.source, target: r.target, identical: r.identical, judgedBySize: r.judgedBySize, verified: r.verified, method: r.method, classes: r.classes, complete: r.complete, unmappable: r.unmappable, stats: r.stats }, null, 2) + '\n',
  };
}

const pairSide = (i) => (i ? { Size: i.Size, ETag: i.ETag === undefined ? null : i.ETag, LastModified: i.LastModified ? new Date(i.LastModified).toISOString() : null } : null);

const pairLine = {
  text: (rec) => `${rec.class}\t${escapeKey(rec.key === null ? rec.targetKey : rec.key)}\n`,
  json: (rec) => JSON.stringify({ class: rec.class, key: rec.key, targetKey: rec.targetKey, source: pairSide(rec.source), target: pairSide(rec.target) }) + '\n',
};

module.exports = { comparisonReport, pairLine, classTable };
