'use strict';
// The first StartAfter of a range, checked before its keys are used. Inside a listing, a
// StartAfter is a key an earlier page ended on, and pages that overlap must agree
// (page-agreement.js); the first one of a range (--start-after, a shard's or a lane's bound,
// a resume watermark) has nothing before it to agree with.
//
// Stores compare keys in orders of their own: S3 by UTF-8 bytes, servers written in Java or
// JavaScript by UTF-16 code units (s3proxy), file-tree servers folder by folder, so that
// "data/x" comes before "data-2024" (SeaweedFS, which also takes a StartAfter that names a
// folder to mean "after that folder and all it holds"). Where a key lies against the
// StartAfter, these orders disagree only at the first character where the two differ, and
// only in three ways:
// - one holds a character in U+E000..U+FFFF and the other one above U+FFFF (UTF-16);
// - the StartAfter holds a character below "/" where the key holds "/" (folder by folder);
// - the key goes on where the StartAfter ends (a StartAfter naming a folder).
// The first is avoided: the StartAfter sent is cut before its first character at or above
// U+E000 (wireRange; the keys between are dropped here). The other two are checked against
// listings by Prefix alone, which no order affects: of the keys that go on where the
// StartAfter ends, and of the keys that hold "/" where it holds a character below "/". A
// key such a listing shows after the StartAfter that the store's answer leaves out makes
// the store an UntrustedStore (guarded-lister.js then walks it without any StartAfter).
const { compareKeys, utf16SafePrefix, lastKeyWith } = require('../keys/order');
const { chunkOf } = require('../stores/chunks');
const { checkPage } = require('./page-check');
const { UntrustedStore, showKey } = require('./untrusted-store');
const { httpStatus } = require('../stores/s3-errors');

// A probe the store refuses as a bad name (MinIO answers 400 to a prefix with "//" or a "."
// segment) asks about keys it cannot hold: there is nothing there to skip.
function refusedName(err) {
  return httpStatus(err) === 400 || Boolean(err && err.cause && httpStatus(err.cause) === 400);
}

// The character before "/": a StartAfter of a folder's name, this and U+10FFFF ("d." + U+10FFFF
// for "d/") is the greatest key before the folder that a request can carry.
const BEFORE_SLASH = '.\u{10FFFF}';

/**
 * The range as it is asked of the store: its StartAfter cut before any character at or above
 * U+E000, and its end, if it holds one, raised to the last key of the part before it (a store
 * that lists in UTF-16 order may list a key of the range after one past it). A StartAfter
 * outside the prefix is none (before every key of it) or an empty range (after every one).
 */
function wireRange(range) {
  const { prefix, after, stop } = range;
  if (range.empty) return range;
  let a = after;
  if (a && !a.startsWith(prefix)) {
    if (compareKeys(a, prefix) > 0) return { ...range, empty: true };
    a = '';
  }
  if (a) {
    const cut = utf16SafePrefix(a);
    a = cut.length > prefix.length ? cut : '';
  }
  let s = stop;
  if (s !== null) {
    const cut = utf16SafePrefix(s);
    if (cut !== s) s = lastKeyWith(cut);
  }
  return { prefix, after: a, stop: s, empty: false };
}

// The prefix a walk without StartAfter can read a range from: every key after `after` and up
// to `stop` starts with what the two have in common.
function walkPrefix(range) {
  const { prefix, after, stop } = range;
  if (!after || stop === null) return prefix;
  let i = 0;
  while (i < after.length && i < stop.length && after.charCodeAt(i) === stop.charCodeAt(i)) i++;
  if (i > 0 && i < after.length && after.charCodeAt(i - 1) >= 0xd800 && after.charCodeAt(i - 1) <= 0xdbff) i--;
  return i > prefix.length ? after.slice(0, i) : prefix;
}

/**
 * The Prefix-only listings that show the keys a store could skip after `after`: the keys that
 * go on where it ends, and for every character below "/" (past the range's prefix) the keys
 * that hold "/" there, with the StartAfter just before them that tells a folder-by-folder store.
 */
function startProbes(prefix, after) {
  const probes = [{ prefix: after, maxKeys: 2 }];
  for (let i = prefix.length; i < after.length; i++) {
    if (after.charCodeAt(i) >= 0x2f) continue;
    const head = after.slice(0, i);
    probes.push({ prefix: `${head}/`, maxKeys: 1, before: head + BEFORE_SLASH });
  }
  return probes;
}

/**
 * Checks a store's answer to the StartAfter of a wire range ({prefix, after (not empty),
 * stop}). Resolves when every key of the range the probes show is where it must be; rejects
 * with UntrustedStore naming the key it skips. Its requests are counted in stats.
 */
async function checkStart(store, range, { signal, stats }) {
  const { after, stop } = range;
  // Asked as the lister asks: with every key the range can hold in the prefix.
  const prefix = walkPrefix(range);
  const ask = async (args) => {
    stats.listRequests++;
    const page = await store.listPage({ ...args, signal });
    const chunk = chunkOf(page);
    stats.pages++;
    stats.keysReturned += chunk.length;
    checkPage(page, args.startAfter || '', args.prefix);
    return { chunk, truncated: page.truncated };
  };
  const probes = startProbes(prefix, after).filter((p) => stop === null || compareKeys(p.prefix, stop) <= 0);
  const probe = (args) => ask(args).catch((err) => { if (refusedName(err)) return null; throw err; });
  const [answer, ...shown] = await Promise.all([ask({ prefix, startAfter: after }), ...probes.map((p) => probe({ prefix: p.prefix, maxKeys: p.maxKeys }))]);
  const got = new Set();
  for (let k = 0; k < answer.chunk.length; k++) got.add(answer.chunk.key(k));
  const last = answer.chunk.length ? answer.chunk.key(answer.chunk.length - 1) : null;
  const skipped = (key, how) => new UntrustedStore(`the store answered StartAfter ${showKey(after)} without ${showKey(key)}, which ${how}: its StartAfter cannot be trusted`);
  for (let i = 0; i < probes.length; i++) {
    if (!shown[i]) continue;
    const { chunk } = shown[i];
    let key = null;
    for (let k = 0; k < chunk.length && key === null; k++) if (compareKeys(chunk.key(k), after) > 0) key = chunk.key(k);
    if (key === null || (stop !== null && compareKeys(key, stop) > 0)) continue;
    const how = `a listing of the prefix ${showKey(probes[i].prefix)} shows`;
    // Within what the answer covers, the key must be in it.
    if (!answer.truncated || compareKeys(key, last) <= 0) {
      if (!got.has(key)) throw skipped(key, how);
      continue;
    }
    // Past it: asked for the keys after the greatest key before its folder, the store must
    // answer with a key no greater than it.
    if (!probes[i].before) continue;
    const asked = await probe({ prefix, startAfter: probes[i].before, maxKeys: 1 });
    if (!asked) continue;
    const next = asked.chunk;
    const first = next.length ? next.key(0) : null;
    if (first === null || compareKeys(first, key) > 0) {
      throw new UntrustedStore(`the store answered StartAfter ${showKey(probes[i].before)} with ${showKey(first)}, where ${showKey(key)} comes first (${how}): its StartAfter cannot be trusted`);
    }
  }
}

module.exports = { wireRange, walkPrefix, startProbes, checkStart, refusedName, BEFORE_SLASH };
