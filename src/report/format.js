'use strict';
// Text renderings shared by the reports: keys escaped for a terminal, sizes, dates, tables.
const chalk = require('chalk');
const { fmtInt } = require('../progress');

// Control characters would corrupt a terminal or a line-based pipe: show them as \xNN.
function escapeKey(key) {
  return /[\x00-\x1f\x7f]/.test(key) ? key.replace(/[\x00-\x1f\x7f]/g, (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0')) : key;
}

// A page of keys, one per line, escaped like escapeKey: joined natively and checked once,
// since control characters are rare (a key with a newline shows as one line too many).
function keyLines(page) {
  if (page.length === 0) return '';
  const keys = new Array(page.length);
  for (let i = 0; i < page.length; i++) keys[i] = page[i].Key;
  const text = keys.join('\n') + '\n';
  if (!/[\x00-\x09\x0b-\x1f\x7f]/.test(text)) {
    let lines = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    if (lines === keys.length) return text;
  }
  return keys.map(escapeKey).join('\n') + '\n';
}

// A chunk of listed entries (stores/chunks.js) as keyLines prints it: straight from the
// columns when no key needs escaping.
function chunkLines(chunk) {
  const text = chunk.text();
  return text !== null ? text : keyLines(chunk.toItems());
}

function humanBytes(n) {
  if (n === null || n === undefined) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let u = 0, v = n;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return u === 0 ? `${v} B` : `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)} ${units[u]}`;
}

function isoDate(d) {
  return d ? new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z') : '-';
}

function itemJson(it) {
  return JSON.stringify({
    Key: it.Key,
    Size: it.Size,
    LastModified: it.LastModified ? new Date(it.LastModified).toISOString() : null,
    ETag: it.ETag === undefined ? null : it.ETag,
    StorageClass: it.StorageClass === undefined ? null : it.StorageClass,
  });
}

function itemLong(it) {
  return `${isoDate(it.LastModified)}  ${String(it.Size).padStart(14)}  ${escapeKey(it.Key)}`;
}

// ls --long --human-readable: the size in units.
function itemLongHuman(it) {
  return `${isoDate(it.LastModified)}  ${humanBytes(it.Size).padStart(10)}  ${escapeKey(it.Key)}`;
}

function table(rows, aligns) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => stripAnsi(String(r[c])).length)));
  return rows.map((r) => r.map((cell, c) => {
    const s = String(cell), pad = widths[c] - stripAnsi(s).length;
    return aligns[c] === 'r' ? ' '.repeat(pad) + s : s + ' '.repeat(pad);
  }).join('  ').trimEnd()).join('\n');
}

function stripAnsi(s) { return s.replace(/\x1b\[[0-9;]*m/g, ''); }

function pct(part, whole) { return whole ? `${((100 * part) / whole).toFixed(1)}%` : '-'; }

// "copied      12,345 objects   1.50 GiB": a line of the cp and sync reports.
function tallyLine(label, t, width = 11) {
  return `${label.padEnd(width)}${fmtInt(t.objects).padStart(12)} objects ${humanBytes(t.bytes).padStart(11)}`;
}

function statsText(stats) {
  const eff = stats.efficiency === null ? '-' : stats.efficiency.toFixed(3);
  return `list requests ${fmtInt(stats.listRequests)} (${fmtInt(stats.folderListings)} folder listings), pages ${fmtInt(stats.pages)}, ` +
    `keys returned ${fmtInt(stats.keysReturned)}, unique ${fmtInt(stats.keysUnique)}, overlap ${fmtInt(stats.overlap)}, efficiency ${eff}, ` +
    `in flight mean ${stats.meanInflight.toFixed(1)} max ${stats.maxInflight}, splits ${stats.splits}, hedges ${stats.hedges}` +
    `${stats.hints ? `, hints ${stats.hints}` : ''}${stats.retries ? `, retries ${stats.retries}` : ''}` +
    `${stats.fallback ? `, fallback ${stats.fallback}` : ''}, est. cost $${stats.estimatedCostUSD.toFixed(4)}`;
}

module.exports = {
  keyLines, chunkLines, escapeKey, humanBytes, isoDate, itemJson, itemLong, itemLongHuman, statsText, table, tallyLine, pct,
};
