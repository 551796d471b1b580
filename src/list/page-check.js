'use strict';
// Trust but verify, page by page: a page is strictly increasing in S3's UTF-8 key order,
// starts after its StartAfter and stays inside the prefix. A store that fails is an
// UntrustedStore (see guarded-lister.js).
const { compareKeys } = require('../keys/order');
const { chunkOf } = require('../stores/chunks');
const { UntrustedStore, showKey } = require('./untrusted-store');

function compareAscii(a, b) { return a === b ? 0 : a < b ? -1 : 1; }

// Keys of ASCII only (the lean parser marks such pages) compare correctly with the native
// operator. A page the parser saw increasing (sorted) needs only its ends checked: keys
// between two keys with the prefix have it too. Returns null, or what is wrong.
function pageDisorder(page, after, prefix) {
  const cmp = page.ascii ? compareAscii : compareKeys;
  const chunk = chunkOf(page);
  const outside = (key) => `returned ${showKey(key)}, outside the prefix ${showKey(prefix)}`;
  const early = (key, prev, k) => (k === 0
    ? `answered StartAfter ${showKey(prev)} with ${showKey(key)}, which does not come after it in S3's UTF-8 key order`
    : `listed ${showKey(key)} after ${showKey(prev)}, not in S3's UTF-8 key order`);
  if (page.sorted && page.ascii) {
    const n = chunk.length;
    if (n === 0) return null;
    const first = chunk.key(0);
    if (after !== '' && cmp(first, after) <= 0) return early(first, after, 0);
    if (prefix && !first.startsWith(prefix)) return outside(first);
    if (prefix && !chunk.key(n - 1).startsWith(prefix)) return outside(chunk.key(n - 1));
    return null;
  }
  let prev = after;
  for (let k = 0; k < chunk.length; k++) {
    const key = chunk.key(k);
    if ((prev !== '' || k > 0) && cmp(key, prev) <= 0) return early(key, prev, k);
    if (prefix && !key.startsWith(prefix)) return outside(key);
    prev = key;
  }
  return null;
}

function pageInOrder(page, after, prefix) {
  return pageDisorder(page, after, prefix) === null;
}

// The same, as an UntrustedStore thrown.
function checkPage(page, after, prefix) {
  const wrong = pageDisorder(page, after, prefix);
  if (wrong) throw new UntrustedStore(`the store ${wrong}`);
}

// Some stores (MinIO) refuse a StartAfter with a '.' or '..' path segment, which no real
// key there has; a made-up split point must not have one either.
function acceptableStartAfter(key) {
  return !/(^|[/\\])\s*\.{1,2}\s*([/\\]|$)/.test(key) && !key.includes('//');
}

module.exports = { pageDisorder, pageInOrder, checkPage, acceptableStartAfter, compareAscii };
