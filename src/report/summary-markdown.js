'use strict';
// The Markdown report of a summary: the figures as one table, then every section.
const { humanBytes, isoDate } = require('./format');
const { summarySections, headline } = require('./summary-model');
const { cellText } = require('./cells');
const { mdEscape, mdTable, mdSection, mdCode } = require('./markdown');

const MD_FOLDERS = 50;

/** options: command (the command line shown), generatedAt (Date or ISO text). */
function summaryMarkdown(res, { command, generatedAt } = {}) {
  let out = `# Bucket report: ${mdEscape(res.source)}\n\n`;
  const made = isoDate(generatedAt || new Date());
  out += `Made ${made}${command ? ` by ${mdCode(command)}` : ''}.` +
    `${res.complete === false ? ' **The listing is incomplete: it stopped early (--max-list-requests).**' : ''}\n\n`;
  const figures = headline(res);
  out += mdTable([['figure', 'l'], ['value', 'r']], figures.map((f) => [{ v: f.label, t: 'text' }, { v: f.v, t: f.t }]));
  out += '\n';
  for (const sec of summarySections(res, { folders: MD_FOLDERS, humanBytes })) out += mdSection(sec);
  if (res.stats) {
    out += `_${mdEscape(`${cellText({ v: res.stats.listRequests, t: 'int' })} list requests (efficiency ${res.stats.efficiency === null ? '-' : res.stats.efficiency.toFixed(2)}), estimated request cost ${cellText({ v: res.stats.estimatedCostUSD, t: 'usd' })}`)}_\n`;
  }
  return out;
}

module.exports = { summaryMarkdown };
