'use strict';
// Every option of the library and the CLI: its default, its validator and its one name.
const { UsageError } = require('./errors');

function positiveInt(value, name, { allowZero = false } = {}) {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1) || String(value).trim() === '') {
    throw new UsageError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} whole number, not ${JSON.stringify(String(value))}`);
  }
  return n;
}

module.exports = { positiveInt };
