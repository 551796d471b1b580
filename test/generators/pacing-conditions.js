'use strict';
// Conditions a copy under S3's per-prefix request limits may meet, drawn from a seed (issue
// 30): how many prefixes it writes to, what each accepts a second and as a burst, how long a
// request takes and how much that varies, and whether one prefix is hot. Objects are enough
// for 5-20 s of the limits' time. Draws where the prefixes would need more requests in
// flight than the copy allows (copyConcurrency) are drawn again: there the copy's own limit
// is the bound, not the prefixes'.
const { prng } = require('./prng');

const COPY_CONCURRENCY = require('../../src/options').DEFAULTS.copyConcurrency;


function drawPacing(seed, { maxObjects = 150000 } = {}) {
  const r = prng(seed).next;
  const logU = (lo, hi) => Math.exp(Math.log(lo) + r() * (Math.log(hi) - Math.log(lo)));
  for (;;) {
    const prefixes = Math.max(1, Math.round(logU(1, 20)));
    const rate = Math.round(logU(100, 5500));
    const latencyMs = Math.round(logU(5, 150));
    const hot = prefixes > 1 && r() < 0.4 ? 0.2 + r() * 0.7 : 0;
    // In flight the busiest prefix needs (Little's law), with room for the others.
    if (prefixes * rate * latencyMs / 1000 > 0.8 * COPY_CONCURRENCY) continue;
    const burst = Math.max(1, Math.round(rate * (0.05 + r() * 0.95)));
    const jitterMs = Math.round(latencyMs * r());
    const seconds = 5 + r() * 15;
    const share = hot ? hot : 1 / prefixes; // the busiest prefix's share of the objects
    const objects = Math.min(maxObjects, Math.max(200, Math.round((rate * seconds) / share)));
    return { seed, prefixes, rate, burst, latencyMs, jitterMs, hot: Math.round(hot * 100) / 100, objects };
  }
}

module.exports = { drawPacing };
