'use strict';
// Per-prefix pacing (src/transfer/prefix-limit.js, issue 30), on a virtual clock: the real
// Copier against a target that admits writes per prefix through a token bucket
// (test/helpers/sim-pacing.js). Conditions are drawn from a fresh seed each run (printed;
// S3BLITZ_TEST_SEED replays one); fixed ones pin the benchmark's two rows, a store that never
// throttles, random SlowDowns, and a limit raised mid-copy. The bounds on drawn conditions
// are looser than the aims (3% throttled, 0.9 of the allowed rate), which bench/sim-pacing.js
// measures over hundreds: they catch a controller that has gone wrong (the one before this
// threw 20-75% of a copy's requests at a limit on most draws), not the last percent.
const { simulatePacing } = require('../helpers/sim-pacing');
const { drawPacing } = require('../generators/pacing-conditions');
const { installVirtualTime } = require('../helpers/virtual-time');
const { PrefixLimit, PACE } = require('../../src/transfer/prefix-limit');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`prefix-limit seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

function exactlyOnce(r, objects) {
  expect({ copied: r.copied, failed: r.failed, distinct: r.distinct, duplicates: r.duplicates })
    .toEqual({ copied: objects, failed: 0, distinct: objects, duplicates: 0 });
}

describe('conditions drawn from the seed', () => {
  test.each([0, 1, 2, 3])('draw %i: every object once; under 40% throttled (30% past the ramp) at 0.6 of the allowed rate or more', async (i) => {
    const c = drawPacing(SEED + i, { maxObjects: 40000 });
    const r = await simulatePacing(c);
    const what = `${JSON.stringify(c)}: ${JSON.stringify({ share: r.share, lateShare: r.lateShare, sustained: r.sustained, wallMs: r.wallMs, idealMs: r.idealMs })}`;
    exactlyOnce(r, c.objects);
    // Over 400 draws (seeds 1000-1199 and 3000-3199, 2026-12-02): at worst 20.9% throttled in
    // all and past the ramp (seed 3087: a draining burst learnt as background, docs/
    // transfer-benchmark.md), else 13.3% and 5.4%; 0.78 of the allowed rate.
    expect({ what, share: r.share < 0.4, late: r.lateShare < 0.3 }).toEqual({ what, share: true, late: true });
    if (r.sustained !== null) expect({ what, sustained: r.sustained >= 0.6 }).toEqual({ what, sustained: true });
    expect({ what, time: r.wallMs <= 2 * r.idealMs + 3000 }).toEqual({ what, time: true });
  });
});

describe('fixed conditions', () => {
  test('the benchmark\'s row: 10 prefixes of 1,000 writes/s, 30 ms: under 3% throttled at 0.95 of the allowed rate or more', async () => {
    const r = await simulatePacing({ prefixes: 10, rate: 1000, latencyMs: 30, objects: 100000, seed: 7 });
    exactlyOnce(r, 100000);
    expect(r.share).toBeLessThan(0.03);
    expect(r.sustained).toBeGreaterThanOrEqual(0.95);
  });

  // 3.2% here (2.4% before PACE.CHANCE_FLOOR, 8.5% with the controller before this one); the
  // benchmark's same row over HTTP ran 1.8% throttled with and without the floor (2026-12-02).
  test('one hot prefix with half the objects: under 4% throttled', async () => {
    const r = await simulatePacing({ prefixes: 10, rate: 1000, latencyMs: 30, objects: 30000, hot: 0.5, seed: 7 });
    exactlyOnce(r, 30000);
    expect(r.share).toBeLessThan(0.04);
    expect(r.wallMs).toBeLessThan(1.1 * r.idealMs);
  });

  test('a store that never throttles: slots grow to the copy\'s concurrency, nothing is paced', async () => {
    const r = await simulatePacing({ prefixes: 1, rate: 1e9, burst: 1e9, latencyMs: 30, objects: 20000, seed: 3 });
    exactlyOnce(r, 20000);
    expect(r.throttled).toBe(0);
    const trace = r.trace['p0/'];
    expect(trace[0]).toMatchObject({ limit: Math.ceil(PACE.START_SLOTS.value * PACE.START_GROWTH.value), reason: 'starting' });
    expect(trace[trace.length - 1]).toMatchObject({ limit: 500, reason: 'starting' });
    expect(trace.every((e) => e.rate === undefined)).toBe(true);
  });

  test('SlowDowns at random (5%, whatever the rate) do not wear the rate down to a crawl', async () => {
    const clean = await simulatePacing({ prefixes: 3, rate: 1000, latencyMs: 30, objects: 30000, seed: 5 });
    const noisy = await simulatePacing({ prefixes: 3, rate: 1000, latencyMs: 30, objects: 30000, noise: 0.05, seed: 5 });
    exactlyOnce(noisy, 30000);
    expect(noisy.noisy).toBeGreaterThan(1000);
    // Without the background learnt, cut after cut took this past 120 s (the limits allow 10).
    expect(noisy.wallMs).toBeLessThan(5 * clean.wallMs);
  });

  // A slow prefix judges windows of a few dozen answers: one hiccup among them must not cut
  // (before PACE.CHANCE_FLOOR these took 8.1 times the ideal time and 17.4 s, at seeds 11 and 14).
  test('rare SlowDowns at random (1%) in small windows do not ratchet the rate down', async () => {
    const limited = await simulatePacing({ prefixes: 2, rate: 300, latencyMs: 60, jitterMs: 20, objects: 12000, noise: 0.01, seed: 11 });
    exactlyOnce(limited, 12000);
    expect(limited.noisy).toBeGreaterThan(50);
    expect(limited.wallMs).toBeLessThan(1.5 * limited.idealMs);
    expect(limited.share).toBeLessThan(0.05);
    const o = { prefixes: 2, rate: 1e6, burst: 1e6, latencyMs: 40, jitterMs: 13, objects: 20000, seed: 14 };
    const clean = await simulatePacing(o);
    const noisy = await simulatePacing({ ...o, noise: 0.01 });
    exactlyOnce(noisy, 20000);
    expect(noisy.noisy).toBeGreaterThan(100);
    expect(noisy.wallMs).toBeLessThan(2 * clean.wallMs);
  });

  test('a limit raised mid-copy is found: the rate climbs past the old ceiling to the new limit', async () => {
    const r = await simulatePacing({ prefixes: 1, rate: 500, latencyMs: 30, objects: 40000, raise: { atMs: 5000, rate: 2000 }, seed: 9 });
    exactlyOnce(r, 40000);
    const before = r.bySecond.slice(2, 5), after = r.bySecond.slice(15, 20);
    expect(Math.max(...before)).toBeLessThanOrEqual(500 * 1.3); // the old limit held
    expect(Math.min(...after)).toBeGreaterThan(0.8 * 2000);
    expect(r.share).toBeLessThan(0.03);
  });
});

describe('PrefixLimit', () => {
  let clock;
  beforeEach(() => { clock = installVirtualTime(); });
  afterEach(() => clock.restore());

  // A starting prefix (16 slots, 30 ms an answer: 533 sent a second) throttled 5 times in 105
  // answers, and then 15 answers more to requests sent before that cut.
  function throttledOnce() {
    const p = new PrefixLimit(500);
    clock.advance(100);
    for (let i = 0; i < 100; i++) p.succeeded(30);
    for (let i = 0; i < 20; i++) p.throttled(30);
    return p;
  }

  test('a throttled window paces the prefix: a rate under what it took, every slot open', () => {
    const p = throttledOnce();
    // Taken: 533 x 100/105 = 508; aimed under it, and at most 0.9 of what was sent.
    expect(p.rate).toBeCloseTo(533.33 * 0.9, 1);
    expect(p.rate).toBeLessThan(533.33 * (100 / 105) * PACE.CUT_TO.value);
    expect(p.limit).toBe(500);
    expect(p.throttles).toBe(0); // the 15 after the cut were sent before it
    expect(p.trace[p.trace.length - 1]).toMatchObject({ reason: 'throttled', limit: 500 });
  });

  test('answers to requests sent before a change do not judge it', () => {
    const p = throttledOnce();
    const rate = p.rate;
    clock.advance(300);
    for (let i = 0; i < 200; i++) p.throttled(400); // sent 400 ms ago: before the cut
    expect(p.throttles).toBe(0);
    expect(p.rate).toBe(rate);
    for (let i = 0; i < 30; i++) p.throttled(20); // sent after it
    expect(p.rate).toBeLessThan(rate);
  });

  test('a paced prefix sends no faster than its rate', async () => {
    const p = throttledOnce();
    const start = clock.now();
    const sentAt = [];
    const all = Promise.all(Array.from({ length: 60 }, () => p.run(async () => { sentAt.push(Date.now()); })));
    let done = false;
    all.then(() => { done = true; });
    await clock.run(() => done);
    const span = (sentAt[sentAt.length - 1] - start) / 1000;
    // The first may go at once (and what PACE.SLACK_MS allows); the rest one per 1/rate.
    expect(span).toBeGreaterThanOrEqual((60 - 1 - p.rate * PACE.SLACK_MS.value / 1000) / p.rate - 1e-6);
  });
});

test('every pacing number says what it trades and what set it', () => {
  for (const [name, e] of Object.entries(PACE)) {
    expect({ name, value: typeof e.value }).toEqual({ name, value: 'number' });
    expect({ name, trades: e.trades.length > 20, setBy: e.setBy.length > 10 }).toEqual({ name, trades: true, setBy: true });
  }
  // No number of its own outside the table (a literal in the code would dodge it).
  const src = require('node:fs').readFileSync(require.resolve('../../src/transfer/prefix-limit'), 'utf8');
  const code = src.slice(src.indexOf('class PrefixLimit')).replace(/\/\/.*$/gm, '');
  expect(code.match(/(?<![\w.])(?:\d*\.\d+|[2-9]\d*|1\d+)(?![\w.])/g)).toBeNull();
});

test('a copy into a folder on this machine opens at once; into S3, each prefix starts small', () => {
  const { Copier, copyOptions } = require('../../src/transfer/copier');
  const { normalizeWriteOptions } = require('../../src/transfer/write-options');
  const make = (dst) => new Copier({ src: { type: 's3', bucket: 's' }, dst, w: normalizeWriteOptions({}), co: copyOptions({}), sameConnection: true, signal: new AbortController().signal, stats: { count() {}, bytes: 0 } });
  expect(make({ type: 'local' })._prefixLimit('a/b').limit).toBe(copyOptions({}).copyConcurrency);
  expect(make({ type: 's3', bucket: 'd' })._prefixLimit('a/b').limit).toBe(PACE.START_SLOTS.value);
});
