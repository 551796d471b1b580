'use strict';
// The lister on a virtual clock (issue 28): GuardedLister over a FakeListStore where every
// request takes one round trip, so round trips, requests and requests in flight are the
// same on any machine, at any load. Used by the unit tests and by bench/sim-list.js (the
// benchmark imports the tests' helpers, never the other way round).
const { FakeListStore } = require('./fake-list-store');
const { depthRange } = require('../generators/layouts');
const { GuardedLister } = require('../../src/list/guarded-lister');
const { normalizeRange } = require('../../src/keys/range');
const { RequestStats } = require('../../src/stats');

const BUSY_SHARE = 0.8; // of concurrency: the in-flight target

// The listing against the store's reference: how many keys are missing, extra, repeated,
// and (ordered) how many are out of place.
function compareListing(got, expected, ordered) {
  const want = new Set(expected);
  const seen = new Set();
  let extra = 0, repeated = 0;
  for (const k of got) {
    if (seen.has(k)) repeated++;
    else { seen.add(k); if (!want.has(k)) extra++; }
  }
  const missing = expected.length - (seen.size - extra);
  let misplaced = 0;
  if (ordered) for (let i = 0; i < Math.max(got.length, expected.length); i++) if (got[i] !== expected[i]) misplaced++;
  return { missing, extra, repeated, misplaced, exact: missing === 0 && extra === 0 && repeated === 0 && misplaced === 0 };
}

/**
 * Lists keys with GuardedLister over a FakeListStore on a virtual clock.
 * opts: concurrency (100), ordered (true), depth (the keys' deepest folder level if not
 * given), store / lister (options passed on).
 */
async function simulate(keys, { concurrency = 100, ordered = true, depth = null, store: storeOpts = {}, lister = {} } = {}) {
  const store = new FakeListStore(keys, { rounds: true, trace: true, ...storeOpts });
  const stats = new RequestStats();
  const g = new GuardedLister(store, {
    range: normalizeRange({}), listConcurrency: concurrency, ordered, stats, log: () => {},
    clock: () => store.round, // hedging on the virtual clock too, so no machine's speed decides
    ...lister,
  });
  const got = [];
  let firstRound = null;
  const cpu = process.cpuUsage();
  for await (const chunk of g.chunks()) {
    if (firstRound === null && chunk.length) firstRound = store.round;
    for (let i = 0; i < chunk.length; i++) got.push(chunk.key(i));
  }
  const used = process.cpuUsage(cpu);
  const unique = store.keys.length;
  const check = compareListing(got, store.expected(), ordered);
  if (depth === null) depth = depthRange(store.keys)[1];
  const roundBound = 2 * (unique / 1000 / concurrency) + depth;
  // Round trips that began with at least concurrency x 1000 keys still to hand out.
  const busy = store.roundTrace.filter((t) => unique - t.listed >= concurrency * 1000);
  const busyInflight = busy.length ? busy.reduce((s, t) => s + t.inflight, 0) / busy.length : null;
  const cpuMicros = used.user + used.system;
  return {
    keys: unique,
    generated: keys.length,
    listed: got.length,
    ...check,
    complete: g.complete,
    fallback: stats.fallback,
    requests: store.requests,
    efficiency: unique / (store.requests * 1000),
    parsedPerUnique: stats.keysUnique ? stats.keysReturned / stats.keysUnique : null,
    rounds: store.round,
    firstRound,
    depth,
    roundBound,
    roundsOk: store.round <= roundBound,
    busyRounds: busy.length,
    busyInflight,
    busyInflightOk: busyInflight === null ? null : busyInflight >= BUSY_SHARE * concurrency,
    meanInflight: store.inflightRounds / Math.max(1, store.round),
    cpuMsPer1000: unique ? (cpuMicros - store.serveMicros) / 1000 / (unique / 1000) : null,
    storeCpuMsPer1000: unique ? store.serveMicros / 1000 / (unique / 1000) : null,
    stats: stats.toJSON(),
  };
}

module.exports = { simulate, compareListing, BUSY_SHARE };
