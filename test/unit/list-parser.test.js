'use strict';
const { parseListObjectsV2, parseListColumns, pageFromColumns, PageError } = require('../../src/stores/list-parser');
const { Signer, signLater, uriEncode } = require('../../src/stores/sigv4');

const page = (contents, tail = '<IsTruncated>false</IsTruncated>') => `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix></Prefix><KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys><EncodingType>url</EncodingType>${tail}${contents}</ListBucketResult>`;

test('parses entries, url-decoded keys (+ is a space), quoted ETags, sizes and dates', () => {
  const xml = page('<Contents><Key>a+b%2Bc%F0%9F%98%80</Key><LastModified>2024-06-01T00:00:00.000Z</LastModified><ETag>&quot;abc&quot;</ETag><Size>12</Size><StorageClass>GLACIER</StorageClass></Contents>' +
    '<Contents><Key>x%01y</Key><LastModified>2024-06-02T00:00:00.000Z</LastModified><ETag>&quot;d-2&quot;</ETag><ChecksumAlgorithm>CRC32</ChecksumAlgorithm><Size>0</Size><Owner><ID>o</ID></Owner><StorageClass>STANDARD</StorageClass></Contents>',
  '<NextContinuationToken>tok&amp;1</NextContinuationToken><IsTruncated>true</IsTruncated>');
  const r = parseListObjectsV2(xml);
  expect(r.truncated).toBe(true);
  expect(r.nextToken).toBe('tok&1');
  expect(r.items).toEqual([
    { Key: 'a b+c😀', Size: 12, LastModified: new Date('2024-06-01T00:00:00.000Z'), ETag: '"abc"', StorageClass: 'GLACIER' },
    { Key: 'x\u0001y', Size: 0, LastModified: new Date('2024-06-02T00:00:00.000Z'), ETag: '"d-2"', StorageClass: 'STANDARD' },
  ]);
});

test('an empty page, and a truncated flag after the entries', () => {
  const empty = parseListObjectsV2(page(''));
  expect(empty.items).toEqual([]);
  expect(empty.chunk.length).toBe(0);
  expect({ ...empty, chunk: undefined }).toEqual({ chunk: undefined, prefixes: undefined, truncated: false, nextToken: undefined, ascii: true, sorted: true });
  const xml = '<ListBucketResult><Contents><Key>k</Key><Size>1</Size></Contents><IsTruncated>true</IsTruncated></ListBucketResult>';
  expect(parseListObjectsV2(xml)).toMatchObject({ truncated: true, items: [{ Key: 'k', Size: 1, StorageClass: 'STANDARD' }] });
});

test('a page says whether every key is plain ASCII, so the lister may compare natively', () => {
  const entry = (k) => `<Contents><Key>${k}</Key><LastModified>2024-06-01T00:00:00.000Z</LastModified><Size>1</Size></Contents>`;
  expect(parseListObjectsV2(page(entry('a+b') + entry('c'))).ascii).toBe(true);
  expect(parseListObjectsV2(page(entry('a') + entry('%EE%80%80'))).ascii).toBeUndefined(); // U+E000
  expect(parseListObjectsV2(Buffer.from(page(entry('caf\u00e9')))).ascii).toBeUndefined(); // a raw UTF-8 byte
  // Entries that share a timestamp still get Date objects of their own.
  const { items } = parseListObjectsV2(page(entry('a') + entry('b')));
  expect(items[0].LastModified).toEqual(items[1].LastModified);
  expect(items[0].LastModified).not.toBe(items[1].LastModified);
});

test('entries beyond one decoded piece (48 KB) are all read', () => {
  const keys = Array.from({ length: 1000 }, (_, i) => `logs/2024/01/01/host-0/part-${String(i).padStart(5, '0')}.gz`);
  const xml = page(keys.map((k) => `<Contents><Key>${k}</Key><LastModified>2024-06-01T00:00:0${k.length % 10}.000Z</LastModified><ETag>&quot;e${k.length}&quot;</ETag><Size>${k.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`).join(''));
  expect(xml.length).toBeGreaterThan(3 * 48 * 1024);
  const r = parseListObjectsV2(xml);
  expect(r.items.map((i) => i.Key)).toEqual(keys);
  expect(r.items.every((i) => i.Size === i.Key.length && i.ETag === `"e${i.Key.length}"`)).toBe(true);
});

test('folder entries of a delimiter listing, url-decoded, with and without keys beside them', () => {
  const folders = '<CommonPrefixes><Prefix>logs%2F2024%2F</Prefix></CommonPrefixes><CommonPrefixes><Prefix>caf%C3%A9+x%2F</Prefix></CommonPrefixes>';
  expect(parseListObjectsV2(page(folders)).prefixes).toEqual(['logs/2024/', 'café x/']);
  const both = parseListObjectsV2(page('<Contents><Key>a</Key><Size>1</Size></Contents>' + folders));
  expect(both.items.map((i) => i.Key)).toEqual(['a']);
  expect(both.prefixes).toEqual(['logs/2024/', 'café x/']);
  // The request's own <Prefix> in the head is not a folder.
  expect(parseListObjectsV2(page('<Contents><Key>a</Key><Size>1</Size></Contents>')).prefixes).toBeUndefined();
});

test('a response cut short is an error, not a short page', () => {
  expect(() => parseListObjectsV2(page('<Contents><Key>a</Key><Size>1</Size>'))).toThrow(/truncated/);
});

test("a page is sorted only when its keys strictly increase in S3's order; plain only without control characters", () => {
  const entry = (k) => `<Contents><Key>${k}</Key><Size>1</Size></Contents>`;
  const flags = (...keys) => { const p = parseListColumns(page(keys.map(entry).join(''))); return [p.sorted === true, p.columns.plain]; };
  expect(flags('a', 'b', 'c')).toEqual([true, true]);
  expect(flags('a', 'c', 'b')).toEqual([false, true]);
  expect(flags('a', 'a')).toEqual([false, true]); // not strictly
  expect(flags('B', 'a')).toEqual([true, true]); // byte order: 'B' < 'a'
  expect(flags('a', 'caf%C3%A9')).toEqual([true, true]); // not ASCII, in UTF-8 order too
  expect(flags('%EF%BF%BF', '%F0%9F%98%80')).toEqual([true, true]); // U+FFFF before an emoji in UTF-8
  expect(flags('%F0%9F%98%80', '%EF%BF%BF')).toEqual([false, true]); // natively increasing, not in S3's order
  expect(flags('a', 'b%09c')).toEqual([true, false]); // a tab
  expect(flags('a', 'b%0Ac')).toEqual([true, false]); // a newline inside a key
  expect(flags('a', 'b%7F')).toEqual([true, false]);
});

test('columns cloned across threads make the same page', () => {
  const entry = (k, extra = '') => `<Contents><Key>${k}</Key>${extra}<Size>${k.length}</Size></Contents>`;
  const long = '%F0%9F%98%80'.repeat(256); // a 1024-byte key
  const xml = page(
    entry('a+b', '<LastModified>2024-06-01T00:00:00.000Z</LastModified><ETag>&quot;x&quot;</ETag><StorageClass>STANDARD</StorageClass>') +
    entry('no-etag-no-date') + // neither field: both stay undefined
    entry('caf%C3%A9', '<LastModified>2024-06-02T00:00:00.000Z</LastModified><ETag>&quot;a&amp;b&quot;</ETag><StorageClass>GLACIER</StorageClass>') +
    entry(long, '<ETag>&quot;e-3&quot;</ETag><StorageClass>DEEP_ARCHIVE</StorageClass>') +
    entry('%01', '<LastModified>2024-06-02T00:00:00.000Z</LastModified>') +
    '<CommonPrefixes><Prefix>d%2F</Prefix></CommonPrefixes>',
    '<NextContinuationToken>t</NextContinuationToken><IsTruncated>true</IsTruncated>');
  const direct = parseListObjectsV2(xml);
  const viaColumns = pageFromColumns(structuredClone(parseListColumns(xml)));
  expect(viaColumns.items).toEqual(direct.items);
  expect({ ...viaColumns, chunk: 0 }).toEqual({ ...direct, chunk: 0 });
  expect(direct.items.map((i) => [i.Key, i.StorageClass])).toEqual([['a b', 'STANDARD'], ['no-etag-no-date', 'STANDARD'],
    ['café', 'GLACIER'], ['😀'.repeat(256), 'DEEP_ARCHIVE'], ['\u0001', 'STANDARD']]);
  expect(direct.items[1].ETag).toBeUndefined();
  expect(direct.items[1].LastModified).toBeUndefined();
  expect(viaColumns.items[2].ETag).toBe('"a&b"');
  // A plain page: all STANDARD, no folders, and the empty page.
  const plain = page(Array.from({ length: 1001 }, (_, i) => entry(`k${i}`, '<LastModified>2024-06-01T00:00:00.000Z</LastModified><ETag>&quot;e&quot;</ETag>')).join(''));
  const plainItems = parseListObjectsV2(plain).items;
  expect(plainItems).toHaveLength(1001);
  expect(pageFromColumns(structuredClone(parseListColumns(plain))).items).toEqual(plainItems);
  expect(plainItems[1000]).toEqual({ Key: 'k1000', Size: 5, LastModified: new Date('2024-06-01T00:00:00.000Z'), ETag: '"e"', StorageClass: 'STANDARD' });
  expect(parseListColumns(plain).columns.classes).toBeNull();
  expect(pageFromColumns(structuredClone(parseListColumns(page('')))).items).toEqual([]);
});

test('SigV4: the documented example signature (GET object, AWS SigV4 test values)', () => {
  // The example from the S3 SigV4 documentation: GET /test.txt with a Range header.
  const s = new Signer('s3');
  const out = s.sign({
    method: 'GET', host: 'examplebucket.s3.amazonaws.com', path: '/test.txt', headers: { range: 'bytes=0-9' },
    credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    region: 'us-east-1', now: new Date('2013-05-24T00:00:00Z'),
  });
  expect(out.headers.authorization).toBe('AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
    'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
  expect(uriEncode("a b+c/d*(!)'é", true)).toBe('a%20b%2Bc/d%2A%28%21%29%27%C3%A9');
});

test('SigV4 deferred: a header added later (a checksum read elsewhere) signs as if it had been there from the start', () => {
  const args = {
    method: 'PUT', host: 'examplebucket.s3.amazonaws.com', path: '/k é', query: [['partNumber', '2'], ['uploadId', 'u']],
    credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', sessionToken: 't' },
    region: 'eu-west-1', now: new Date('2026-11-27T10:00:00Z'), payloadHash: 'UNSIGNED-PAYLOAD',
  };
  const whole = new Signer('s3').sign({ ...args, headers: { 'x-amz-checksum-crc64nvme': 'HZmeJm31aCo=' } });
  const later = new Signer('s3').sign({ ...args, deferred: true });
  expect(later.headers.authorization).toBeUndefined();
  expect(JSON.stringify(later.deferred)).not.toContain(args.credentials.secretAccessKey);
  const headers = signLater(structuredClone(later.deferred), { 'x-amz-checksum-crc64nvme': 'HZmeJm31aCo=' });
  expect(headers).toEqual(whole.headers);
  expect(later.path).toBe(whole.path);
  expect(signLater(later.deferred, {}, true).authorization).toBeUndefined();
});

// The parser reads S3's field order in one pass; every other layout must parse the same.
// A reference that reads each entry on its own, by regular expressions:
function referenceItems(xml) {
  const decode = (s) => s.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return [...xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)].map(([, e]) => {
    const f = (name) => { const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(e); return m ? m[1] : undefined; };
    const lm = f('LastModified');
    return {
      Key: decodeURIComponent(f('Key').replace(/\+/g, ' ')),
      Size: f('Size') === undefined ? 0 : Number(f('Size')),
      LastModified: lm === undefined ? undefined : new Date(lm),
      ETag: f('ETag') === undefined ? undefined : decode(f('ETag')),
      StorageClass: f('StorageClass') || 'STANDARD',
    };
  });
}

test('entries in any field order, with fields missing, extra or spaced out, parse like each on its own', () => {
  let seed = 7;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const extras = ['<ChecksumAlgorithm>CRC64NVME</ChecksumAlgorithm>', '<ChecksumType>FULL_OBJECT</ChecksumType>',
    '<Owner><ID>abc</ID><DisplayName>me</DisplayName></Owner>', '<RestoreStatus><IsRestoreInProgress>false</IsRestoreInProgress></RestoreStatus>'];
  for (let round = 0; round < 200; round++) {
    let body = '';
    for (let i = 0; i < 1 + rnd(12); i++) {
      const fields = [
        `<Key>k${round}-${i}${rnd(4) === 0 ? '%C3%A9+x' : ''}</Key>`,
        rnd(4) ? `<LastModified>2024-06-0${1 + rnd(3)}T00:00:0${rnd(3)}.000Z</LastModified>` : null,
        rnd(4) ? (rnd(5) ? `<ETag>&quot;e${rnd(9)}&quot;</ETag>` : '<ETag>&quot;a&amp;b&quot;</ETag>') : null,
        rnd(5) ? `<Size>${rnd(3) ? rnd(100000) : 0}</Size>` : null,
        rnd(3) ? `<StorageClass>${['STANDARD', 'GLACIER', 'STANDARD_IA'][rnd(3)]}</StorageClass>` : null,
        rnd(3) ? null : extras[rnd(extras.length)],
        rnd(4) ? null : extras[rnd(extras.length)],
      ].filter(Boolean);
      if (rnd(3) === 0) fields.sort(() => rnd(3) - 1); // another order
      const gap = rnd(4) === 0 ? '\n  ' : '';
      body += `<Contents>${gap}${fields.join(gap)}${gap}</Contents>${gap}`;
    }
    const xml = page(body);
    expect(parseListObjectsV2(xml).items).toEqual(referenceItems(xml));
  }
});

// Some servers (versitygw, s3s-fs) ignore encoding-type=url and send keys raw, without
// <EncodingType>: such keys are XML text, never url-decoded.
describe('keys are url-decoded only when the answer says EncodingType=url', () => {
  const raw = (contents, tail = '<IsTruncated>false</IsTruncated>') => `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix></Prefix><MaxKeys>1000</MaxKeys>${tail}${contents}</ListBucketResult>`;
  const entry = (k) => `<Contents><Key>${k}</Key><LastModified>2024-06-01T00:00:00.000Z</LastModified><ETag>&quot;e&quot;</ETag><Size>1</Size></Contents>`;
  const keysOf = (xml) => parseListObjectsV2(xml).items.map((i) => i.Key);
  const viaThread = (xml) => pageFromColumns(structuredClone(parseListColumns(Buffer.from(xml)))).items.map((i) => i.Key);

  test('raw keys: %, + and entities come back as the key was written', () => {
    const xml = raw([
      'pct%41', 'plus+sign', 'amp&amp;and', 'it&apos;s', 'it&#39;s2', 'a&lt;b&gt;c', 'q&quot;q', 'caf\u00e9',
      'hex&#x1F600;', 'dec&#233;', '%E2%82%AC',
    ].map(entry).join('') + '<CommonPrefixes><Prefix>d%2F&amp;/</Prefix></CommonPrefixes>');
    const want = ['pct%41', 'plus+sign', 'amp&and', "it's", "it's2", 'a<b>c', 'q"q', 'café', 'hex😀', 'decé', '%E2%82%AC'];
    expect(keysOf(xml)).toEqual(want);
    expect(viaThread(xml)).toEqual(want);
    expect(parseListObjectsV2(xml).prefixes).toEqual(['d%2F&/']);
    // Entities make a page not plain ASCII to the lister's native comparison.
    expect(parseListObjectsV2(raw(entry('a') + entry('b&amp;'))).ascii).toBeUndefined();
    expect(parseListObjectsV2(raw(entry('a') + entry('b'))).ascii).toBe(true);
  });

  test('url-encoded keys: decoded once, entities first', () => {
    const xml = raw(entry('pct%2541') + entry('plus%2Bsign+sp') + entry('amp%26and') + entry('x&amp;y'), '<EncodingType>url</EncodingType><IsTruncated>false</IsTruncated>');
    expect(keysOf(xml)).toEqual(['pct%41', 'plus+sign sp', 'amp&and', 'x&y']);
    // The element may come anywhere outside the entries, in any case.
    const after = raw(entry('a%2Fb'), '<IsTruncated>false</IsTruncated>') .replace('</ListBucketResult>', '<EncodingType>URL</EncodingType></ListBucketResult>');
    expect(keysOf(after)).toEqual(['a/b']);
  });

  test('an undecodable key is a PageError, never a URIError', () => {
    const bad = [
      raw(entry('100%'), '<EncodingType>url</EncodingType>'), // lone %
      raw(entry('%E2%82'), '<EncodingType>url</EncodingType>'), // cut UTF-8
      raw(entry('a&b')), // unescaped &
      raw(entry('a&nbsp;b')), // not an XML entity
      raw(entry('a&#xD800;')), // a surrogate
      raw(entry('a&#0;')),
    ];
    for (const xml of bad) {
      expect(() => parseListObjectsV2(xml)).toThrow(PageError);
      expect(() => parseListColumns(Buffer.from(xml))).toThrow(PageError);
    }
  });
});
