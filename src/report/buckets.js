'use strict';
// The report of listBuckets: one line per bucket.
const { isoDate } = require('./format');

function bucketsReport(buckets) {
  const lines = (fn) => buckets.map(fn).join('\n') + (buckets.length ? '\n' : '');
  return {
    text: () => lines((b) => `${isoDate(b.CreationDate)}  ${b.Name}`),
    json: () => lines((b) => JSON.stringify({ Name: b.Name, CreationDate: b.CreationDate ? b.CreationDate.toISOString() : null })),
  };
}

module.exports = { bucketsReport };
