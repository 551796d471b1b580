'use strict';
// Markdown that renders as tables on GitHub and in the common wiki viewers (GFM pipe
// tables). Keys are data: every character Markdown or HTML would read is escaped, and
// control characters show as \xNN, so a key can never break a table or inject markup.
const { cellText } = require('./cells');
const { escapeKey } = require('./format');

function mdEscape(s) {
  return escapeKey(String(s)).replace(/&/g, '&amp;').replace(/[\\`*_[\]<>|~#!]/g, '\\$&');
}

// A pipe table: columns [[label, 'l' | 'r']], rows of typed cells.
function mdTable(columns, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const out = [line(columns.map(([label]) => mdEscape(label || ' '))), line(columns.map(([, a]) => (a === 'r' ? '---:' : ':---')))];
  for (const r of rows) out.push(line(r.map((c) => mdEscape(cellText(c)) || ' ')));
  return out.join('\n') + '\n';
}

function mdSection(sec, level = 2) {
  let out = `${'#'.repeat(level)} ${mdEscape(sec.title)}\n\n${mdTable(sec.columns, sec.rows)}`;
  if (sec.note) out += `\n_${mdEscape(sec.note)}_\n`;
  if (sec.examples && sec.examples.length) {
    out += '\n' + sec.examples.map((e) => `- ${mdEscape(cellText({ v: e.initiated, t: 'date' }))} ${mdEscape(e.key)}`).join('\n') + '\n';
  }
  return out + '\n';
}

// "made ... by `command`" (outside tables): a code span no backtick in the command can close.
function mdCode(s) {
  const text = escapeKey(String(s));
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) || []).map((x) => x.length)) + 1);
  return `${fence} ${text} ${fence}`;
}

module.exports = { mdEscape, mdTable, mdSection, mdCode };
