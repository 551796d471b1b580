'use strict';
// Copies under S3's per-prefix request limits on a virtual clock (issue 30): the real Copier
// (its per-prefix limits, pools, retries and backoff) against a target that admits writes
// through a token bucket per first key segment, as bench/fake-s3.js does over HTTP, and
// answers every request after a latency. Objects come in one lane per prefix, each in key
// order, as a copy's lanes list them. Nothing here reads the machine's clock.
const { installVirtualTime } = require('./virtual-time');
const { Copier, copyOptions } = require('../../src/transfer/copier');
const { normalizeWriteOptions } = require('../../src/transfer/write-options');
const { Throttled } = require('../../src/stores/s3-errors');
const { prng } = require('../generators/prng');
const { TokenBucket } = require('./token-bucket');

/**
 * o: {prefixes, rate (writes/s a prefix accepts), burst (tokens; default rate / 4), latencyMs,
 * jitterMs, objects, hot (share of objects in the first prefix), noise (share of requests throttled
 * at random, whatever the rate: a store's hiccups), raise ({atMs, rate}: the limit every prefix
 * has from then on), seed, copyConcurrency,
 * rampMs (not counted in the sustained rate)}.
 * Returns {requests, throttled (past the prefix's rate), noisy (throttled at random), share
 * (throttled ÷ requests), lateShare (the same past the ramp), distinct (keys accepted),
 * duplicates (keys accepted again), bySecond (writes accepted in each second), trace (each
 * prefix's pacing changes), wallMs, idealMs and sustained (accepted ÷ allowed while a prefix
 * had objects left, after the ramp; both by the first rate, whatever raise says), copied, failed}.
 */
async function simulatePacing(o) {
  const { prefixes, rate, latencyMs, jitterMs = 0, objects, hot = 0, noise = 0, seed = 1, rampMs = 3000 } = o;
  const burst = o.burst || Math.max(1, rate / 4);
  const random = prng(seed).next;
  const realRandom = Math.random;
  const clock = installVirtualTime();
  Math.random = prng(seed * 7919 + 1).next; // the copier's backoff jitter
  try {
    const counts = new Array(prefixes).fill(0);
    for (let i = 0; i < objects; i++) {
      const p = hot > 0 && random() < hot ? 0 : hot > 0 && prefixes > 1 ? 1 + Math.floor(random() * (prefixes - 1)) : i % prefixes;
      counts[p]++;
    }
    const buckets = counts.map(() => Object.assign(new TokenBucket(burst, 0), { accepted: 0, acceptedAfterRamp: 0, last: 0 }));
    const bySecond = []; // writes accepted in each second, every prefix together
    const rateAt = (t) => (o.raise && t >= o.raise.atMs ? o.raise.rate : rate);
    let requests = 0, throttled = 0, late = 0, lateThrottled = 0, noisy = 0;
    const accepted = new Set();
    let duplicates = 0;
    const dst = {
      type: 's3', bucket: 'dst',
      copyObject(params) {
        requests++;
        if (Date.now() >= rampMs) late++;
        const p = Number(params.Key.slice(1, params.Key.indexOf('/')));
        const b = buckets[p];
        const now = Date.now();
        b.refill(now, rateAt(now));
        const hiccup = noise > 0 && random() < noise;
        const ok = !hiccup && b.take();
        if (hiccup) noisy++;
        else if (ok) {
          b.accepted++;
          if (now >= rampMs) b.acceptedAfterRamp++;
          b.last = now;
          const sec = Math.floor(now / 1000);
          bySecond[sec] = (bySecond[sec] || 0) + 1;
          if (accepted.has(params.Key)) duplicates++;
          accepted.add(params.Key);
        } else {
          throttled++;
          if (now >= rampMs) lateThrottled++;
        }
        const ms = Math.max(1, latencyMs + (random() * 2 - 1) * jitterMs);
        return new Promise((resolve, reject) => setTimeout(() => (ok ? resolve('"e"') : reject(new Throttled(503, params.Key))), ms));
      },
    };
    const src = { type: 's3', bucket: 'src' };
    const co = copyOptions(o.copyConcurrency ? { copyConcurrency: o.copyConcurrency } : {});
    const copier = new Copier({ src, dst, w: normalizeWriteOptions({}), co, sameConnection: true, signal: new AbortController().signal, stats: { count() {}, bytes: 0 } });
    copier.useLanes(prefixes);
    let fed = false;
    const feed = async () => {
      await Promise.all(counts.map(async (n, p) => {
        for (let i = 0; i < n; i++) {
          const key = `p${p}/obj-${String(i).padStart(8, '0')}`;
          await copier.add({ Key: key, Size: 1, ETag: '"e"' }, key, undefined, p);
        }
      }));
      fed = true;
    };
    let finished = false;
    const done = feed().then(() => copier.drain()).then(() => { finished = true; });
    await clock.run(() => finished || (fed && copier.queued === 0), { maxMs: o.maxMs || 3600e3 });
    await done;
    const wallMs = clock.now();
    const idealMs = Math.max(...counts.map((n) => (Math.max(0, n - burst) / rate) * 1000));
    // Accepted ÷ allowed, over the prefixes still busy past the ramp, while each was busy.
    let acc = 0, allowed = 0;
    for (const b of buckets) {
      if (b.last <= rampMs + 1000) continue;
      acc += b.acceptedAfterRamp;
      allowed += ((b.last - rampMs) / 1000) * rate;
    }
    const totals = copier.totals();
    return {
      requests, throttled, noisy, share: requests ? throttled / requests : 0, wallMs, idealMs,
      distinct: accepted.size, duplicates, bySecond: Array.from(bySecond, (n) => n || 0),
      trace: copier.concurrencyTrace.prefixes,
      lateShare: late ? lateThrottled / late : 0, // past the ramp
      sustained: allowed ? acc / allowed : null, copied: totals.copied.objects, failed: totals.failed.objects,
    };
  } finally {
    clock.restore();
    Math.random = realRandom;
  }
}

module.exports = { simulatePacing };
