'use strict';
// In-memory, S3-compatible HTTP endpoint for benchmarks and integration tests.
//
// Design goals, in order: (1) respond like S3 closely enough that aws-cli
// (botocore), s5cmd (aws-sdk-go) and rclone accept it; (2) cost the benchmark
// far less CPU than the client under test; (3) hold millions of keys cheaply.
// Signatures are never verified. Object bodies are never stored: GET returns
// deterministic bytes derived from the object's size (so GET bodies do NOT
// hash to the ETag), PUT hashes and discards.
//
// Library:  const s = await startFakeS3({listLatencyMs, otherLatencyMs, port, host, region})
//           -> {endpoint, port, buckets, server, addBucket, seed, stats, resetStats,
//               cpuUsage, count, digest, clear, setLatency, close}
//           const c = await spawnFakeS3({...same, seeds, nodeArgs}): same API (async) backed by
//           a child process, so the fake's CPU is measured apart from the client.
// Process:  node bench/fake-s3.js [--port 0] [--host 127.0.0.1] [--list-latency 100]
//             [--other-latency 30] [--region us-east-1] [--bucket NAME]...
//             [--seed BUCKET:GENERATOR:COUNT[:SIZE]]... [--watch-stdin]
//           prints {"endpoint":...,"port":...,"pid":...} as one line on stdout once ready.
// Control:  GET /__stats, POST /__reset, POST /__bucket?name=, POST /__seed?bucket=&generator=
//           &count=[&size=|&minSize=&maxSize=][&parts=N][&checksums=1][&prefix=&seed=...], GET /__count?bucket=
//           (objects and bytes), GET /__digest?bucket=[&copied=1], POST /__clear?bucket=,
//           POST /__prerender?bucket=&url=1 (listings copy pre-rendered entries until a change),
//           POST /__latency?list=&other=&jitter=&stallEvery=&stallMs=,
//           POST /__limits?prefixRate=&burst= (per-prefix write limit; 0 turns it off)
//           (no latency, not counted)

const http = require('node:http');
const crypto = require('node:crypto');
const { spawn } = require('node:child_process');
const { TokenBucket } = require('../test/helpers/token-bucket');

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';
const CLASSES = ['STANDARD', 'STANDARD_IA', 'ONEZONE_IA', 'INTELLIGENT_TIERING', 'GLACIER',
  'DEEP_ARCHIVE', 'GLACIER_IR', 'REDUCED_REDUNDANCY', 'EXPRESS_ONEZONE'];
const MAX_KEYS = 1000;
const MIN_PART = 5 * 1024 * 1024;
const MAX_COPY = 5 * 1024 * 1024 * 1024;
const SEED_TIME = Date.parse('2024-06-01T00:00:00.000Z');

// ---------------------------------------------------------------------------
// Key order. S3 lists in UTF-8 byte order (= code point order). JS string `<`
// compares UTF-16 code units, which disagrees only when a surrogate (U+D800..
// U+DFFF, i.e. a character above U+FFFF) meets U+E000..U+FFFF. Instead of a
// slow JS comparator we store keys in an "internal" form where those code
// units are remapped (surrogates moved above U+E000..U+FFFF), so native `<`,
// Array#sort() and startsWith all follow S3's order. The map is per code unit,
// hence prefix-preserving; ASCII keys are stored untouched.
const HIGH = /[\uD800-\uFFFF]/;
const HIGH_G = /[\uD800-\uFFFF]/g;
const toIntUnit = (c) => String.fromCharCode(c.charCodeAt(0) >= 0xE000 ? c.charCodeAt(0) - 0x800 : c.charCodeAt(0) + 0x2000);
const toExtUnit = (c) => String.fromCharCode(c.charCodeAt(0) >= 0xF800 ? c.charCodeAt(0) - 0x2000 : c.charCodeAt(0) + 0x800);
const toInt = (s) => (HIGH.test(s) ? s.replace(HIGH_G, toIntUnit) : s);
const toExt = (s) => (HIGH.test(s) ? s.replace(HIGH_G, toExtUnit) : s);

// Smallest string greater than every string starting with p (null: none).
function nextPrefix(p) {
  for (let i = p.length - 1; i >= 0; i--) {
    const c = p.charCodeAt(i);
    if (c < 0xFFFF) return p.slice(0, i) + String.fromCharCode(c + 1);
  }
  return null;
}

// ---------------------------------------------------------------------------
// Cheap helpers for the hot list path.

// Seeded objects carry no stored ETag: it is derived from the key with a fast
// 64-bit non-cryptographic hash stretched to 128 bits, and written as hex
// straight into the response buffer (md5 per listed key, or even
// Number#toString(16), would cost more CPU than the rest of the list page).
// All arithmetic stays in int32 (no `>>>` results or sums that overflow into
// doubles), which makes this ~3x faster in V8.
function fmix(h) {
  h ^= h >> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >> 13; h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >> 16);
}
const HEXB = Buffer.from('0123456789abcdef');
// Writes the 32 hex digits of key s's derived ETag into buf at offset o.
function writeKeyEtag(buf, o, s) {
  let a = 0x811c9dc5 ^ s.length, b = 0x1b873593;
  for (let i = 0; i < s.length; i++) {
    const x = s.charCodeAt(i);
    a = Math.imul(a ^ x, 0x01000193);
    b = Math.imul(b ^ x, 0x5bd1e995) ^ (b >> 15);
  }
  let x0 = fmix(a), x1 = fmix(b), x2 = fmix(a ^ b ^ 0x2545f491), x3 = fmix(a + b | 0);
  for (let k = 7; k >= 0; k--) {
    buf[o + k] = HEXB[x0 & 15]; buf[o + 8 + k] = HEXB[x1 & 15]; buf[o + 16 + k] = HEXB[x2 & 15]; buf[o + 24 + k] = HEXB[x3 & 15];
    x0 >>= 4; x1 >>= 4; x2 >>= 4; x3 >>= 4;
  }
}
const etagBuf = Buffer.alloc(32);
const keyEtag = (s) => { writeKeyEtag(etagBuf, 0, s); return etagBuf.latin1Slice(0, 32); };
// A key's 31-bit hash (FNV-1a), for per-key values such as seeded sizes.
function keyHash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 1);
}

// Growable byte buffer for list pages: writing pieces straight into a Buffer
// is ~2x cheaper than building the XML as a string and encoding it.
const U8 = new Uint8Array(4);
const HEXU = Buffer.from('0123456789ABCDEF');
const URL_SAFE_BYTE = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~/') URL_SAFE_BYTE[ch.charCodeAt(0)] = 1;
const XML_BYTE = Array.from({ length: 128 }, (_, c) => (c < 32 ? `&#${c};` : { 38: '&amp;', 60: '&lt;', 62: '&gt;', 34: '&quot;', 39: '&apos;' }[c] || ''));

// Page buffers are recycled once the socket has flushed them ('finish'):
// allocating ~250 KB of external memory per page would trigger major GCs,
// each of which has to mark the million-key index.
const bufPool = [];
class Out {
  constructor(n) {
    const i = bufPool.findIndex((b) => b.length >= n);
    this.b = i >= 0 ? bufPool.splice(i, 1)[0] : Buffer.allocUnsafe(Math.max(n, 256 << 10));
    this.o = 0;
  }
  // Hand the bytes to res; the buffer returns to the pool when res is done with it.
  sendOn(res) {
    const b = this.b;
    res.once('finish', () => { if (bufPool.length < 16) bufPool.push(b); });
    return b.subarray(0, this.o);
  }
  need(n) {
    if (this.o + n <= this.b.length) return;
    const nb = Buffer.allocUnsafe(Math.max(this.b.length * 2, this.o + n));
    this.b.copy(nb, 0, 0, this.o);
    this.b = nb;
  }
  str(s) { this.need(s.length * 3); this.o += this.b.utf8Write(s, this.o); }
  // Writes internal-form key k as UTF-8, un-mapping code units, XML-escaped or
  // (url) form-encoded, in one pass with no intermediate strings.
  key(k, url) {
    this.need(k.length * 9 + 8);
    const b = this.b;
    let o = this.o;
    for (let i = 0; i < k.length; i++) {
      let c = k.charCodeAt(i);
      if (c >= 0xD800) {
        c = c >= 0xF800 ? c - 0x2000 : c + 0x800;
        if (c <= 0xDBFF && i + 1 < k.length) { // surrogate pair -> code point
          const d = k.charCodeAt(i + 1) - 0x2000;
          if (d >= 0xDC00 && d <= 0xDFFF) { c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00); i++; }
        }
      }
      if (c < 0x80) {
        if (url) {
          if (URL_SAFE_BYTE[c]) b[o++] = c;
          else if (c === 32) b[o++] = 43; // '+'
          else { b[o++] = 37; b[o++] = HEXU[c >> 4]; b[o++] = HEXU[c & 15]; }
        } else if (XML_BYTE[c]) { o += b.latin1Write(XML_BYTE[c], o); } else b[o++] = c;
        continue;
      }
      let n = 0; // UTF-8 bytes into a small scratch, then raw or %-encoded
      if (c < 0x800) { U8[0] = 0xC0 | (c >> 6); U8[1] = 0x80 | (c & 63); n = 2; } else if (c < 0x10000) {
        if (c >= 0xD800 && c <= 0xDFFF) c = 0xFFFD; // lone surrogate: what a UTF-8 encoder would emit
        U8[0] = 0xE0 | (c >> 12); U8[1] = 0x80 | ((c >> 6) & 63); U8[2] = 0x80 | (c & 63); n = 3;
      } else { U8[0] = 0xF0 | (c >> 18); U8[1] = 0x80 | ((c >> 12) & 63); U8[2] = 0x80 | ((c >> 6) & 63); U8[3] = 0x80 | (c & 63); n = 4; }
      for (let j = 0; j < n; j++) {
        if (url) { b[o++] = 37; b[o++] = HEXU[U8[j] >> 4]; b[o++] = HEXU[U8[j] & 15]; } else b[o++] = U8[j];
      }
    }
    this.o = o;
  }
  raw(buf) { this.need(buf.length); this.b.set(buf, this.o); this.o += buf.length; }
}

// Seeded objects share one timestamp, copies are stamped "now": a tiny cache
// avoids a Date allocation + toISOString per listed key.
const isoCache = new Map();
function iso(ms) {
  let s = isoCache.get(ms);
  if (s === undefined) {
    if (isoCache.size > 4096) isoCache.clear();
    s = new Date(ms).toISOString();
    isoCache.set(ms, s);
  }
  return s;
}

const XML_ESC = /[&<>"'\x00-\x1f]/;
const XML_ESC_G = /[&<>"'\x00-\x1f]/g;
const ENT = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xmlEsc = (s) => (XML_ESC.test(s) ? s.replace(XML_ESC_G, (c) => ENT[c] || `&#${c.charCodeAt(0)};`) : s);
const xmlUnesc = (s) => s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (m, e) =>
  e[0] === '#' ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : +e.slice(1))
    : { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e]);

// encoding-type=url: S3 form-encodes (space -> '+'); '/' is left readable.
// Clients decode with unquote_plus / QueryUnescape, so '+' must be %2B.
const URL_SAFE = /^[A-Za-z0-9\-_.~/]*$/;
const urlEnc = (s) => (URL_SAFE.test(s) ? s : encodeURIComponent(s).replace(/%2F/g, '/').replace(/%20/g, '+'));

const CONTENTS_OPEN = Buffer.from('<Contents><Key>');
const unquote = (e) => e.replace(/^(&quot;|")|(&quot;|")$/g, '');

// GET bodies: byte at offset i of an object of size n is PATTERN[(i + n) % P].
// P is prime so objects of different sizes differ; the buffer is P + CHUNK
// long so any chunk is one contiguous subarray (no per-request allocation).
const PERIOD = 65521;
const CHUNK = 65536;
const PATTERN = (() => {
  const b = Buffer.allocUnsafe(PERIOD + CHUNK);
  let x = 0x2545f491;
  for (let i = 0; i < PERIOD; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; b[i] = x & 0xff; }
  // Byte by byte: the tail is longer than the period, so a copy of [0, CHUNK) would read
  // bytes not yet written (and every process would serve different ones there).
  for (let i = PERIOD; i < b.length; i++) b[i] = b[i - PERIOD];
  return b;
})();

// ---------------------------------------------------------------------------
// Per-bucket object index: sorted parallel arrays (keys in internal form).
// Deletes tombstone (size = -1). New keys go to an unsorted `pending` Map that
// is sorted and merged in one O(n + k log k) pass before the next listing, so
// 100k copies arriving at thousands/s cost O(log n) each.
class Bucket {
  constructor(name) {
    this.name = name;
    this.created = Date.now();
    this.keys = [];
    this.size = new Float64Array(0);
    this.mtime = new Float64Array(0);
    this.cls = new Uint8Array(0);
    this.etag = []; // undefined => derived from key
    this.dead = 0;
    this.plain = true; // all keys URL- and XML-safe? (then keys are written verbatim)
    this.pending = new Map(); // ikey -> [size, etag, mtime, cls]
    this.uploads = new Map(); // uploadId -> {ikey, initiated, cls, parts: Map}
    this.tags = new Map(); // ikey -> [[k, v], ...]
    this.seedParts = 0; // seeded keys (no stored ETag) were uploaded in this many parts: ETag "<hash>-N"
    this.layouts = new Map(); // ikey -> part sizes, for objects completed from parts
    // Seeded history (?versions=N&markerEvery=M): every key has N versions, derived (never
    // stored), the newest a delete marker on every M-th key. null: one "null" version each.
    this.history = null;
    this.meta = false; // seeded with ?meta=1: HEAD answers carry user metadata and Cache-Control
    // Seeded with ?checksums=1: whole-object GETs and HEADs with checksum mode on carry the
    // body's full-object CRC64NVME, as S3 stores for every object since 2025.
    this.checksums = false;
  }

  // A seeded key's ETag (none is stored for it).
  seedEtag(k) { return this.seedParts ? `${keyEtag(k)}-${this.seedParts}` : keyEtag(k); }

  // The part sizes of a multipart object (null for a single-part one).
  partSizes(k, o) {
    const stored = this.layouts.get(k);
    if (stored) return stored;
    const n = /-(\d+)$/.exec(o.etag);
    if (!n || !o.seeded) return null;
    const parts = +n[1], each = Math.ceil(o.size / parts) || 0;
    return Array.from({ length: parts }, (_, i) => Math.max(0, Math.min(each, o.size - i * each)));
  }

  get count() { return this.keys.length - this.dead + this.pending.size; }

  lowerBound(k, lo = 0) {
    let hi = this.keys.length;
    const keys = this.keys;
    while (lo < hi) { const m = (lo + hi) >>> 1; if (keys[m] < k) lo = m + 1; else hi = m; }
    return lo;
  }

  indexOf(k) {
    const i = this.lowerBound(k);
    return i < this.keys.length && this.keys[i] === k && this.size[i] >= 0 ? i : -1;
  }

  get(k) {
    const p = this.pending.get(k);
    if (p) return { size: p[0], etag: p[1], mtime: p[2], cls: p[3] };
    const i = this.indexOf(k);
    if (i < 0) return null;
    const seeded = this.etag[i] === undefined;
    return { size: this.size[i], etag: seeded ? this.seedEtag(k) : this.etag[i], mtime: this.mtime[i], cls: this.cls[i], seeded };
  }

  // Every entry's XML rendered once, for listings that then cost a copy of bytes (an endpoint
  // that costs almost no CPU: the client's own cost measured alone). Any change drops it.
  prerender(url) {
    this.flush();
    const n = this.keys.length, at = new Float64Array(n + 1), out = new Out(n * 200 + 1024);
    contentsXml(out, this, Array.from({ length: n }, (_, i) => i), n, url, at);
    this.rendered = { url, buf: out.b.subarray(0, out.o), at };
  }

  put(k, size, etag, mtime, cls, layout = null) {
    this.rendered = null;
    if (layout) this.layouts.set(k, layout); else this.layouts.delete(k);
    if (this.plain && !URL_SAFE.test(k)) this.plain = false;
    const i = this.lowerBound(k);
    if (i < this.keys.length && this.keys[i] === k) { // overwrite in place, revive tombstone
      if (this.size[i] < 0) this.dead--;
      this.size[i] = size; this.etag[i] = etag; this.mtime[i] = mtime; this.cls[i] = cls;
    } else {
      this.pending.set(k, [size, etag, mtime, cls]);
    }
  }

  del(k) {
    this.rendered = null;
    this.tags.delete(k);
    this.layouts.delete(k);
    if (this.pending.delete(k)) return true;
    const i = this.indexOf(k);
    if (i < 0) return false;
    this.size[i] = -1; this.etag[i] = undefined; this.dead++;
    return true;
  }

  clear() {
    this.rendered = null;
    this.keys = []; this.etag = []; this.dead = 0; this.plain = true; this.pending.clear(); this.tags.clear();
    this.seedParts = 0; this.layouts.clear(); this.history = null; this.meta = false; this.checksums = false;
    this.size = new Float64Array(0); this.mtime = new Float64Array(0); this.cls = new Uint8Array(0);
  }

  // Before a listing: merge pending inserts, and compact once tombstones pile
  // up (a few deletes are cheaper to skip in scan than to rewrite n entries).
  flush() {
    if (this.pending.size === 0 && this.dead <= this.keys.length >> 3) return;
    const nk = [...this.pending.keys()].sort();
    const recs = this.pending;
    this.pending = new Map();
    this.merge(nk, (j) => recs.get(nk[j]));
  }

  // Merge sorted unique new keys into the arrays, dropping tombstones. On a
  // duplicate key the new record wins. rec(j) -> [size, etag, mtime, cls].
  merge(nk, rec) {
    this.rendered = null;
    const ok = this.keys, n = ok.length, m = nk.length;
    const cap = n - this.dead + m;
    const keys = new Array(cap), etag = new Array(cap);
    const size = new Float64Array(cap), mtime = new Float64Array(cap), cls = new Uint8Array(cap);
    let i = 0, j = 0, w = 0;
    while (i < n || j < m) {
      if (i < n && this.size[i] < 0) { i++; continue; }
      let takeNew = i >= n;
      if (!takeNew && j < m) {
        if (ok[i] === nk[j]) { i++; takeNew = true; } else takeNew = nk[j] < ok[i];
      }
      if (takeNew) {
        const r = rec(j);
        keys[w] = nk[j]; size[w] = r[0]; etag[w] = r[1]; mtime[w] = r[2]; cls[w] = r[3]; j++;
      } else {
        keys[w] = ok[i]; size[w] = this.size[i]; etag[w] = this.etag[i]; mtime[w] = this.mtime[i]; cls[w] = this.cls[i]; i++;
      }
      w++;
    }
    keys.length = w; etag.length = w;
    this.keys = keys; this.etag = etag; this.dead = 0;
    this.size = w < cap ? size.slice(0, w) : size;
    this.mtime = w < cap ? mtime.slice(0, w) : mtime;
    this.cls = w < cap ? cls.slice(0, w) : cls;
  }

  // One page of a listing. `after` (internal form) is exclusive; a common
  // prefix <= after was already returned on an earlier page and is skipped
  // whole, which is how S3 resumes from a NextMarker that is a prefix.
  scan(prefix, delim, after, max) {
    this.flush();
    const keys = this.keys, n = keys.length;
    let i = after != null && after >= prefix ? this.lowerBound(after) : this.lowerBound(prefix);
    if (after != null && i < n && keys[i] === after) i++;
    const contents = [], prefixes = [];
    let count = 0, last = null, truncated = false;
    while (i < n) {
      const k = keys[i];
      if (!k.startsWith(prefix)) break;
      if (this.size[i] < 0) { i++; continue; }
      if (delim) {
        const d = k.indexOf(delim, prefix.length);
        if (d >= 0) {
          const cp = k.slice(0, d + delim.length);
          if (after == null || cp > after) {
            if (count >= max) { truncated = true; break; }
            prefixes.push(cp); count++; last = cp;
          }
          const np = nextPrefix(cp);
          i = np === null ? n : this.lowerBound(np, i + 1);
          continue;
        }
      }
      if (count >= max) { truncated = true; break; }
      contents.push(i); count++; last = k; i++;
    }
    return { contents, prefixes, truncated, last, count };
  }
}

// ---------------------------------------------------------------------------
// Seed generators. Each returns a sorted, duplicate-free array of keys in
// internal form.
function prng(seed) { // sfc32-ish, deterministic
  let a = seed | 0, b = 0x9e3779b9, c = 0x243f6a88, d = 1;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11); c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

function sortUnique(arr) {
  arr.sort();
  let w = 0;
  for (let i = 0; i < arr.length; i++) if (i === 0 || arr[i] !== arr[w - 1]) arr[w++] = arr[i];
  arr.length = w;
  return arr;
}

const GENERATORS = {
  // logs/YYYY/MM/DD/host-HH/part-NNNNN.gz; emitted in order, so no sort needed.
  hierarchical(count, { prefix = 'logs/', hosts = 8, perDir = 500 } = {}) {
    const hw = Math.max(2, String(hosts - 1).length), pw = Math.max(5, String(perDir - 1).length);
    const hostStr = Array.from({ length: hosts }, (_, h) => `/host-${String(h).padStart(hw, '0')}/part-`);
    const partStr = Array.from({ length: perDir }, (_, p) => String(p).padStart(pw, '0') + '.gz');
    const out = new Array(count);
    const day = new Date(Date.UTC(2024, 0, 1));
    let n = 0;
    while (n < count) {
      const d = prefix + day.toISOString().slice(0, 10).replace(/-/g, '/');
      for (let h = 0; h < hosts && n < count; h++) {
        const dh = d + hostStr[h];
        for (let p = 0; p < perDir && n < count; p++) out[n++] = dh + partStr[p];
      }
      day.setUTCDate(day.getUTCDate() + 1);
    }
    return toInt(prefix) === prefix ? out : sortUnique(out.map(toInt));
  },

  // Uniformly random 24-char base36 names (flat bucket, no shared prefixes).
  random(count, { prefix = '', seed = 1, length = 24 } = {}) {
    const next = prng(seed), A = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');
    // Characters go into one flat buffer and are sliced out as flat strings:
    // appending char by char would build 24-node ropes (slow sort, 3x memory).
    const buf = Buffer.allocUnsafe(count * length);
    for (let o = 0; o < buf.length;) {
      let u = next();
      for (let k = 0; k < 6 && o < buf.length; k++) { buf[o++] = A[u % 36]; u = (u / 36) >>> 0; } // 36^6 < 2^32
    }
    const ip = toInt(prefix), out = new Array(count);
    for (let n = 0; n < count; n++) out[n] = ip + buf.latin1Slice(n * length, (n + 1) * length);
    return sortUnique(out);
  },

  // Keys mixing ASCII, accented Latin, CJK, Hangul, emoji and other astral
  // characters, U+E000..U+FFFF (private use, fullwidth, U+FFFD), spaces and
  // the "may need special handling" symbols from S3's key naming guide. Astral
  // and U+E000+ characters occur at the same positions in sibling keys, so
  // UTF-16 vs UTF-8 ordering bugs show. Avoided, because peers mangle them
  // rather than because S3 does: '*', '?', '[', ']' (s5cmd globs), '//', a
  // trailing '/', '.'/'..' segments (rclone), control characters.
  unicode(count, { prefix = '', seed = 7 } = {}) {
    const next = prng(seed);
    const dirs = ['docs', 'Café', 'naïve résumé', '日本語', '中文目录', 'emoji 😀', 'ｆｕｌｌ', 'misc & more',
      'a+b=c', '\uE000private', 'Ω mega', 'x'];
    const words = ['alpha', 'Ünïcödé', 'ñandú', 'Øre', 'façade', '東京', '北京市', '한국어', '🚀', '🎉party',
      '𝔘𝔫𝔦', '\uE001pua', '\uFFFDrep', 'ｗｉｄｅ', 'two words', "it's", '(paren)', '$dollar', '@at',
      'semi;colon', 'comma,x', 'colon:y', 'plus+sign', 'eq=val', 'amp&er', 'tilde~', 'pct%41', 'hash#1',
      '😀smile', '\uFF01bang', 'z'];
    // Names start with two characters drawn from a mixed pool, so siblings
    // differ early (cheap sort) and astral vs U+E000+ characters meet at the
    // same position (exercises UTF-8 order).
    const chars = [...'aZ09_-.éüñøçßΩжא日本中한😀🚀🎉𝔘\uE000\uE123\uF8FF\uFB01\uFF21\uFF41\uFFFD'];
    // Pools are mapped to internal form once (the map is per code unit, so
    // concatenating mapped pieces equals mapping the concatenation).
    const D = dirs.map((d) => toInt(d) + '/'), W = words.map(toInt), C = chars.map(toInt), ip = toInt(prefix);
    const pick = (arr) => arr[next() % arr.length];
    const out = new Array(count);
    for (let n = 0; n < count; n++) {
      const depth = next() % 3;
      out[n] = ip + pick(D) + (depth === 2 ? pick(D) : '') + pick(C) + pick(C) + pick(W) + ' ' + pick(W) + '-' + n.toString(36) + (depth === 0 ? '.txt' : '');
    }
    return sortUnique(out);
  },

  // Objects spread over top-level prefixes p00/, p01/, ... (S3 throttles per prefix): hot is the
  // share of all keys in p00/, the rest shared evenly by the others.
  prefixes(count, { prefixes = 10, hot = 0 } = {}) {
    const pw = Math.max(2, String(prefixes - 1).length), out = new Array(count);
    const inHot = hot > 0 ? Math.round(count * hot) : Math.ceil(count / prefixes);
    let n = 0;
    for (let p = 0; p < prefixes && n < count; p++) {
      const share = p === 0 ? inHot : Math.ceil((count - inHot) / Math.max(1, prefixes - 1));
      const head = `p${String(p).padStart(pw, '0')}/`;
      for (let i = 0; i < share && n < count; i++) out[n++] = `${head}d${String(i >> 10).padStart(4, '0')}/obj-${String(i).padStart(7, '0')}`;
    }
    out.length = n;
    return out; // emitted in order
  },

  // One of bench/layouts.js's key layouts (?layout=NAME&seed=N): the lister's range of shapes.
  // ?layout=generated&seed=N: a layout drawn from the families (test/generators/).
  layout(count, { layout, seed = 1 } = {}) {
    const { LAYOUTS, generateLayout } = require('./layouts');
    if (layout === 'generated') return sortUnique(generateLayout(seed, count).keys.map(toInt));
    if (!LAYOUTS[layout]) throw new Error(`unknown layout ${layout} (have ${Object.keys(LAYOUTS)})`);
    return sortUnique(LAYOUTS[layout](count, seed).map(toInt));
  },
};

// ---------------------------------------------------------------------------
// aws-chunked bodies (x-amz-content-sha256: STREAMING-...): SDKs may frame
// uploads as "<hex>[;ext]\r\n<data>\r\n ... 0\r\n<trailers>\r\n\r\n".
function chunkDecoder(onData) {
  let need = -1, head = '', skip = 0, done = false;
  return (buf) => {
    let o = 0;
    while (o < buf.length && !done) {
      if (skip) { const s = Math.min(skip, buf.length - o); skip -= s; o += s; continue; }
      if (need < 0) {
        const nl = buf.indexOf(10, o);
        head += buf.toString('latin1', o, nl < 0 ? buf.length : nl + 1);
        if (nl < 0) return;
        o = nl + 1;
        need = parseInt(head, 16); head = '';
        if (!(need > 0)) done = true;
        continue;
      }
      const t = Math.min(need, buf.length - o);
      onData(buf.subarray(o, o + t));
      o += t; need -= t;
      if (need === 0) { need = -1; skip = 2; }
    }
  };
}

// Consume a request body, returning {size, md5hex} without keeping it.
function hashBody(req) {
  return new Promise((resolve, reject) => {
    const h = crypto.createHash('md5');
    let size = 0;
    const onData = (b) => { size += b.length; h.update(b); };
    const chunked = /aws-chunked/.test(req.headers['content-encoding'] || '') ||
      /^STREAMING-/.test(req.headers['x-amz-content-sha256'] || '');
    req.on('data', chunked ? chunkDecoder(onData) : onData);
    req.on('end', () => resolve({ size, md5: h.digest('hex') }));
    req.on('error', reject);
  });
}

function readText(req, limit = 8 << 20) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let n = 0;
    req.on('data', (b) => { n += b.length; if (n <= limit) parts.push(b); });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

// What S3 makes of a copied object's ETag: a single-part ETag is the MD5 of the bytes and
// stays; a multipart one is not, so the copy gets an MD5 (here derived from the source ETag,
// the same for every copy of the same bytes).
function contentEtag(etag) {
  return /-\d+$/.test(etag) ? crypto.createHash('md5').update(`content:${etag}`).digest('hex') : etag;
}

// Parts copied from one multipart source in its own part layout make the source's ETag again
// (their MD5s are the source's part MD5s), as on S3.
function sameLayout(parts) {
  const f = parts[0] && parts[0].from;
  if (!f || !f.sizes || f.sizes.length !== parts.length) return false;
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i].from;
    if (!p || p.etag !== f.etag || p.start !== at || p.end !== at + f.sizes[i] - 1) return false;
    at += f.sizes[i];
  }
  return true;
}

class S3Error extends Error {
  constructor(status, code, message, extra = {}) { super(message); this.status = status; this.code = code; this.extra = extra; }
}
const noBucket = (name) => new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: name });
const noKey = (key) => new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });

function parseMaxKeys(v) {
  if (v == null || v === '') return MAX_KEYS;
  if (!/^\d+$/.test(v)) throw new S3Error(400, 'InvalidArgument', 'Provided max-keys not an integer or within integer range');
  return Math.min(+v, MAX_KEYS);
}

// x-amz-copy-source is URL-encoded "bucket/key". S3 form-decodes it ('+' is a
// space): s5cmd (Go url.QueryEscape) sends spaces as '+', botocore and rclone
// send %20 and escape '+' as %2B. Raw UTF-8 bytes reach node as latin1.
function parseCopySource(h) {
  let s = Buffer.from(h, 'latin1').toString('utf8').replace(/\?versionId=.*$/, '').replace(/\+/g, ' ');
  try { s = decodeURIComponent(s); } catch { throw new S3Error(400, 'InvalidArgument', 'Invalid copy source encoding'); }
  if (s[0] === '/') s = s.slice(1);
  const i = s.indexOf('/');
  if (i <= 0 || i === s.length - 1) throw new S3Error(400, 'InvalidArgument', 'Copy Source must mention the source bucket and key: sourcebucket/sourcekey');
  return { bucket: s.slice(0, i), key: s.slice(i + 1) };
}

// ---------------------------------------------------------------------------
// The <Contents> of entries list[0..n) of bucket b (url: keys form-encoded). at: where each
// entry starts in out (and at[n] where the last ends), for prerender().
function contentsXml(out, b, list, n, url, at) {
  // Hot loop. The XML between key and ETag depends only on LastModified, and
  // after the ETag only on size + storage class: seeded objects share them,
  // so both pieces are memoised as Buffers across consecutive entries (the
  // tail also carries the next entry's "<Contents><Key>": one copy fewer).
  const { keys, size, mtime, etag, cls } = b, plain = b.plain;
  let midT = NaN, mid = null, tailS = NaN, tailC = -1, tail = null, tailOpen = null;
  if (n) { if (at) at[0] = out.o; out.raw(CONTENTS_OPEN); }
  for (let j = 0; j < n; j++) {
    const i = list[j], k = keys[i];
    if (mtime[i] !== midT) { midT = mtime[i]; mid = Buffer.from(`</Key><LastModified>${iso(midT)}</LastModified><ETag>&quot;`); }
    if (size[i] !== tailS || cls[i] !== tailC) {
      tailS = size[i]; tailC = cls[i];
      tail = Buffer.from(`&quot;</ETag><Size>${tailS}</Size><StorageClass>${CLASSES[tailC]}</StorageClass></Contents>`);
      tailOpen = Buffer.concat([tail, CONTENTS_OPEN]);
    }
    if (plain) { // ASCII, nothing to escape: plain byte copy beats a native call
      out.need(k.length + 256);
      const ob = out.b, o = out.o;
      for (let c = 0; c < k.length; c++) ob[o + c] = k.charCodeAt(c);
      out.o += k.length;
    } else out.key(k, url);
    out.raw(mid);
    out.need(64 + tailOpen.length);
    if (etag[i] === undefined) {
      writeKeyEtag(out.b, out.o, k); out.o += 32;
      if (b.seedParts) out.o += out.b.latin1Write(`-${b.seedParts}`, out.o);
    } else out.o += out.b.latin1Write(etag[i], out.o);
    out.raw(j < n - 1 ? tailOpen : tail);
    if (at) at[j + 1] = j < n - 1 ? out.o - CONTENTS_OPEN.length : out.o; // where the next entry starts
  }
}

function startFakeS3({ listLatencyMs = 100, otherLatencyMs = 30, port = 0, host = '127.0.0.1', region = 'us-east-1' } = {}) {
  const buckets = new Map();
  let counts = Object.create(null), total = 0, inflight = 0, maxInflight = 0, errors = 0, conns = 0;
  let cpuBase = process.cpuUsage(), t0 = process.hrtime.bigint(), reqSeq = 0;
  const seenSockets = new WeakSet();
  // LIST latency: list ms, ± jitter ms (seeded, uniform), and every stallEvery-th LIST
  // stalls for stallMs instead: the stragglers a real endpoint has.
  const lat = { list: listLatencyMs, other: otherLatencyMs, jitter: 0, stallEvery: 0, stallMs: 0 };
  let lists = 0, jitterRand = prng(99);
  const listLatency = () => {
    lists++;
    if (lat.stallEvery && lists % lat.stallEvery === 0) return lat.stallMs;
    return lat.jitter ? Math.max(0, lat.list + ((jitterRand() / 2 ** 32) * 2 - 1) * lat.jitter) : lat.list;
  };

  // S3's per-prefix request limits (about 3,500 PUT/COPY/POST/DELETE a second for each
  // prefix), scaled: a token bucket per bucket and first key segment, refilled at
  // limits.prefixRate a second up to limits.burst; a write over it answers 503 SlowDown.
  // Accepted and throttled writes are counted per second for the benchmark's ramp.
  const limits = { prefixRate: 0, burst: 0 };
  let buckets_ = new Map(), writeSeconds = [], throttledSeconds = [];
  const WRITE_OPS = new Set(['PutObject', 'CopyObject', 'UploadPart', 'UploadPartCopy', 'CreateMultipartUpload', 'CompleteMultipartUpload',
    'AbortMultipartUpload', 'DeleteObject', 'PutObjectTagging', 'DeleteObjectTagging']);
  function admitWrite(bucket, key) {
    const sec = Math.floor(Number(process.hrtime.bigint() - t0) / 1e9);
    if (limits.prefixRate > 0) {
      const slash = key.indexOf('/');
      const id = `${bucket}/${slash < 0 ? key : key.slice(0, slash + 1)}`;
      const now = Date.now();
      let tb = buckets_.get(id);
      if (!tb) buckets_.set(id, tb = new TokenBucket(limits.burst, now));
      if (!tb.admit(now, limits.prefixRate)) {
        throttledSeconds[sec] = (throttledSeconds[sec] || 0) + 1;
        throw new S3Error(503, 'SlowDown', 'Please reduce your request rate.');
      }
    }
    writeSeconds[sec] = (writeSeconds[sec] || 0) + 1;
  }

  const addBucket = (name) => { if (!buckets.has(name)) buckets.set(name, new Bucket(name)); return buckets.get(name); };
  const bucketOf = (name) => { const b = buckets.get(name); if (!b) throw noBucket(name); return b; };

  function seed(bucket, generatorName, count, opts = {}) {
    const gen = GENERATORS[generatorName];
    if (!gen) throw new Error(`unknown generator ${generatorName} (have ${Object.keys(GENERATORS)})`);
    const b = addBucket(bucket);
    const keys = gen(count, opts);
    const size = opts.size ?? 1024, mtime = opts.lastModified ?? SEED_TIME;
    const cls = Math.max(0, CLASSES.indexOf(opts.storageClass || 'STANDARD'));
    // minSize..maxSize: each key's size drawn from its hash (the same keys, the same sizes).
    const spread = opts.maxSize != null ? opts.maxSize - (opts.minSize ?? 0) + 1 : 0;
    const sizeOf = spread > 0 ? (k) => (opts.minSize ?? 0) + (keyHash(k) % spread) : () => size;
    // parts=N: the keys were uploaded in N parts (ETag "<hash>-N"); a bucket holds one such kind.
    if (opts.parts) b.seedParts = opts.parts;
    if (opts.versions) b.history = { per: opts.versions, markerEvery: opts.markerEvery || 0 };
    if (opts.meta) b.meta = true;
    if (opts.checksums) b.checksums = true;
    // hierarchical and random keys are [a-z0-9/.-] plus the prefix
    if (generatorName === 'unicode' || generatorName === 'layout' || !URL_SAFE.test(opts.prefix || '')) b.plain = false;
    b.flush();
    if (b.keys.length === 0) { // fast path: adopt the sorted array as is
      const n = keys.length;
      b.keys = keys; b.etag = new Array(n);
      b.size = new Float64Array(n); b.mtime = new Float64Array(n).fill(mtime); b.cls = new Uint8Array(n).fill(cls);
      if (spread > 0) for (let i = 0; i < n; i++) b.size[i] = sizeOf(keys[i]); else b.size.fill(size);
    } else {
      b.merge(keys, (j) => [sizeOf(keys[j]), undefined, mtime, cls]);
    }
    // md5=1: ETags that are the MD5 of the bytes a GET returns, for clients that check them.
    if (opts.md5) for (const k of keys) { const i = b.indexOf(k); b.etag[i] = bodyMd5(b.size[i]); }
    return keys.length;
  }

  // Order-sensitive md5 over (key, size, etag) of every object: equal digests
  // mean a copy reproduced the source exactly (LastModified is excluded).
  // copied: the digest a CopyObject copy of the bucket would have (multipart ETags become MD5s).
  function digest(name, { copied = false } = {}) {
    const b = bucketOf(name);
    b.flush();
    const h = crypto.createHash('md5');
    for (let i = 0; i < b.keys.length; i++) {
      if (b.size[i] < 0) continue;
      const etag = b.etag[i] ?? b.seedEtag(b.keys[i]);
      h.update(`${toExt(b.keys[i])}\0${b.size[i]}\0${copied ? contentEtag(etag) : etag}\n`);
    }
    return { count: b.count, md5: h.digest('hex') };
  }

  function bytesOf(name) {
    const b = bucketOf(name);
    b.flush();
    let n = 0;
    for (let i = 0; i < b.keys.length; i++) if (b.size[i] > 0) n += b.size[i];
    return n;
  }

  function cpuUsage() {
    const u = process.cpuUsage(cpuBase);
    return { user: u.user / 1e6, system: u.system / 1e6, total: (u.user + u.system) / 1e6 };
  }
  function stats() {
    return {
      requests: { ...counts }, totalRequests: total, errors, maxInflight, connections: conns,
      cpu: cpuUsage(), wallSeconds: Number(process.hrtime.bigint() - t0) / 1e9,
      latency: { listMs: lat.list, otherMs: lat.other },
      buckets: Object.fromEntries([...buckets].map(([n, b]) => [n, b.count])),
      rssBytes: process.memoryUsage.rss(),
      limits: { ...limits },
      writesPerSecond: Array.from(writeSeconds, (v) => v || 0),
      throttledPerSecond: Array.from(throttledSeconds, (v) => v || 0),
    };
  }
  function resetStats() {
    // With --expose-gc (the child mode sets it), collect garbage left by
    // seeding now, so a full GC over the key index is not billed to the next run.
    if (global.gc) global.gc();
    counts = Object.create(null); total = 0; errors = 0; conns = 0; maxInflight = inflight;
    writeSeconds = []; throttledSeconds = []; buckets_ = new Map();
    cpuBase = process.cpuUsage(); t0 = process.hrtime.bigint();
  }

  // ---- responses -----------------------------------------------------------
  function send(ctx, status, headers, body) {
    const { res } = ctx;
    const go = () => {
      if (res.destroyed) return;
      headers['x-amz-request-id'] = ctx.id;
      headers.server = 'AmazonS3';
      if (Array.isArray(body) && ctx.req.method !== 'HEAD') { // pieces, written as they are (no copy)
        headers['content-type'] ??= 'application/xml';
        headers['content-length'] = body.reduce((n, b) => n + b.length, 0);
        res.writeHead(status, headers);
        res.cork();
        for (const b of body) res.write(b);
        res.uncork();
        res.end();
      } else if (body != null && ctx.req.method !== 'HEAD') {
        headers['content-type'] ??= 'application/xml';
        res.writeHead(status, headers);
        res.end(body);
      } else {
        if (body != null) headers['content-type'] ??= 'application/xml';
        res.writeHead(status, headers);
        res.end();
      }
    };
    // Latency with a timer, never a busy wait, so an idle fake costs nothing.
    if (ctx.latency > 0) setTimeout(go, ctx.latency); else go();
  }
  const sendXml = (ctx, xml, status = 200, headers = {}) => send(ctx, status, headers, DECL + xml);
  function sendError(ctx, e) {
    errors++;
    if (!(e instanceof S3Error)) { console.error('fake-s3 internal error:', e); e = new S3Error(500, 'InternalError', String(e && e.message)); }
    let x = `<Error><Code>${e.code}</Code><Message>${xmlEsc(e.message)}</Message>`;
    for (const [k, v] of Object.entries(e.extra)) x += `<${k}>${xmlEsc(String(v))}</${k}>`;
    // HEAD errors carry no body; S3 signals the code in the status only.
    send(ctx, e.status, e.headers || {}, DECL + x + `<RequestId>${ctx.id}</RequestId></Error>`);
  }
  const objHeaders = (o) => {
    const h = { etag: `"${o.etag}"`, 'last-modified': new Date(o.mtime).toUTCString(), 'accept-ranges': 'bytes', 'content-type': 'binary/octet-stream' };
    if (o.cls) h['x-amz-storage-class'] = CLASSES[o.cls];
    return h;
  };

  // ---- operations ----------------------------------------------------------
  function listBuckets(ctx) {
    let x = `<ListAllMyBucketsResult xmlns="${XMLNS}"><Owner><ID>fake-owner-id</ID><DisplayName>fake</DisplayName></Owner><Buckets>`;
    for (const b of [...buckets.values()].sort((a, c) => (a.name < c.name ? -1 : 1))) {
      x += `<Bucket><Name>${b.name}</Name><CreationDate>${iso(b.created)}</CreationDate></Bucket>`;
    }
    sendXml(ctx, x + '</Buckets></ListAllMyBucketsResult>');
  }

  function listObjects(ctx, b, q, v2) {
    const enc = q.get('encoding-type');
    if (enc && enc !== 'url') throw new S3Error(400, 'InvalidArgument', 'Invalid Encoding Method specified in Request');
    const E = enc ? urlEnc : xmlEsc;
    const prefix = q.get('prefix') || '', delim = q.get('delimiter') || '';
    const max = parseMaxKeys(q.get('max-keys'));
    let after = null, token = null;
    if (v2) {
      token = q.get('continuation-token');
      if (token) {
        after = Buffer.from(token, 'base64url').toString('utf8');
        if (!after) throw new S3Error(400, 'InvalidArgument', 'The continuation token provided is incorrect');
      } else if (q.get('start-after')) after = q.get('start-after');
    } else if (q.get('marker')) after = q.get('marker');
    const r = b.scan(toInt(prefix), toInt(delim), after == null ? null : toInt(after), max);

    const out = new Out(4096 + r.count * 256);
    out.str(`${DECL}<ListBucketResult xmlns="${XMLNS}"><Name>${b.name}</Name><Prefix>${E(prefix)}</Prefix>`);
    if (v2) {
      out.str(`<KeyCount>${r.count}</KeyCount>`);
      if (token) out.str(`<ContinuationToken>${xmlEsc(token)}</ContinuationToken>`);
      if (r.truncated) out.str(`<NextContinuationToken>${Buffer.from(toExt(r.last), 'utf8').toString('base64url')}</NextContinuationToken>`);
      if (q.get('start-after')) out.str(`<StartAfter>${E(q.get('start-after'))}</StartAfter>`);
    } else {
      out.str(`<Marker>${E(q.get('marker') || '')}</Marker>`);
      // Like S3, NextMarker only with a delimiter; otherwise clients use the last key.
      if (r.truncated && delim) out.str(`<NextMarker>${E(toExt(r.last))}</NextMarker>`);
    }
    out.str(`<MaxKeys>${max}</MaxKeys>` + (delim ? `<Delimiter>${E(delim)}</Delimiter>` : '') +
      (enc ? '<EncodingType>url</EncodingType>' : '') + `<IsTruncated>${r.truncated}</IsTruncated>`);
    const list = r.contents, n = list.length, pre = b.rendered;
    // Pre-rendered (prerender()): a run of the keys is their bytes as they are, sent between
    // the head and the tail of the answer.
    if (pre && pre.url === !!enc && n && list[n - 1] - list[0] === n - 1) {
      let tail = '';
      for (const p of r.prefixes) tail += '<CommonPrefixes><Prefix>' + E(toExt(p)) + '</Prefix></CommonPrefixes>';
      send(ctx, 200, {}, [out.sendOn(ctx.res), pre.buf.subarray(pre.at[list[0]], pre.at[list[n - 1] + 1]), Buffer.from(`${tail}</ListBucketResult>`)]);
      return;
    }
    contentsXml(out, b, list, n, !!enc, null);
    for (const p of r.prefixes) out.str('<CommonPrefixes><Prefix>' + E(toExt(p)) + '</Prefix></CommonPrefixes>');
    out.str('</ListBucketResult>');
    send(ctx, 200, {}, out.sendOn(ctx.res));
  }

  // ListObjectVersions over the key index: each key's versions derived from its record
  // (the same size and ETag, a minute apart, newest first), delete markers where seeded.
  // KeyMarker alone lists the keys after it; with VersionIdMarker, that key's older versions.
  function listVersions(ctx, b, q) {
    const enc = q.get('encoding-type');
    if (enc && enc !== 'url') throw new S3Error(400, 'InvalidArgument', 'Invalid Encoding Method specified in Request');
    const E = enc ? urlEnc : xmlEsc;
    const prefix = toInt(q.get('prefix') || ''), delim = toInt(q.get('delimiter') || '');
    const max = parseMaxKeys(q.get('max-keys'));
    const km = q.get('key-marker') ? toInt(q.get('key-marker')) : null, vm = q.get('version-id-marker');
    b.flush();
    const { keys, size, mtime, etag, cls } = b, n = keys.length;
    const per = b.history ? b.history.per : 1, every = b.history ? b.history.markerEvery : 0;
    const vid = (k, j) => (b.history ? `${String(per - j).padStart(6, '0')}.${keyEtag(k).slice(0, 20)}` : 'null');
    let i = b.lowerBound(km !== null && km >= prefix ? km : prefix), j0 = 0;
    if (km !== null && i < n && keys[i] === km) {
      const at = vm && b.history ? per - parseInt(vm, 10) + 1 : per;
      if (Number.isFinite(at) && at > 0 && at < per) j0 = at; else i++;
    }
    const out = new Out(4096 + max * 400);
    out.str(`${DECL}<ListVersionsResult xmlns="${XMLNS}"><Name>${b.name}</Name><Prefix>${E(toExt(prefix))}</Prefix><KeyMarker>${E(q.get('key-marker') || '')}</KeyMarker>` +
      `<VersionIdMarker>${xmlEsc(vm || '')}</VersionIdMarker><MaxKeys>${max}</MaxKeys>` + (delim ? `<Delimiter>${E(toExt(delim))}</Delimiter>` : '') + (enc ? '<EncodingType>url</EncodingType>' : ''));
    const prefixes = [];
    let count = 0, truncated = false, lastKey = null, lastVid = null;
    while (i < n) {
      const k = keys[i];
      if (!k.startsWith(prefix)) break;
      if (size[i] < 0) { i++; continue; }
      if (delim) {
        const d = k.indexOf(delim, prefix.length);
        if (d >= 0) {
          const cp = k.slice(0, d + delim.length);
          if (km === null || cp > km) {
            if (count >= max) { truncated = true; break; }
            prefixes.push(cp); count++; lastKey = cp; lastVid = null;
          }
          const np = nextPrefix(cp);
          i = np === null ? n : b.lowerBound(np, i + 1);
          j0 = 0;
          continue;
        }
      }
      if (count >= max) { truncated = true; break; }
      const marker = every > 0 && i % every === 0;
      const e = etag[i] ?? keyEtag(k);
      let j = j0;
      for (; j < per && count < max; j++, count++) {
        const v = vid(k, j), t = iso(mtime[i] - j * 60000);
        out.str(marker && j === 0 ? '<DeleteMarker><Key>' : '<Version><Key>');
        if (b.plain) out.str(k); else out.key(k, !!enc);
        if (marker && j === 0) out.str(`</Key><VersionId>${v}</VersionId><IsLatest>true</IsLatest><LastModified>${t}</LastModified><Owner><ID>fake-owner-id</ID><DisplayName>fake</DisplayName></Owner></DeleteMarker>`);
        else out.str(`</Key><VersionId>${v}</VersionId><IsLatest>${j === 0}</IsLatest><LastModified>${t}</LastModified><ETag>&quot;${e}&quot;</ETag><Size>${size[i]}</Size><Owner><ID>fake-owner-id</ID><DisplayName>fake</DisplayName></Owner><StorageClass>${CLASSES[cls[i]]}</StorageClass></Version>`);
        lastKey = k; lastVid = v;
      }
      if (j < per) { truncated = true; break; }
      i++; j0 = 0;
    }
    for (const p of prefixes) out.str('<CommonPrefixes><Prefix>' + E(toExt(p)) + '</Prefix></CommonPrefixes>');
    out.str(`<IsTruncated>${truncated}</IsTruncated>`);
    if (truncated && lastKey !== null) out.str(`<NextKeyMarker>${E(toExt(lastKey))}</NextKeyMarker>${lastVid ? `<NextVersionIdMarker>${lastVid}</NextVersionIdMarker>` : ''}`);
    out.str('</ListVersionsResult>');
    send(ctx, 200, {}, out.sendOn(ctx.res));
  }

  function listUploads(ctx, b, q) {
    const prefix = toInt(q.get('prefix') || '');
    const ups = [...b.uploads].filter(([, u]) => u.ikey.startsWith(prefix))
      .sort((a, c) => (a[1].ikey < c[1].ikey ? -1 : a[1].ikey > c[1].ikey ? 1 : a[0] < c[0] ? -1 : 1)).slice(0, 1000);
    let x = `<ListMultipartUploadsResult xmlns="${XMLNS}"><Bucket>${b.name}</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker>` +
      `<Prefix>${xmlEsc(q.get('prefix') || '')}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>`;
    for (const [id, u] of ups) {
      x += `<Upload><Key>${xmlEsc(toExt(u.ikey))}</Key><UploadId>${id}</UploadId><Initiated>${iso(u.initiated)}</Initiated><StorageClass>${CLASSES[u.cls]}</StorageClass></Upload>`;
    }
    sendXml(ctx, x + '</ListMultipartUploadsResult>');
  }

  function getObject(ctx, b, ik, key, q) {
    const o = b.get(ik);
    if (!o) throw noKey(key);
    const h = objHeaders(o);
    const tags = b.tags.get(ik);
    if (tags && tags.length) h['x-amz-tagging-count'] = String(tags.length);
    const im = ctx.req.headers['if-match'], inm = ctx.req.headers['if-none-match'];
    if (im && unquote(im) !== o.etag && im !== '*') throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'If-Match' });
    if (inm && (inm === '*' || unquote(inm) === o.etag)) return send(ctx, 304, h, null);
    let start = 0, end = o.size - 1, status = 200;
    const range = ctx.req.headers.range;
    if (q && q.has('partNumber')) { // one part of a multipart object (a single-part one has one part)
      const n = partNumber(q), sizes = b.partSizes(ik, o) || [o.size];
      if (n > sizes.length) throw new S3Error(416, 'InvalidPartNumber', 'The requested partnumber is not satisfiable', { PartNumberRequested: n, ActualPartCount: sizes.length });
      for (let i = 0; i < n - 1; i++) start += sizes[i];
      end = start + sizes[n - 1] - 1;
      status = 206;
      h['content-range'] = `bytes ${start}-${end}/${o.size}`;
      if (sizes.length > 1 || /-\d+$/.test(o.etag)) h['x-amz-mp-parts-count'] = String(sizes.length);
    } else if (range) {
      const m = /^bytes=(\d*)-(\d*)$/.exec(range);
      if (m && (m[1] || m[2])) {
        if (m[1]) { start = +m[1]; if (m[2]) end = Math.min(+m[2], o.size - 1); } else start = Math.max(0, o.size - +m[2]);
        if (start >= o.size || start > end) {
          const e = new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable', { RangeRequested: range, ActualObjectSize: o.size });
          e.headers = { 'content-range': `bytes */${o.size}` };
          throw e;
        }
        status = 206;
        h['content-range'] = `bytes ${start}-${end}/${o.size}`;
      }
    }
    h['content-length'] = String(end - start + 1);
    if (b.meta) { h['x-amz-meta-owner'] = `team-${ik.length % 7}`; h['cache-control'] = 'max-age=3600'; if (ik.endsWith('.gz')) h['content-type'] = 'application/gzip'; }
    if (b.checksums && status === 200 && /^enabled$/i.test(ctx.req.headers['x-amz-checksum-mode'] || '')) {
      h['x-amz-checksum-crc64nvme'] = bodyCrc64(o.size);
      h['x-amz-checksum-type'] = 'FULL_OBJECT';
    }
    if (ctx.req.method === 'HEAD') return send(ctx, status, h, null);
    const { res } = ctx;
    const go = () => {
      if (res.destroyed) return;
      h['x-amz-request-id'] = ctx.id; h.server = 'AmazonS3';
      res.writeHead(status, h);
      let off = start;
      const pump = () => {
        while (off <= end) {
          const p = (off + o.size) % PERIOD, n = Math.min(CHUNK, end - off + 1);
          off += n;
          if (!res.write(PATTERN.subarray(p, p + n))) { res.once('drain', pump); return; }
        }
        res.end();
      };
      pump();
    };
    if (ctx.latency > 0) setTimeout(go, ctx.latency); else go();
  }

  // A body's x-amz-checksum-* header, echoed in the answer as S3 does once it has checked it.
  // The fake trusts it (it verifies Content-MD5 only): its CPU is not what the benchmark
  // measures, and a client's checksum code is checked against real servers in the tests.
  function checksumEcho(req) {
    const out = {};
    for (const a of ['crc64nvme', 'crc32', 'crc32c', 'sha256', 'sha1']) if (req.headers[`x-amz-checksum-${a}`]) out[`x-amz-checksum-${a}`] = req.headers[`x-amz-checksum-${a}`];
    return out;
  }

  async function putObject(ctx, b, ik) {
    const { req } = ctx;
    const inm = req.headers['if-none-match'];
    const { size, md5 } = await hashBody(req);
    const cm = req.headers['content-md5'];
    if (cm && Buffer.from(cm, 'base64').toString('hex') !== md5) throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
    if (inm === '*' && b.get(ik)) throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'If-None-Match' });
    b.put(ik, size, md5, Date.now(), storageClass(req));
    send(ctx, 200, { etag: `"${md5}"`, ...checksumEcho(req) }, null);
  }

  function storageClass(req) {
    const s = req.headers['x-amz-storage-class'];
    if (!s) return 0;
    const i = CLASSES.indexOf(s);
    if (i < 0) throw new S3Error(400, 'InvalidStorageClass', 'The storage class you specified is not valid');
    return i;
  }

  // The part sizes of a copy source (null: single-part).
  function copySourceParts(req, o) {
    const src = parseCopySource(req.headers['x-amz-copy-source']);
    return bucketOf(src.bucket).partSizes(toInt(src.key), o);
  }

  function copySource(req) {
    const src = parseCopySource(req.headers['x-amz-copy-source']);
    const sb = bucketOf(src.bucket);
    const o = sb.get(toInt(src.key));
    if (!o) throw noKey(src.key);
    const im = req.headers['x-amz-copy-source-if-match'], inm = req.headers['x-amz-copy-source-if-none-match'];
    if ((im && unquote(im) !== o.etag) || (inm && unquote(inm) === o.etag)) {
      throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: im ? 'x-amz-copy-source-If-Match' : 'x-amz-copy-source-If-None-Match' });
    }
    return { src, sb, o };
  }

  function copyObject(ctx, b, ik) {
    const { req } = ctx;
    req.resume();
    const { src, sb, o } = copySource(req);
    const directive = (req.headers['x-amz-metadata-directive'] || 'COPY').toUpperCase();
    const cls = req.headers['x-amz-storage-class'] ? storageClass(req) : 0;
    if (sb === b && toInt(src.key) === ik && directive !== 'REPLACE' && !req.headers['x-amz-storage-class']) {
      throw new S3Error(400, 'InvalidRequest', "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.");
    }
    if (o.size > MAX_COPY) throw new S3Error(400, 'InvalidRequest', 'The specified copy source is larger than the maximum allowable size for a copy source: 5368709120');
    const now = Date.now();
    const etag = contentEtag(o.etag); // as on S3: an MD5 of the bytes, which a multipart ETag is not
    b.put(ik, o.size, etag, now, cls);
    sendXml(ctx, `<CopyObjectResult xmlns="${XMLNS}"><LastModified>${iso(now)}</LastModified><ETag>&quot;${etag}&quot;</ETag></CopyObjectResult>`);
  }

  function upload(b, q) {
    const u = b.uploads.get(q.get('uploadId'));
    if (!u) throw new S3Error(404, 'NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.', { UploadId: q.get('uploadId') });
    return u;
  }
  function partNumber(q) {
    const n = +q.get('partNumber');
    if (!(Number.isInteger(n) && n >= 1 && n <= 10000)) throw new S3Error(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive');
    return n;
  }

  async function uploadPart(ctx, b, q) {
    const u = upload(b, q), n = partNumber(q);
    const { req } = ctx;
    if (req.headers['x-amz-copy-source']) { // UploadPartCopy
      req.resume();
      const { o } = copySource(req);
      let start = 0, end = o.size - 1;
      const r = req.headers['x-amz-copy-source-range'];
      if (r) {
        const m = /^bytes=(\d+)-(\d+)$/.exec(r);
        if (!m || +m[1] > +m[2] || +m[2] >= o.size) throw new S3Error(400, 'InvalidArgument', 'The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy');
        start = +m[1]; end = +m[2];
      }
      // No content to hash: a part ETag derived from the source and range.
      const etag = crypto.createHash('md5').update(`${o.etag}:${start}-${end}`).digest('hex');
      const now = Date.now();
      u.parts.set(n, { size: end - start + 1, etag, from: { etag: o.etag, start, end, sizes: copySourceParts(req, o) } });
      return sendXml(ctx, `<CopyPartResult xmlns="${XMLNS}"><LastModified>${iso(now)}</LastModified><ETag>&quot;${etag}&quot;</ETag></CopyPartResult>`);
    }
    const { size, md5 } = await hashBody(req);
    u.parts.set(n, { size, etag: md5 });
    send(ctx, 200, { etag: `"${md5}"`, ...checksumEcho(req) }, null);
  }

  async function completeUpload(ctx, b, q, ik, key) {
    const u = upload(b, q);
    const body = await readText(ctx.req);
    const list = [...body.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
      n: +(/<PartNumber>\s*(\d+)\s*<\/PartNumber>/.exec(m[1]) || [])[1],
      etag: unquote(xmlUnesc(((/<ETag>([\s\S]*?)<\/ETag>/.exec(m[1]) || [])[1] || '').trim())),
    }));
    if (!list.length) throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
    let size = 0, prev = 0;
    const md5s = [];
    list.forEach(({ n, etag }, i) => {
      if (!(n > prev)) throw new S3Error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.');
      prev = n;
      const p = u.parts.get(n);
      if (!p || p.etag !== etag) throw new S3Error(400, 'InvalidPart', 'One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part\'s entity tag.', { PartNumber: n, ETag: etag });
      if (i < list.length - 1 && p.size < MIN_PART) throw new S3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', { PartNumber: n });
      size += p.size; md5s.push(Buffer.from(p.etag, 'hex'));
    });
    const parts = list.map(({ n }) => u.parts.get(n));
    const etag = sameLayout(parts) ? parts[0].from.etag : crypto.createHash('md5').update(Buffer.concat(md5s)).digest('hex') + '-' + list.length;
    b.uploads.delete(q.get('uploadId'));
    b.put(ik, size, etag, Date.now(), u.cls, parts.map((p) => p.size));
    const loc = `http://${ctx.req.headers.host}/${b.name}/${encodeURIComponent(key).replace(/%2F/g, '/')}`;
    sendXml(ctx, `<CompleteMultipartUploadResult xmlns="${XMLNS}"><Location>${xmlEsc(loc)}</Location><Bucket>${b.name}</Bucket><Key>${xmlEsc(key)}</Key><ETag>&quot;${etag}&quot;</ETag>${Object.entries(checksumEcho(ctx.req)).map(([h, v]) => { const t = `Checksum${h.slice(15).toUpperCase()}`; return `<${t}>${xmlEsc(v)}</${t}>`; }).join('')}</CompleteMultipartUploadResult>`);
  }

  function listParts(ctx, b, q, key) {
    const u = upload(b, q);
    let x = `<ListPartsResult xmlns="${XMLNS}"><Bucket>${b.name}</Bucket><Key>${xmlEsc(key)}</Key><UploadId>${q.get('uploadId')}</UploadId>` +
      `<StorageClass>${CLASSES[u.cls]}</StorageClass><PartNumberMarker>0</PartNumberMarker><MaxParts>1000</MaxParts><IsTruncated>false</IsTruncated>`;
    for (const [n, p] of [...u.parts].sort((a, c) => a[0] - c[0])) {
      x += `<Part><PartNumber>${n}</PartNumber><LastModified>${iso(u.initiated)}</LastModified><ETag>&quot;${p.etag}&quot;</ETag><Size>${p.size}</Size></Part>`;
    }
    sendXml(ctx, x + '</ListPartsResult>');
  }

  async function deleteObjects(ctx, b) {
    const body = await readText(ctx.req);
    const keys = [...body.matchAll(/<Object>[\s\S]*?<Key>([\s\S]*?)<\/Key>[\s\S]*?<\/Object>/g)].map((m) => xmlUnesc(m[1]));
    if (!keys.length || keys.length > 1000) throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
    const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(body);
    let x = `<DeleteResult xmlns="${XMLNS}">`;
    for (const k of keys) { b.del(toInt(k)); if (!quiet) x += `<Deleted><Key>${xmlEsc(k)}</Key></Deleted>`; }
    sendXml(ctx, x + '</DeleteResult>');
  }

  async function putTagging(ctx, b, ik, key) {
    const body = await readText(ctx.req);
    if (!b.get(ik)) throw noKey(key);
    const tags = [...body.matchAll(/<Tag>\s*<Key>([\s\S]*?)<\/Key>\s*<Value>([\s\S]*?)<\/Value>\s*<\/Tag>/g)].map((m) => [xmlUnesc(m[1]), xmlUnesc(m[2])]);
    if (tags.length > 10) throw new S3Error(400, 'BadRequest', 'Object tags cannot be greater than 10');
    b.tags.set(ik, tags);
    send(ctx, 200, {}, null);
  }

  // ---- routing -------------------------------------------------------------
  const vhostBases = ['.127.0.0.1', '.localhost'];
  async function route(ctx) {
    const { req } = ctx;
    const url = req.url, qi = url.indexOf('?');
    const path = qi < 0 ? url : url.slice(0, qi);
    const q = new URLSearchParams(qi < 0 ? '' : url.slice(qi + 1));
    const m = req.method;
    let bucket, key;
    try {
      const host = (req.headers.host || '').replace(/:\d+$/, '');
      const base = vhostBases.find((s) => host.endsWith(s) && host.length > s.length);
      if (base) { bucket = host.slice(0, -base.length); key = decodeURIComponent(path.slice(1)); } else {
        const s = path.indexOf('/', 1);
        bucket = decodeURIComponent(s < 0 ? path.slice(1) : path.slice(1, s));
        key = s < 0 ? '' : decodeURIComponent(path.slice(s + 1));
      }
    } catch { throw new S3Error(400, 'InvalidURI', 'Could not parse the specified URI.'); }

    const op = (name, list = false) => {
      ctx.op = name; counts[name] = (counts[name] || 0) + 1; ctx.latency = list ? listLatency() : lat.other;
      if (WRITE_OPS.has(name)) {
        try { admitWrite(bucket, key); } catch (e) { counts.SlowDown = (counts.SlowDown || 0) + 1; throw e; }
      }
    };

    if (!bucket) {
      if (m === 'GET') { op('ListBuckets', true); return listBuckets(ctx); }
      throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }
    const plainReq = [...q.keys()].every((k) => k === 'x-id'); // no sub-resource
    if (!key) {
      if (m === 'PUT' && plainReq) {
        op('CreateBucket'); req.resume();
        if (!/^[a-z0-9][a-z0-9.\-]{1,61}[a-z0-9]$/.test(bucket)) throw new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.', { BucketName: bucket });
        if (buckets.has(bucket)) throw new S3Error(409, 'BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.', { BucketName: bucket });
        addBucket(bucket);
        return send(ctx, 200, { location: `/${bucket}` }, null);
      }
      const b = buckets.get(bucket);
      if (m === 'HEAD') {
        op('HeadBucket');
        if (!b) throw noBucket(bucket);
        return send(ctx, 200, { 'x-amz-bucket-region': region }, null);
      }
      if (m === 'GET') {
        if (q.has('location')) { op('GetBucketLocation'); bucketOf(bucket); return sendXml(ctx, `<LocationConstraint xmlns="${XMLNS}">${region === 'us-east-1' ? '' : region}</LocationConstraint>`); }
        if (q.has('uploads')) { op('ListMultipartUploads', true); return listUploads(ctx, bucketOf(bucket), q); }
        if (q.has('versioning')) { op('GetBucketVersioning'); const vb = bucketOf(bucket); return sendXml(ctx, vb.history ? `<VersioningConfiguration xmlns="${XMLNS}"><Status>Enabled</Status></VersioningConfiguration>` : `<VersioningConfiguration xmlns="${XMLNS}"/>`); }
        if (q.has('versions')) { op('ListObjectVersions', true); return listVersions(ctx, bucketOf(bucket), q); }
        if (q.get('list-type') === '2') { op('ListObjectsV2', true); return listObjects(ctx, bucketOf(bucket), q, true); }
        const sub = ['acl', 'policy', 'tagging', 'cors', 'lifecycle', 'encryption', 'versions', 'website', 'logging', 'notification', 'replication', 'object-lock', 'ownershipControls', 'publicAccessBlock'].find((s) => q.has(s));
        if (sub) { op('Bucket:' + sub); bucketOf(bucket); throw new S3Error(501, 'NotImplemented', `fake-s3 does not implement ?${sub}`); }
        op('ListObjects', true); return listObjects(ctx, bucketOf(bucket), q, false);
      }
      if (m === 'POST' && q.has('delete')) { op('DeleteObjects'); return deleteObjects(ctx, bucketOf(bucket)); }
      if (m === 'DELETE' && plainReq) {
        op('DeleteBucket'); const bb = bucketOf(bucket);
        if (bb.count) throw new S3Error(409, 'BucketNotEmpty', 'The bucket you tried to delete is not empty', { BucketName: bucket });
        buckets.delete(bucket); return send(ctx, 204, {}, null);
      }
      throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }

    const ik = toInt(key);
    if (m === 'GET' || m === 'HEAD') {
      if (m === 'GET' && q.has('tagging')) {
        op('GetObjectTagging'); const b = bucketOf(bucket);
        if (!b.get(ik)) throw noKey(key);
        const tags = (b.tags.get(ik) || []).map(([k, v]) => `<Tag><Key>${xmlEsc(k)}</Key><Value>${xmlEsc(v)}</Value></Tag>`).join('');
        return sendXml(ctx, `<Tagging xmlns="${XMLNS}"><TagSet>${tags}</TagSet></Tagging>`);
      }
      if (m === 'GET' && q.has('uploadId')) { op('ListParts'); return listParts(ctx, bucketOf(bucket), q, key); }
      op(m === 'GET' ? 'GetObject' : 'HeadObject');
      return getObject(ctx, bucketOf(bucket), ik, key, q);
    }
    if (m === 'PUT') {
      const b = bucketOf(bucket);
      if (q.has('tagging')) { op('PutObjectTagging'); return putTagging(ctx, b, ik, key); }
      if (q.has('uploadId')) { op(req.headers['x-amz-copy-source'] ? 'UploadPartCopy' : 'UploadPart'); return uploadPart(ctx, b, q); }
      if (req.headers['x-amz-copy-source']) { op('CopyObject'); return copyObject(ctx, b, ik); }
      op('PutObject'); return putObject(ctx, b, ik);
    }
    if (m === 'POST') {
      const b = bucketOf(bucket);
      if (q.has('uploads')) {
        op('CreateMultipartUpload'); req.resume();
        const id = crypto.randomBytes(24).toString('base64url');
        b.uploads.set(id, { ikey: ik, initiated: Date.now(), cls: storageClass(req), parts: new Map() });
        return sendXml(ctx, `<InitiateMultipartUploadResult xmlns="${XMLNS}"><Bucket>${b.name}</Bucket><Key>${xmlEsc(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      if (q.has('uploadId')) { op('CompleteMultipartUpload'); return completeUpload(ctx, b, q, ik, key); }
    }
    if (m === 'DELETE') {
      const b = bucketOf(bucket);
      if (q.has('uploadId')) { op('AbortMultipartUpload'); upload(b, q); b.uploads.delete(q.get('uploadId')); return send(ctx, 204, {}, null); }
      if (q.has('tagging')) { op('DeleteObjectTagging'); b.tags.delete(ik); return send(ctx, 204, {}, null); }
      op('DeleteObject'); b.del(ik); return send(ctx, 204, {}, null);
    }
    throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }

  // ---- control endpoints (/__*: not valid bucket names, no latency, not counted)
  function control(req, res) {
    const u = new URL(req.url, 'http://x');
    const q = u.searchParams;
    const json = (status, v) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(v)); };
    req.resume();
    try {
      switch (`${req.method} ${u.pathname}`) {
        case 'GET /__stats': return json(200, stats());
        case 'POST /__reset': resetStats(); return json(200, { ok: true });
        case 'POST /__bucket': addBucket(q.get('name')); return json(200, { ok: true });
        case 'GET /__count': return json(200, { count: bucketOf(q.get('bucket')).count, bytes: bytesOf(q.get('bucket')) });
        case 'GET /__digest': return json(200, digest(q.get('bucket'), { copied: q.get('copied') === '1' }));
        case 'POST /__clear': bucketOf(q.get('bucket')).clear(); return json(200, { ok: true });
        case 'POST /__prerender': bucketOf(q.get('bucket')).prerender(q.get('url') === '1'); return json(200, { ok: true });
        case 'GET /__objects': { // every object of a bucket: key, size, ETag, part sizes (for checks)
          const b = bucketOf(q.get('bucket'));
          b.flush();
          const out = [];
          for (let i = 0; i < b.keys.length; i++) {
            if (b.size[i] < 0) continue;
            const o = b.get(b.keys[i]);
            out.push({ key: toExt(b.keys[i]), size: o.size, etag: o.etag, parts: b.layouts.get(b.keys[i]) || null });
          }
          return json(200, out);
        }
        case 'POST /__limits':
          limits.prefixRate = +(q.get('prefixRate') || 0);
          limits.burst = +(q.get('burst') || Math.max(1, limits.prefixRate / 4));
          buckets_ = new Map();
          return json(200, { ...limits });
        case 'POST /__latency':
          if (q.has('list')) lat.list = +q.get('list');
          if (q.has('other')) lat.other = +q.get('other');
          for (const k of ['jitter', 'stallEvery', 'stallMs']) if (q.has(k)) lat[k] = +q.get(k);
          lists = 0; jitterRand = prng(99); // each condition starts the same way
          return json(200, { listMs: lat.list, otherMs: lat.other, jitterMs: lat.jitter, stallEvery: lat.stallEvery, stallMs: lat.stallMs });
        case 'POST /__seed': {
          const t = Date.now();
          const opts = {};
          for (const [k, v] of q) if (!['bucket', 'generator', 'count'].includes(k)) opts[k] = /^\d+$/.test(v) ? +v : v;
          const added = seed(q.get('bucket'), q.get('generator'), +q.get('count'), opts);
          return json(200, { added, count: buckets.get(q.get('bucket')).count, ms: Date.now() - t });
        }
        default: return json(404, { error: 'unknown control endpoint' });
      }
    } catch (e) { return json(400, { error: e.message }); }
  }

  const server = http.createServer((req, res) => {
    if (req.url.startsWith('/__')) return control(req, res);
    // Count TCP connections that carried S3 requests: shows clients that don't pool.
    if (!seenSockets.has(req.socket)) { seenSockets.add(req.socket); conns++; }
    const ctx = { req, res, id: (++reqSeq).toString(16).toUpperCase().padStart(16, '0'), latency: lat.other, op: null };
    total++; inflight++; if (inflight > maxInflight) maxInflight = inflight;
    res.on('close', () => inflight--);
    try {
      const p = route(ctx);
      if (p && p.catch) p.catch((e) => sendError(ctx, e));
    } catch (e) { sendError(ctx, e); }
  });
  // Clients keep connections pooled for the whole run; don't make them reconnect.
  server.keepAliveTimeout = 120e3;
  server.headersTimeout = 125e3;
  server.requestTimeout = 0;

  const api = {
    endpoint: null, port: null, buckets, server,
    addBucket: (name) => { addBucket(name); },
    seed, stats, resetStats, cpuUsage,
    count: (name) => bucketOf(name).count,
    digest,
    clear: (name) => bucketOf(name).clear(),
    prerender: (name, { url = true } = {}) => bucketOf(name).prerender(url),
    setLatency: ({ listMs, otherMs } = {}) => { if (listMs != null) lat.list = listMs; if (otherMs != null) lat.other = otherMs; },
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
  // Resolves once listening, with endpoint/port filled in.
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      api.port = server.address().port;
      api.endpoint = `http://${host}:${api.port}`;
      resolve(api);
    });
  });
}

// ---------------------------------------------------------------------------
// Run the fake in its own process so its CPU is measured apart from the client.
function controlRequest(endpoint, method, path) {
  return new Promise((resolve, reject) => {
    const req = http.request(endpoint + path, { method, agent: false }, (res) => {
      let s = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { s += d; });
      res.on('end', () => { try { const v = JSON.parse(s); if (res.statusCode >= 400) reject(new Error(v.error)); else resolve(v); } catch (e) { reject(e); } });
    });
    req.on('error', reject);
    req.end();
  });
}

function spawnFakeS3({ listLatencyMs = 100, otherLatencyMs = 30, port = 0, seeds = [], nodeArgs = [] } = {}) {
  const args = ['--expose-gc', ...nodeArgs, __filename, '--port', String(port), '--list-latency', String(listLatencyMs),
    '--other-latency', String(otherLatencyMs), '--watch-stdin'];
  for (const s of seeds) args.push('--seed', `${s.bucket}:${s.generator}:${s.count}${s.size != null ? ':' + s.size : ''}`);
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      const info = JSON.parse(buf.slice(0, nl));
      const qs = (o) => new URLSearchParams(Object.entries(o).filter(([, v]) => v != null)).toString();
      const c = (method, path) => controlRequest(info.endpoint, method, path);
      resolve({
        ...info, child,
        stats: () => c('GET', '/__stats'),
        cpuUsage: async () => (await c('GET', '/__stats')).cpu,
        resetStats: () => c('POST', '/__reset'),
        addBucket: (name) => c('POST', '/__bucket?' + qs({ name })),
        seed: (bucket, generator, count, opts = {}) => c('POST', '/__seed?' + qs({ ...opts, bucket, generator, count })),
        count: async (bucket) => (await c('GET', '/__count?' + qs({ bucket }))).count,
        bytes: async (bucket) => (await c('GET', '/__count?' + qs({ bucket }))).bytes,
        digest: (bucket, { copied } = {}) => c('GET', '/__digest?' + qs({ bucket, copied: copied ? 1 : undefined })),
        clear: (bucket) => c('POST', '/__clear?' + qs({ bucket })),
        prerender: (bucket, { url = true } = {}) => c('POST', '/__prerender?' + qs({ bucket, url: url ? 1 : 0 })),
        objects: (bucket) => c('GET', '/__objects?' + qs({ bucket })),
        bytes: async (bucket) => (await c('GET', '/__count?' + qs({ bucket }))).bytes,
        setLimits: ({ prefixRate, burst } = {}) => c('POST', '/__limits?' + qs({ prefixRate, burst })),
        setLatency: ({ listMs, otherMs, jitterMs, stallEvery, stallMs } = {}) =>
          c('POST', '/__latency?' + qs({ list: listMs, other: otherMs, jitter: jitterMs, stallEvery, stallMs })),
        close: () => new Promise((res) => {
          if (child.exitCode !== null) return res();
          child.once('exit', () => res());
          child.kill('SIGTERM');
        }),
      });
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`fake-s3 exited early with code ${code}`)));
    child.once('error', reject);
  });
}

// ---------------------------------------------------------------------------
async function main(argv) {
  const opt = { port: 0, host: '127.0.0.1', listLatencyMs: 100, otherLatencyMs: 30, region: 'us-east-1' };
  const seeds = [], bucketNames = [];
  let watchStdin = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => argv[++i];
    if (a === '--port') opt.port = +v();
    else if (a === '--host') opt.host = v();
    else if (a === '--list-latency') opt.listLatencyMs = +v();
    else if (a === '--other-latency') opt.otherLatencyMs = +v();
    else if (a === '--region') opt.region = v();
    else if (a === '--bucket') bucketNames.push(v());
    else if (a === '--seed') seeds.push(v());
    else if (a === '--watch-stdin') watchStdin = true;
    else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: node bench/fake-s3.js [--port 0] [--host 127.0.0.1] [--list-latency 100] [--other-latency 30]\n' +
        '  [--region us-east-1] [--bucket NAME]... [--seed BUCKET:GENERATOR:COUNT[:SIZE]]... [--watch-stdin]\n' +
        `  generators: ${Object.keys(GENERATORS).join(', ')}\n`);
      return;
    } else throw new Error(`unknown argument ${a}`);
  }
  const s = await startFakeS3(opt);
  for (const b of bucketNames) s.addBucket(b);
  for (const spec of seeds) {
    const [bucket, gen, count, size] = spec.split(':');
    s.seed(bucket, gen, +count, size ? { size: +size } : {});
  }
  s.resetStats(); // seeding CPU is not part of any measurement
  process.stdout.write(JSON.stringify({ endpoint: s.endpoint, port: s.port, pid: process.pid }) + '\n');
  const stop = () => process.exit(0); // nothing to flush: all state is in memory by design
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // With --watch-stdin the parent holds our stdin: if it dies, we exit too.
  if (watchStdin) { process.stdin.on('end', stop); process.stdin.on('error', stop); process.stdin.resume(); }
}

if (require.main === module) main(process.argv.slice(2)).catch((e) => { console.error(e.message); process.exit(2); });

// The MD5 (hex) and CRC64NVME (base64, as S3 prints it) of the bytes a GET of a whole object
// of `size` returns: they depend on the size only.
const digestBySize = new Map(); // used once the server runs, after this line has
function bodyDigest(size, name, makeHash, encoding) {
  const id = `${name} ${size}`;
  let m = digestBySize.get(id);
  if (m) return m;
  const h = makeHash();
  for (let o = 0; o < size;) {
    const p = (o + size) % PERIOD, n = Math.min(CHUNK, size - o);
    h.update(PATTERN.subarray(p, p + n));
    o += n;
  }
  digestBySize.set(id, m = Buffer.from(h.digest()).toString(encoding));
  return m;
}
function bodyMd5(size) { return bodyDigest(size, 'md5', () => crypto.createHash('md5'), 'hex'); }
function bodyCrc64(size) { return bodyDigest(size, 'crc64nvme', () => new (require('../src/stores/crc-wasm').WasmCrc)('CRC64NVME'), 'base64'); }

// Whether buf holds the bytes a GET of an object of `size` returns from `offset` on.
function bodyMatches(buf, size, offset = 0) {
  for (let o = 0; o < buf.length;) {
    const p = (offset + o + size) % PERIOD, n = Math.min(CHUNK, buf.length - o);
    if (Buffer.compare(buf.subarray(o, o + n), PATTERN.subarray(p, p + n)) !== 0) return false;
    o += n;
  }
  return true;
}

module.exports = { startFakeS3, spawnFakeS3, GENERATORS, keyEtag, keyHash, bodyMatches, contentEtag, toInternalKey: toInt, toExternalKey: toExt, Bucket };
