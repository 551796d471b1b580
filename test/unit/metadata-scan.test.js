'use strict';
// The metadata scan: a HeadObject per object while the listing goes on, at most
// headConcurrency at once and fewer while the store throttles, tags only where HeadObject
// counts any, output in key order, --filter after the HEADs, problems named.
const { ObjectListing, estimateScan } = require('../../src/stages/object-listing');
const { FakeListStore } = require('../helpers/fake-list-store');

function scanStore(keys, { throttle = null } = {}) {
  const store = new FakeListStore(keys, { maxKeys: 100 });
  store.open = async () => {};
  store.destroy = () => {};
  const s = { inflight: 0, max: 0, heads: 0, tagging: 0, listeners: [], limit: null, overLimit: 0 };
  store.onThrottle = (fn) => s.listeners.push(fn);
  store.headObject = async (p) => {
    s.inflight++;
    if (s.limit !== null && s.inflight > s.limit) s.overLimit++;
    s.max = Math.max(s.max, s.inflight);
    try {
      if (throttle) await throttle(s, p);
      await new Promise((r) => (s.heads % 3 ? setImmediate(r) : setTimeout(r, s.heads % 4)));
      s.heads++;
      if (p.Key === 'gone') throw Object.assign(new Error('NotFound'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } });
      return { ContentLength: p.Key.length, ContentType: p.Key.endsWith('.html') ? 'text/html' : 'text/plain', Metadata: { k: p.Key }, TagCount: p.Key.endsWith('7') ? 1 : 0 };
    } finally { s.inflight--; }
  };
  store.getObjectTagging = async (p) => { s.tagging++; return { TagSet: [{ Key: 'key', Value: p.Key }] }; };
  return { store, s };
}

async function scan(options) {
  const listing = new ObjectListing({ splitHints: false, ...options });
  const out = [];
  try { for await (const page of listing.pages()) out.push(...page); } finally { listing.close(); }
  return { out, listing };
}

const keys = Array.from({ length: 2500 }, (_, i) => `k/${String(i).padStart(5, '0')}${i % 10 === 3 ? '.html' : ''}`);

test('every object once, in key order, with its metadata; tags only where HeadObject counts them', async () => {
  const { store, s } = scanStore(keys);
  const { out, listing } = await scan({ store, withMetadata: true, withTags: true, headConcurrency: 50 });
  expect(out.map((it) => it.Key)).toEqual(store.expected());
  for (const it of out) {
    expect(it.Metadata).toEqual({ k: it.Key });
    expect(it.Tags).toEqual(it.Key.endsWith('7') ? { key: it.Key } : {});
  }
  expect(s.heads).toBe(keys.length);
  expect(s.tagging).toBe(keys.filter((k) => k.endsWith('7')).length);
  expect(s.max).toBeLessThanOrEqual(50);
  expect(s.max).toBeGreaterThan(1);
  expect(listing.scanReport()).toMatchObject({ headRequests: keys.length, taggingRequests: s.tagging, failed: 0 });
  expect(listing.stats.toJSON().requests.HEAD).toBe(keys.length);
});

test('--filter sees the fields (after the HEADs); --pattern runs before them; unordered keeps every object', async () => {
  const a = scanStore(keys);
  const html = await scan({ store: a.store, withMetadata: true, filter: ({ ContentType }) => ContentType === 'text/html' });
  expect(html.out.map((it) => it.Key)).toEqual(keys.filter((k) => k.endsWith('.html')));
  const b = scanStore(keys);
  const few = await scan({ store: b.store, withMetadata: true, pattern: '.html' });
  expect(few.out.length).toBe(250);
  expect(b.s.heads).toBe(250);
  const c = scanStore(keys);
  const any = await scan({ store: c.store, withMetadata: true, unordered: true });
  expect(any.out.map((it) => it.Key).sort()).toEqual([...keys].sort());
});

test('an object gone before its HEAD is named and left out', async () => {
  const { store } = scanStore(['a', 'gone', 'z']);
  const problems = [];
  const { out, listing } = await scan({ store, withMetadata: true, onProblem: (p) => problems.push(p) });
  expect(out.map((it) => it.Key)).toEqual(['a', 'z']);
  expect(problems).toEqual([{ key: 'gone', versionId: undefined, status: 'vanished', reason: 'deleted since it was listed' }]);
  expect(listing.scanReport().vanished).toBe(1);
});

test('throttling lowers the HEADs in flight (waits for the limit to change, not for time)', async () => {
  let release;
  const changed = new Promise((r) => { release = r; });
  let events = [];
  const { store, s } = scanStore(keys, {
    throttle: async (st) => {
      if (events.some((e) => e.reason === 'throttled')) return;
      for (const fn of st.listeners) fn(); // the store says SlowDown (its retries then succeed)
      await changed;
    },
  });
  const onConcurrency = (ev) => {
    events.push(ev);
    s.limit = ev.limit;
    if (ev.reason === 'throttled') release();
  };
  const { out } = await scan({ store, withMetadata: true, headConcurrency: 40, onConcurrency });
  expect(out.length).toBe(keys.length);
  const first = events.find((e) => e.reason === 'throttled');
  expect(first.limit).toBeLessThan(40);
  expect(s.max).toBe(40);
  expect(s.overLimit).toBeLessThanOrEqual(40); // only those already in flight when the limit fell
});

test('the dry-run estimate counts the HEADs from the listing alone', async () => {
  const { store, s } = scanStore(keys);
  const e = await estimateScan({ store, withTags: true, splitHints: false });
  expect(e).toMatchObject({ objects: 2500, headRequests: 2500, taggingRequestsAtMost: 2500 });
  expect(s.heads).toBe(0);
});
