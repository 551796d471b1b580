'use strict';
// The seam between the parallel lister (the engine) and its planner (plan/online.js): the
// planner sees segments read-only and answers with actions; only the engine changes
// segments or sends requests. Segments here are made by hand from generated layouts
// (fresh seeds each run, printed; S3BLITZ_TEST_SEED replays one), frozen, so any write to
// them fails the test, and every action is checked against the segments it was asked about.
const { OnlinePlanner } = require('../../src/plan/online');
const { ItemChunk } = require('../../src/stores/chunks');
const { compareKeys } = require('../../src/keys/order');
const { generateLayout } = require('../generators/layouts');
const { prng } = require('../generators/prng');
const T = require('../../src/plan/tuning').values;

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`online-planner seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

const CONCURRENCY = 20;

function planner(over = {}) {
  return new OnlinePlanner({ prefix: '', concurrency: CONCURRENCY, ordered: true, folders: true, minPiece: 500, ...over });
}

// A listing part-way through: sorted keys cut into segments at random keys, each read up
// to a random cursor, its last run of keys as its sample. Frozen, as the engine's are to
// the planner.
function midListing(seed, count = 20000) {
  const r = prng(seed);
  const keys = generateLayout(seed, count).keys.slice().sort(compareKeys);
  const n = 1 + r.int(6);
  const cuts = [...new Set(Array.from({ length: n - 1 }, () => 1 + r.int(keys.length - 2)))].sort((a, b) => a - b);
  const bounds = [0, ...cuts, keys.length];
  const segs = [];
  const pages = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const lo = bounds[i], hi = bounds[i + 1]; // keys [lo, hi) belong to this segment
    const start = lo === 0 ? '' : keys[lo - 1];
    const end = hi === keys.length ? null : keys[hi - 1];
    const read = r.int(Math.min(3000, hi - lo) + 1); // keys read so far
    const cursor = read ? keys[lo + read - 1] : start;
    const run = Math.min(read, 1000);
    const sample = run >= 2 ? Object.freeze({ first: keys[lo + read - run], last: cursor, n: run }) : null;
    if (run) pages.push(new ItemChunk(keys.slice(lo + read - run, lo + read).map((Key) => ({ Key }))));
    const done = read === hi - lo && r.next() < 0.5;
    segs.push(Object.freeze({ start, end, cursor, sample, busy: !done && r.next() < 0.5, done, held: 0, sub: null, known: null, got: read }));
  }
  return { keys, segs: Object.freeze(segs), pages };
}

function pointKey(p) { return typeof p === 'string' ? p : p.key; }

describe(`the planner's actions, on listings part-way through generated layouts (seed ${SEED})`, () => {
  const seeds = Array.from({ length: 12 }, (_, i) => SEED + i);

  test.each(seeds)('seed %i: nothing written to segments; every action inside the segment it names; no more than the free slots', (seed) => {
    const { segs, pages } = midListing(seed);
    for (const free of [0, 1, 7, 40]) {
      const p = planner();
      for (const c of pages) p.learnPage(c);
      for (const s of segs) if (s.sample) p.learnSample(s.sample);
      const { folders, splits } = p.plan({ segs, head: 0, window: 1e9 }, free); // frozen: a write throws
      let asked = folders.length;
      for (const { seg, points } of splits) {
        expect(segs).toContain(seg);
        expect(seg.done).toBe(false);
        asked += points.length;
        // Cut for no more than it has shown: pieces of at least minPiece (500) keys within
        // CUT_EVIDENCE times what it has read in the subtree (its one page here, a page at
        // least), the piece it keeps besides; and no more than a place's first guesses.
        const cuts = points.filter((pt) => typeof pt === 'object' && pt.guess).length;
        expect(cuts).toBeLessThanOrEqual(Math.max(0, Math.floor((T.CUT_EVIDENCE * Math.max(seg.sample ? seg.sample.n : 0, 1000)) / 500) - 1));
        expect(cuts).toBeLessThanOrEqual(T.SCOUT_FIRST);
        for (const pt of points) {
          const key = pointKey(pt);
          expect(typeof key).toBe('string');
          // A new segment may only begin after what its segment has handed out.
          expect(compareKeys(key, seg.cursor)).toBeGreaterThan(0);
          if (seg.end !== null) expect(compareKeys(key, seg.end)).toBeLessThanOrEqual(0);
        }
      }
      for (const f of folders) {
        expect(segs).toContain(f.seg);
        expect(f.prefix.endsWith('/') || f.prefix === '').toBe(true);
        // A folder listed is one that holds the segment's last page.
        expect(f.seg.sample.last.startsWith(f.prefix)).toBe(true);
        expect(f.after).toBe(f.seg.sample.last);
      }
      expect(asked).toBeLessThanOrEqual(free);
      if (free === 0) expect(asked).toBe(0);
    }
  });

  test('across these listings the planner does ask for something (the checks above are not vacuous)', () => {
    let actions = 0;
    for (const seed of seeds) {
      const { segs, pages } = midListing(seed);
      const p = planner();
      for (const c of pages) p.learnPage(c);
      const { folders, splits } = p.plan({ segs, head: 0, window: 1e9 }, 40);
      actions += folders.length + splits.reduce((n, s) => n + s.points.length, 0);
    }
    expect(actions).toBeGreaterThan(0);
  });

  test.each(seeds.slice(0, 4))('seed %i: the same view, the same actions', (seed) => {
    const { segs, pages } = midListing(seed);
    const run = () => {
      const p = planner();
      for (const c of pages) p.learnPage(c);
      const out = p.plan({ segs, head: 0, window: 1e9 }, 30);
      return JSON.stringify({ f: out.folders.map((f) => [segs.indexOf(f.seg), f.prefix, f.after]), s: out.splits.map((s) => [segs.indexOf(s.seg), s.points.map(pointKey)]) });
    };
    expect(run()).toBe(run());
  });
});

describe('a segment is cut for what it has shown of the subtree it is in', () => {
  // The same listings, told once what their segments have read and once that each has read
  // a billion keys before: keys read elsewhere say nothing of the subtree a segment is in,
  // so its pieces are bounded by its page there all the same.
  const cutsOf = (segs, pages, got) => {
    const view = Object.freeze(segs.map((s) => Object.freeze({ ...s, got: got === undefined ? s.got : got })));
    const p = planner({ ordered: false });
    for (const c of pages) p.learnPage(c);
    for (const s of view) if (s.sample) p.learnSample(s.sample);
    const { splits } = p.plan({ segs: view, head: 0, window: 1e9 }, 60);
    return splits.map((x) => [x.seg.sample, x.points.filter((pt) => typeof pt === 'object' && pt.guess).length]);
  };

  test(`pieces within CUT_EVIDENCE times the page read there, however much was read before (seeds ${SEED} to ${SEED + 23})`, () => {
    let cut = 0;
    for (let seed = SEED; seed < SEED + 24; seed++) {
      const { segs, pages } = midListing(seed, 40000);
      const shown = cutsOf(segs, pages), all = cutsOf(segs, pages, 1e9);
      expect(all.map(([, n]) => n)).toEqual(shown.map(([, n]) => n));
      for (const [sample, n] of all) {
        expect(n).toBeLessThanOrEqual(Math.max(0, Math.floor((T.CUT_EVIDENCE * Math.max(sample.n, 1000)) / 500) - 1));
        cut += n;
      }
    }
    expect(cut).toBeGreaterThan(0);
  });
});

describe('guesses in one place grow with what they find', () => {
  // Scouts of one position under one prefix, and pieces cut from one subtree, lie one after
  // another in key order: where the first finds nothing, so do the rest. A place gets
  // SCOUT_FIRST guesses, then SCOUT_GROWTH more for each that found keys.
  const guessesOf = (splits) => {
    const byPlace = new Map();
    for (const { points } of splits) {
      for (const pt of points) {
        if (typeof pt !== 'object') continue;
        const r = pt.guesses || (pt.guess && pt.guess.guesses);
        if (!r) continue;
        // The probe the engine makes of it: a scout is its own; a cut probes where it parts.
        const probe = pt.guess ? { key: pt.key.slice(0, pt.guess.at + 1), ...pt.guess } : pt;
        if (!byPlace.has(r)) byPlace.set(r, []);
        byPlace.get(r).push(probe);
      }
    }
    return byPlace;
  };
  const seeds = Array.from({ length: 16 }, (_, i) => SEED + 300 + i);

  test(`no place guessed more than SCOUT_FIRST times at first; none more once all missed; no more than their finds allow once all found (seeds ${SEED + 300} to ${SEED + 315})`, () => {
    let capped = 0, grew = 0;
    for (const hit of [false, true]) {
      for (const seed of seeds) {
        const { segs, pages } = midListing(seed, 40000);
        const p = planner({ ordered: seed % 2 === 0 });
        for (const c of pages) p.learnPage(c);
        for (const s of segs) if (s.sample) p.learnSample(s.sample);
        const view = { segs, head: 0, window: 1e9 };
        const first = guessesOf(p.plan(view, 400).splits);
        for (const [r, probes] of first) {
          expect(probes.length).toBeLessThanOrEqual(T.SCOUT_FIRST);
          expect(r.sent).toBe(probes.length);
          if (probes.length === T.SCOUT_FIRST) capped++;
          for (const probe of probes) p.probed(probe, hit);
        }
        // Asked again with the same view (the planner offers the same places again).
        const second = guessesOf(p.plan(view, 400).splits);
        for (const [r, probes] of second) {
          if (!first.has(r)) continue;
          const before = first.get(r).length;
          expect(before + probes.length).toBeLessThanOrEqual(T.SCOUT_FIRST + (hit ? T.SCOUT_GROWTH * before : 0));
          if (hit && before === T.SCOUT_FIRST && probes.length > 0) grew++;
        }
      }
    }
    // Not vacuous: some places reached the cap, and some of those got more once they found keys.
    expect(capped).toBeGreaterThan(0);
    expect(grew).toBeGreaterThan(0);
  });
});

describe('folders a listing named are placed inside the range that asked, no more than a round of requests', () => {
  test.each(Array.from({ length: 6 }, (_, i) => SEED + 100 + i))('seed %i', (seed) => {
    const r = prng(seed);
    const names = [...new Set(Array.from({ length: 1 + r.int(400) }, () => `d/${r.int(1e6).toString(36)}/`))].sort(compareKeys);
    const p = planner();
    const found = p.foldersListed('d/', 'd/', { chunk: new ItemChunk([]), folders: names, truncated: false });
    expect(found.map((g) => g.key)).toEqual(names);
    const from = names[r.int(names.length)];
    const to = r.next() < 0.3 ? null : names[r.int(names.length)];
    const segs = Object.freeze([Object.freeze({ start: '', end: null, cursor: from, done: false })]);
    const placed = p.placeFolders(found, from, to, segs, () => 0);
    const inside = names.filter((g) => compareKeys(g, from) > 0 && (to === null || compareKeys(g, to) <= 0));
    if (!inside.length) { expect(placed).toBeNull(); return; }
    const points = placed.flatMap((x) => x.points.map((pt) => pt.key));
    expect(points.length).toBeGreaterThan(0);
    expect(points.length).toBeLessThanOrEqual(CONCURRENCY);
    for (const k of points) expect(inside).toContain(k);
    expect(points).toEqual([...points].sort(compareKeys));
    // Each names where its folder's subtree ends when nothing lies between it and the next.
    for (const x of placed) for (const pt of x.points) expect(pt.folder).toBe(true);
  });
});

describe('folders placed by what folders as deep have shown: a segment takes enough of them to fill a piece', () => {
  test.each(Array.from({ length: 6 }, (_, i) => SEED + 200 + i))('seed %i', (seed) => {
    const r = prng(seed);
    const names = [...new Set(Array.from({ length: 50 + r.int(1500) }, () => `d/${r.int(1e6).toString(36)}/`))].sort(compareKeys);
    const mean = 1 + Math.floor(Math.exp(r.next() * Math.log(4 * T.FOLDER_PIECE_KEYS)));
    const p = planner({ concurrency: 10000 }); // a round of requests never binds here
    const found = p.foldersListed('d/', 'd/', { chunk: new ItemChunk([]), folders: names, truncated: false });
    const segs = Object.freeze([Object.freeze({ start: '', end: null, cursor: 'd/', done: false })]);
    const points = () => p.placeFolders(found, 'd/', null, segs, () => 0).flatMap((x) => x.points.map((pt) => names.indexOf(pt.key)));
    // No evidence yet, or evidence of another depth only: a segment at every folder.
    expect(points()).toHaveLength(names.length);
    for (let i = 0; i < T.FOLDER_SIZE_TRIALS; i++) p.folderRead(`d/a/b${i}/`, 1);
    expect(points()).toHaveLength(names.length);
    for (let i = 0; i < T.FOLDER_SIZE_TRIALS - 1; i++) p.folderRead(`e/f${i}/`, mean);
    expect(points()).toHaveLength(names.length);
    p.folderRead('e/last/', mean);
    const after = points();
    expect(after[0]).toBe(0);
    // Between two placements lie enough folders to fill a piece by their mean size.
    for (let j = 1; j < after.length; j++) expect((after[j] - after[j - 1]) * mean).toBeGreaterThan(T.FOLDER_PIECE_KEYS - mean);
    // ... and no more than that: one more folder would be a piece too many.
    for (let j = 1; j < after.length; j++) expect((after[j] - after[j - 1] - 1) * mean).toBeLessThan(T.FOLDER_PIECE_KEYS);
    if (mean >= T.FOLDER_PIECE_KEYS) expect(after).toHaveLength(names.length);
    if (mean * 2 <= T.FOLDER_PIECE_KEYS) expect(after.length).toBeLessThan(names.length);
  });
});

describe('a store that says it takes a delimiter but ignores it', () => {
  const { ParallelLister } = require('../../src/list/parallel-lister');
  const { FakeListStore } = require('../helpers/fake-list-store');

  test(`every key once, and no folder listing asked for after the first one answered (seed ${SEED})`, async () => {
    // Many folders at several levels (logs/YYYY/MM/DD/host-N/): the planner keeps asking for
    // folder listings on any such layout unless it stops.
    const { LAYOUTS } = require('../generators/layouts');
    const inner = new FakeListStore(LAYOUTS.logs(30000, SEED));
    let answered = false, sentBefore = 0, sentAfter = 0;
    const store = {
      delimiters: true,
      listPage(args) {
        if (!args.delimiter) return inner.listPage(args);
        if (answered) sentAfter++; else sentBefore++;
        const { delimiter, ...plain } = args; // ignored: the keys come back unfolded
        const p = inner.listPage(plain);
        p.then(() => { answered = true; }, () => {});
        return p;
      },
    };
    const lister = new ParallelLister(store, { listConcurrency: 20, log: () => {} });
    const got = [];
    for await (const chunk of lister.chunks()) for (let k = 0; k < chunk.length; k++) got.push(chunk.key(k));
    expect(got).toEqual(inner.expected());
    expect(sentBefore).toBeGreaterThan(0); // the planner did ask, so the check below means something
    expect(sentAfter).toBe(0);
  });
});
