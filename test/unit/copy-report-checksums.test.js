'use strict';
// The text report of cp and sync says what stored checksums proved, only when a transfer
// checked one: confirmed objects, and those with nothing stored to check against.
const { copyReport } = require('../../src/report/copy');

const tally = (objects, bytes = 0) => ({ objects, bytes });
const base = { copied: tally(3, 300), failed: tally(0), changed: tally(0), skipped: tally(0), vanished: tally(0), complete: true };

test('cp: a line with the counts when transfers checked checksums, none otherwise', () => {
  expect(copyReport({ ...base, stats: { checksumsConfirmed: 2, checksumsUnconfirmed: 1 } }).text()).toMatch(/\nchecksums 2 confirmed, 1 with no stored checksum to check against\n$/);
  expect(copyReport({ ...base, stats: { checksumsConfirmed: 1200, checksumsUnconfirmed: 0 } }).text()).toMatch(/\nchecksums 1,200 confirmed\n$/);
  expect(copyReport({ ...base, stats: { requests: {} } }).text()).not.toMatch(/checksums/);
});

test('sync: the same line after the deletes', () => {
  const text = copyReport({ ...base, deleted: tally(1, 5), stats: { checksumsConfirmed: 3, checksumsUnconfirmed: 0 } }).text();
  expect(text.split('\n').filter(Boolean).pop()).toBe('checksums 3 confirmed');
});
