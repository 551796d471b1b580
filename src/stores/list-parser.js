'use strict';
// A ListObjectsV2 response parser for the one shape S3 sends, by indexOf: about ten times
// cheaper than a general XML parser. Keys are asked for url-encoded (EncodingType=url), but
// some servers ignore that and send them raw: a key is url-decoded only when the answer
// says <EncodingType>url</EncodingType>, and XML entities are decoded either way. It reads
// the response Buffer and never makes one string of the whole response: V8 keeps a string
// that size in its large-object space until a full collection, and every key sliced from
// it would keep all of it alive.
const { isAscii } = require('buffer');
const { ColumnChunk, ColumnSink } = require('./chunks');

// A field outside the entries (a flag, a token, a folder), as a small string of its own.
function between(buf, open, close, from, to, encoding = 'latin1') {
  const i = buf.indexOf(open, from);
  if (i < 0 || i >= to) return null;
  const start = i + open.length;
  const j = buf.indexOf(close, start);
  return j < 0 || j > to ? null : buf.toString(encoding, start, j);
}

// A page that cannot be read as a listing (bad XML text, bad url-encoding, cut short).
class PageError extends Error {}

const NAMED = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

// XML's five named entities and numeric character references; anything else after '&' is
// not XML a key can be read from.
function decodeEntities(s) {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);|&/g, (all, ref) => {
    if (ref === undefined) throw new PageError(`an unescaped '&' in ${JSON.stringify(s.slice(0, 200))}`);
    if (ref[0] !== '#') {
      if (!(ref in NAMED)) throw new PageError(`an unknown XML entity ${all} in ${JSON.stringify(s.slice(0, 200))}`);
      return NAMED[ref];
    }
    const cp = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    if (!(cp >= 1 && cp <= 0x10ffff) || (cp >= 0xd800 && cp <= 0xdfff)) throw new PageError(`a character reference ${all} to no character in ${JSON.stringify(s.slice(0, 200))}`);
    return String.fromCodePoint(cp);
  });
}

// EncodingType=url as S3 does it: form-encoded, '+' is a space.
function decodeUrlKey(k) {
  if (k.indexOf('%') < 0 && k.indexOf('+') < 0) return k;
  try {
    return decodeURIComponent(k.indexOf('+') >= 0 ? k.replace(/\+/g, ' ') : k);
  } catch {
    throw new PageError(`a key that is not valid url-encoding: ${JSON.stringify(k.slice(0, 200))}`);
  }
}

// A url-encoded key is XML text too: entities first (rare: S3 escapes '&' as %26), then %-escapes.
function decodeUrlXml(k) {
  return decodeUrlKey(k.indexOf('&') < 0 ? k : decodeEntities(k));
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
const T_EncodingType = Buffer.from('<EncodingType>');
const T_CEncodingType = Buffer.from('</EncodingType>');

// Whether the answer's keys are url-encoded: only when it says so. The element is the
// listing's own, outside the entries, and an unescaped '<' cannot occur inside a key,
// so a search of the whole answer finds it wherever the server puts it.
function urlEncoded(buf) {
  const v = between(buf, T_EncodingType, T_CEncodingType, 0, buf.length);
  return v !== null && v.trim().toLowerCase() === 'url';
}

const PIECE = 48 * 1024;

// Needles of at most six characters: V8 searches those linearly, while a longer one may
// switch to Boyer-Moore-Horspool, which builds a 256-entry table on every call.
const O_CONTENTS = '<Conte'; // <Contents>
const C_CONTENTS = '</Cont';

// Where an entry's field starts (its opening tag). S3 sends the fields in one order, each
// right where the one before ended (c), so that is looked at first; otherwise the field
// is searched for in the rest of the entry and then in all of it.
function find(x, needle, c, pos) {
  const i = x.indexOf(needle, c);
  if (i === c) return i;
  const close = x.indexOf(C_CONTENTS, c); // c is inside the entry: this is its end
  if (i >= 0 && (i < close || close < 0)) return i;
  const j = x.indexOf(needle, pos);
  return j >= 0 && j < c ? j : -1;
}

// &quot; at i.
function isQuot(x, i) {
  return x.charCodeAt(i) === 38 && x.charCodeAt(i + 1) === 113 && x.charCodeAt(i + 2) === 117 &&
    x.charCodeAt(i + 3) === 111 && x.charCodeAt(i + 4) === 116 && x.charCodeAt(i + 5) === 59;
}

// STANDARD< at i.
function isStandard(x, i) {
  return x.charCodeAt(i) === 83 && x.charCodeAt(i + 1) === 84 && x.charCodeAt(i + 2) === 65 && x.charCodeAt(i + 3) === 78 &&
    x.charCodeAt(i + 4) === 68 && x.charCodeAt(i + 5) === 65 && x.charCodeAt(i + 6) === 82 && x.charCodeAt(i + 7) === 68 &&
    x.charCodeAt(i + 8) === 60;
}

// A decimal Size read in place: no string for it.
function sizeAt(x, start) {
  let n = 0;
  for (let k = start; ; k++) {
    const c = x.charCodeAt(k);
    if (!(c >= 48 && c <= 57)) return n;
    n = n * 10 + (c - 48);
  }
}

// Every <Contents> entry of a piece that holds whole entries, handed to sink.add; false when
// a key may not be plain ASCII (it had %-escapes or entities). Fields that repeat
// (timestamps, STANDARD) are compared in place, so most entries cost a key, an ETag and
// what the sink makes of them. decode: decodeUrlXml or decodeEntities.
function parseEntries(x, sink, decode, latin1) {
  let ascii = true;
  let lmText = null, lmTime = NaN;
  for (let pos = x.indexOf(O_CONTENTS); pos >= 0;) {
    let c = pos + 10; // past <Contents>
    const k = find(x, '<Key>', c, pos);
    const ke = k < 0 ? -1 : x.indexOf('</Key>', k);
    if (ke < 0) throw new PageError('a ListObjectsV2 entry has no Key');
    const key = x.slice(k + 5, ke);
    const plainKey = latin1 && key.indexOf('%') < 0 && key.indexOf('&') < 0; // ASCII once decoded ('+' is a space)
    if (!plainKey) ascii = false;
    c = ke + 6;
    let time = NaN;
    const lm = find(x, '<LastM', c, pos); // <LastModified>
    if (lm >= 0) {
      const t = lm + 14;
      // Neighbours often share a timestamp: parse each distinct one once.
      if (lmText === null || x.charCodeAt(t + lmText.length) !== 60 || x.slice(t, t + lmText.length) !== lmText) {
        lmText = x.slice(t, x.indexOf('<', t));
        lmTime = Date.parse(lmText);
      }
      time = lmTime;
      if (lm >= c) c = t + lmText.length + 15; // </LastModified>
    }
    let etag;
    const e = find(x, '<ETag>', c, pos);
    if (e >= 0) {
      const ee = x.indexOf('</ETag', e);
      if (ee < 0) throw new PageError('truncated ListObjectsV2 response');
      // The usual &quot;hex&quot;: one string for it, without a pass for entities.
      etag = isQuot(x, e + 6) && isQuot(x, ee - 6) && x.indexOf('&', e + 12) === ee - 6
        ? `"${x.slice(e + 12, ee - 6)}"` : decodeEntities(x.slice(e + 6, ee));
      if (e >= c) c = ee + 7;
    }
    const s = find(x, '<Size>', c, pos);
    const size = s < 0 ? 0 : sizeAt(x, s + 6);
    if (s >= c) c = s + 6;
    const sc = find(x, '<Stora', c, pos); // <StorageClass>
    let storageClass = 'STANDARD';
    if (sc >= 0) {
      if (!isStandard(x, sc + 14)) {
        const se = x.indexOf('<', sc + 14);
        if (se > sc + 14) storageClass = x.slice(sc + 14, se);
      }
      if (sc >= c) c = sc + 14;
    }
    sink.add(plainKey && key.indexOf('+') < 0 ? key : decode(key), size, time, etag, storageClass, plainKey);
    pos = x.indexOf(O_CONTENTS, c);
  }
  return ascii;
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
  const url = urlEncoded(buf);
  const decode = url ? decodeUrlXml : decodeEntities;
  while (pos >= 0) {
    let end = buf.indexOf(T_CContents, Math.min(pos + PIECE, buf.length - T_CContents.length));
    if (end < 0) end = buf.lastIndexOf(T_CContents);
    if (end < pos) throw new PageError('truncated ListObjectsV2 response');
    end += T_CContents.length;
    if (!parseEntries(buf.toString(enc, pos, end), sink, decode, enc === 'latin1')) ascii = false;
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
      if (p === null) throw new PageError('a ListObjectsV2 folder entry has no Prefix');
      prefixes.push(decode(p));
    }
  }
  const page = { prefixes, truncated, nextToken: token === null ? undefined : decodeEntities(token) };
  if (ascii) page.ascii = true; // every key is plain ASCII
  return page;
}

// The entries as columns (see ColumnSink), the shape the request thread sends back.
function parseListColumns(input) {
  const sink = new ColumnSink();
  const page = parseInto(input, sink);
  page.columns = sink.columns();
  // Strictly increasing in S3's order (the sink compares order keys natively).
  if (sink.sorted) page.sorted = true;
  return page;
}

// A page as the listers take it, {chunk, prefixes, truncated, nextToken, ascii, sorted}:
// its entries stay columns until a consumer asks for items.
function pageFromColumns({ columns, ...page }) {
  page.chunk = new ColumnChunk(columns);
  Object.defineProperty(page, 'items', { get() { return this.chunk.toItems(); }, enumerable: false });
  return page;
}

function parseListObjectsV2(input) {
  return pageFromColumns(parseListColumns(input));
}

module.exports = { parseListObjectsV2, parseListColumns, pageFromColumns, decodeUrlKey, decodeUrlXml, decodeEntities, PageError };
