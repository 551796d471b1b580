'use strict';
// A typed cell of a report section ({v, t}: see summary-model.js) as plain text, the one
// formatting every rendering starts from; each then escapes it for its own medium.
const { humanBytes, isoDate, escapeKey } = require('./format');
const { fmtInt } = require('../progress');

function usdText(v) {
  if (v === null || v === undefined) return '-';
  if (v === 0) return '$0.00';
  if (v < 0.0001) return '<$0.0001';
  return v < 0.01 ? `$${v.toFixed(4)}` : `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

// Keys are shown escaped (control characters as \xNN) in every medium: they are data.
function cellText(c) {
  const { v, t } = c;
  if (v === null || v === undefined) return t === 'text' || t === 'key' ? '' : '-';
  switch (t) {
    case 'int': return fmtInt(v);
    case 'bytes': return humanBytes(v);
    case 'pct': return `${(100 * v).toFixed(1)}%`;
    case 'usd': return usdText(v);
    case 'date': return isoDate(v);
    case 'seconds': return `${v.toFixed(1)} s`;
    case 'key': return escapeKey(String(v));
    default: return escapeKey(String(v));
  }
}

// The value a table sorts this cell by: numbers as numbers, dates as times, text as text.
function cellSortValue(c) {
  const { v, t } = c;
  if (v === null || v === undefined) return '';
  return t === 'date' ? String(Date.parse(v)) : String(v);
}

module.exports = { cellText, cellSortValue, usdText };
