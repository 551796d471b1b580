'use strict';
// Directory buckets (S3 Express One Zone) listed directory by directory, against a fake that
// answers as AWS documents them (test/helpers/fake-directory-store.js: pages in a fresh
// shuffle each listing, StartAfter refused, phantom directories of open uploads). Trees are
// drawn from a fresh seed each run (replay with S3BLITZ_TEST_SEED); the reference is the
// key set itself, sorted by its UTF-8 bytes here.
const { DirectoryLister } = require('../../src/list/directory-lister');
const { isDirectoryBucket } = require('../../src/stores/directory-bucket');
const { Listing } = require('../../src');
const { normalizeRange } = require('../../src/keys/range');
const { FakeDirectoryStore } = require('../helpers/fake-directory-store');
const { prng } = require('../helpers/keysets');
const { drawTree, name } = require('../helpers/directory-trees');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
// eslint-disable-next-line no-console
console.log(`directory-lister seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

const utf8Sort = (keys) => [...keys].map((k) => [Buffer.from(k), k]).sort((a, b) => Buffer.compare(a[0], b[0])).map((x) => x[1]);

async function list(store, o) {
  const lister = new DirectoryLister(store, { listConcurrency: 8, ordered: true, ...o, range: normalizeRange(o.range || {}) });
  const keys = [];
  for await (const chunk of lister.chunks()) for (let k = 0; k < chunk.length; k++) keys.push(chunk.key(k));
  return { keys, lister };
}

describe('directory bucket listing', () => {
  test('drawn trees: every key exactly once, in UTF-8 order when ordered, as a set when not; never a StartAfter', async () => {
    const r = prng(SEED);
    for (let t = 0; t < 6; t++) {
      const keys = drawTree(r);
      const uploads = r.next() < 0.5 ? [`${name(r, ['p', 'q'])}/open/${name(r, ['u'])}`, `phantom${t}/x`] : [];
      const concurrency = 1 + r.int(16);
      const sweepPages = r.pick([0, 1, 3, undefined]); // walks only, sweeps of a page, of three, the default
      const store = new FakeDirectoryStore(keys, { seed: r.int(1e9), uploads, maxKeys: r.pick([1000, 100, 13]), repeatPrefixes: r.next() < 0.5 });
      const where = `tree ${t} of seed ${SEED} (${keys.length} keys, concurrency ${concurrency}, sweeps of ${sweepPages} pages)`;
      const ordered = await list(store, { listConcurrency: concurrency, sweepPages });
      expect([where, ordered.keys]).toEqual([where, utf8Sort(keys)]);
      expect(ordered.lister.complete).toBe(true);
      // Every directory listed once (a listing begins without a token).
      const begun = store.requests.filter((q) => q.continuationToken === undefined).map((q) => `${q.prefix} ${q.delimiter}`);
      expect([where, begun.length]).toEqual([where, new Set(begun).size]);
      if (sweepPages === 0) expect(store.requests.filter((q) => q.delimiter !== '/')).toEqual([]);
      const unordered = await list(store, { listConcurrency: concurrency, ordered: false, sweepPages });
      expect([where, unordered.keys.length, utf8Sort(unordered.keys)]).toEqual([where, keys.length, utf8Sort(keys)]);
      expect(store.requests.filter((q) => q.startAfter !== undefined || (q.delimiter !== '/' && q.delimiter !== undefined))).toEqual([]);
      // A page sent again (a straggler's twin) may take one slot in ten beyond the concurrency.
      expect(store.maxInflight).toBeLessThanOrEqual(concurrency + Math.max(1, Math.floor(concurrency / 10)));
    }
  });

  test('a page that is never answered is asked for again, and the listing ends exact', async () => {
    const r = prng(SEED + 13);
    const { RequestStats } = require('../../src/stats');
    for (const ordered of [true, false]) {
      let keys, needed;
      do {
        keys = drawTree(r);
        const probe = await list(new FakeDirectoryStore(keys, { maxKeys: 13 }), { listConcurrency: 4, ordered, hedge: false, stats: new RequestStats() });
        needed = probe.lister.stats.listRequests;
      } while (needed < 40);
      // Past the 20 answers hedging waits for, and the 4 that may be out meanwhile.
      const stalled = 25 + r.int(needed - 25);
      const where = `seed ${SEED}: ${keys.length} keys, ${needed} requests, request ${stalled} never answered, ${ordered ? 'ordered' : 'unordered'}`;
      const store = new FakeDirectoryStore(keys, { seed: r.int(1e9), maxKeys: 13, stall: (n) => n === stalled });
      const got = await list(store, { listConcurrency: 4, ordered, hedgeAfter: 1, stats: new RequestStats() });
      expect([where, ordered ? got.keys : utf8Sort(got.keys), got.lister.complete]).toEqual([where, utf8Sort(keys), true]);
      expect([where, got.lister.stats.hedges >= 1]).toEqual([where, true]);
    }
  });

  test('a range (a stem of names, --start-after, --stop-at) is kept by filtering and by leaving out directories outside it', async () => {
    const r = prng(SEED + 1);
    const keys = drawTree(r);
    const sorted = utf8Sort(keys);
    for (let i = 0; i < 5; i++) {
      const a = sorted[r.int(sorted.length)], b = sorted[r.int(sorted.length)];
      const [lo, hi] = Buffer.compare(Buffer.from(a), Buffer.from(b)) <= 0 ? [a, b] : [b, a];
      const stem = lo.slice(0, 1 + r.int(lo.length));
      const ranges = [{ prefix: stem }, { prefix: stem, startAfter: lo }];
      if (lo !== hi) ranges.push({ startAfter: lo, stopAt: hi }); // (one key drawn twice makes no range)
      for (const range of ranges) {
        const store = new FakeDirectoryStore(keys, { seed: r.int(1e9), maxKeys: 40 });
        const want = sorted.filter((k) => k.startsWith(range.prefix || '') && (!range.startAfter || Buffer.compare(Buffer.from(k), Buffer.from(range.startAfter)) > 0) && (!range.stopAt || Buffer.compare(Buffer.from(k), Buffer.from(range.stopAt)) <= 0));
        const got = await list(store, { range });
        expect([SEED, range, got.keys]).toEqual([SEED, range, want]);
        // Directories that hold none of the range are never listed.
        // (Those on the way to the range's bounds are listed to find out.)
        const bound = (q) => [range.prefix, range.startAfter, range.stopAt].some((b) => (b || '').startsWith(q.prefix));
        for (const q of store.requests) expect([range, q.prefix, want.some((k) => k.startsWith(q.prefix)) || bound(q)]).toEqual([range, q.prefix, true]);
      }
    }
  });

  test('a directory larger than what is sorted in memory goes to runs on disk and comes out in order', async () => {
    const r = prng(SEED + 2);
    // ASCII keys (sorted by the native order once listed), and keys where UTF-16's order is
    // not UTF-8's (U+E000 against a surrogate pair).
    for (const ends of [['', '.x', '/in'], ['', '\ue000', '😀', '/in', '\uffff.x']]) {
      // (stems repeat, so that endings decide the order of some pairs)
      const keys = Array.from({ length: 5000 + r.int(3000) }, (_, i) => `big/${((i * 7919) % 1000003) % 2500}${r.pick(ends)}`);
      const store = new FakeDirectoryStore(keys, { seed: SEED });
      const { keys: got } = await list(store, { listConcurrency: 4, sortKeys: 1000 }); // in place of DIR_SORT_KEYS
      expect(got).toEqual(utf8Sort(new Set(keys)));
    }
  });

  test('a subtree is swept where it is small and walked where a sweep runs long; at a depth where sweeps keep failing, none is tried', async () => {
    const T = require('../../src/plan/tuning').values;
    // Depth 1: ten directories of 60 keys in 6 folders of 10 (a sweep of pages of 10 fails);
    // depth 2: folders of 10 keys (a sweep of one or two pages works).
    const keys = [];
    for (let a = 0; a < 10; a++) for (let b = 0; b < 6; b++) for (let c = 0; c < 10; c++) keys.push(`t${a}/f${b}/k${c}`);
    for (const ordered of [true, false]) {
      const store = new FakeDirectoryStore(keys, { maxKeys: 10 });
      // (sweepMaxPages 1: no sweep goes on past its first page here; that rule is tested below)
      const { keys: got, lister } = await list(store, { listConcurrency: 1, ordered, sweepMaxPages: 1 });
      expect(ordered ? got : utf8Sort(got)).toEqual(utf8Sort(keys));
      expect(Object.fromEntries(lister.sweeps)).toEqual({ 0: { ok: 0, failed: 1 }, 1: { ok: 0, failed: T.DIR_SWEEP_GIVE_UP }, 2: { ok: 60, failed: 0 } });
      const sweeps = store.requests.filter((q) => q.delimiter === undefined);
      // The root's sweep and DIR_SWEEP_GIVE_UP at depth 1 ran their DIR_SWEEP_PAGES pages each and failed.
      expect(sweeps.filter((q) => q.prefix.split('/').length <= 2).length).toBe((1 + T.DIR_SWEEP_GIVE_UP) * T.DIR_SWEEP_PAGES);
      expect(store.requests.filter((q) => q.delimiter === '/').map((q) => q.prefix).filter((p) => p.split('/').length === 3)).toEqual([]); // no depth-2 folder walked
    }
  });

  test('a sweep that keeps finding subdirectories goes on while that takes fewer round trips than walking them would', async () => {
    // 400 directories of one key each under d/, pages of 50 keys.
    const keys = Array.from({ length: 400 }, (_, i) => `d/x${i}/k`);
    for (const ordered of [true, false]) {
      // Four requests at once: walking 400 directories takes about 100 round trips, so the
      // sweep of d/ runs on to its end: 8 pages (the root's, which sees one subdirectory, stops
      // at one and the root is walked).
      const few = new FakeDirectoryStore(keys, { maxKeys: 50, seed: SEED });
      const a = await list(few, { listConcurrency: 4, ordered });
      expect(ordered ? a.keys : utf8Sort(a.keys)).toEqual(utf8Sort(keys));
      expect(few.requests.map((q) => `${q.prefix}|${q.delimiter}`)).toEqual(['|undefined', '|/', ...Array(8).fill('d/|undefined')]);
      // A hundred at once: the walk takes two or three round trips, so the sweep stops there
      // and d/ is walked.
      const many = new FakeDirectoryStore(keys, { maxKeys: 50, seed: SEED });
      const b = await list(many, { listConcurrency: 100, ordered });
      expect(ordered ? b.keys : utf8Sort(b.keys)).toEqual(utf8Sort(keys));
      expect(many.requests.filter((q) => q.prefix === 'd/' && q.delimiter === undefined).length).toBeLessThan(8);
      expect(many.requests.some((q) => q.prefix === 'd/' && q.delimiter === '/')).toBe(true);
    }
  });

  test('directories that exist only for an open upload are listed, found empty, and give no key', async () => {
    const store = new FakeDirectoryStore(['a/1', 'b/2'], { uploads: ['c/d/big.bin', 'a/e/x'] });
    const { keys } = await list(store, { sweepPages: 0 }); // walked: a sweep sees no folder at all
    expect(keys).toEqual(['a/1', 'b/2']);
    expect(store.requests.map((q) => q.prefix).sort()).toEqual(['', 'a/', 'a/e/', 'b/', 'c/', 'c/d/']);
  });

  test('a key named on two pages of one directory goes out once in key order, and is said', async () => {
    const store = new FakeDirectoryStore(['d/a', 'd/b', 'd/c'], { maxKeys: 2 });
    const real = store.listPage.bind(store);
    store.listPage = async (q) => {
      const page = await real(q);
      if (q.prefix === 'd/' && q.continuationToken) page.items.push({ Key: 'd/a', Size: 3, LastModified: new Date(0), ETag: '"e"' });
      return page;
    };
    const said = [];
    const { keys, lister } = await list(store, { log: (m) => said.push(m), sweepPages: 0 });
    expect(keys).toEqual(['d/a', 'd/b', 'd/c']);
    expect([lister.duplicates, said]).toEqual([1, ['the store named 1 keys twice within a directory\'s listing: each output once']]);
  });

  // A store that names keys again: on some pages, an entry of an earlier page of the same
  // listing (or of the same page) once more. Returns the count of entries named again.
  function repeating(store, r, share) {
    const real = store.listPage.bind(store);
    const seen = new Map(); // listing (prefix, delimiter) -> entries named so far
    const counter = { repeated: 0 };
    store.listPage = async (q) => {
      const page = await real(q);
      const id = `${q.prefix}\u0000${q.delimiter}`;
      if (q.continuationToken === undefined) seen.set(id, []);
      const before = seen.get(id);
      before.push(...page.items);
      if (before.length && r.next() < share) {
        const n = 1 + r.int(3);
        for (let i = 0; i < n; i++) { page.items.push({ ...r.pick(before) }); counter.repeated++; }
      }
      return page;
    };
    return counter;
  }

  test('drawn trees whose store names keys twice within a directory: each key goes out once, ordered or not, and the drops are counted', async () => {
    const r = prng(SEED + 17);
    for (let t = 0; t < 4; t++) {
      const keys = drawTree(r);
      for (const ordered of [true, false]) {
        const store = new FakeDirectoryStore(keys, { seed: r.int(1e9), maxKeys: r.pick([100, 13]) });
        const counter = repeating(store, r, 0.3);
        const said = [];
        const where = `tree ${t} of seed ${SEED} (${keys.length} keys, ${ordered ? 'ordered' : 'unordered'})`;
        // Walks only: every page read goes out, so every entry named again is dropped once.
        const got = await list(store, { listConcurrency: 1 + r.int(16), ordered, sweepPages: 0, log: (m) => said.push(m) });
        expect([where, ordered ? got.keys : utf8Sort(got.keys)]).toEqual([where, utf8Sort(keys)]);
        expect([where, got.lister.duplicates]).toEqual([where, counter.repeated]);
        expect([where, said.filter((m) => /twice within a directory/.test(m)).length]).toEqual([where, counter.repeated ? 1 : 0]);
        // With sweeps (pages of a sweep given up are never output): still each key once.
        const swept = await list(store, { listConcurrency: 1 + r.int(16), ordered });
        expect([where, ordered ? swept.keys : utf8Sort(swept.keys)]).toEqual([where, utf8Sort(keys)]);
      }
    }
  });

  test('unordered, past the keys it may remember: a directory checked on disk once listed, a key named twice there stops the listing', async () => {
    const keys = Array.from({ length: 300 }, (_, i) => `d/${String(i).padStart(4, '0')}`).concat(['e/1', 'e/2']);
    const clean = new FakeDirectoryStore(keys, { maxKeys: 13, seed: SEED });
    const ok = await list(clean, { ordered: false, onceKeys: 20, sweepPages: 0 });
    expect(utf8Sort(ok.keys)).toEqual(utf8Sort(keys));
    const twice = new FakeDirectoryStore(keys, { maxKeys: 13, seed: SEED });
    const real = twice.listPage.bind(twice);
    twice.listPage = async (q) => {
      const page = await real(q);
      if (q.prefix === 'd/' && q.continuationToken) page.items.push({ Key: 'd/0007', Size: 3, LastModified: new Date(0), ETag: '"e"' });
      return page;
    };
    // Past the budget after a directory's second page (20) or its first alone (5).
    for (const onceKeys of [20, 5]) {
      const clean2 = await list(clean, { ordered: false, onceKeys, sweepPages: 0 });
      expect(utf8Sort(clean2.keys)).toEqual(utf8Sort(keys));
      await expect(list(twice, { ordered: false, onceKeys, sweepPages: 0 })).rejects.toThrow('the store named key "d/0007" twice in the listing of directory "d/" (found once its keys were checked on disk, after both went out): its listing cannot be trusted');
    }
    // Within what it may remember, the same store's repeats are dropped instead.
    const kept = await list(twice, { ordered: false, sweepPages: 0 });
    expect(utf8Sort(kept.keys)).toEqual(utf8Sort(keys));
    expect(kept.lister.duplicates).toBeGreaterThan(0);
  });

  test('a store that answers a key outside the directory it was asked for stops the listing, walked or swept', async () => {
    // Pages of one entry: the root's sweep of a page is given up, so "d/" is swept (or walked).
    const store = new FakeDirectoryStore(['d/a', 'e/b'], { maxKeys: 1 });
    const real = store.listPage.bind(store);
    store.listPage = async (q) => {
      const page = await real(q);
      if (q.prefix === 'd/') page.items.push({ Key: 'e/b', Size: 3, LastModified: new Date(0), ETag: '"e"' });
      return page;
    };
    for (const ordered of [true, false]) {
      for (const sweepPages of [0, 1]) {
        store.requests = [];
        await expect(list(store, { ordered, sweepPages })).rejects.toThrow('the store answered key "e/b" to a listing of directory "d/": not inside it, so its listing cannot be trusted');
        expect(store.requests.filter((q) => q.prefix === 'd/').map((q) => q.delimiter)).toEqual([sweepPages ? undefined : '/']);
      }
    }
  });

  test('--max-list-requests: at most that many requests, what was listed is output once (in order when ordered), the listing is marked incomplete and says so once', async () => {
    const r = prng(SEED + 11);
    const { RequestStats } = require('../../src/stats');
    for (let t = 0; t < 4; t++) {
      const keys = drawTree(r);
      const sorted = utf8Sort(keys);
      for (const ordered of [true, false]) {
        const concurrency = 1 + r.int(16);
        const maxKeys = r.pick([1000, 13]);
        const store = new FakeDirectoryStore(keys, { seed: r.int(1e9), maxKeys });
        const full = await list(store, { listConcurrency: concurrency, ordered, stats: new RequestStats() });
        const needed = full.lister.stats.listRequests;
        const budget = 1 + r.int(Math.max(1, needed - 1)); // fewer than needed, where it needs more than one
        const said = [];
        const where = `tree ${t} of seed ${SEED} (${keys.length} keys, ${needed} requests, budget ${budget}, concurrency ${concurrency}, ${ordered ? 'ordered' : 'unordered'})`;
        const cut = await list(store, { listConcurrency: concurrency, ordered, maxListRequests: budget, stats: new RequestStats(), log: (m) => said.push(m) });
        const got = cut.keys;
        expect([where, cut.lister.stats.listRequests <= budget, new Set(got).size === got.length, got.every((k) => keys.includes(k))]).toEqual([where, true, true, true]);
        if (ordered) expect([where, got]).toEqual([where, utf8Sort(got)]);
        // Listings of the same keys may take different numbers of requests (pages come in a
        // new order each time, and sweeps go on or give up by what a page shows), so the
        // full run's count is no promise: one page per maxKeys keys is.
        const complete = cut.lister.complete;
        if (budget < Math.ceil(keys.length / maxKeys)) expect([where, complete]).toEqual([where, false]);
        expect([where, said.filter((m) => /--max-list-requests/.test(m)).length]).toEqual([where, complete ? 0 : 1]);
        if (complete) expect([where, ordered ? got : utf8Sort(got)]).toEqual([where, sorted]);
        else expect([where, cut.lister.stats.listRequests]).toEqual([where, budget]);
      }
    }
  });

  test('a directory bucket is known by its name or its zonal endpoint, and a Listing of one says once how it lists', async () => {
    expect(['data--use1-az4--x-s3', 'my-bucket', 'x--x-s3', 'a--usw2-az1--x-s3x'].map((b) => isDirectoryBucket(b))).toEqual([true, false, false, false]);
    expect(['https://s3express-use1-az4.us-east-1.amazonaws.com', 'https://b.s3express-usw2-az1.us-west-2.amazonaws.com', 'https://s3.us-east-1.amazonaws.com', 'http://127.0.0.1:9000', 'not a url']
      .map((e) => isDirectoryBucket('my-bucket', e))).toEqual([true, true, false, false, false]);
    const keys = ['z', 'a/b/c', 'a/b.d', 'é/1'];
    const store = new FakeDirectoryStore(keys);
    const said = [];
    const listing = new Listing({ store, log: (m) => said.push(m) });
    const got = [];
    for await (const chunk of listing.chunks()) for (let k = 0; k < chunk.length; k++) got.push(chunk.key(k));
    expect(got).toEqual(utf8Sort(keys));
    expect(said).toEqual(['data--use1-az4--x-s3 is a directory bucket: listed directory by directory (no key order there, no StartAfter)']);
    expect(listing.complete).toBe(true);
  });
});

describe('directory bucket one level (ls --delimiter /)', () => {
  const { levelEntries } = require('../../src/stages/one-level');
  const level = async (store, o) => { const out = []; for await (const e of levelEntries({ store, delimiter: '/', ...o })) out.push(e.Prefix !== undefined ? `PRE ${e.Prefix}` : e.Key); return out; };

  test('a level in key order from unordered pages, each folder once and only if it holds keys, a stem of names and --start-after kept', async () => {
    const keys = ['a/x', 'a/b/c', 'a/b/d/e', 'a/b.d', 'a/é', 'a/b0', 'z', 'a/y/1', 'a/y/2'];
    for (let seed = 1; seed <= 5; seed++) {
      const store = new FakeDirectoryStore(keys, { seed, maxKeys: 2, repeatPrefixes: true, uploads: ['a/open/x'] });
      // a/open/ exists only for an upload in progress: S3 names it, it holds nothing, not shown.
      expect(await level(store, { prefix: 'a/' })).toEqual(['a/b.d', 'PRE a/b/', 'a/b0', 'a/x', 'PRE a/y/', 'a/é']);
      expect(await level(store, { prefix: 'a/b' })).toEqual(['a/b.d', 'PRE a/b/', 'a/b0']);
      expect(await level(store, { prefix: 'a/', startAfter: 'a/b/' })).toEqual(['a/b0', 'a/x', 'PRE a/y/', 'a/é']);
      expect(store.requests.filter((q) => q.startAfter !== undefined)).toEqual([]);
    }
  });

  test('drawn levels: every folder shown holds keys, and each folder S3 names is checked once', async () => {
    const r = prng(SEED + 7);
    for (let t = 0; t < 5; t++) {
      const keys = drawTree(r);
      const uploads = Array.from({ length: 1 + r.int(5) }, (_, i) => `${r.next() < 0.5 ? '' : `${keys[0].split('/')[0]}/`}open${i}/part.bin`);
      const store = new FakeDirectoryStore(keys, { seed: r.int(1e9), uploads, maxKeys: r.pick([1000, 7]) });
      const prefix = r.next() < 0.5 ? '' : `${keys[0].split('/')[0]}/`;
      const want = new Set();
      for (const k of keys) if (k.startsWith(prefix)) { const i = k.indexOf('/', prefix.length); want.add(i < 0 ? k : `PRE ${k.slice(0, i + 1)}`); }
      const got = await level(store, { prefix, listConcurrency: 1 + r.int(4) });
      expect(got).toEqual(utf8Sort([...want].map((e) => (e.startsWith('PRE ') ? e.slice(4) : e))).map((n) => (want.has(`PRE ${n}`) ? `PRE ${n}` : n)));
      // One check per folder S3 names at the level (those of keys and of open uploads), each
      // a listing of its subtree without the delimiter.
      const named = new Set([...want].filter((e) => e.startsWith('PRE ')).map((e) => e.slice(4)));
      for (const u of uploads) if (u.startsWith(prefix) && u.indexOf('/', prefix.length) >= 0) named.add(u.slice(0, u.indexOf('/', prefix.length) + 1));
      expect(utf8Sort(store.requests.filter((q) => q.delimiter === undefined).map((q) => q.prefix))).toEqual(utf8Sort(named));
    }
  });
});

describe('directory bucket rm', () => {
  const { rm } = require('../../src/stages/remove');

  test('every key deleted, those with control characters alone; emptied directories disappear, and that is said', async () => {
    const keys = ['x/a\u0001b', 'x/y/z', 'x/y/w\tv', 'keep/1'];
    const store = new FakeDirectoryStore(keys);
    const said = [];
    const r = await rm({ store, prefix: 'x/', journal: false, log: (m) => said.push(m) });
    expect([r.deleted.objects, r.failed.objects]).toEqual([3, 0]);
    expect(store.keys).toEqual(['keep/1']);
    expect(store.deletes).toBe(1 + 3); // the batch, refused whole for its control character; then each key alone
    expect((await store.listPage({ prefix: '', delimiter: '/' })).prefixes).toEqual(['keep/']);
    expect(said).toContain('data--use1-az4--x-s3 is a directory bucket: a directory left empty by these deletes disappears with its last object');
  });
});

describe('directory bucket compare', () => {
  const { mockClient } = require('aws-sdk-client-mock');
  const { S3Client, ListObjectsV2Command, HeadBucketCommand } = require('@aws-sdk/client-s3');
  const { compare } = require('../../src/stages/compare');
  const creds = { credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, region: 'us-east-1', log: () => {} };
  const obj = (Key, Size, ETag, when) => ({ Key, Size, ETag, LastModified: new Date(when), StorageClass: 'STANDARD' });
  let s3;
  beforeAll(() => { s3 = mockClient(S3Client); });
  afterAll(() => s3.restore());

  test('ETags of a directory bucket are never compared as content: pairs are judged by size and time, and counted so', async () => {
    const dir = 'dst--use1-az4--x-s3';
    s3.reset();
    s3.on(HeadBucketCommand).resolves({});
    s3.on(ListObjectsV2Command, { Bucket: 'src' }).resolves({ Contents: [obj('a', 5, '"md5a"', 1000), obj('b', 5, '"md5b"', 2000), obj('c', 5, '"md5c"', 1000)], IsTruncated: false });
    // Random ETags there, in no key order.
    s3.on(ListObjectsV2Command, { Bucket: dir }).resolves({ Contents: [obj('c', 6, 'r1', 3000), obj('a', 5, 'r2', 3000), obj('b', 5, 'r3', 1000)], IsTruncated: false });
    const r = await compare({ source: 's3://src', target: `s3://${dir}`, ...creds });
    const classes = Object.fromEntries(Object.entries(r.classes).filter(([, t]) => t.objects).map(([c, t]) => [c, t.objects]));
    expect(classes).toEqual({ same: 1, older: 1, 'size-differs': 1 });
    expect([r.judgedBy, r.judgedBySize, r.verified]).toEqual([{ size: 1, 'size+time': 2 }, 2, false]);
    // The directory bucket was listed by directories (a delimiter, never a StartAfter).
    const asked = s3.commandCalls(ListObjectsV2Command).map((c) => c.args[0].input).filter((i) => i.Bucket === dir);
    expect(asked.map((i) => i.StartAfter)).toEqual([undefined]); // one sweep of the whole bucket
  });

  test('DeleteObjects there never names a key with a control character but TAB and LF: those go alone', async () => {
    const { S3Store } = require('../../src/stores/s3-store');
    const { DeleteObjectsCommand, DeleteObjectCommand } = require('@aws-sdk/client-s3');
    s3.reset();
    s3.on(DeleteObjectsCommand).resolves({ Deleted: [] });
    s3.on(DeleteObjectCommand).resolves({});
    const store = new S3Store({ bucket: 'dst--use1-az4--x-s3', ...creds, fastPaths: true });
    expect([store.directoryBucket, store.lean]).toEqual([true, null]); // the SDK's session authentication, never the lean paths
    const errors = await store.deleteKeys(['a\tb', 'c\u0001d', 'e\rf', 'g\nh', 'i\u001fj', 'k']);
    expect(errors).toEqual([]);
    expect(s3.commandCalls(DeleteObjectsCommand).map((c) => c.args[0].input.Delete.Objects.map((o) => o.Key))).toEqual([['a\tb', 'g\nh', 'k']]);
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key).sort()).toEqual(['c\u0001d', 'e\rf', 'i\u001fj']);
    store.destroy();
  });

});

describe('directory bucket shard plans', () => {
  const { plan } = require('../../src/stages/shards');

  test('drawn trees: shards of whole directories tile the keys exactly; only ancestors of a cut are listed by two shards', async () => {
    const r = prng(SEED + 11);
    for (let t = 0; t < 6; t++) {
      const keys = drawTree(r);
      const n = 2 + r.int(11);
      const store = new FakeDirectoryStore(keys, { seed: r.int(1e9), maxKeys: r.pick([1000, 50]) });
      const p = await plan({ store, shards: n, planBudget: r.pick([5, 40, 400]) });
      expect(p.ranges.length).toBe(n);
      expect(store.requests.filter((q) => q.startAfter !== undefined)).toEqual([]);
      if (p.exact) expect(p.ranges.reduce((a, x) => a + x.estimatedObjects, 0)).toBe(keys.length);
      const cuts = p.ranges.filter((x) => !x.empty && x.stopAt !== null).map((x) => x.stopAt);
      const seen = [];
      const listedBy = new Map(); // directory -> shards that began a listing of it
      for (const x of p.ranges) {
        if (x.empty) continue;
        store.requests.length = 0;
        const { keys: got } = await list(store, { range: { startAfter: x.startAfter ?? undefined, stopAt: x.stopAt ?? undefined } });
        expect(got).toEqual(utf8Sort(got));
        if (p.exact) expect({ shard: x.index, keys: got.length }).toEqual({ shard: x.index, keys: x.estimatedObjects });
        seen.push(...got);
        for (const q of store.requests) if (q.continuationToken === undefined) listedBy.set(q.prefix, (listedBy.get(q.prefix) || new Set()).add(x.index));
      }
      expect(utf8Sort(seen)).toEqual(utf8Sort(keys)); // every key once, in one shard
      const shared = [...listedBy].filter(([, by]) => by.size > 1).map(([dir]) => dir);
      expect(shared.filter((dir) => !cuts.some((c) => c.startsWith(dir)))).toEqual([]);
    }
  });

  test('a cut falls just after a directory, on a name no directory begins', async () => {
    const keys = [];
    for (const d of ['a', 'b', 'c', 'd']) for (let i = 0; i < 40; i++) keys.push(`${d}/${i}`);
    const store = new FakeDirectoryStore(keys, { maxKeys: 10 });
    const p = await plan({ store, shards: 4 });
    expect(p.ranges.map((x) => [x.startAfter, x.stopAt, x.estimatedObjects])).toEqual([[null, 'a0', 40], ['a0', 'b0', 40], ['b0', 'c0', 40], ['c0', null, 40]]);
    expect(p.exact).toBe(true);
  });
});

