'use strict';
// A copy listed in lanes (plan/lanes.js): the cut covers the range exactly, every key is
// copied exactly once from lanes that run at the same time, a stopped run resumes each lane
// after its own watermark, and a throttled prefix slows only itself.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { FakeListStore } = require('../helpers/fake-list-store');
const { planLanes, lanesFromBounds } = require('../../src/plan/lanes');
const { normalizeRange } = require('../../src/keys/range');
const { compareKeys } = require('../../src/keys/order');
const { copy } = require('../../src/stages/copy');
const { Throttled } = require('../../src/stores/s3-errors');

// An in-memory bucket as the copier sees an S3 source.
class Bucket extends FakeListStore {
  constructor(keys, o) { super(keys, o); this.type = 's3'; this.bucket = 'src'; }
  async open() {}
  async stat(key) { return { Key: key, Size: key.length, ETag: '"x"', LastModified: new Date(0), StorageClass: 'STANDARD' }; }
  destroy() {}
}

// A target whose CopyObject records each key; throttle(key, inflight) may push back.
function target({ throttle } = {}) {
  const t = {
    type: 's3', bucket: 'dst', copies: [], inflight: new Map(),
    async open() {},
    destroy() {},
    async copyObject(params) {
      const prefix = params.Key.slice(0, params.Key.indexOf('/') + 1);
      const n = (t.inflight.get(prefix) || 0) + 1;
      t.inflight.set(prefix, n);
      try {
        await new Promise((r) => setImmediate(r));
        if (throttle && throttle(params.Key, n)) throw new Throttled(503, params.Key);
        t.copies.push(params.Key);
        return '"x"';
      } finally { t.inflight.set(prefix, t.inflight.get(prefix) - 1); }
    },
  };
  return t;
}

// Ten areas of numbered objects, with the keys that sit next to folder names in key order:
// a folder marker ("p03/"), a file named like the folder ("p03"), one that sorts just before
// its slash ("p03-x"), unicode, and loose files at the top.
function keysOf(perArea = 300) {
  const keys = ['README', 'z-last.txt', 'é-top'];
  for (let a = 0; a < 10; a++) {
    const p = `p${String(a).padStart(2, '0')}`;
    keys.push(`${p}/`, p, `${p}-x`, `${p}/ü-${a}`, `${p}/😀`);
    for (let i = 0; i < perArea; i++) keys.push(`${p}/d${Math.floor(i / 100)}/obj-${String(i).padStart(5, '0')}`);
  }
  return keys;
}

describe('planLanes', () => {
  const keys = keysOf(20);
  const covers = async (store, range) => {
    const lanes = await planLanes(store, range, { maxLanes: 4 });
    expect(lanes.length).toBe(4);
    // Each lane's keys, as a sequential walk of its range gives them, make up the range exactly.
    const got = [];
    for (const l of lanes) got.push(...store.expected({ prefix: range.prefix, startAfter: l.after, stopAt: l.stop }));
    expect(got).toEqual(store.expected({ prefix: range.prefix, startAfter: range.after, stopAt: range.stop }));
    for (let i = 1; i < lanes.length; i++) expect(lanes[i].after).toBe(lanes[i - 1].stop);
    return lanes;
  };

  test('cuts at top-level folders and covers the range exactly', async () => {
    const store = new Bucket(keys);
    const lanes = await covers(store, normalizeRange({}));
    expect(lanes.slice(1).map((l) => l.after)).toEqual(['p02/', 'p05/', 'p07/']);
  });

  test('within a range: only folders inside it cut it', async () => {
    await covers(new Bucket(keys), normalizeRange({ startAfter: 'p01/d0/obj-00005', stopAt: 'p08/d0/obj-00003' }));
  });

  test('descends through a level that holds one folder only', async () => {
    const store = new Bucket(keys.filter((k) => k.includes('/')).map((k) => `data/exports/${k}`));
    const lanes = await covers(store, normalizeRange({ prefix: 'data/' }));
    expect(lanes[1].after.startsWith('data/exports/p')).toBe(true);
  });

  test('no cut where there is nothing to share out, or more than one page of folders', async () => {
    expect(await planLanes(new Bucket(['a', 'b', 'c/x']), normalizeRange({}))).toBeNull();
    expect(await planLanes(new Bucket([]), normalizeRange({}))).toBeNull();
    const many = Array.from({ length: 1001 }, (_, i) => `f${String(i).padStart(4, '0')}/x`);
    expect(await planLanes(new Bucket(many), normalizeRange({}))).toBeNull();
    expect(await planLanes({ delimiters: false }, normalizeRange({}))).toBeNull();
  });

  test('a store that lists folders out of S3 order is not cut (its one listing checks it)', async () => {
    // UTF-16 order (s3proxy) puts U+10000 before U+E000: folders "😀/" and "\uE000/" swap.
    const keys = ['a/1', '\uE000/x', '😀/y', 'b/2'];
    expect(await planLanes(new Bucket(keys, { utf16: true }), normalizeRange({}))).toBeNull();
    expect(await planLanes(new Bucket(keys), normalizeRange({}))).not.toBeNull();
  });

  test('lanesFromBounds: (after, stop] ranges end to end', () => {
    expect(lanesFromBounds({ after: 'a', stop: null }, ['m', 't'])).toEqual([{ after: 'a', stop: 'm' }, { after: 'm', stop: 't' }, { after: 't', stop: null }]);
  });
});

describe('copy in lanes', () => {
  const keys = keysOf();
  let dir;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-lanes-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('every key exactly once, with lanes listed at the same time', async () => {
    const src = new Bucket(keys);
    const dst = target();
    // A queue of 100: one listing in key order could not hand the copier a key of p09/ before
    // nearly all the others had been copied.
    const r = await copy({ store: src, targetStore: dst, source: 's3://src', target: 's3://dst', journal: false, copyConcurrency: 4, maxQueueSize: 100 });
    expect(r.ok).toBe(true);
    expect(r.copied.objects).toBe(keys.length);
    expect([...dst.copies].sort(compareKeys)).toEqual([...keys].sort(compareKeys));
    // Lanes ran together: the last area was copied from early on.
    expect(dst.copies.findIndex((k) => k.startsWith('p09/'))).toBeLessThan(1000);
  });

  test('a stopped run resumes every lane after its own watermark', async () => {
    const journal = path.join(dir, 'j.jsonl');
    const src = new Bucket(keys);
    const first = target();
    const stop = new AbortController();
    let n = 0;
    const r1 = await copy({ store: src, targetStore: first, source: 's3://src', target: 's3://dst', journal, copyConcurrency: 8, stopSignal: stop.signal,
      onObject: () => { if (++n === 1200) stop.abort(); } });
    expect(r1.interrupted).toBe(true);
    const records = fs.readFileSync(journal, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records.filter((x) => x.t === 'lanes')).toHaveLength(1);
    expect(new Set(records.filter((x) => x.t === 'mark').map((x) => x.lane || 0)).size).toBeGreaterThan(1);
    const second = target();
    const logs = [];
    const r2 = await copy({ store: new Bucket(keys), targetStore: second, source: 's3://src', target: 's3://dst', journal, copyConcurrency: 8, log: (m) => logs.push(m) });
    expect(r2.ok).toBe(true);
    expect(logs.join('\n')).toMatch(/resuming from/);
    const all = [...first.copies, ...second.copies];
    expect([...new Set(all)].sort(compareKeys)).toEqual([...keys].sort(compareKeys));
    // Copied twice: at most what was in flight at the stop, in every lane.
    expect(all.length - keys.length).toBeLessThanOrEqual(16 * 8);
    expect(r2.copied.objects).toBe(keys.length);
    expect(fs.existsSync(journal)).toBe(false);
  });

  test('a throttled prefix slows only itself; every object still arrives', async () => {
    const src = new Bucket(keys);
    // p03/ takes at most four copies at once; more are answered SlowDown.
    const dst = target({ throttle: (key, inflight) => key.startsWith('p03/') && inflight > 4 });
    const r = await copy({ store: src, targetStore: dst, source: 's3://src', target: 's3://dst', journal: false, copyConcurrency: 64 });
    expect(r.ok).toBe(true);
    expect([...dst.copies].sort(compareKeys)).toEqual([...keys].sort(compareKeys));
    const prefixes = r.concurrencyTrace.prefixes;
    // p03/ was paced (a rate set when it was throttled); no other prefix ever was.
    expect(prefixes['p03/'].some((e) => e.reason === 'throttled' && e.rate > 0)).toBe(true);
    for (const [name, trace] of Object.entries(prefixes)) if (name !== 'p03/') expect(trace.every((e) => e.reason !== 'throttled' && e.rate === undefined)).toBe(true);
    expect(r.concurrencyTrace.copy.map((e) => e.reason)).toEqual(['start']);
  });
});
