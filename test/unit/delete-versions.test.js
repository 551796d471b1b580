'use strict';
// Deleting versions: 1000 per request, several at once, every version accounted for, and
// nothing deleted past --max-delete or in a dry run.
const { deleteVersions } = require('../../src/stages/delete-versions');
const { SafetyError } = require('../../src/errors');

function store({ fail = () => false } = {}) {
  const s = { batches: [], inflight: 0, max: 0, deleted: [] };
  s.deleteVersions = async (batch) => {
    s.inflight++;
    s.max = Math.max(s.max, s.inflight);
    await new Promise((r) => setTimeout(r, batch.length % 3));
    s.inflight--;
    s.batches.push(batch.length);
    const errors = [];
    for (const v of batch) if (fail(v)) errors.push({ key: v.Key, versionId: v.VersionId, reason: 'AccessDenied' }); else s.deleted.push(`${v.Key}\0${v.VersionId}`);
    return errors;
  };
  return s;
}

const versions = (n) => Array.from({ length: n }, (_, i) => ({ Key: `k${i >> 2}`, VersionId: `v${i}`, Size: 10, DeleteMarker: i % 5 === 0 }));
async function* pagesOf(list, size = 333) { for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size); }

test.each([[1000, [1000]], [1001, [1000, 1]], [4500, [1000, 1000, 1000, 1000, 500]]])('%i versions: batches of at most 1000, all deleted once', async (n, batches) => {
  const s = store();
  const r = await deleteVersions(s, pagesOf(versions(n)));
  expect(s.batches.sort((a, b) => b - a)).toEqual(batches);
  expect(new Set(s.deleted).size).toBe(n);
  expect(r.deleted.objects + r.deleteMarkers.objects).toBe(n);
  expect(r.deleteMarkers.objects).toBe(Math.ceil(n / 5));
  expect(r.failed.objects).toBe(0);
});

test('requests run in parallel', async () => {
  const s = store();
  await deleteVersions(s, pagesOf(versions(20000)), { concurrency: 8 });
  expect(s.max).toBeGreaterThan(1);
  expect(s.max).toBeLessThanOrEqual(8);
});

test('over --max-delete: refused before anything is deleted (unless force); a dry run deletes nothing', async () => {
  const s = store();
  await expect(deleteVersions(s, pagesOf(versions(1001)), { maxDelete: 1000 })).rejects.toBeInstanceOf(SafetyError);
  expect(s.batches).toEqual([]);
  const planned = [];
  const dry = await deleteVersions(s, pagesOf(versions(1001)), { dryrun: true, onDelete: (ev) => planned.push(ev) });
  expect(s.batches).toEqual([]);
  expect(dry.planned.objects).toBe(1001);
  expect(planned.every((ev) => ev.dryrun)).toBe(true);
  const forced = await deleteVersions(s, pagesOf(versions(1001)), { maxDelete: 1000, force: true });
  expect(forced.deleted.objects + forced.deleteMarkers.objects).toBe(1001);
});

test('versions the store could not delete are counted and named', async () => {
  const s = store({ fail: (v) => v.VersionId === 'v7' || v.VersionId === 'v1500' });
  const r = await deleteVersions(s, pagesOf(versions(2000)));
  expect(r.failed.objects).toBe(2);
  expect(r.failures.map((f) => f.versionId).sort()).toEqual(['v1500', 'v7']);
  expect(r.deleted.objects + r.deleteMarkers.objects).toBe(1998);
});
