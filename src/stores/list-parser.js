'use strict';
// A ListObjectsV2 response parser for the one shape S3 sends, by indexOf: about ten times
// cheaper than a general XML parser. Keys arrive url-encoded (EncodingType=url), so they
// carry no XML entities; ETags carry &quot;.

function between(xml, open, close, from, to) {
  const i = xml.indexOf(open, from);
  if (i < 0 || i >= to) return null;
  const start = i + open.length;
  const j = xml.indexOf(close, start);
  return j < 0 || j > to ? null : xml.slice(start, j);
}

function decodeEntities(s) {
  return s.indexOf('&') < 0 ? s : s.replace(/&quot;|&#34;|&amp;|&lt;|&gt;|&apos;|&#39;/g, (e) => ({ '&quot;': '"', '&#34;': '"', '&amp;': '&', '&lt;': '<', '&gt;': '>', '&apos;': "'", '&#39;': "'" }[e]));
}

function decodeUrlKey(k) {
  if (k.indexOf('%') < 0 && k.indexOf('+') < 0) return k;
  return decodeURIComponent(k.indexOf('+') >= 0 ? k.replace(/\+/g, ' ') : k);
}

function parseListObjectsV2(xml) {
  const items = [];
  const headEnd = xml.indexOf('<Contents>');
  const head = headEnd < 0 ? xml : xml.slice(0, headEnd);
  let pos = headEnd;
  while (pos >= 0) {
    const end = xml.indexOf('</Contents>', pos);
    if (end < 0) throw new Error('truncated ListObjectsV2 response');
    const key = between(xml, '<Key>', '</Key>', pos, end);
    const lm = between(xml, '<LastModified>', '</LastModified>', pos, end);
    const etag = between(xml, '<ETag>', '</ETag>', pos, end);
    const size = between(xml, '<Size>', '</Size>', pos, end);
    const sc = between(xml, '<StorageClass>', '</StorageClass>', pos, end);
    if (key === null) throw new Error('a ListObjectsV2 entry has no Key');
    items.push({
      Key: decodeUrlKey(key),
      Size: size === null ? 0 : Number(size),
      LastModified: lm === null ? undefined : new Date(lm),
      ETag: etag === null ? undefined : etag.startsWith('&quot;') && etag.endsWith('&quot;') && etag.indexOf('&', 6) === etag.length - 6
        ? `"${etag.slice(6, -6)}"` : decodeEntities(etag),
      StorageClass: sc || 'STANDARD',
    });
    pos = xml.indexOf('<Contents>', end);
  }
  // The tail after the last entry may hold IsTruncated / NextContinuationToken too.
  const tail = headEnd < 0 ? '' : xml.slice(xml.lastIndexOf('</Contents>'));
  const truncated = /<IsTruncated>\s*true\s*<\/IsTruncated>/.test(head) || /<IsTruncated>\s*true\s*<\/IsTruncated>/.test(tail);
  const token = between(head, '<NextContinuationToken>', '</NextContinuationToken>', 0, head.length) ??
    between(tail, '<NextContinuationToken>', '</NextContinuationToken>', 0, tail.length);
  // With a delimiter, folders follow the entries: <CommonPrefixes><Prefix>..</Prefix>.
  let prefixes;
  const cp = xml.indexOf('<CommonPrefixes>', headEnd < 0 ? 0 : xml.lastIndexOf('</Contents>'));
  if (cp >= 0) {
    prefixes = [];
    for (let at = cp; at >= 0; at = xml.indexOf('<CommonPrefixes>', at + 16)) {
      const end = xml.indexOf('</CommonPrefixes>', at);
      const p = end < 0 ? null : between(xml, '<Prefix>', '</Prefix>', at, end);
      if (p === null) throw new Error('a ListObjectsV2 folder entry has no Prefix');
      prefixes.push(decodeUrlKey(p));
    }
  }
  return { items, prefixes, truncated, nextToken: token === null ? undefined : decodeEntities(token) };
}

module.exports = { parseListObjectsV2, decodeUrlKey, decodeEntities };
