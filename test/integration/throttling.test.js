'use strict';
// Throttling reduces the copy concurrency of the prefix it hits and it climbs back when the
// throttling ends: asserted on the concurrency trace the run records, not on timing.
const s3blitz = require('../../src');
const { createBucket, putObjects, connection } = require('../helpers/s3env');
const { startFaultProxy } = require('../helpers/fault-proxy');

test('the concurrency trace falls under SlowDown and recovers after it', async () => {
  const src = await createBucket();
  const keys = Array.from({ length: 3000 }, (_, i) => `k/${String(i).padStart(5, '0')}`);
  await putObjects(src, keys, { concurrency: 48 });
  const c = connection();
  // Only copies are throttled: a throttled LIST would slow the whole run (no prefix explains
  // it), and this test is about one prefix's pacing.
  const proxy = await startFaultProxy({ target: c.endpoint, rates: { slowDown: 0.3 }, faultTypes: ['COPY'], maxFaultsPerInvocation: 3 });
  try {
    const dst = await createBucket();
    const events = [];
    let copied = 0;
    let stopped = false;
    const r = await s3blitz.copy({
      source: `s3://${src}`, target: `s3://${dst}`, endpointUrl: proxy.endpoint, region: 'us-east-1', copyConcurrency: 64,
      credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
      // Throttling stops once the run has backed off to 8 copies at once. Then every answer
      // is slow (300 ms) until the limit has climbed once, so the copy cannot end before it
      // climbs however fast this machine copies; the rest goes at full speed.
      onConcurrency: (ev) => {
        if (ev.name !== 'prefix "k/"') return;
        events.push({ ...ev, copied, throttling: !stopped });
        if (ev.limit <= 8 && !stopped) { stopped = true; proxy.setRates({ slowDown: 0, slow: 1 }); }
        else if (stopped && ev.reason === 'recovering') proxy.setRates({ slow: 0 });
      },
      onObject: () => { copied++; },
    });
    expect(r.ok).toBe(true);
    expect(r.copied.objects).toBe(keys.length);
    const trace = r.concurrencyTrace.prefixes['k/'];
    const lowest = Math.min(...trace.map((e) => e.limit));
    expect(lowest).toBeLessThan(64);
    const lowAt = trace.findIndex((e) => e.limit === lowest);
    expect(trace.slice(lowAt).some((e) => e.reason === 'recovering' && e.limit > lowest)).toBe(true);
    expect(stopped).toBe(true);
    expect(events.filter((e) => e.throttling).every((e) => e.reason === 'throttled')).toBe(true);
    expect(events[events.length - 1]).toMatchObject({ reason: 'recovering', throttling: false });
    expect(r.stats.throttles).toBeGreaterThan(0);
    // Only the prefix slowed down: the run's own limit never moved.
    expect(r.concurrencyTrace.copy.map((e) => e.reason)).toEqual(['start']);
  } finally {
    await proxy.close();
  }
});
