'use strict';
// Results of every shape the reports render, with awkward keys (control characters, unicode).
const t = (objects, bytes) => ({ objects, bytes });
const stats = { listRequests: 12, folderListings: 1, pages: 12, keysReturned: 11000, keysUnique: 10990, overlap: 10, efficiency: 0.9166, meanInflight: 3.25, maxInflight: 8, splits: 4, hedges: 0, hints: 2, retries: 1, fallback: null, estimatedCostUSD: 0.00006 };
const summary = {
  source: 's3://bkt/logs/', complete: true, stats,
  summary: {
    objects: 3, bytes: 5 * 1024 * 1024 + 12, minSize: 0, meanSize: 1747630.67, maxSize: 5 * 1024 * 1024, depth: 1,
    oldest: { key: 'logs/a\nb.txt', lastModified: '2024-01-02T03:04:05.678Z' }, newest: { key: 'logs/zé.gz', lastModified: '2025-06-07T08:09:10.000Z' },
    histogram: [{ min: 0, max: 0, objects: 1, bytes: 0 }, { min: 1, max: 1023, objects: 1, bytes: 12 }, { min: 4 * 1024 * 1024, max: null, objects: 1, bytes: 5 * 1024 * 1024 }],
    storageClasses: [{ name: 'STANDARD', objects: 2, bytes: 12 }, { name: 'GLACIER', objects: 1, bytes: 5 * 1024 * 1024 }],
    folders: [{ name: 'logs/', objects: 3, bytes: 5 * 1024 * 1024 + 12 }],
    extensions: [{ name: '.gz', objects: 1, bytes: 5 * 1024 * 1024 }, { name: '(none)', objects: 2, bytes: 12 }],
    approximate: true,
  },
};
const classes = { 'only-source': t(2, 2048), 'only-target': t(1, 1), 'size-differs': t(0, 0), 'content-differs': t(1, 5), older: t(0, 0), unknown: t(3, 3 * 1024 * 1024 * 1024), same: t(1234567, 9876543210) };
const comparison = { source: 's3://a/x/', target: './y', identical: false, method: 'merge', methodNote: 'n', classes, complete: true, unmappable: [{ key: 'k', reason: 'r' }], stats };
const cp = { source: 's3://a/', target: 's3://b/', dryrun: false, complete: false, interrupted: false, journal: null,
  copied: t(10, 10240), failed: t(1, 5), changed: t(0, 0), skipped: t(2, 7), vanished: t(1, 1), failures: [{ key: 'f', targetKey: 'f', status: 'failed', reason: 'x' }],
  concurrencyTrace: { copy: [], largeCopy: [] }, collisions: 1, ok: false, stats };
const cpDry = { ...cp, dryrun: true, planned: t(5, 123456789), complete: true, collisions: 0 };
const sync = { source: './s', target: 's3://b/', method: 'merge', dryrun: false, classes, copied: t(3, 3000), failed: t(0, 0), changed: t(1, 2), skipped: t(0, 0), vanished: t(0, 0),
  failures: [], concurrencyTrace: { copy: [], largeCopy: [] }, deleted: t(4, 4000), deleteRefused: 'some copies failed: nothing was deleted', unmappable: [], complete: true, interrupted: false, journal: null, ok: false, stats };
const syncDry = { ...sync, dryrun: true, planned: t(3, 3000), deleteRefused: null, changed: t(0, 0) };
const pairs = [
  { class: 'only-source', key: 'a\tb', targetKey: 'x/a\tb', source: { Size: 1, ETag: '"e"', LastModified: new Date('2024-01-01T00:00:00Z') }, target: null },
  { class: 'only-target', key: null, targetKey: 'x/z', source: null, target: { Size: 2, LastModified: null } },
];
const buckets = [{ Name: 'b1', CreationDate: new Date('2020-02-03T04:05:06.789Z') }, { Name: 'b2', CreationDate: null }];
module.exports = { summary, comparison, cp, cpDry, sync, syncDry, pairs, buckets, stats };
