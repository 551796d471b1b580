'use strict';
// The report of a comparison (compare's result), and the line of one pair for --show.
const { escapeKey, humanBytes, table } = require('./format');
const { fmtInt } = require('../progress');

// One row per class, in the result's order (compare's precedence).
function classTable(classes) {
  const rows = [['class', 'objects', 'bytes', 'size']];
  for (const [c, t] of Object.entries(classes)) rows.push([c, fmtInt(t.objects), fmtInt(t.bytes), humanBytes(t.bytes)]);
  return table(rows, ['l', 'r', 'r', 'r']) + '\n';
}

function comparisonReport(r) {
  return {
    text: () => classTable(r.classes) + (r.identical ? 'identical\n' : 'different\n'),
    json: () => JSON.stringify({ source: r.source, target: r.target, identical: r.identical, method: r.method, classes: r.classes, complete: r.complete, unmappable: r.unmappable, stats: r.stats }, null, 2) + '\n',
  };
}

const pairSide = (i) => (i ? { Size: i.Size, ETag: i.ETag === undefined ? null : i.ETag, LastModified: i.LastModified ? new Date(i.LastModified).toISOString() : null } : null);

const pairLine = {
  text: (rec) => `${rec.class}\t${escapeKey(rec.key === null ? rec.targetKey : rec.key)}\n`,
  json: (rec) => JSON.stringify({ class: rec.class, key: rec.key, targetKey: rec.targetKey, source: pairSide(rec.source), target: pairSide(rec.target) }) + '\n',
};

module.exports = { comparisonReport, pairLine, classTable };
