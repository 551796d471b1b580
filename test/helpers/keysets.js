'use strict';
// Deterministic adversarial S3 key sets, plus the filter for what MinIO can
// store AND list back. Tests must still treat MinIO's own sequential listing
// (s3env.sequentialList) as the truth, not the uploaded set.

const utf8len = (s) => Buffer.byteLength(s, 'utf8');

// The seeded PRNG lives with the layout generators (test/generators/prng.js), so the
// benchmark need not import test helpers; re-exported here for the tests.
const { prng } = require('../generators/prng');

const chars = (s) => Array.from(s); // code points, so astral chars stay whole
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

const ASCII = chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
// Every printable ASCII symbol except '/', which is placed deliberately.
const SYMBOLS = chars('!"#$%&\'()*+,-.:;<=>?@[\\]^_`{|}~');
const LATIN = chars('àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßÀÉÎÕÜŒœŠšŽžŁłĞğİı');
const CJK = chars('中文字日本語漢字한국어テストカタカナ鿿㐀');
const EMOJI = ['😀', '🚀', '🎉', '🐍', '𝄞', '👍🏽', '🇺🇳', '\u{10FFFD}'];
const CONTROL = range(0x01, 0x1f); // never U+0000: S3 and MinIO refuse it
// U+E000..U+FFFF sort AFTER surrogate pairs in UTF-16 but BEFORE astral chars
// in UTF-8: catches code comparing JS strings instead of UTF-8 bytes.
const BMP_HIGH_FIXED = ['\uE000', '\uF8FF', '\uFEFF', '\uFFFD', '\uFFFE', '\uFFFF'];
const bmpHigh = (r) => (r.next() < 0.3 ? r.pick(BMP_HIGH_FIXED) : String.fromCharCode(0xe000 + r.int(0x2000)));

function randomChar(r, { slash = false } = {}) {
  const x = r.next();
  if (x < 0.35) return r.pick(ASCII);
  if (x < 0.50) return slash && r.next() < 0.08 ? '/' : r.pick(SYMBOLS);
  if (x < 0.60) return r.pick(LATIN);
  if (x < 0.70) return r.pick(CJK);
  if (x < 0.78) return r.pick(EMOJI);
  if (x < 0.86) return bmpHigh(r);
  if (x < 0.93) return r.pick(CONTROL);
  return ' ';
}

// Exactly 1024 UTF-8 bytes (S3's maximum), '/'-separated segments of at most
// 255 bytes each (MinIO stores segments as file names: NAME_MAX).
function longKey(r) {
  let key = '';
  let bytes = 0;
  let seg = 0;
  let target = 100 + r.int(150); // <= 249, so seg never passes 252 before a '/'
  while (bytes < 1024) {
    let c;
    if (seg >= target && 1024 - bytes > 1) {
      c = '/';
    } else {
      c = randomChar(r);
      if (bytes + utf8len(c) > 1024) c = r.pick(ASCII); // fill the exact tail
    }
    key += c;
    bytes += utf8len(c);
    seg = c === '/' ? 0 : seg + utf8len(c);
    if (c === '/') target = 100 + r.int(150);
  }
  return key;
}

// Fixed coverage: every character class in one place, sort-order traps and a
// prefix family (the characters that sort before and after '/').
function coreKeys(r) {
  const base = 'pre/a';
  return [
    `sym/${SYMBOLS.join('')}`,
    'spaces/ lead and  double and trail ',
    ' ',
    `ctl/${CONTROL.join('')}`,
    'ctl/\u0001', 'ctl/\t', 'ctl/\n', 'ctl/\r', 'ctl/\u001f',
    `latin/${LATIN.slice(0, 12).join('')}`,
    `cjk/${CJK.join('')}`,
    `emoji/${EMOJI.join('')}`,
    `bmp/${BMP_HIGH_FIXED.join('')}`,
    'order/\uFFFF', 'order/😀', 'order/\uE000', 'order/𝄞', 'order/z', 'order/é',
    base, `${base}!`, `${base} `, `${base}\u0001`, `${base}.`, `${base}/`, `${base}/b`,
    `${base}0`, `${base}b`, `${base}\uFFFF`, `${base}😀`,
    longKey(r), longKey(r),
    // Valid on AWS S3, refused or mangled by MinIO: exercised via minioSafe().
    '/leading-slash', 'double//slash', 'dot/./seg', 'dot/../seg',
  ];
}

const SUFFIXES = ['', '!', ' ', '\u0001', '.', '/', '/x', '0', 'z', '\uFFFF', '😀', '-'];

/**
 * n unique adversarial keys, deterministic for a given seed, in shuffled
 * order. The first ~40 are fixed coverage keys (use n >= 40 for all of them);
 * the rest are random multi-segment keys, ~25% extending an earlier key so
 * keys that are prefixes of other keys are common. Includes some keys MinIO
 * cannot store: pass through minioSafe() before uploading to MinIO.
 */
function adversarialKeys(n, seed = 1) {
  const r = prng(seed);
  const out = new Set();
  for (const k of coreKeys(r)) if (out.size < n) out.add(k);
  const list = () => Array.from(out);
  while (out.size < n) {
    let key;
    if (out.size > 0 && r.next() < 0.25) {
      const prev = r.pick(list());
      if (utf8len(prev) > 900) continue;
      key = prev + r.pick(SUFFIXES) + (r.next() < 0.5 ? randomChar(r) : '');
    } else {
      const segs = 1 + r.int(4);
      key = Array.from({ length: segs }, () =>
        Array.from({ length: 1 + r.int(16) }, () => randomChar(r, { slash: true })).join('')).join('/');
    }
    if (utf8len(key) <= 1024 && !key.includes('\0')) out.add(key);
  }
  const keys = list();
  for (let i = keys.length - 1; i > 0; i--) { // Fisher-Yates, seeded
    const j = r.int(i + 1);
    [keys[i], keys[j]] = [keys[j], keys[i]];
  }
  return keys;
}

/**
 * Why MinIO (single drive, Linux) cannot store/list key faithfully, or null.
 * Found by experiment against MinIO 2026-02 (see test/integration/minio-harness.test.js):
 *  - empty, U+0000, lone surrogates (not valid UTF-8), > 1024 bytes
 *  - leading '/': accepted but stored WITHOUT the slash ("/a" lists as "a")
 *  - '//' anywhere: XMinioInvalidObjectName
 *  - a '.' or '..' segment, where '/' AND '\' both separate segments and
 *    segments are trimmed of ASCII whitespace first ("a/ .. /b", "a\..\b"):
 *    XMinioInvalidResourceName. The same check applies to ListObjects query
 *    values (prefix, start-after), but not to delimiter.
 *  - a segment longer than 255 UTF-8 bytes (file name): XMinioInvalidObjectName
 *  - a segment "xl.meta" (MinIO's metadata file; conflicts with the parent
 *    object, e.g. "a/xl.meta" then "a" fails) and "__XLDIR__" (how MinIO
 *    stores "dir/" objects: "a__XLDIR__" silently aliases "a/")
 * Control characters U+0001..U+001F, U+007F, U+FFFE/U+FFFF, backslashes,
 * trailing '/', trailing spaces and an object "a" next to "a/" are all fine.
 */
function minioRejectReason(key) {
  if (typeof key !== 'string' || key === '') return 'empty';
  if (key.includes('\0')) return 'NUL';
  if (!key.isWellFormed()) return 'lone surrogate';
  if (utf8len(key) > 1024) return 'longer than 1024 bytes';
  if (key.startsWith('/')) return 'leading slash';
  if (key.includes('//')) return 'empty segment';
  if (key.split(/[/\\]/).some((s) => /^[\t\n\v\f\r ]*\.{1,2}[\t\n\v\f\r ]*$/.test(s))) return 'dot segment';
  const segs = key.split('/');
  if (segs.some((s) => utf8len(s) > 255)) return 'segment longer than 255 bytes';
  if (segs.some((s) => s === 'xl.meta')) return 'xl.meta segment';
  if (key.includes('__XLDIR__')) return '__XLDIR__';
  return null;
}

/**
 * The subset of keys that MinIO stores and lists back verbatim, in input
 * order, deduplicated. Beyond minioRejectReason(): when an object "a" exists,
 * MinIO accepts and serves "a/b" (GET/HEAD work) but never LISTS it (its
 * walker does not descend into a directory that holds an object's xl.meta),
 * so keys below another (non-'/'-terminated) key are dropped. "a/" (a
 * directory object) does not hide "a/b".
 */
function minioSafe(keys) {
  const valid = [...new Set(keys)].filter((k) => minioRejectReason(k) === null);
  const objects = new Set(valid.filter((k) => !k.endsWith('/')));
  return valid.filter((k) => {
    const base = k.endsWith('/') ? k.slice(0, -1) : k;
    for (let i = base.indexOf('/'); i !== -1; i = base.indexOf('/', i + 1)) {
      if (objects.has(base.slice(0, i))) return false;
    }
    return true;
  });
}

module.exports = { adversarialKeys, minioSafe, minioRejectReason, prng, utf8len };
