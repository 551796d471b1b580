'use strict';
// Per-prefix pacing against MinIO behind a proxy that throttles as S3 does: copies into the
// prefix past a rate (a token bucket) are answered 503 SlowDown. The copy is paced to about
// that rate, and when the proxy raises it mid-copy the pace climbs past the old one. Asserted
// on the pacing trace the run records and the proxy's counts; the raise follows the number of
// copies made, not a clock. The controller itself is tested on a virtual clock over drawn
// conditions (test/unit/prefix-limit.test.js).
const s3blitz = require('../../src');
const { createBucket, putObjects, connection } = require('../helpers/s3env');
const { startFaultProxy } = require('../helpers/fault-proxy');
const { TokenBucket } = require('../helpers/token-bucket');

const OBJECTS = 1200;
const FIRST = 50; // copies a second the prefix takes at first
const RAISED = 400; // ... and once RAISE_AFTER copies are made
const RAISE_AFTER = 400;

test('copies past a prefix\'s rate are paced to it, and a raised rate is climbed to', async () => {
  const src = await createBucket();
  const keys = Array.from({ length: OBJECTS }, (_, i) => `k/${String(i).padStart(5, '0')}`);
  await putObjects(src, keys, { concurrency: 48 });
  const c = connection();
  let rate = FIRST;
  const bucket = new TokenBucket(5, Date.now());
  let copies = 0, slowDowns = 0, slowDownsBeforeRaise = 0;
  const proxy = await startFaultProxy({
    target: c.endpoint,
    refuse: { status: 503, code: 'SlowDown' },
    refuseRequest: (info) => {
      if (info.type !== 'COPY') return false;
      if (!bucket.admit(Date.now(), rate)) {
        slowDowns++;
        if (rate === FIRST) slowDownsBeforeRaise++;
        return true;
      }
      if (++copies === RAISE_AFTER) rate = RAISED;
      return false;
    },
  });
  try {
    const dst = await createBucket();
    const r = await s3blitz.copy({
      source: `s3://${src}`, target: `s3://${dst}`, endpointUrl: proxy.endpoint, region: 'us-east-1', copyConcurrency: 64,
      credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
    });
    expect(r.ok).toBe(true);
    expect(r.copied.objects).toBe(OBJECTS);
    expect(copies).toBe(OBJECTS);
    const trace = r.concurrencyTrace.prefixes['k/'];
    const rates = trace.filter((e) => e.rate !== undefined).map((e) => e.rate);
    console.log(`[throttling] ${slowDowns} SlowDowns for ${copies} copies (${slowDownsBeforeRaise} before the raise); paced rates ${Math.min(...rates)} to ${Math.max(...rates)}/s over ${trace.length} changes`);
    // Throttled, then paced: the first cut sets a rate.
    const firstCut = trace.findIndex((e) => e.reason === 'throttled');
    expect(firstCut).toBeGreaterThanOrEqual(0);
    expect(trace[firstCut].rate).toBeGreaterThan(0);
    // Paced near the first rate: at most a few SlowDowns for each copy made before the
    // raise (copies sent at 64 at once with no pacing: several times as many).
    expect(slowDownsBeforeRaise).toBeLessThan(RAISE_AFTER);
    expect(trace.slice(firstCut).filter((e) => e.rate !== undefined).some((e) => e.rate <= FIRST * 1.5)).toBe(true);
    // Raised: the pace climbed past the first rate.
    expect(trace.some((e) => e.reason === 'recovering' && e.rate > FIRST * 1.5)).toBe(true);
    expect(r.stats.throttles).toBe(slowDowns);
    // Only the prefix was paced: the run's own limit never moved.
    expect(r.concurrencyTrace.copy.map((e) => e.reason)).toEqual(['start']);
  } finally {
    await proxy.close();
  }
}, 180000);
