'use strict';
// How even a shard plan is, counted on the keys it cuts (sorted in S3's order): count is
// the keys its shards hold together (the keys' count exactly when the ranges tile them),
// balance the largest shard over the mean, smallest the smallest over the mean.
const { compareKeys } = require('../src/keys/order');

function planBalance(plan, keys) {
  const rank = (k) => { // keys <= k
    if (k === null) return keys.length;
    let lo = 0, hi = keys.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (compareKeys(keys[m], k) <= 0) lo = m + 1; else hi = m; }
    return lo;
  };
  const sizes = plan.ranges.map((r) => (r.empty ? 0 : rank(r.stopAt) - (r.startAfter === null ? 0 : rank(r.startAfter))));
  const count = sizes.reduce((a, b) => a + b, 0);
  const mean = keys.length / plan.ranges.length;
  return { count, planRequests: plan.requests, balance: Math.max(...sizes) / mean, smallest: Math.min(...sizes) / mean, estimated: plan.estimatedObjects };
}

module.exports = { planBalance };
