'use strict';
// A stream of unknown length to an object: parts cut exactly, at most partConcurrency in
// flight (so memory is bounded), aborted on failure. The progress line's figures.
const { Readable, PassThrough } = require('stream');
const { uploadStream, partsOf } = require('../../src/transfer/stream-upload');
const { Progress, clearLine } = require('../../src/progress');

function fakeStore({ failPart } = {}) {
  const s = {
    parts: [], puts: [], aborted: [], completed: null, inflight: 0, maxInflight: 0,
    async putObject(p) { s.puts.push(p); return { ETag: '"p"' }; },
    async createMultipartUpload() { return { UploadId: 'u1' }; },
    async uploadPart(p) {
      s.inflight++;
      s.maxInflight = Math.max(s.maxInflight, s.inflight);
      await new Promise((r) => setImmediate(r));
      s.inflight--;
      if (p.PartNumber === failPart) throw new Error('part failed');
      s.parts.push([p.PartNumber, p.Body.length]);
      return { ETag: `"e${p.PartNumber}"` };
    },
    async completeMultipartUpload(p) { s.completed = p.MultipartUpload.Parts.map((x) => x.PartNumber); return { ETag: '"m-3"' }; },
    async abortUpload(u) { s.aborted.push(u.uploadId); return null; },
  };
  return s;
}

// Bytes in odd-sized chunks, as stdin gives them.
function stream(total, chunk = 777) {
  let sent = 0;
  return new Readable({ read() { if (sent >= total) { this.push(null); return; } const n = Math.min(chunk, total - sent); this.push(Buffer.alloc(n, sent % 251)); sent += n; } });
}

test('partsOf cuts exact parts, the last one shorter', async () => {
  const sizes = [];
  for await (const p of partsOf(stream(2500, 333), 1000)) sizes.push(p.length);
  expect(sizes).toEqual([1000, 1000, 500]);
});

test('a stream within one part is one PutObject with its MD5', async () => {
  const s = fakeStore();
  const r = await uploadStream({ store: s, key: 'a.txt', stream: stream(10), partSize: 100 });
  expect(r).toMatchObject({ bytes: 10, parts: 0 });
  expect(s.puts[0]).toMatchObject({ Key: 'a.txt', ContentLength: 10, ContentType: 'text/plain' });
  expect(s.puts[0].ContentMD5).toMatch(/==$/);
});

test('a long stream: parts in order, never more than partConcurrency uploading', async () => {
  const s = fakeStore();
  const r = await uploadStream({ store: s, key: 'big.bin', stream: stream(10 * 1024 + 5), partSize: 1024, partConcurrency: 3 });
  expect(r).toMatchObject({ bytes: 10 * 1024 + 5, parts: 11 });
  expect(s.completed).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  expect(s.maxInflight).toBe(3);
  expect(s.parts.find(([n]) => n === 11)[1]).toBe(5);
});

test('a failed part aborts the upload', async () => {
  const s = fakeStore({ failPart: 4 });
  await expect(uploadStream({ store: s, key: 'k', stream: stream(8 * 1024), partSize: 1024, partConcurrency: 2 })).rejects.toThrow('part failed');
  expect(s.aborted).toEqual(['u1']);
  expect(s.completed).toBeNull();
});

describe('progress', () => {
  test('percentage and ETA only once the listing is complete; onProgress carries the copy figures', () => {
    const events = [];
    const p = new Progress({ onProgress: (e) => events.push(e), showLine: false });
    p.tick({ length: 10, bytes: () => 1000 });
    p.done('copied', 100);
    p.done('failed', 100);
    let s = p.snapshot();
    expect(s).toMatchObject({ items: 10, listed: { objects: 10, bytes: 1000, complete: false }, copied: { objects: 1, bytes: 100 }, failed: { objects: 1 }, processed: 2 });
    expect(s.percent).toBeUndefined();
    p.listed();
    s = p.snapshot();
    expect(s.percent).toBe(20);
    expect(s.etaMs).toBeGreaterThanOrEqual(0);
    p.stop();
    expect(events[events.length - 1]).toMatchObject({ done: true, copied: { objects: 1 } });
  });

  test('several listings into one progress (a copy in lanes): no percentage until the last is complete', async () => {
    const { Listing } = require('../../src/list/listing');
    const { LocalStore } = require('../../src/stores/local-store');
    const fs = require('fs'), os = require('os'), path = require('path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-progress-'));
    for (const f of ['a1', 'a2', 'b1', 'b2', 'b3']) fs.writeFileSync(path.join(dir, f), f);
    const p = new Progress({ showLine: false });
    const lane = (startAfter, stopAt) => new Listing({ store: new LocalStore({ root: dir }), storeLocation: { type: 'local', path: dir, prefix: '', base: '' }, source: dir, startAfter, stopAt, progress: p });
    const [first, second] = [lane(undefined, 'a9'), lane('a9', undefined)];
    const a = first.pages()[Symbol.asyncIterator](), b = second.pages()[Symbol.asyncIterator]();
    await Promise.all([a.next(), b.next()]); // both lanes started
    expect(await a.next()).toMatchObject({ done: true }); // the first lane is done
    p.done('copied', 2);
    expect(p.snapshot().percent).toBeUndefined();
    expect(await b.next()).toMatchObject({ done: true });
    expect(p.snapshot().percent).toBe(20);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the line is cleared before other output, and ends with one summary line', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d) => { text += d; });
    const p = new Progress({ stream: out, showLine: true, interval: 1e9, verb: 'deleted' });
    p.tick({ length: 3, bytes: () => 30 });
    p.done('deleted', 10);
    p.report();
    expect(text).toMatch(/^\r\x1b\[2Klisted 3 objects \(30 B\) .*, deleted 1 \(10 B\)/);
    clearLine();
    expect(text.endsWith('\r\x1b[2K')).toBe(true);
    clearLine(); // nothing drawn: nothing written
    expect(text.match(/\r\x1b\[2K/g)).toHaveLength(2);
    p.stop();
    expect(text).toMatch(/\nlisted 3 objects \(30 B\), deleted 1 \(10 B\) in \d+:\d\d: .*\n$|listed 3 objects \(30 B\), deleted 1 \(10 B\) in \d+:\d\d: .*\n$/);
  });
});
