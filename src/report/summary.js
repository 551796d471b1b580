'use strict';
// The report of a summary (summarize's result).
const { summaryText } = require('./format');

function summaryReport(res, { human = false } = {}) {
  return {
    text: () => summaryText(res, { human }),
    json: () => JSON.stringify({ source: res.source, complete: res.complete, ...res.summary, stats: res.stats }, null, 2) + '\n',
  };
}

module.exports = { summaryReport };
