'use strict';
// Every rendering of the library's results, each a report with text() and json(): the CLI
// picks the format once, and library users can print results the way the CLI does.
const { summaryReport } = require('./summary');
const { comparisonReport, pairLine } = require('./comparison');
const { copyReport, plannedLine, plannedDeleteLine, problemLine } = require('./copy');
const { bucketsReport } = require('./buckets');
const format = require('./format');

module.exports = {
  summary: summaryReport,
  comparison: comparisonReport,
  copy: copyReport,
  buckets: bucketsReport,
  pairLine, plannedLine, plannedDeleteLine, problemLine,
  format,
};
