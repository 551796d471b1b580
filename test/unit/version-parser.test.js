'use strict';
// ListObjectVersions answers read in document order: versions and delete markers of a key
// interleaved as the server sent them, keys url-decoded only when the answer says so.
const { parseListObjectVersions } = require('../../src/stores/version-parser');
const { VersionChunk } = require('../../src/stores/version-chunk');

const v = (key, id, latest, t, size = 3, etag = '&quot;abc&quot;') => `<Version><Key>${key}</Key><VersionId>${id}</VersionId><IsLatest>${latest}</IsLatest><LastModified>${t}</LastModified><ETag>${etag}</ETag><Size>${size}</Size><Owner><ID>x</ID></Owner><StorageClass>STANDARD</StorageClass></Version>`;
const d = (key, id, latest, t) => `<DeleteMarker><Key>${key}</Key><VersionId>${id}</VersionId><IsLatest>${latest}</IsLatest><LastModified>${t}</LastModified><Owner><ID>x</ID></Owner></DeleteMarker>`;
const page = (body, { url = true, truncated = false, tail = '' } = {}) => `<?xml version="1.0" encoding="UTF-8"?><ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix></Prefix><KeyMarker></KeyMarker><VersionIdMarker></VersionIdMarker><MaxKeys>1000</MaxKeys><IsTruncated>${truncated}</IsTruncated>${url ? '<EncodingType>url</EncodingType>' : ''}${body}${tail}</ListVersionsResult>`;

const T = '2024-01-01T00:00:00.000Z';

test('versions and delete markers come out in the order the answer gives them, not by time', () => {
  // A delete marker stamped the same second as the versions around it.
  const xml = page(v('a', 'a3', true, T) + d('a', 'a2', false, T) + v('a', 'a1', false, T) + d('b', 'b2', true, T) + v('b', 'b1', false, '2023-01-01T00:00:00.000Z'));
  const p = parseListObjectVersions(Buffer.from(xml));
  expect(p.entries.map((e) => [e.Key, e.VersionId, e.IsLatest, e.DeleteMarker])).toEqual([
    ['a', 'a3', true, false], ['a', 'a2', false, true], ['a', 'a1', false, false], ['b', 'b2', true, true], ['b', 'b1', false, false],
  ]);
  expect(p.entries[0]).toMatchObject({ Size: 3, ETag: '"abc"', StorageClass: 'STANDARD', LastModified: new Date(T) });
  expect(p.entries[1]).toMatchObject({ Size: 0, ETag: undefined, StorageClass: undefined });
  expect(p.truncated).toBe(false);
});

test('keys: url-decoded only when the answer says so; XML entities always; ETags and version ids unescaped', () => {
  const url = parseListObjectVersions(page(v('%C3%BC+x%2By%26', 'i&amp;d', true, T, 1, '&#34;q&#34;')));
  expect(url.entries[0]).toMatchObject({ Key: 'ü x+y&', VersionId: 'i&d', ETag: '"q"' });
  const raw = parseListObjectVersions(page(v('ü+%41 &amp; &#x1F600;', 'null', true, T), { url: false }));
  expect(raw.entries[0].Key).toBe('ü+%41 & 😀');
  const noId = parseListObjectVersions(page('<Version><Key>k</Key><IsLatest>true</IsLatest><Size>1</Size></Version>'));
  expect(noId.entries[0].VersionId).toBe('null');
});

test('truncation, markers and folders; a page cut short is an error', () => {
  const p = parseListObjectVersions(page(v('a', '1', true, T), { truncated: true, tail: '<NextKeyMarker>a</NextKeyMarker><NextVersionIdMarker>1</NextVersionIdMarker><CommonPrefixes><Prefix>d%2F</Prefix></CommonPrefixes>' }));
  expect(p).toMatchObject({ truncated: true, nextKeyMarker: 'a', nextVersionIdMarker: '1', prefixes: ['d/'] });
  expect(() => parseListObjectVersions(page(v('a', '1', true, T)).slice(0, 300))).toThrow(/truncated/);
  // Many entries: pieces cut at entry ends lose none.
  let body = '';
  for (let i = 0; i < 3000; i++) body += i % 7 ? v(`k${String(i).padStart(5, '0')}`, `v${i}`, true, T) : d(`k${String(i).padStart(5, '0')}`, `v${i}`, true, T);
  const big = parseListObjectVersions(Buffer.from(page(body)));
  expect(big.entries.map((e) => e.VersionId)).toEqual(Array.from({ length: 3000 }, (_, i) => `v${i}`));
});

test('VersionChunk: a row per key, versions flattened in order, NoncurrentSince from the newer neighbour', () => {
  const p = parseListObjectVersions(page(v('a', 'a2', true, '2024-01-02T00:00:00.000Z') + v('a', 'a1', false, T) + v('b', 'b1', true, T)));
  const c = VersionChunk.of(p.entries);
  expect([c.length, c.key(0), c.key(1)]).toEqual([2, 'a', 'b']);
  expect(c.versionsOf(0).map((x) => x.VersionId)).toEqual(['a2', 'a1']);
  expect(c.toItems()[1].NoncurrentSince).toEqual(new Date('2024-01-02T00:00:00.000Z'));
  expect(c.slice(1).toItems().map((x) => x.VersionId)).toEqual(['b1']);
  expect(c.filterKeys((k) => k === 'a').toItems().map((x) => x.VersionId)).toEqual(['a2', 'a1']);
  const back = VersionChunk.fromRows(c.rows());
  expect(back.toItems().map((x) => [x.Key, x.VersionId, x.IsLatest, x.DeleteMarker, x.Size, +x.LastModified])).toEqual(c.toItems().map((x) => [x.Key, x.VersionId, x.IsLatest, x.DeleteMarker, x.Size, +x.LastModified]));
});
