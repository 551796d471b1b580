'use strict';
// rm on an in-memory store: batches of 1000 keys, requests at once up to
// --delete-concurrency, every failed key named, --max-delete refused before any delete,
// a journal resumed after its watermark; and the journal's lock.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { rm } = require('../../src/stages/remove');
const { Journal } = require('../../src/journal/journal');
const { compareKeys } = require('../../src/keys/order');

class MemStore {
  // pairUp: a full batch waits for a second request to be in flight (so concurrency shows
  // however the spool's reads fall between them).
  constructor(keys, { fail = new Set(), pairUp = false } = {}) {
    this.keys = [...keys].sort(compareKeys);
    this.fail = fail;
    this.pairUp = pairUp;
    this.waiting = null;
    this.listsInOneWalk = true;
    this.batches = [];
    this.inflight = 0;
    this.maxInflight = 0;
  }
  async open() {}
  destroy() {}
  async listPage({ prefix = '', startAfter = '' }) {
    const items = this.keys.filter((k) => k.startsWith(prefix) && (!startAfter || compareKeys(k, startAfter) > 0))
      .map((Key) => ({ Key, Size: 1, LastModified: new Date(0), ETag: '"x"', StorageClass: 'STANDARD' }));
    return { items, truncated: false };
  }
  async deleteKeys(keys) {
    this.batches.push(keys.length);
    this.inflight++;
    this.maxInflight = Math.max(this.maxInflight, this.inflight);
    if (this.pairUp && this.waiting) {
      this.waiting();
      this.waiting = null;
      await new Promise((r) => setImmediate(r)); // the first one answers first
    } else if (this.pairUp && keys.length === 1000) await new Promise((r) => { this.waiting = r; });
    await new Promise((r) => setImmediate(r));
    this.inflight--;
    const errors = keys.filter((k) => this.fail.has(k)).map((key) => ({ key, reason: 'AccessDenied Access Denied.' }));
    const gone = new Set(keys.filter((k) => !this.fail.has(k)));
    this.keys = this.keys.filter((k) => !gone.has(k));
    return errors;
  }
}

const keys = (n) => Array.from({ length: n }, (_, i) => `k/${String(i).padStart(5, '0')}`);
let state;
beforeAll(() => { state = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-rm-')); });
afterAll(() => fs.rmSync(state, { recursive: true, force: true }));

test('2,500 keys: batches of 1000, two requests at once, every failed key named with its reason', async () => {
  const store = new MemStore(keys(2500), { fail: new Set(['k/00007', 'k/01500', 'k/02499']), pairUp: true });
  const events = [];
  const r = await rm({ store, deleteConcurrency: 2, journal: false, onDelete: (e) => events.push(e) });
  expect(store.batches).toEqual([1000, 1000, 500]);
  expect(store.maxInflight).toBe(2);
  expect(r.deleted).toEqual({ objects: 2497, bytes: 2497 });
  expect(r.failed.objects).toBe(3);
  expect(r.failures.map((f) => f.key)).toEqual(['k/00007', 'k/01500', 'k/02499']);
  expect(r.failureReasons).toEqual([{ reason: 'AccessDenied Access Denied.', count: 3 }]);
  expect(events.filter((e) => e.error).map((e) => e.key)).toEqual(['k/00007', 'k/01500', 'k/02499']);
  expect(r.ok).toBe(false);
  expect(store.keys).toEqual(['k/00007', 'k/01500', 'k/02499']);
});

test('--max-delete: refused before any request, SafetyError exit 4', async () => {
  const store = new MemStore(keys(1001));
  await expect(rm({ store, maxDelete: 1000, journal: false })).rejects.toMatchObject({ name: 'SafetyError', exitCode: 4, message: expect.stringMatching(/1,001 objects would be deleted, more than --max-delete 1000: nothing was deleted/) });
  expect(store.batches).toEqual([]);
  expect(store.keys).toHaveLength(1001);
});

test('--dryrun: every key planned, nothing deleted', async () => {
  const store = new MemStore(keys(5));
  const planned = [];
  const r = await rm({ store, dryrun: true, onDelete: (e) => planned.push(e) });
  expect(r.planned).toEqual({ objects: 5, bytes: 5 });
  expect(planned.every((e) => e.dryrun)).toBe(true);
  expect(store.batches).toEqual([]);
});

test('the same failure for every key: stopped after --max-failures with nothing deleted', async () => {
  const all = keys(5000);
  const store = new MemStore(all, { fail: new Set(all) });
  const r = await rm({ store, deleteConcurrency: 1, maxFailures: 100, journal: false });
  expect(r.stoppedByFailures).toEqual({ reason: 'AccessDenied Access Denied.', count: 100 });
  expect(r.failed.objects).toBe(1000); // the whole first request failed, and is counted
  expect(store.batches).toEqual([1000]); // no second request
  expect(r.complete).toBe(false);
});

test('a journal left by an interrupted rm: resumed after its watermark, the earlier count kept, and --max-delete counts both', async () => {
  const file = path.join(state, 'rm.jsonl');
  const write = () => fs.writeFileSync(file, [{ t: 'start', version: 1, command: 'rm' }, { t: 'mark', upTo: 'k/00999', upToSource: 'k/00999', done: [], totals: { deleted: { objects: 1000, bytes: 1000 }, failed: { objects: 0, bytes: 0 } } }].map((x) => JSON.stringify(x)).join('\n') + '\n');
  write();
  const refused = new MemStore(keys(1500).slice(1000));
  await expect(rm({ store: refused, journal: file, maxDelete: 1200 })).rejects.toMatchObject({ exitCode: 4, message: expect.stringMatching(/1,500 objects would be deleted \(1,000 of them already, by the interrupted run\)/) });
  expect(fs.existsSync(file)).toBe(false); // a refusal is not resumed
  write();
  const logs = [];
  const store = new MemStore(['k/00500', ...keys(1500).slice(1000)]); // k/00500: before the watermark, not listed again
  const r = await rm({ store, journal: file, log: (m) => logs.push(m) });
  expect(logs[0]).toMatch(/resuming from .*rm\.jsonl: 1,000 objects already deleted, continuing after "k\/00999" \(--no-resume starts afresh\)/);
  expect(r.deleted.objects).toBe(1500);
  expect(store.keys).toEqual(['k/00500']);
  expect(fs.existsSync(file)).toBe(false);
});

describe('the lock of a command', () => {
  test('a second open of the same journal while the first is open is refused, naming the process', () => {
    const file = path.join(state, 'lock.jsonl');
    const j = Journal.open('cp', { journal: file });
    try {
      expect(() => Journal.open('cp', { journal: file })).toThrow(new RegExp(`another run of the same cp is in progress \\(pid ${process.pid}, started .*\\): wait for it or stop it; its lock is ${file}\\.lock`));
    } finally {
      j.close();
    }
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    Journal.open('cp', { journal: file }).remove(); // free again
  });

  test('a lock whose process is gone is taken over, and says so', () => {
    const file = path.join(state, 'stale.jsonl');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), started: 'then', command: 'cp' }));
    const logs = [];
    const j = Journal.open('cp', { journal: file }, { log: (m) => logs.push(m) });
    expect(logs).toEqual([`taking over the lock of an earlier run that is gone (pid ${dead.stdout}, started then)`]);
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, 'utf8')).pid).toBe(process.pid);
    j.remove();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  test('a holder touches its lock while it runs, so that other hosts know it is alive', () => {
    const file = path.join(state, 'beat.jsonl');
    jest.useFakeTimers();
    try {
      const j = Journal.open('cp', { journal: file });
      const old = new Date(Date.now() - 3600e3);
      fs.utimesSync(`${file}.lock`, old, old);
      jest.advanceTimersByTime(30000);
      expect(Date.now() - fs.statSync(`${file}.lock`).mtimeMs).toBeLessThan(60000);
      j.remove();
    } finally {
      jest.useRealTimers();
    }
  });

  test('a lock of another host (a shared state folder) holds while it is touched, and is taken over once it is not', () => {
    const file = path.join(state, 'other-host.jsonl');
    const lock = `${file}.lock`;
    fs.writeFileSync(lock, JSON.stringify({ pid: 1, host: 'another-host.example', started: 'then', command: 'cp' }));
    // Touched just now: its process may be running there.
    expect(() => Journal.open('cp', { journal: file })).toThrow(/another run of the same cp is in progress \(pid 1 on another-host\.example, started then\)/);
    // Untouched for an hour (its holder would have touched it every 30 s): gone.
    const old = new Date(Date.now() - 3600e3);
    fs.utimesSync(lock, old, old);
    const logs = [];
    const j = Journal.open('cp', { journal: file }, { log: (m) => logs.push(m) });
    expect(logs).toEqual(['taking over the lock of an earlier run that is gone (pid 1 on another-host.example, its lock untouched for 10 minutes, started then)']);
    expect(JSON.parse(fs.readFileSync(lock, 'utf8')).host).toBe(os.hostname());
    j.remove();
    expect(fs.existsSync(lock)).toBe(false);
  });
});
