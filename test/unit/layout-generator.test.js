'use strict';
// The layout generator of test/generators/ (issue 28): a seed always makes the same
// layout; keys are distinct valid S3 keys; every family is drawn; and the shapes really
// differ (depth, fan-out, folder sizes, skew), measured here from the keys alone, not from
// what the generator says it drew. Seeds are fresh each run (printed; S3BLITZ_TEST_SEED
// replays a run). The harness that lists them (test/helpers/sim-listing.js, which bench/sim-list.js runs) is checked at the end.
const { generateLayout, layoutFamilies, LAYOUTS } = require('../generators/layouts');
const { simulate, compareListing } = require('../helpers/sim-listing');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`layout-generator seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

const FAMILIES = layoutFamilies();

// Why a key is not a valid S3 key, or null: 1..1024 UTF-8 bytes, no U+0000, and no lone
// surrogate (a string that survives a trip through UTF-8 unchanged has none).
function invalid(k) {
  if (typeof k !== 'string' || k.length === 0) return 'empty';
  const b = Buffer.from(k, 'utf8');
  if (b.length > 1024) return `${b.length} bytes`;
  if (b.toString('utf8') !== k) return 'lone surrogate';
  if (k.includes('\u0000')) return 'U+0000';
  return null;
}

function checkKeys(layout, count) {
  const { keys } = layout;
  expect(keys.length).toBe(count);
  expect(new Set(keys).size).toBe(count);
  const bad = keys.map((k) => [k, invalid(k)]).filter(([, why]) => why);
  expect(bad.slice(0, 3)).toEqual([]);
  // The depth it reports is the deepest key's number of folders.
  expect(layout.maxDepth).toBe(Math.max(...keys.map((k) => k.split('/').length - 1)));
}

// The shape of a key set, from the keys alone: folders (prefixes ending in "/"), the keys
// directly in each, the entries (files and subfolders) of each, and for folders of 10 or
// more subfolders, how much larger the largest subtree is than the median one.
function shape(keys) {
  const files = new Map(), subs = new Map(), under = new Map();
  const inc = (m, k) => m.set(k, (m.get(k) || 0) + 1);
  let minDepth = Infinity, maxDepth = 0;
  for (const k of keys) {
    const parts = k.split('/');
    const d = parts.length - 1;
    minDepth = Math.min(minDepth, d);
    maxDepth = Math.max(maxDepth, d);
    let folder = '';
    for (let i = 0; i < d; i++) {
      const child = `${folder}${parts[i]}/`;
      if (!subs.has(folder)) subs.set(folder, new Set());
      subs.get(folder).add(child);
      folder = child;
      inc(under, folder);
    }
    inc(files, folder);
  }
  const sizes = [...files.values()].sort((a, b) => a - b);
  let maxFanout = 0, maxSkew = 0, minSkew = Infinity;
  for (const [f, s] of subs) {
    maxFanout = Math.max(maxFanout, s.size + (files.get(f) || 0));
    if (s.size < 10) continue;
    const u = [...s].map((c) => under.get(c)).sort((a, b) => a - b);
    const skew = u[u.length - 1] / u[u.length >> 1];
    maxSkew = Math.max(maxSkew, skew);
    minSkew = Math.min(minSkew, skew);
  }
  return { minDepth, maxDepth, folders: files.size, largest: sizes[sizes.length - 1], median: sizes[sizes.length >> 1], maxFanout, maxSkew, minSkew };
}

describe('a seed makes one layout', () => {
  test('the same keys, name and description for the same seed and count; another seed, other keys', () => {
    const a = generateLayout(SEED, 5000), b = generateLayout(SEED, 5000);
    expect(b.keys).toEqual(a.keys);
    expect([b.name, b.family, b.params, b.maxDepth]).toEqual([a.name, a.family, a.params, a.maxDepth]);
    expect(a.name).toBe(`${a.family}-${SEED}`);
    expect(typeof a.params).toBe('string');
    expect(a.params.length).toBeGreaterThan(5);
    const c = generateLayout(SEED + 1, 5000);
    expect(c.keys).not.toEqual(a.keys);
  });

  test.each(FAMILIES)('%s: the same keys when asked for on purpose', (family) => {
    const a = generateLayout(SEED, 3000, { family }), b = generateLayout(SEED, 3000, { family });
    expect(a.family).toBe(family);
    expect(b.keys).toEqual(a.keys);
  });

  test('an unknown family or a bad seed or count is refused', () => {
    expect(() => generateLayout(1, 10, { family: 'nope' })).toThrow(/unknown layout family nope/);
    expect(() => generateLayout(1.5, 10)).toThrow(/seed/);
    expect(() => generateLayout(1, 0)).toThrow(/count/);
  });
});

describe('keys are distinct valid S3 keys, as many as asked for', () => {
  test.each(FAMILIES)('%s, of 1 to 20,000 keys', (family) => {
    for (const [i, count] of [1, 2, 7, 100, 2500, 20000].entries()) checkKeys(generateLayout(SEED + i, count, { family }), count);
  });

  test('200 drawn layouts of 3,000 keys', () => {
    for (let i = 0; i < 200; i++) checkKeys(generateLayout(SEED + 1000 + i, 3000), 3000);
  });
});

test('every family is drawn over 300 seeds', () => {
  const seen = new Map();
  for (let i = 0; i < 300; i++) {
    const { family } = generateLayout(SEED + 5000 + i, 50);
    seen.set(family, (seen.get(family) || 0) + 1);
  }
  expect([...seen.keys()].sort()).toEqual([...FAMILIES].sort());
});

describe('the shapes vary', () => {
  let shapes;
  beforeAll(() => {
    shapes = Array.from({ length: 200 }, (_, i) => shape(generateLayout(SEED + 10000 + i, 5000).keys));
  });

  test('depth: flat buckets and trees 6 or more deep; keys at several depths in one bucket', () => {
    const depths = new Set(shapes.map((s) => s.maxDepth));
    expect(depths.size).toBeGreaterThanOrEqual(6);
    expect(Math.min(...depths)).toBeLessThanOrEqual(1);
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(6);
    expect(shapes.filter((s) => s.minDepth < s.maxDepth).length).toBeGreaterThanOrEqual(40);
  });

  test('fan-out: folders of a thousand or more entries, and buckets where no folder has more than 20', () => {
    expect(shapes.filter((s) => s.maxFanout >= 1000).length).toBeGreaterThanOrEqual(2);
    expect(shapes.filter((s) => s.maxFanout > 0 && s.maxFanout <= 20).length).toBeGreaterThanOrEqual(5);
  });

  test('folder sizes: most keys in one folder, and most folders of a few keys', () => {
    expect(shapes.filter((s) => s.largest >= 0.9 * 5000).length).toBeGreaterThanOrEqual(4);
    expect(shapes.filter((s) => s.median <= 5).length).toBeGreaterThanOrEqual(40);
    expect(shapes.filter((s) => s.median >= 50).length).toBeGreaterThanOrEqual(10);
  });

  test('skew: siblings of even sizes, and a subtree 20 times its median sibling or more', () => {
    expect(shapes.filter((s) => s.maxSkew >= 20).length).toBeGreaterThanOrEqual(20);
    expect(shapes.filter((s) => s.maxSkew >= 1 && s.maxSkew <= 2).length).toBeGreaterThanOrEqual(10);
  });
});

describe('each family holds what it says', () => {
  const seeds = Array.from({ length: 8 }, (_, i) => SEED + 20000 + i);
  const all = (family, count) => seeds.map((s) => generateLayout(s, count, { family }).keys);

  test('hive: table=x/dt=YYYY-MM-DD/[hour=HH/]part-NNNNN-<uuid>.c000.<codec>.parquet, and _SUCCESS', () => {
    const re = /^(warehouse\/([^/]+\.db\/)?)?(table=)?[^/=]+\/(region=[a-z0-9-]+\/)?dt=\d{4}-\d\d-\d\d\/(hour=\d\d\/)?(part-\d{5}-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.c000\.\w+\.parquet|_SUCCESS)$/;
    const keys = Array.from({ length: 20 }, (_, i) => generateLayout(SEED + 22000 + i, 2000, { family: 'hive' }).keys).flat();
    expect(keys.filter((k) => !re.test(k)).slice(0, 3)).toEqual([]);
    expect(keys.some((k) => k.includes('/hour='))).toBe(true);
    expect(keys.some((k) => /(^|\/)table=/.test(k))).toBe(true);
    expect(keys.some((k) => k.endsWith('/_SUCCESS'))).toBe(true);
  });

  test('numbers: zero-padded and not, so that "10" sorts before "9"', () => {
    const segs = new Set(Array.from({ length: 30 }, (_, i) => generateLayout(SEED + 21000 + i, 2000, { family: 'numbers' }).keys)
      .flat().flatMap((k) => k.split('/')));
    // Numbers of different lengths with the same stem and extension, unpadded.
    const byForm = new Map();
    for (const s of segs) {
      const m = /^(\D*?)([1-9]\d*|0)(\D*)$/.exec(s);
      if (m) byForm.set(`${m[1]}|${m[3]}`, new Set([...(byForm.get(`${m[1]}|${m[3]}`) || []), m[2].length]));
    }
    expect([...byForm.values()].some((lengths) => lengths.size >= 2)).toBe(true);
    expect([...segs].some((s) => /^\D*0\d+\D*$/.test(s))).toBe(true);
  });

  test('unicode: characters either side of the UTF-16/UTF-8 boundary (U+E000..U+FFFF and emoji)', () => {
    const keys = all('unicode', 3000).flat();
    expect(keys.some((k) => /[\uE000-\uFFFF]/.test(k))).toBe(true);
    expect(keys.some((k) => /[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(k))).toBe(true);
    expect(keys.some((k) => k.includes('\uFF21'))).toBe(true);
  });

  test('long: 200-byte segments', () => {
    const keys = all('long', 2000).flat();
    const longest = Math.max(...keys.flatMap((k) => k.split('/').map((s) => Buffer.byteLength(s))));
    expect(longest).toBeGreaterThanOrEqual(195);
  });

  test('tiny: most folders hold a few keys, none more than 24', () => {
    for (const keys of all('tiny', 20000)) {
      const s = shape(keys);
      expect(s.median).toBeLessThanOrEqual(8);
      expect(s.largest).toBeLessThanOrEqual(24);
      expect(s.folders).toBeGreaterThanOrEqual(20000 / 9);
    }
  });

  test('tenants: Zipf-spread tenant sizes (the largest 5 times the median or more)', () => {
    for (const keys of all('tenants', 20000)) {
      const per = new Map();
      for (const k of keys) { const t = k.split('/').slice(0, 2).join('/'); per.set(t, (per.get(t) || 0) + 1); }
      const sizes = [...per.values()].sort((a, b) => a - b);
      expect(sizes.length).toBeGreaterThanOrEqual(30);
      expect(sizes[sizes.length - 1]).toBeGreaterThanOrEqual(5 * sizes[sizes.length >> 1]);
    }
  });

  test('dates: date folders (YYYY/MM/DD, YYYY-MM-DD, YYYYMMDD, year=/month=/day=)', () => {
    for (const keys of all('dates', 3000)) {
      expect(keys.every((k) => /(^|\/)(\d{4}\/\d\d\/\d\d|\d{4}-\d\d-\d\d|\d{8}|year=\d{4}\/month=\d\d\/day=\d\d)\//.test(k))).toBe(true);
    }
  });

  test('blend: several areas, with files beside them at the top in some', () => {
    const layouts = all('blend', 5000);
    for (const keys of layouts) expect(new Set(keys.filter((k) => k.includes('/')).map((k) => k.split('/')[0])).size).toBeGreaterThanOrEqual(2);
    expect(layouts.some((keys) => keys.some((k) => !k.includes('/')))).toBe(true);
  });

  test('flat and tiny at 200,000 keys: one folder of nearly all, and 20,000 folders or more of a few', () => {
    // Keys directly in each folder (what comes before the last "/").
    const folders = (keys) => {
      const m = new Map();
      for (const k of keys) { const f = k.slice(0, k.lastIndexOf('/') + 1); m.set(f, (m.get(f) || 0) + 1); }
      return [...m.values()].sort((a, b) => a - b);
    };
    const flat = folders(generateLayout(SEED, 2e5, { family: 'flat' }).keys);
    expect(flat[flat.length - 1]).toBeGreaterThanOrEqual(2e5 - 30);
    const tiny = folders(generateLayout(SEED, 2e5, { family: 'tiny' }).keys);
    expect(tiny.length).toBeGreaterThanOrEqual(2e4);
    expect(tiny[tiny.length >> 1]).toBeLessThanOrEqual(8);
  });
});

describe('the virtual-clock harness (bench/sim-list.js)', () => {
  test('counts a generated layout exactly, in order and not, with the figures it reports', async () => {
    const layout = generateLayout(SEED, 20000);
    for (const ordered of [true, false]) {
      const r = await simulate(layout.keys, { concurrency: 10, ordered, depth: layout.maxDepth });
      expect(r).toMatchObject({ keys: 20000, listed: 20000, exact: true, missing: 0, extra: 0, repeated: 0, misplaced: 0, complete: true });
      expect(r.efficiency).toBeCloseTo(20000 / (r.requests * 1000), 10);
      expect(r.parsedPerUnique).toBeGreaterThanOrEqual(1);
      expect(r.roundBound).toBeCloseTo(2 * (20000 / 1000 / 10) + layout.maxDepth, 10);
      expect(r.roundsOk).toBe(r.rounds <= r.roundBound);
      // The busy rounds are the first ones: while 10,000 or more keys were left to hand out.
      expect(r.busyRounds).toBeGreaterThan(0);
      expect(r.busyRounds).toBeLessThan(r.rounds);
      expect(r.busyInflight).toBeGreaterThan(0);
      expect(r.busyInflight).toBeLessThanOrEqual(10 * 1.2); // hedges may add a few beyond the slots
      expect(r.cpuMsPer1000).toBeGreaterThan(0);
    }
  });

  test('a listing with a key missing, extra, twice or out of place is not exact', () => {
    const sorted = [...LAYOUTS.random(3000, 2)].sort();
    expect(compareListing(sorted.slice(1), sorted, true)).toMatchObject({ exact: false, missing: 1 });
    expect(compareListing([...sorted, sorted[0]], sorted, false)).toMatchObject({ exact: false, repeated: 1 });
    expect(compareListing([...sorted.slice(1), 'x'], sorted, false)).toMatchObject({ exact: false, missing: 1, extra: 1 });
    expect(compareListing([sorted[1], sorted[0], ...sorted.slice(2)], sorted, true)).toMatchObject({ exact: false, misplaced: 2 });
    expect(compareListing([sorted[1], sorted[0], ...sorted.slice(2)], sorted, false)).toMatchObject({ exact: true });
  });
});
