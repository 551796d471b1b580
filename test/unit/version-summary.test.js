'use strict';
// summarize --all-versions: current against noncurrent, delete markers, deleted keys, and
// noncurrent bytes by how long they have been noncurrent.
const { VersionSummary } = require('../../src/stages/version-summary');
const { Summary } = require('../../src/stages/summary');
const { ItemChunk } = require('../../src/stores/chunks');
const { VersionChunk } = require('../../src/stores/version-chunk');

const DAY = 86400000;
const NOW = Date.parse('2024-06-01T00:00:00Z');
const ver = (Key, VersionId, IsLatest, DeleteMarker, Size, daysAgo) => ({ Key, VersionId, IsLatest, DeleteMarker, Size, LastModified: new Date(NOW - daysAgo * DAY), StorageClass: DeleteMarker ? undefined : 'STANDARD' });

test('figures of a small history', () => {
  // a: current 10 B; noncurrent since 0.5 days (5 B) and since 3 days (7 B).
  // b: deleted 40 days ago (latest is a delete marker); its object noncurrent since then (100 B).
  // c: a delete marker that is not the latest; the object before it noncurrent for 400 days.
  const chunk = VersionChunk.of([
    ver('a', 'a3', true, false, 10, 0.5), ver('a', 'a2', false, false, 5, 3), ver('a', 'a1', false, false, 7, 9),
    ver('b', 'b2', true, true, 0, 40), ver('b', 'b1', false, false, 100, 50),
    ver('c', 'c3', true, false, 1, 2), ver('c', 'c2', false, true, 0, 400), ver('c', 'c1', false, false, 1000, 500),
  ]);
  const s = new VersionSummary({ now: NOW });
  for (const it of chunk.toItems()) s.add(it);
  const j = s.toJSON();
  expect(j).toMatchObject({ keys: 3, current: { objects: 2, bytes: 11 }, noncurrent: { objects: 4, bytes: 1112 }, deleteMarkers: 2, keysDeleted: 1 });
  const band = (min) => j.noncurrentByAge.find((b) => b.minDays === min);
  expect(band(0)).toMatchObject({ objects: 1, bytes: 5 });
  expect(band(1)).toMatchObject({ objects: 1, bytes: 7 });
  expect(band(30)).toMatchObject({ objects: 1, bytes: 100 });
  expect(band(365)).toMatchObject({ objects: 1, bytes: 1000 });
  expect(j.noncurrentOlderThan.find((o) => o.days === 30)).toEqual({ days: 30, objects: 2, bytes: 1100 });
  expect(j.noncurrentOlderThan.find((o) => o.days === 1)).toEqual({ days: 1, objects: 3, bytes: 1107 });
  // In a summary: every version with bytes counts; delete markers do not.
  const sum = new Summary({ versions: true });
  sum.versions.now = NOW;
  sum.addChunk(new ItemChunk(chunk.toItems()));
  expect(sum.toJSON()).toMatchObject({ objects: 6, bytes: 1123, versions: { deleteMarkers: 2 } });
});
