'use strict';
// Every rendering of the library's results, each a report with a method per format: the
// CLI picks the format once, and library users can print results the way the CLI does,
// either as report.summary(result).html() or as report(result, {format: 'html'}).
const { summaryReport } = require('./summary');
const { comparisonReport, pairLine } = require('./comparison');
const { copyReport, plannedLine, plannedDeleteLine, problemLine } = require('./copy');
const { bucketsReport } = require('./buckets');
const format = require('./format');
const { UsageError } = require('../errors');

const FORMATS = ['text', 'json', 'markdown', 'html'];

// Which report a result takes, from its shape.
function reportOf(result, options) {
  if (Array.isArray(result)) return ['a bucket list', bucketsReport(result, options)];
  if (result && result.summary && typeof result.summary === 'object') return ['a summary', summaryReport(result, options)];
  if (result && result.classes && typeof result.identical === 'boolean') return ['a comparison', comparisonReport(result, options)];
  if (result && result.copied) return ['a copy result', copyReport(result, options)];
  throw new UsageError('report: not a result of summarize, compare, copy, sync or listBuckets');
}

/**
 * The report of a result as text. options: format (text, json, markdown, html; default
 * text), and for Markdown and HTML command (the command line to show) and generatedAt.
 */
function report(result, options = {}) {
  const fmt = options.format || 'text';
  if (!FORMATS.includes(fmt)) throw new UsageError(`report: format must be one of ${FORMATS.join(', ')}, not ${JSON.stringify(fmt)}`);
  const [what, r] = reportOf(result, options);
  if (typeof r[fmt] !== 'function') throw new UsageError(`report: ${what} has no ${fmt} report (it has ${Object.keys(r).join(', ')})`);
  return r[fmt]();
}

module.exports = Object.assign(report, {
  summary: summaryReport,
  comparison: comparisonReport,
  copy: copyReport,
  buckets: bucketsReport,
  pairLine, plannedLine, plannedDeleteLine, problemLine,
  format,
  FORMATS,
});
