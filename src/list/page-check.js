'use strict';
// Trust but verify, page by page: a page is strictly increasing in S3's UTF-8 key order,
// starts after its StartAfter and stays inside the prefix. A store that fails is an
// UntrustedStore (see guarded-lister.js).
const { compareKeys, compareCodeUnits } = require('../keys/order');
const { chunkOf } = require('../stores/chunks');
const { UntrustedStore, showKey } = require('./untrusted-store');

// How a page's keys compare with any key: natively where none holds a code unit at or above
// U+D800 (the lean parser marks ASCII pages and says so of the others): at the first place
// such a key differs from another, the two orders agree (keys/order.js).
function comparerFor(page) {
  return page.ascii || chunkOf(page).utf16Ordered() ? compareCodeUnits : compareKeys;
}

// A page the parser saw increasing in S3's order (sorted) needs only its ends checked: keys
// between two keys with the prefix have it too. Returns null, or what is wrong.
function pageDisorder(page, after, prefix) {
  const cmp = comparerFor(page);
  const chunk = chunkOf(page);
  const outside = (key) => `returned ${showKey(key)}, outside the prefix ${showKey(prefix)}`;
  const early = (key, prev, k) => (k === 0
    ? `answered StartAfter ${showKey(prev)} with ${showKey(key)}, which does not come after it in S3's UTF-8 key order`
    : `listed ${showKey(key)} after ${showKey(prev)}, not in S3's UTF-8 key order`);
  if (page.sorted) {
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

module.exports = { pageDisorder, pageInOrder, checkPage, acceptableStartAfter, comparerFor };
