'use strict';
const { isAscii } = require('buffer');
// A ListObjectsV2 response parser for the one shape S3 sends, by indexOf: about ten times
// cheaper than a general XML parser. Keys arrive url-encoded (EncodingType=url), so they
// carry no XML entities; ETags carry &quot;.

// Byte offsets in the response Buffer: fields become small strings of their own, never
// slices of one big response string (a string that size lives in V8's large-object space
// until a full collection, and every key sliced from it would keep it alive).
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

function field(x, open, close, from, to) {
  const i = x.indexOf(open, from);
  if (i < 0 || i >= to) return null;
  const start = i + open.length;
  const j = x.indexOf(close, start);
  return j < 0 || j > to ? null : x.slice(start, j);
}

// Every <Contents> entry of a piece that holds whole entries; false when a key is not
// plain ASCII (it had %-escapes).
function parseEntries(x, items) {
  let ascii = true;
  let lmText = null, lmTime = 0;
  for (let pos = x.indexOf('<Contents>'); pos >= 0;) {
    const end = x.indexOf('</Contents>', pos);
    if (end < 0) throw new Error('truncated ListObjectsV2 response');
    const key = field(x, '<Key>', '</Key>', pos, end);
    const lm = field(x, '<LastModified>', '</LastModified>', pos, end);
    const etag = field(x, '<ETag>', '</ETag>', pos, end);
    const size = field(x, '<Size>', '</Size>', pos, end);
    const sc = field(x, '<StorageClass>', '</StorageClass>', pos, end);
    if (key === null) throw new Error('a ListObjectsV2 entry has no Key');
    if (ascii && key.indexOf('%') >= 0) ascii = false;
    // Neighbours often share a timestamp: parse each distinct one once.
    if (lm !== null && lm !== lmText) { lmText = lm; lmTime = Date.parse(lm); }
    items.push({
      Key: decodeUrlKey(key),
      Size: size === null ? 0 : Number(size),
      LastModified: lm === null ? undefined : new Date(lmTime),
      ETag: etag === null ? undefined : etag.startsWith('&quot;') && etag.endsWith('&quot;') && etag.indexOf('&', 6) === etag.length - 6
        ? `"${etag.slice(6, -6)}"` : decodeEntities(etag),
      StorageClass: sc || 'STANDARD',
    });
    pos = x.indexOf('<Contents>', end);
  }
  return ascii;
}

function parseListObjectsV2(input) {
  const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const items = [];
  const headEnd = buf.indexOf(T_Contents);
  const headTo = headEnd < 0 ? buf.length : headEnd;
  let pos = headEnd;
  let lastEnd = -1;
  // Decoded in pieces of about 48 KB cut at entry ends: strings that size die young in V8's
  // new space, and a key sliced from one keeps only its piece alive. S3 sends ASCII when
  // keys are url-encoded, and latin1 is the cheapest decoding of ASCII.
  const enc = isAscii(buf) ? 'latin1' : 'utf8';
  let ascii = enc === 'latin1';
  while (pos >= 0) {
    let end = buf.indexOf(T_CContents, Math.min(pos + PIECE, buf.length - T_CContents.length));
    if (end < 0) end = buf.lastIndexOf(T_CContents);
    if (end < pos) throw new Error('truncated ListObjectsV2 response');
    end += T_CContents.length;
    if (!parseEntries(buf.toString(enc, pos, end), items)) ascii = false;
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
  const page = { items, prefixes, truncated, nextToken: token === null ? undefined : decodeEntities(token) };
  if (ascii) page.ascii = true; // every key is plain ASCII
  return page;
}

module.exports = { parseListObjectsV2, decodeUrlKey, decodeEntities };
