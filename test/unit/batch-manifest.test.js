'use strict';
// S3 Batch Operations manifests (S3BatchOperations_CSV_20180820): CSV rows of bucket, key
// and an optional version id, no header, every field URL-encoded. Checked against the
// documented format with keys that break naive CSV or URL encoding, and the manifest stage
// end to end on an in-memory bucket writing a local file.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { manifestRow, manifestRows, manifestSpec, parseManifestRow, encodeField } = require('../../src/stages/batch-manifest');
const s3blitz = require('../../src');
const { FakeListStore } = require('../helpers/fake-list-store');
const { FakeVersionStore } = require('../helpers/fake-version-store');
const { adversarialKeys } = require('../helpers/keysets');

// A strict RFC 4180 reader: quoted fields with "" escapes, CRLF or LF line ends. The
// manifest must read back to the same fields with it as with a plain split.
function readCsv(text) {
  const rows = [];
  let row = [], field = '', i = 0, quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i++; continue; }
      field += c; i++; continue;
    }
    if (c === '"' && field === '') { quoted = true; i++; continue; }
    if (c === ',') { row.push(field); field = ''; i++; continue; }
    if (c === '\r' && text[i + 1] === '\n') i++;
    if (text[i] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; continue; }
    field += c; i++;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}

// What Batch Operations may do with a field: percent-decoding, or form decoding ("+" is a space).
const percentDecode = (f) => decodeURIComponent(f);
const formDecode = (f) => decodeURIComponent(f.replace(/\+/g, ' '));

const AWKWARD = [
  'plain.txt',
  'with space.txt', '  leading and trailing  ', 'a+b.txt', '+', 'a%20b', '%', '%%41', '100%.csv', '%2F',
  'comma,separated,key', ',', 'say "hello"', '"', '""', "it's", 'semi;colon', 'tab\there', 'new\nline', 'cr\rlf\r\n',
  '(parens)[brackets]{braces}', '!*~._-', 'a/b/c/', '/leading/slash', 'trailing/', '//double//slashes',
  'hash#question?amp&eq=', 'back\\slash', 'caret^pipe|tick`', 'lt<gt>at@dollar$',
  'é/日本語/한국어', 'emoji😀/🎉', '\u{10FFFF}', '\uE000\uFFFD\uFFFF', 'NFC é vs NFD e\u0301',
  '\u0001control\u001f', 'del\u007f',
  'k'.repeat(1024), `${'é'.repeat(511)}x`, `${'😀'.repeat(256)}`, `${'a,'.repeat(512)}`,
];

test('every field is percent-encoded UTF-8 with nothing left that CSV or a form decoder reads differently', () => {
  for (const key of [...AWKWARD, ...adversarialKeys(2000, 7)]) {
    const line = manifestRow('my-bucket', key);
    expect(line.endsWith('\n')).toBe(true);
    const body = line.slice(0, -1);
    // Only unreserved characters, "/", "%XX" and the one separating comma.
    expect(body).toMatch(/^[A-Za-z0-9\-_.~/%]+,[A-Za-z0-9\-_.~/%]+$/);
    expect(body).not.toMatch(/%(?![0-9A-F]{2})/);
    const [bucket, encoded] = body.split(',');
    expect(bucket).toBe('my-bucket');
    expect({ key, back: percentDecode(encoded) }).toEqual({ key, back: key });
    expect({ key, back: formDecode(encoded) }).toEqual({ key, back: key });
    expect(parseManifestRow(line)).toEqual({ bucket: 'my-bucket', key });
    // The encoded key is UTF-8 bytes, each as %XX or itself.
    const bytes = Buffer.from(encoded.replace(/%([0-9A-F]{2})/g, (m, h) => String.fromCharCode(parseInt(h, 16))), 'latin1');
    expect(bytes.equals(Buffer.from(key, 'utf8'))).toBe(true);
  }
});

test('exact encodings of the characters that break manifests', () => {
  expect(encodeField('a b+c%d,e"f\'g(h)*!~.txt')).toBe('a%20b%2Bc%25d%2Ce%22f%27g%28h%29%2A%21~.txt');
  expect(encodeField('é/日本/😀')).toBe('%C3%A9/%E6%97%A5%E6%9C%AC/%F0%9F%98%80');
  expect(encodeField('a/b/')).toBe('a/b/');
  expect(encodeField('new\nline\r')).toBe('new%0Aline%0D');
  expect(manifestRow('examplebucket', 'photos/my photo+1.jpg')).toBe('examplebucket,photos/my%20photo%2B1.jpg\n');
  expect(manifestRow('examplebucket', 'objectkey1', 'PZ9ibn9D5lP6p298B7S9_ceqx1n5EJ0p')).toBe('examplebucket,objectkey1,PZ9ibn9D5lP6p298B7S9_ceqx1n5EJ0p\n');
  expect(manifestRow('b', 'k', 'null')).toBe('b,k,null\n');
});

test('a whole manifest reads back with a strict CSV reader: one row per key, two columns, the same keys', () => {
  const keys = [...AWKWARD, ...adversarialKeys(500, 3)];
  const chunk = { length: keys.length, key: (i) => keys[i] };
  const text = manifestRows('bucket-1', chunk);
  const rows = readCsv(text);
  expect(rows.length).toBe(keys.length);
  expect(text.split('\n').length).toBe(keys.length + 1); // no line break inside a row
  for (let i = 0; i < keys.length; i++) {
    expect(rows[i].length).toBe(2);
    expect(rows[i][0]).toBe('bucket-1');
    expect(formDecode(rows[i][1])).toBe(keys[i]);
  }
  // With version ids: three columns on every row.
  const versioned = keys.map((k, i) => manifestRow('bucket-1', k, `v${i}.${i % 3 ? 'x_y-z' : 'null'}`)).join('');
  const vrows = readCsv(versioned);
  expect(vrows.every((r) => r.length === 3)).toBe(true);
  expect(vrows.map((r) => formDecode(r[1]))).toEqual(keys);
  expect(vrows[4][2]).toBe('v4.x_y-z');
});

test('the spec names the documented format and its columns', () => {
  expect(manifestSpec()).toEqual({ Format: 'S3BatchOperations_CSV_20180820', Fields: ['Bucket', 'Key'] });
  expect(manifestSpec({ versions: true })).toEqual({ Format: 'S3BatchOperations_CSV_20180820', Fields: ['Bucket', 'Key', 'VersionId'] });
});

test('a key that is not valid Unicode is an error naming it, not a corrupt row', () => {
  expect(() => manifestRow('b', 'lone \uD800 surrogate')).toThrow(/not valid Unicode/);
});

// An in-memory bucket the listing reads like S3.
class Bucket extends FakeListStore {
  constructor(keys) { super(keys); this.type = 's3'; this.bucket = 'mem-bucket'; }
  async open() {}
  destroy() {}
}

describe('manifest() to a local file', () => {
  let dir;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-manifest-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('writes every selected key once, in key order, and the MD5 of the file as its ETag', async () => {
    const keys = [...AWKWARD, ...adversarialKeys(3000, 21)];
    for (let i = 0; i < 1001; i++) keys.push(`p1001/${String(i).padStart(4, '0')}`);
    const store = new Bucket(keys);
    const file = path.join(dir, 'sub', 'm.csv');
    const r = await s3blitz.manifest({ store, source: 's3://mem-bucket', output: file, listConcurrency: 8 });
    const text = fs.readFileSync(file);
    expect(r.etag).toBe(crypto.createHash('md5').update(text).digest('hex'));
    expect(r.etagSource).toBe('md5');
    expect(r.bytes).toBe(text.length);
    expect(r.objects).toBe(store.keys.length);
    expect(r.complete).toBe(true);
    expect(r.location).toBeNull();
    const rows = readCsv(text.toString('utf8'));
    expect(rows.map((row) => row[0])).toEqual(store.keys.map(() => 'mem-bucket'));
    expect(rows.map((row) => formDecode(row[1]))).toEqual(store.keys); // S3's UTF-8 order
    expect(fs.readdirSync(path.dirname(file))).toEqual(['m.csv']); // no temp file left
  });

  test('a range and a filter select what ls selects', async () => {
    const keys = adversarialKeys(1500, 5);
    const store = new Bucket(keys);
    const sel = { startAfter: store.keys[100], stopAt: store.keys[1200], filter: 'js:({Key}) => Key.length % 3 !== 0' };
    const want = (await s3blitz.ls({ store: new Bucket(keys), source: 's3://mem-bucket', ...sel })).items.map((i) => i.Key);
    const file = path.join(dir, 'range.csv');
    const r = await s3blitz.manifest({ store, source: 's3://mem-bucket', output: file, ...sel });
    expect(want.length).toBeGreaterThan(300);
    expect(r.objects).toBe(want.length);
    expect(readCsv(fs.readFileSync(file, 'utf8')).map((row) => formDecode(row[1]))).toEqual(want);
  });

  test('an empty selection writes an empty manifest (the MD5 of nothing)', async () => {
    const file = path.join(dir, 'empty.csv');
    const r = await s3blitz.manifest({ store: new Bucket(['a', 'b']), source: 's3://mem-bucket', output: file, prefix: 'zzz' });
    expect(r.objects).toBe(0);
    expect(fs.readFileSync(file).length).toBe(0);
    expect(r.etag).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });

  test('bad output and a folder source are usage errors', async () => {
    await expect(s3blitz.manifest({ store: new Bucket(['a']), source: 's3://mem-bucket' })).rejects.toThrow(/--output/);
    await expect(s3blitz.manifest({ store: new Bucket(['a']), source: 's3://mem-bucket', output: 's3://out-bucket/' })).rejects.toThrow(/name the manifest object's key/);
    await expect(s3blitz.manifest({ source: dir, output: path.join(dir, 'x.csv') })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/needs an s3:\/\/ source/) });
  });

  test('shards write one manifest each, "%i" in the name: together every key once', async () => {
    const keys = adversarialKeys(4000, 13);
    const all = new Bucket(keys).keys;
    const rows = [];
    for (let i = 0; i < 3; i++) {
      const r = await s3blitz.manifest({ store: new Bucket(keys), source: 's3://mem-bucket', shard: `${i}/3`, output: path.join(dir, 'm-%i.csv'), result: path.join(dir, 'r-%i.json') });
      expect(r.shard).toMatchObject({ index: i, of: 3 });
      expect(r.output).toBe(path.join(dir, `m-${i}.csv`));
      const mine = readCsv(fs.readFileSync(r.output, 'utf8')).map((row) => formDecode(row[1]));
      expect(mine.length).toBe(r.objects);
      rows.push(...mine);
    }
    expect(rows).toEqual(all); // in order, each once
    const merged = await s3blitz.merge([0, 1, 2].map((i) => path.join(dir, `r-${i}.json`)));
    expect(merged.shards).toEqual({ of: 3, present: 3, missing: [] });
    await expect(s3blitz.manifest({ store: new Bucket(keys), source: 's3://mem-bucket', shard: '0/3', output: path.join(dir, 'same.csv') })).rejects.toThrow(/needs "%i"/);
  });

  // A versioned bucket in memory (test/helpers/fake-version-store.js): ListObjectVersions
  // pages of 7 entries (versions and delete markers together), so a key's versions span
  // pages; 1 to 4 versions a key, newest first, every fifth key deleted (a marker on top).
  const VersionedBucket = (keys) => {
    const sorted = [...new Set(keys)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const layout = sorted.map((Key, k) => (k % 5 === 0 ? [Key, 2 + (k % 4), [0]] : [Key, 1 + (k % 4)]));
    const store = new FakeVersionStore(layout, { maxKeys: 7, jitter: true, seed: 5 });
    store.bucket = 'ver-bucket';
    return store;
  };

  test('allVersions: a row per version with its id, in a range and through a filter; delete markers counted, not listed', async () => {
    const keys = [...AWKWARD.slice(0, 20), ...adversarialKeys(300, 4)];
    const store = VersionedBucket(keys);
    const versions = store.entries.filter((e) => !e.DeleteMarker);
    const sorted = [...new Set(store.entries.map((e) => e.Key))];
    const [after, stop] = [sorted[10], sorted[sorted.length - 10]];
    const within = (e) => Buffer.compare(Buffer.from(e.Key), Buffer.from(after)) > 0 && Buffer.compare(Buffer.from(e.Key), Buffer.from(stop)) <= 0;
    const file = path.join(dir, 'versions.csv');
    const r = await s3blitz.manifest({ store, source: 's3://ver-bucket', output: file, allVersions: true, startAfter: after, stopAt: stop });
    expect(r.spec.Fields).toEqual(['Bucket', 'Key', 'VersionId']);
    const rows = readCsv(fs.readFileSync(file, 'utf8'));
    expect(rows.every((row) => row.length === 3)).toBe(true);
    const want = versions.filter(within);
    expect(rows.map((row) => [formDecode(row[1]), formDecode(row[2])])).toEqual(want.map((e) => [e.Key, e.VersionId]));
    expect(r.objects).toBe(want.length);
    expect(r.deleteMarkers).toBe(store.entries.filter((e) => e.DeleteMarker && within(e)).length);
    expect(r.deleteMarkers).toBeGreaterThan(10);
    // Only the versions that are no longer current.
    const old = await s3blitz.manifest({ store: VersionedBucket(keys), source: 's3://ver-bucket', output: file, allVersions: true, filter: 'js:({IsLatest}) => !IsLatest' });
    const got = readCsv(fs.readFileSync(file, 'utf8')).map((row) => formDecode(row[2]));
    expect(got).toEqual(versions.filter((e) => !e.IsLatest).map((e) => e.VersionId));
    expect(old.objects).toBe(got.length);
  });

  test('allVersions needs an S3 source', async () => {
    await expect(s3blitz.manifest({ source: dir, output: path.join(dir, 'x.csv'), allVersions: true })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/need an S3 source/) });
  });

  test('a listing that fails leaves no manifest behind', async () => {
    const store = new Bucket(adversarialKeys(3000, 9));
    let n = 0;
    const listPage = store.listPage.bind(store);
    store.listPage = async (args) => { if (++n === 3) throw Object.assign(new Error('AccessDenied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }); return listPage(args); };
    const file = path.join(dir, 'fail.csv');
    await expect(s3blitz.manifest({ store, source: 's3://mem-bucket', output: file, listConcurrency: 2 })).rejects.toThrow(/denied/i);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
