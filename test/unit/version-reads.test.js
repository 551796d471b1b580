'use strict';
// Reads of an old version (--as-of, --version-id) name that version in every request: the
// lean GETs and HEADs, downloads whole and ranged, and a second try at a changed object; and
// the version of one key at a moment (version-at.js) against a reference written here.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { LeanObjects } = require('../../src/stores/lean-objects');
const { download } = require('../../src/transfer/download');
const { Copier } = require('../../src/transfer/copier');
const { findVersionAt, noObjectAt } = require('../../src/list/version-at');
const { RequestStats } = require('../../src/stats');
const { FakeVersionStore } = require('../helpers/fake-version-store');
const { prng } = require('../helpers/keysets');

// A LeanRequests that records each request and answers 200 with no body.
function recordingLean() {
  const seen = [];
  return {
    seen,
    request: async (method, key, query, headers) => { seen.push({ method, key, query, headers }); return { headers: { etag: '"e"', 'content-length': '0' }, body: Buffer.alloc(0), bytes: 0 }; },
  };
}

describe('the lean path names the version', () => {
  test.each([
    ['getToFile', (o, p) => o.getToFile(p, { tmp: 'x', final: 'y', length: 0 })],
    ['getObject', (o, p) => o.getObject(p)],
    ['headObject', (o, p) => o.headObject(p)],
    ['headObject of part 1', (o, p) => o.headObject({ ...p, PartNumber: 1 })],
  ])('%s sends versionId with the If-Match and Range it was given', async (name, call) => {
    const lean = recordingLean();
    await call(new LeanObjects(lean), { Key: 'k', VersionId: 'v 1/+', IfMatch: '"abc"', Range: 'bytes=0-9' });
    const [req] = lean.seen;
    expect(req.query).toContainEqual(['versionId', 'v 1/+']);
    expect(req.headers['if-match']).toBe('"abc"');
    // Without a version, no versionId: the current object.
    const plain = recordingLean();
    await call(new LeanObjects(plain), { Key: 'k' });
    expect(plain.seen[0].query.some(([n]) => n === 'versionId')).toBe(false);
  });
});

describe('download', () => {
  let dir;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-dl-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const job = (item, asked, heads) => ({
    item, key: item.Key, dst: { root: dir }, stats: new RequestStats(), partConcurrency: 2, largeCopyThreshold: 10, partSize: undefined,
    src: {
      getObjectToFile: async (p, file) => { asked.push(p); if (file.final) fs.writeFileSync(file.final, ''); return { bytes: file.length }; },
      headObject: async (p) => { heads.push(p); return {}; }, // the stored checksum of a ranged download: none here
    },
  });

  test('a whole GET, every ranged GET and the HEAD for the stored checksum name the listed version and ETag', async () => {
    const asked = [], heads = [];
    await download(job({ Key: 'small', Size: 5, ETag: '"s"', VersionId: 'old-1' }, asked, heads));
    await download(job({ Key: 'big', Size: 20 * 1024 * 1024, ETag: '"b-2"', VersionId: 'old-2' }, asked, heads));
    expect(asked.length).toBe(3); // one whole, two 16 MiB ranges
    expect(asked.map((p) => [p.Key, p.VersionId, p.IfMatch])).toEqual([['small', 'old-1', '"s"'], ['big', 'old-2', '"b-2"'], ['big', 'old-2', '"b-2"']]);
    expect(heads).toEqual([{ Key: 'big', VersionId: 'old-2', IfMatch: '"b-2"', ChecksumMode: 'ENABLED' }]);
    expect(asked.slice(1).map((p) => p.Range)).toEqual(['bytes=0-16777215', `bytes=16777216-${20 * 1024 * 1024 - 1}`]);
  });
});

describe('a second try at a changed object', () => {
  const currentVersion = (src, item) => Copier.prototype.currentVersion.call({ src, signal: undefined, stats: new RequestStats(), listedVersion: Copier.prototype.listedVersion }, item);

  test('an item listed by version is that version again (HEAD with versionId), never today\'s object', async () => {
    const heads = [];
    const src = {
      stat: async () => { throw new Error('today\'s object must not be asked for'); },
      headObject: async (p) => { heads.push(p); return { ContentLength: 3, ETag: '"then"' }; },
    };
    const again = await currentVersion(src, { Key: 'k', Size: 3, ETag: '"then"', VersionId: 'v0' });
    expect(heads).toEqual([{ Key: 'k', VersionId: 'v0' }]);
    expect(again).toMatchObject({ Key: 'k', VersionId: 'v0', ETag: '"then"' });
  });

  test('a version deleted since it was listed is gone (null), not replaced by today\'s', async () => {
    const src = { stat: async () => ({ Key: 'k', Size: 9, ETag: '"now"' }), headObject: async () => { throw Object.assign(new Error('nope'), { name: 'NoSuchVersion', $metadata: { httpStatusCode: 404 } }); } };
    expect(await currentVersion(src, { Key: 'k', Size: 3, ETag: '"then"', VersionId: 'v0' })).toBe(null);
  });

  test('an item of a plain listing is today\'s object', async () => {
    const src = { stat: async () => ({ Key: 'k', Size: 9, ETag: '"now"', StorageClass: 'STANDARD' }) };
    expect(await currentVersion(src, { Key: 'k', Size: 3, ETag: '"then"' })).toMatchObject({ Size: 9, ETag: '"now"' });
  });
});

describe('findVersionAt', () => {
  // The rule written again: the first entry of the key, in the store's order, stamped at or
  // before t; a delete marker there means nothing; none at all, nothing either.
  function reference(entries, key, t) {
    const own = entries.filter((e) => e.Key === key);
    const first = own.find((e) => +e.LastModified <= t);
    if (!first) return { none: true, later: own.length };
    return first.DeleteMarker ? { deleteMarker: first.VersionId } : { item: first.VersionId };
  }
  const brief = (r) => (r.item ? { item: r.item.VersionId } : r.deleteMarker ? { deleteMarker: r.deleteMarker.VersionId } : r);

  const SEED = 27;
  test(`every key of a generated layout at every moment, pages cut inside a key's versions (seed ${SEED})`, async () => {
    const r = prng(SEED);
    // Keys that start with others (k, k1, k/x, k-a), so the key's own entries must be told apart.
    const keys = ['k', 'k-a', 'k/x', 'k1', 'k10', 'kz', 'x', 'ü', '😀'];
    const layout = keys.map((k) => {
      const n = 1 + r.int(7);
      const markers = Array.from({ length: n }, (_, j) => j).filter(() => r.next() < 0.3);
      return [k, n, markers];
    });
    for (const maxKeys of [1, 2, 3, 1000]) {
      const store = new FakeVersionStore(layout, { maxKeys, seed: SEED, jitter: false });
      const times = [...new Set(store.entries.map((e) => +e.LastModified))];
      const moments = [Math.min(...times) - 1, ...times, Math.max(...times) + 1, ...times.map((t) => t + 500)];
      for (const key of keys) {
        for (const t of moments) {
          const stats = new RequestStats();
          const got = await findVersionAt(store, key, t, { stats });
          expect([key, t, maxKeys, brief(got)]).toEqual([key, t, maxKeys, reference(store.entries, key, t)]);
          expect(stats.listRequests).toBeGreaterThan(0);
        }
      }
    }
  });

  test('a key with no versions at all, and the reasons given', async () => {
    const store = new FakeVersionStore([['a', 2, [0]], ['ab', 1]], { maxKeys: 1, jitter: false });
    expect(await findVersionAt(store, 'a/', Date.now())).toEqual({ none: true, later: 0 });
    expect(await findVersionAt(store, 'zzz', Date.now())).toEqual({ none: true, later: 0 });
    const marker = await findVersionAt(store, 'a', Date.now());
    expect(noObjectAt(marker, 'T')).toMatch(/no such object at T \(a delete marker was its newest version then\)/);
    expect(noObjectAt(await findVersionAt(store, 'a', 0), 'T')).toMatch(/no such object at T \(its 2 versions are later\)/);
  });

  test('a store that repeats the last version, or answers empty truncated pages forever, is a fatal error', async () => {
    const v = { Key: 'k', VersionId: 'v', LastModified: new Date(2e12), DeleteMarker: false };
    const repeating = { listVersionsPage: async () => ({ entries: [v], truncated: true }) };
    await expect(findVersionAt(repeating, 'k', 0)).rejects.toThrow(/with that version again/);
    const empty = { listVersionsPage: async () => ({ entries: [], truncated: true }) };
    await expect(findVersionAt(empty, 'k', 0)).rejects.toThrow(/empty pages/);
  });
});
