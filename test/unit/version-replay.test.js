'use strict';
// cp --all-versions with in-memory stores: every key's history replayed onto the target in
// order (oldest first; delete markers as deletes), keys side by side, and a version that
// fails stops its key, never leaving a history with a hole.
const { copy } = require('../../src/stages/copy');
const { FakeVersionStore } = require('../helpers/fake-version-store');

function source(layout, opts) {
  const s = new FakeVersionStore(layout, { maxKeys: 7, ...opts });
  s.bucket = 'src';
  s.onThrottle = () => {};
  return s;
}

// A target that records, per key, what was done to it in the order it was done.
function target({ failOn = () => false } = {}) {
  const t = { type: 's3', bucket: 'dst', ops: new Map(), inflight: 0, max: 0 };
  const rec = (key, op) => { if (!t.ops.has(key)) t.ops.set(key, []); t.ops.get(key).push(op); };
  const slow = () => new Promise((r) => setTimeout(r, Math.floor(Math.random() * 3)));
  t.open = async () => {};
  t.destroy = () => {};
  t.onThrottle = () => {};
  t.copyObject = async (p) => {
    t.inflight++;
    t.max = Math.max(t.max, t.inflight);
    try {
      await slow();
      const vid = decodeURIComponent(p.CopySource.split('?versionId=')[1]);
      if (failOn(p.Key, vid)) throw Object.assign(new Error('AccessDenied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
      rec(p.Key, vid);
      return '"etag"';
    } finally { t.inflight--; }
  };
  t.deleteObject = async (key) => { await slow(); rec(key, 'delete'); return { deleteMarker: true }; };
  return t;
}

// What the target must have seen for each key: its versions oldest first.
function histories(store) {
  const h = new Map();
  for (const e of store.entries) {
    if (!h.has(e.Key)) h.set(e.Key, []);
    h.get(e.Key).unshift(e.DeleteMarker ? 'delete' : e.VersionId);
  }
  return h;
}

const layout = Array.from({ length: 300 }, (_, i) => [`k${String(i).padStart(4, '0')}`, 1 + (i % 6), i % 4 === 0 ? [0] : i % 7 === 0 ? [2] : []]);

test('every key gets its versions oldest first, delete markers as deletes, keys side by side', async () => {
  const src = source([...layout, ['big', 1200]]);
  const dst = target();
  const r = await copy({ store: src, targetStore: dst, source: 's3://src', target: 's3://dst', allVersions: true, journal: false, copyConcurrency: 16 });
  expect(r.ok).toBe(true);
  expect(dst.ops).toEqual(histories(src));
  const markers = src.entries.filter((e) => e.DeleteMarker).length;
  expect(r.deleteMarkers.objects).toBe(markers);
  expect(r.copied.objects).toBe(src.entries.length - markers);
  expect(dst.max).toBeGreaterThan(1); // keys run side by side
});

test('a version that fails stops its key: the newer versions are reported, not copied', async () => {
  const src = source(layout);
  const bad = src.entries.find((e) => e.Key === 'k0005' && !e.IsLatest && !e.DeleteMarker);
  const dst = target({ failOn: (key, vid) => key === 'k0005' && vid === bad.VersionId });
  const r = await copy({ store: src, targetStore: dst, source: 's3://src', target: 's3://dst', allVersions: true, journal: false });
  expect(r.ok).toBe(false);
  const want = histories(src);
  const k5 = want.get('k0005');
  const at = k5.indexOf(bad.VersionId);
  expect(dst.ops.get('k0005') || []).toEqual(k5.slice(0, at)); // the older versions only
  for (const [key, ops] of want) if (key !== 'k0005') expect(dst.ops.get(key)).toEqual(ops);
  const named = r.failures.filter((f) => f.key === 'k0005');
  expect(named).toHaveLength(k5.length - at);
  expect(named.some((f) => /older version/.test(f.reason))).toBe(k5.length - at > 1);
});

test('--dryrun changes nothing and plans every version and delete marker', async () => {
  const src = source(layout);
  const dst = target();
  const planned = [];
  const r = await copy({ store: src, targetStore: dst, source: 's3://src', target: 's3://dst', allVersions: true, dryrun: true, onObject: (o) => planned.push(o) });
  expect(dst.ops.size).toBe(0);
  expect(planned).toHaveLength(src.entries.length);
  expect(planned.filter((o) => o.deleteMarker)).toHaveLength(r.deleteMarkers.objects);
});
