'use strict';
// The report of a summary (summarize's result).
const { summaryText } = require('./format');

function summaryReport(res) {
  return {
    text: () => summaryText(res),
    json: () => JSON.stringify({ source: res.source, complete: res.complete, ...res.summary, metadataScan: res.metadataScan, stats: res.stats }, null, 2) + '\n',
  };
}

module.exports = { summaryReport };
