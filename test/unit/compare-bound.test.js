'use strict';
// compare's content checks run at most 64 at once, however many pairs wait for one: the
// request starts inside the limiter, not when the pair is classified.
const { Comparison, classifyAll } = require('../../src/stages/compare');
const { RequestStats } = require('../../src/stats');

// A store whose HEADs answer one turn of the event loop later, counting those in flight.
function slowStore(partSize) {
  const s = {
    inflight: 0, max: 0, calls: 0,
    async headObject() {
      s.calls++;
      s.inflight++;
      s.max = Math.max(s.max, s.inflight);
      await new Promise((r) => setImmediate(r));
      s.inflight--;
      return { ContentLength: partSize };
    },
  };
  return s;
}

// A comparison over given pairs: same size, multipart ETags with the same part count but
// different values, so only a HEAD of each side's first part can tell.
function comparison(n, options = {}) {
  const cmp = Object.create(Comparison.prototype);
  Object.assign(cmp, { options, stats: new RequestStats(), signal: new AbortController().signal, judgedBy: {} });
  cmp.srcStore = slowStore(5 * 1024 * 1024);
  cmp.dstStore = slowStore(5 * 1024 * 1024);
  const t = new Date('2024-01-01T00:00:00Z');
  cmp.pairs = async function* () {
    for (let i = 0; i < n; i++) {
      const key = `k${String(i).padStart(6, '0')}`;
      yield {
        targetKey: key,
        src: { Key: key, Size: 12 * 1024 * 1024, ETag: `"a${i}-3"`, LastModified: new Date(+t + 1000) },
        dst: { Key: key, Size: 12 * 1024 * 1024, ETag: `"b${i}-3"`, LastModified: t },
      };
    }
  };
  return cmp;
}

test('at most 64 content checks in flight, with thousands of pairs waiting', async () => {
  const cmp = comparison(3000);
  const classes = new Map();
  await classifyAll(cmp, (pair, cls) => { classes.set(cls, (classes.get(cls) || 0) + 1); });
  expect(cmp.srcStore.calls).toBe(3000); // one first-part HEAD per pair and side
  expect(cmp.dstStore.calls).toBe(3000);
  expect(cmp.srcStore.max).toBe(64); // the bound is reached, and never passed
  expect(cmp.dstStore.max).toBe(64);
  expect(classes.get('content-differs')).toBe(3000);
});

test('classify leaves a pair that needs requests to its caller, starting none', () => {
  const cmp = comparison(1);
  const pair = { targetKey: 'k', src: { Key: 'k', Size: 9, ETag: '"a-2"' }, dst: { Key: 'k', Size: 9, ETag: '"b-2"' } };
  const cls = cmp.classify(pair);
  expect(typeof cls).toBe('function');
  expect(cmp.srcStore.calls).toBe(0);
  expect(cmp.classify({ ...pair, dst: null })).toBe('only-source');
  expect(cmp.classify({ ...pair, dst: { ...pair.dst, Size: 8 } })).toBe('size-differs');
});
