'use strict';
// A ListObjectsV2 response parser for the one shape S3 sends, by indexOf: about ten times
// cheaper than a general XML parser. Keys arrive url-encoded (EncodingType=url), so they
// carry no XML entities; ETags carry &quot;. It reads the response Buffer and never makes
// one string of the whole response: V8 keeps a string that size in its large-object space
// until a full collection, and every key sliced from it would keep all of it alive.
const { isAscii } = require('buffer');

// A field outside the entries (a flag, a token, a folder), as a small string of its own.
function between(buf, open, close, from, to, encoding = 'latin1') {
  const i = buf.indexOf(open, from);
  if (i < 0 || i >= to) return null;
  const start = i + open.length;
  const j = buf.indexOf(close, start);
  return j < 0 || j > to ? null : buf.toString(encoding, start, j);
}

function decodeEntities(s) {
  return s.indexOf('&') < 0 ? s : s.replace(/&quot;|&#34;|&amp;|&lt;|&gt;|&apos;|&#39;/g, (e) => ({ '&quot;': '"', '&#34;': '"', '&amp;': '&', '&lt;': '<', '&gt;': '>', '&apos;': "'", '&#39;': "'" }[e]));
}

function decodeUrlKey(k) {
  if (k.indexOf('%') < 0 && k.indexOf('+') < 0) return k;
  return decodeURIComponent(k.indexOf('+') >= 0 ? k.replace(/\+/g, ' ') : k);
}

// Tags as Buffers: Buffer#indexOf would encode a string needle on every call.
const T_Contents = Buffer.from('<Contents>');
const T_CContents = Buffer.from('</Contents>');
const T_IsTruncated = Buffer.from('<IsTruncated>');
const T_CIsTruncated = Buffer.from('</IsTruncated>');
const T_NextContinuationToken = Buffer.from('<NextContinuationToken>');
const T_CNextContinuationToken = Buffer.from('</NextContinuationToken>');
const T_CommonPrefixes = Buffer.from('<CommonPrefixes>');
const T_CCommonPrefixes = Buffer.from('</CommonPrefixes>');
const T_Prefix = Buffer.from('<Prefix>');
const T_CPrefix = Buffer.from('</Prefix>');

const PIECE = 48 * 1024;

// Start of a field's text in x (between pos and end), or -1.
function at(x, open, pos, end) {
  const i = x.indexOf(open, pos);
  return i < 0 || i >= end ? -1 : i + open.length;
}

function field(x, open, close, pos, end) {
  const start = at(x, open, pos, end);
  if (start < 0) return null;
  const j = x.indexOf(close, start);
  return j < 0 || j > end ? null : x.slice(start, j);
}

// A decimal Size read in place: no string for it.
function sizeAt(x, pos, end) {
  const start = at(x, '<Size>', pos, end);
  if (start < 0) return 0;
  let n = 0;
  for (let k = start; k < end; k++) {
    const c = x.charCodeAt(k);
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
  }
  return n;
}

const LM = '<LastModified>';
const SC = '<StorageClass>';

// Every <Contents> entry of a piece that holds whole entries, handed to sink.add; false when
// a key is not plain ASCII (it had %-escapes). Fields that repeat (timestamps, STANDARD) are
// compared in place, so most entries cost a key, an ETag and what the sink makes of them.
function parseEntries(x, sink) {
  let ascii = true;
  let lmText = null, lmTime = NaN;
  for (let pos = x.indexOf('<Contents>'); pos >= 0;) {
    const end = x.indexOf('</Contents>', pos);
    if (end < 0) throw new Error('truncated ListObjectsV2 response');
    const key = field(x, '<Key>', '</Key>', pos, end);
    if (key === null) throw new Error('a ListObjectsV2 entry has no Key');
    if (ascii && key.indexOf('%') >= 0) ascii = false;
    let time = NaN;
    const lm = at(x, LM, pos, end);
    if (lm >= 0) {
      // Neighbours often share a timestamp: parse each distinct one once.
      if (lmText === null || !x.startsWith(lmText, lm) || x.charCodeAt(lm + lmText.length) !== 60) {
        lmText = field(x, LM, '</LastModified>', pos, end);
        lmTime = Date.parse(lmText);
      }
      time = lmTime;
    }
    const etag = field(x, '<ETag>', '</ETag>', pos, end);
    const sc = at(x, SC, pos, end);
    sink.add(
      decodeUrlKey(key),
      sizeAt(x, pos, end),
      time,
      etag === null ? undefined : etag.startsWith('&quot;') && etag.endsWith('&quot;') && etag.indexOf('&', 6) === etag.length - 6
        ? `"${etag.slice(6, -6)}"` : decodeEntities(etag),
      sc < 0 || x.startsWith('STANDARD<', sc) ? 'STANDARD' : field(x, SC, '</StorageClass>', pos, end) || 'STANDARD',
    );
    pos = x.indexOf('<Contents>', end);
  }
  return ascii;
}

// Entries as the items every store lists: {Key, Size, LastModified, ETag, StorageClass}.
class ItemSink {
  constructor() { this.items = []; }
  add(key, size, time, etag, storageClass) {
    this.items.push({ Key: key, Size: size, LastModified: time === time ? new Date(time) : undefined, ETag: etag, StorageClass: storageClass });
  }
}

// Entries as a few columns, for the request thread: a structured clone of one joined string
// and some typed arrays costs a fraction of a clone of a thousand objects.
class ColumnSink {
  constructor() { this.keys = []; this.sizes = []; this.times = []; this.etags = []; this.classes = null; }
  add(key, size, time, etag, storageClass) {
    this.keys.push(key);
    this.sizes.push(size);
    this.times.push(time);
    this.etags.push(etag === undefined ? '' : etag); // S3 never sends an empty ETag
    if (storageClass !== 'STANDARD' && !this.classes) this.classes = this.keys.slice(0, -1).map(() => 'STANDARD');
    if (this.classes) this.classes.push(storageClass);
  }

  columns() {
    return {
      keys: this.keys.join(''), keyEnds: ends(this.keys),
      etags: this.etags.join(''), etagEnds: ends(this.etags),
      sizes: Float64Array.from(this.sizes), times: Float64Array.from(this.times),
      classes: this.classes,
    };
  }
}

function ends(strings) {
  const out = new Uint32Array(strings.length);
  let n = 0;
  for (let i = 0; i < strings.length; i++) out[i] = n += strings[i].length;
  return out;
}

// The items of a ColumnSink's columns, on the thread that consumes them.
function itemsFromColumns(c) {
  const n = c.sizes.length;
  const items = new Array(n);
  let k0 = 0, e0 = 0;
  for (let i = 0; i < n; i++) {
    const k1 = c.keyEnds[i], e1 = c.etagEnds[i], t = c.times[i];
    items[i] = {
      Key: c.keys.slice(k0, k1),
      Size: c.sizes[i],
      LastModified: t === t ? new Date(t) : undefined,
      ETag: e1 > e0 ? c.etags.slice(e0, e1) : undefined,
      StorageClass: c.classes ? c.classes[i] : 'STANDARD',
    };
    k0 = k1;
    e0 = e1;
  }
  return items;
}

// The page's entries go to sink; the rest of the page is returned.
function parseInto(input, sink) {
  const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const headEnd = buf.indexOf(T_Contents);
  const headTo = headEnd < 0 ? buf.length : headEnd;
  let pos = headEnd;
  let lastEnd = -1;
  // Entries are decoded in pieces of about 48 KB cut at entry ends: strings that size die
  // young in V8's new space, and a key sliced from one keeps only its piece alive. S3 sends
  // ASCII when keys are url-encoded, and latin1 is the cheapest decoding of ASCII.
  const enc = isAscii(buf) ? 'latin1' : 'utf8';
  let ascii = enc === 'latin1';
  while (pos >= 0) {
    let end = buf.indexOf(T_CContents, Math.min(pos + PIECE, buf.length - T_CContents.length));
    if (end < 0) end = buf.lastIndexOf(T_CContents);
    if (end < pos) throw new Error('truncated ListObjectsV2 response');
    end += T_CContents.length;
    if (!parseEntries(buf.toString(enc, pos, end), sink)) ascii = false;
    lastEnd = end;
    pos = buf.indexOf(T_Contents, end);
  }
  // IsTruncated / NextContinuationToken may come before the entries or after them.
  const tailFrom = lastEnd < 0 ? buf.length : lastEnd;
  const flag = (from, to) => {
    const v = between(buf, T_IsTruncated, T_CIsTruncated, from, to);
    return v !== null && v.trim() === 'true';
  };
  const truncated = flag(0, headTo) || flag(tailFrom, buf.length);
  const token = between(buf, T_NextContinuationToken, T_CNextContinuationToken, 0, headTo, 'utf8') ??
    between(buf, T_NextContinuationToken, T_CNextContinuationToken, tailFrom, buf.length, 'utf8');
  // With a delimiter, folders follow the entries: <CommonPrefixes><Prefix>..</Prefix>.
  let prefixes;
  const cp = buf.indexOf(T_CommonPrefixes, lastEnd < 0 ? 0 : lastEnd);
  if (cp >= 0) {
    prefixes = [];
    for (let at = cp; at >= 0; at = buf.indexOf(T_CommonPrefixes, at + T_CommonPrefixes.length)) {
      const end = buf.indexOf(T_CCommonPrefixes, at);
      const p = end < 0 ? null : between(buf, T_Prefix, T_CPrefix, at, end, 'utf8');
      if (p === null) throw new Error('a ListObjectsV2 folder entry has no Prefix');
      prefixes.push(decodeUrlKey(p));
    }
  }
  const page = { prefixes, truncated, nextToken: token === null ? undefined : decodeEntities(token) };
  if (ascii) page.ascii = true; // every key is plain ASCII
  return page;
}

// A page of items: {items, prefixes, truncated, nextToken, ascii}.
function parseListObjectsV2(input) {
  const sink = new ItemSink();
  const page = parseInto(input, sink);
  return { items: sink.items, ...page };
}

// The same page with its entries as columns (see ColumnSink); pageFromColumns makes it a page.
function parseListColumns(input) {
  const sink = new ColumnSink();
  const page = parseInto(input, sink);
  page.columns = sink.columns();
  return page;
}

function pageFromColumns(page) {
  const { columns, ...rest } = page;
  return { items: itemsFromColumns(columns), ...rest };
}

module.exports = { parseListObjectsV2, parseListColumns, pageFromColumns, decodeUrlKey, decodeEntities };
