'use strict';
// The report of a summary (summarize's result) in every format: text for a terminal, the
// JSON scripts read, Markdown for tickets and wikis, and one self-contained HTML page.
const { summaryText } = require('./summary-text');
const { summaryMarkdown } = require('./summary-markdown');
const { summaryHtml } = require('./summary-html');

/** options: human (text: sizes in units only); command (the command line to show) and generatedAt (Markdown and HTML). */
function summaryReport(res, options = {}) {
  return {
    text: () => summaryText(res, { human: Boolean(options.human) }),
    json: () => JSON.stringify({
      source: res.source, complete: res.complete, ...res.summary, metadataScan: res.metadataScan, stats: res.stats, startedAt: res.startedAt, elapsedMs: res.elapsedMs,
    }, null, 2) + '\n',
    markdown: () => summaryMarkdown(res, options),
    html: () => summaryHtml(res, options),
  };
}

module.exports = { summaryReport };
