'use strict';
// Probe objects (stores/conditional-probe.js) are written for a moment into the user's bucket
// by a run that tests whether the server honours conditional requests. Every other run that
// lists the same prefix meanwhile must leave them out: a shard of sync --delete once saw
// another shard's probe as an extra object, deleted it and counted it against --max-delete.
const { Listing } = require('../../src/list/listing');
const { ItemChunk, ColumnChunk } = require('../../src/stores/chunks');
const { VersionChunk } = require('../../src/stores/version-chunk');
const { parseListColumns } = require('../../src/stores/list-parser');
const { probeKey, isProbeKey, PROBE_MARK } = require('../../src/stores/conditional-probe');
const { FakeListStore, expectListing, utf8Sort } = require('../helpers/fake-list-store');
const { generateLayout } = require('../generators/layouts');
const { prng } = require('../generators/prng');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`probe-keys seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

test('a probe key is recognised wherever the run put it; names that only look alike are users\' keys', () => {
  for (const prefix of ['', 'logs/', 'logs/2024', 'é/ü/']) {
    const key = probeKey(prefix);
    expect(key.startsWith(prefix)).toBe(true);
    expect(isProbeKey(key)).toBe(true);
  }
  for (const key of ['.s3blitz-probe-', '.s3blitz-probe-0123', `.s3blitz-probe-${'g'.repeat(16)}`, `a/.s3blitz-probe-${'0'.repeat(16)}/b`, `.s3blitz-probe-${'0'.repeat(16)}.txt`, `.s3blitz-probe-${'A'.repeat(16)}`]) {
    expect(isProbeKey(key)).toBe(false);
  }
});

const encode = (k) => Array.from(k).map((c) => (/[A-Za-z0-9\-_./]/.test(c) ? c : encodeURIComponent(c))).join('');
const xml = (keys) => `<?xml version="1.0"?><ListBucketResult><EncodingType>url</EncodingType>${keys.map((k) => `<Contents><Key>${encode(k)}</Key><Size>1</Size></Contents>`).join('')}<IsTruncated>false</IsTruncated></ListBucketResult>`;

test(`keysInclude agrees with a search of each key on every slice of every kind of chunk (seed ${SEED})`, () => {
  const r = prng(SEED);
  for (let round = 0; round < 12; round++) {
    const keys = [...new Set(generateLayout(SEED + round, 24).keys)];
    // The mark at the start, the end, inside, and split over two neighbouring keys.
    const at = r.int(keys.length);
    const how = r.int(4);
    if (how === 0) keys[at] = PROBE_MARK + keys[at];
    else if (how === 1) keys[at] = keys[at] + PROBE_MARK;
    else if (how === 2) { const cs = Array.from(keys[at]); keys[at] = cs[0] + PROBE_MARK + cs.slice(1).join(''); } // after the first character, never inside a surrogate pair
    else if (at + 1 < keys.length) { keys[at] += PROBE_MARK.slice(0, 7); keys[at + 1] = PROBE_MARK.slice(7) + keys[at + 1]; }
    const columns = new ColumnChunk(parseListColumns(xml(keys)).columns);
    const items = new ItemChunk(keys.map((Key) => ({ Key })));
    const versions = VersionChunk.of(keys.map((Key) => ({ Key, VersionId: 'v' })));
    expect(Array.from({ length: columns.length }, (_, i) => columns.key(i))).toEqual(keys);
    for (let a = 0; a <= keys.length; a++) {
      for (let b = a; b <= keys.length; b++) {
        const want = keys.slice(a, b).some((k) => k.includes(PROBE_MARK));
        for (const c of [columns, items, versions]) expect([a, b, c.slice(a, b).keysInclude(PROBE_MARK)]).toEqual([a, b, want]);
      }
    }
  }
});

// A bucket of drawn keys with probes of other runs at drawn places.
function bucketWithProbes(seed) {
  const r = prng(seed);
  const keys = [...new Set(generateLayout(seed, 5000).keys)];
  const folders = [...new Set(keys.map((k) => k.slice(0, k.lastIndexOf('/') + 1)))];
  const probes = Array.from({ length: 1 + r.int(4) }, () => probeKey(r.pick(folders)));
  // A user's keys that only look like probes are kept.
  const lookalikes = [`${r.pick(folders)}.s3blitz-probe-notes.txt`, `${r.pick(folders)}.s3blitz-probe-${'a'.repeat(15)}`];
  return { users: [...keys, ...lookalikes], probes };
}

async function list(store, options) {
  Object.assign(store, { open: async () => {}, destroy: () => {} });
  const lines = [];
  const listing = new Listing({ store, listConcurrency: 20, log: (l) => lines.push(l), ...options });
  const keys = [];
  for await (const chunk of listing.chunks()) for (let i = 0; i < chunk.length; i++) keys.push(chunk.key(i));
  listing.close();
  return { keys, lines, stats: listing.stats };
}

test.each([true, false])(`a listing leaves out other runs' probe objects and names each (ordered: %s, seed ${SEED})`, async (ordered) => {
  for (let s = 0; s < 3; s++) {
    const { users, probes } = bucketWithProbes(SEED + 10 * s);
    const store = new FakeListStore([...users, ...probes], { seed: SEED + s, shortPageRate: 0.2 });
    const got = await list(store, { unordered: !ordered });
    expectListing(got.keys, utf8Sort(users).map((row) => row[1]), ordered);
    expect(got.stats.probesSkipped).toBe(probes.length);
    expect(got.stats.toJSON().probesSkipped).toBe(probes.length);
    for (const p of probes) expect(got.lines.filter((l) => l.includes(JSON.stringify(p)))).toHaveLength(1);
  }
});

test('a probe named alone is listed, so one left behind can be removed', async () => {
  const key = probeKey('logs/');
  const store = new FakeListStore(['logs/a', key, 'logs/z']);
  const got = await list(store, { storeLocation: { prefix: key, single: key, base: 'logs/', text: `s3://b/${key}` } });
  expect(got.keys).toEqual([key]);
  expect(got.stats.probesSkipped).toBe(0);
});
