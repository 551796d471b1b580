'use strict';
// Bodies read from files and answers written to them (stores/file-io.js), and the budget that
// bounds part buffers (transfer/buffer-budget.js).
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { readFilePart, openFileSink, FileChanged, takeBody, giveBack, lendable, spareBytes } = require('../../src/stores/file-io');
const { BufferBudget } = require('../../src/transfer/buffer-budget');

let dir;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-fileio-')); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('readFilePart', () => {
  test('a whole file, a range, and an empty file, each with the MD5 of exactly those bytes', () => {
    const file = path.join(dir, 'f');
    const data = crypto.randomBytes(100000);
    fs.writeFileSync(file, data);
    const md5 = (b) => crypto.createHash('md5').update(b).digest('base64');
    expect(readFilePart({ path: file })).toMatchObject({ body: data, md5: md5(data), size: 100000 });
    const part = readFilePart({ path: file, position: 70000, length: 30000 });
    expect(part.body.equals(data.subarray(70000))).toBe(true);
    expect(part.md5).toBe(md5(data.subarray(70000)));
    fs.writeFileSync(path.join(dir, 'empty'), '');
    expect(readFilePart({ path: path.join(dir, 'empty') })).toMatchObject({ size: 0, md5: md5(Buffer.alloc(0)) });
  });

  test('a file that is not the version expected, grew past maxLength, or is shorter than the range, is changed', () => {
    const file = path.join(dir, 'f');
    fs.writeFileSync(file, 'x'.repeat(1000));
    const st = fs.statSync(file);
    expect(() => readFilePart({ path: file, position: 0, length: 10, expect: { size: st.size, mtimeMs: st.mtimeMs } })).not.toThrow();
    expect(() => readFilePart({ path: file, position: 0, length: 10, expect: { size: 999, mtimeMs: st.mtimeMs } })).toThrow(FileChanged);
    expect(() => readFilePart({ path: file, maxLength: 999 })).toThrow(FileChanged);
    expect(() => readFilePart({ path: file, position: 900, length: 200 })).toThrow(FileChanged);
    expect(() => readFilePart({ path: path.join(dir, 'gone') })).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

describe('openFileSink', () => {
  test('a whole body: written to a temporary file in a new folder, renamed only when complete', async () => {
    const final = path.join(dir, 'a', 'b', 'file.bin');
    const tmp = path.join(dir, 'a', 'b', '.s3blitz-tmp-1');
    const data = crypto.randomBytes(3 * 1024 * 1024 + 7); // over the size held in memory
    const out = await openFileSink({ tmp, final, mtime: Date.UTC(2020, 0, 2), length: data.length });
    for (let at = 0; at < data.length; at += 65536) out.sink(data.subarray(at, at + 65536), at);
    expect(fs.existsSync(final)).toBe(false);
    out.finish(data.length);
    expect(fs.readFileSync(final).equals(data)).toBe(true);
    expect(fs.existsSync(tmp)).toBe(false);
    expect(fs.statSync(final).mtime.getTime()).toBe(Date.UTC(2020, 0, 2));
  });

  test('a small body is held and written once; a short body fails and leaves nothing', async () => {
    const final = path.join(dir, 'small');
    const out = await openFileSink({ tmp: path.join(dir, '.t1'), final, length: 10 });
    out.sink(Buffer.from('hello'), 0);
    out.sink(Buffer.from('world'), 5);
    out.finish(10);
    expect(fs.readFileSync(final, 'utf8')).toBe('helloworld');
    const short = await openFileSink({ tmp: path.join(dir, '.t2'), final: path.join(dir, 'short'), length: 10 });
    short.sink(Buffer.from('hello'), 0);
    expect(() => short.finish(5)).toThrow(/5 bytes where 10/);
    short.abort();
    expect(fs.readdirSync(dir).sort()).toEqual(['small']);
  });

  test('a range of a large object goes to its offset; an existing temporary name is never overwritten', async () => {
    const file = path.join(dir, 'big');
    fs.writeFileSync(file, Buffer.alloc(20));
    const out = await openFileSink({ path: file, position: 10, length: 5 });
    out.sink(Buffer.from('abcde'), 0);
    out.finish(5);
    expect(fs.readFileSync(file).subarray(10, 15).toString()).toBe('abcde');
    await expect(openFileSink({ tmp: file, final: path.join(dir, 'x') })).rejects.toMatchObject({ code: 'EEXIST' });
  });
});

describe('the pool of part bodies', () => {
  test('keeps one size, the largest given back, so odd last parts never fill it; small bodies are left to the collector', () => {
    const MiB = 1 << 20;
    // (Buffers of allocUnsafeSlow: memory never touched, so the large ones cost no RSS.)
    expect(giveBack(Buffer.allocUnsafeSlow(MiB - 1))).toBe(false);
    const a = Buffer.allocUnsafeSlow(97 * MiB), b = Buffer.allocUnsafeSlow(97 * MiB);
    expect([giveBack(a), giveBack(b)]).toEqual([true, true]);
    expect(spareBytes()).toBe(2 * 97 * MiB);
    expect(giveBack(Buffer.allocUnsafeSlow(5 * MiB))).toBe(false); // a last part: smaller than the pool's size
    expect(lendable(5 * MiB)).toBe(false);
    expect(lendable(97 * MiB)).toBe(true);
    expect([takeBody(97 * MiB), takeBody(97 * MiB)]).toEqual([b, a]);
    expect(takeBody(97 * MiB)).not.toBe(a); // the pool is empty: a fresh one
    // At most 256 MiB held: a third body of 97 MiB is not kept.
    expect([giveBack(a), giveBack(b), giveBack(Buffer.allocUnsafeSlow(97 * MiB))]).toEqual([true, true, false]);
    // A larger size replaces the pool's buffers (a new run of larger parts).
    expect(giveBack(Buffer.allocUnsafeSlow(98 * MiB))).toBe(true);
    expect(spareBytes()).toBe(98 * MiB);
    expect(takeBody(97 * MiB)).not.toBe(a);
  });
});

describe('BufferBudget', () => {
  test('holds parts within the budget, lets an oversized part run alone, and gives up a wait on abort', async () => {
    const b = new BufferBudget(100);
    await b.acquire(60);
    let second = false;
    const p = b.acquire(60).then(() => { second = true; });
    await new Promise((r) => setImmediate(r));
    expect(second).toBe(false);
    b.release(60);
    await p;
    expect(second).toBe(true);
    b.release(60);
    await b.acquire(500); // alone, over the budget
    const ac = new AbortController();
    const waiting = b.acquire(10, ac.signal);
    ac.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    b.release(500);
    expect(b.used).toBe(0);
  });
});
