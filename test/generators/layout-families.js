'use strict';
// Bucket shapes drawn from seeded distributions (issue 28): not ten named layouts but
// families of them, so that a planner is measured on shapes it was not fitted to.
//
//   generateLayout(seed, count, {family}) -> {name, family, params, maxDepth, keys}
//
// keys: `count` distinct valid S3 keys (1..1024 UTF-8 bytes, no U+0000, no lone surrogate),
// in no particular order, the same for the same (seed, count). params: a short description
// of what was drawn. A layout is a tree grown top down: each level draws, per folder, how
// many children it has and how the keys split among them (uniform, Zipf, one hot child, a
// few huge and many tiny), what their names look like (hex, numbers padded or not, words,
// UUIDs, mixed scripts, 200-byte segments, dates, key=value), whether some keys stay
// loose beside the folders, and whether a branch stops early.
const { prng } = require('./prng');
const N = require('./names');

const { pad, hex, utf8len } = N;

// --- drawing helpers

const between = (r, lo, hi) => lo + r.next() * (hi - lo);
// An integer spread evenly on a log scale over [lo, hi].
const logInt = (r, lo, hi) => Math.min(hi, Math.floor(Math.exp(between(r, Math.log(lo), Math.log(hi + 1)))));
const chance = (r, p) => r.next() < p;
// One of the entries of [[weight, value], ...].
function weighted(r, table) {
  let u = r.next() * table.reduce((s, [w]) => s + w, 0);
  for (const [w, v] of table) { if ((u -= w) < 0) return v; }
  return table[table.length - 1][1];
}
function shuffle(r, a) {
  for (let i = a.length - 1; i > 0; i--) { const j = r.int(i + 1); const t = a[i]; a[i] = a[j]; a[j] = t; }
  return a;
}

// Splits count into integers in proportion to weights, summing exactly to count, each within
// one of its share (systematic rounding from a random offset).
function allocate(r, count, weights) {
  let total = 0;
  for (const w of weights) total += w;
  const out = new Array(weights.length);
  let cum = 0, prev = 0;
  const u = r.next();
  for (let i = 0; i < weights.length; i++) {
    cum += weights[i];
    const at = i === weights.length - 1 ? count : Math.min(count, Math.floor((count * cum) / total + u));
    out[i] = at - prev;
    prev = at;
  }
  return out;
}

// --- fan-outs: { text, weights(r, count) -> one weight per child } (drawn again per folder)

const fixedK = (r, lo, hi, count) => Math.max(1, Math.min(count, logInt(r, lo, hi)));

const FANOUTS = {
  one: () => ({ text: '1', weights: () => [1] }),
  uniform: (lo, hi) => ({ text: `uniform ${lo}-${hi}`, weights: (r, c) => new Array(fixedK(r, lo, hi, c)).fill(1) }),
  // Every name of a maker with a known number of names (hex shards, hours).
  all: (k) => ({ text: `all ${k}`, weights: (r, c) => new Array(Math.min(k, c)).fill(1) }),
  zipf: (lo, hi, s, shuffled) => ({
    text: `zipf ${lo}-${hi} s=${s.toFixed(1)}${shuffled ? '' : ' first-largest'}`,
    weights(r, c) {
      const w = Array.from({ length: fixedK(r, lo, hi, c) }, (_, i) => 1 / (i + 1) ** s);
      return shuffled ? shuffle(r, w) : w;
    },
  }),
  hot: (lo, hi, share) => ({
    text: `hot ${Math.round(share * 100)}% of ${lo}-${hi}`,
    weights(r, c) {
      const k = fixedK(r, lo, hi, c);
      if (k === 1) return [1];
      const w = new Array(k).fill((1 - share) / (k - 1));
      w[r.int(k)] = share;
      return w;
    },
  }),
  fewHuge: (huge, lo, hi, share) => ({
    text: `${huge} huge (${Math.round(share * 100)}%) + many tiny of ${lo}-${hi}`,
    weights(r, c) {
      const k = fixedK(r, lo, hi, c);
      if (k <= huge) return new Array(k).fill(1);
      const w = new Array(k).fill((1 - share) / (k - huge));
      for (let i = 0; i < huge; i++) w[r.int(k)] = share / huge;
      return w;
    },
  }),
  // Sizes spread around the mean (a third to twice it): many tiny folders.
  jitter: (lo, hi) => ({ text: `~even ${lo}-${hi}`, weights: (r, c) => Array.from({ length: fixedK(r, lo, hi, c) }, () => 0.3 + 1.7 * r.next()) }),
  // Days: volume growing up to g-fold, weekends at a third.
  trend: (lo, hi, g) => ({
    text: `days ${lo}-${hi} growing ${g.toFixed(1)}x`,
    weights(r, c) {
      const k = fixedK(r, lo, hi, c);
      return Array.from({ length: k }, (_, i) => (1 + (g - 1) * i / k) * (i % 7 >= 5 ? 0.33 : 1));
    },
  }),
};

// A fan-out of some kind around k children per folder.
function randomFanout(r, k) {
  const lo = Math.max(1, Math.round(k / 2)), hi = Math.max(2, Math.round(k * 2));
  return weighted(r, [
    [3, () => FANOUTS.uniform(lo, hi)],
    [3, () => FANOUTS.zipf(lo, hi, between(r, 0.7, 1.6), chance(r, 0.7))],
    [2, () => FANOUTS.hot(Math.max(2, lo), Math.max(3, hi), between(r, 0.8, 0.99))],
    [2, () => FANOUTS.fewHuge(1 + r.int(4), Math.max(8, lo * 4), Math.max(16, hi * 8), between(r, 0.85, 0.97))],
    [1, () => FANOUTS.jitter(lo, hi)],
  ])();
}

// --- names

const ext = (r) => r.pick(N.EXTENSIONS);
const STEMS = ['', '', 'part-', 'shard', 'v', 'batch_', 'p', 'run-'];

// Folder names for one level of a random tree (room: whether 200-byte names may go here).
function randomFolderNames(r, { long = true } = {}) {
  return weighted(r, [
    [3, () => N.wordNames()],
    [2, () => N.hexNames(r.pick([1, 2, 2, 3, 4, 8, 16, 32]))],
    [3, () => N.numberNames({ padded: chance(r, 0.5), stem: r.pick(STEMS), sparse: chance(r, 0.3) })],
    [1, () => N.uuidNames()],
    [1, () => N.letterNames(3, 12)],
    [1, () => N.unicodeNames()],
    [long ? 1 : 0, () => N.longNames(180 + r.int(40), { shared: chance(r, 0.6) })],
    [1, () => N.dateNames(r.pick(['dashed', 'compact']))],
    [1, () => N.kvNames(r.pick(['dt', 'id', 'k', 'part', 'region', 'user_id', 'year']), r.pick([N.numberNames({ padded: chance(r, 0.5) }), N.dateNames('dashed'), N.wordNames()]))],
  ])();
}

function randomFileNames(r, { long = true } = {}) {
  const e = ext(r);
  return weighted(r, [
    [3, () => N.hexNames(r.pick([8, 16, 32, 40]), e)],
    [2, () => N.uuidNames(e)],
    [3, () => N.numberNames({ padded: chance(r, 0.6), stem: r.pick(STEMS), ext: e, sparse: chance(r, 0.3) })],
    [2, () => N.wordNames(e)],
    [1, () => N.letterNames(4, 20, e)],
    [1, () => N.unicodeNames(e)],
    [long ? 1 : 0, () => N.longNames(150 + r.int(80), { shared: chance(r, 0.5), ext: e })],
  ])();
}

// A few file names people keep in small folders, then numbered ones.
function smallFileNames() {
  const names = ['profile.json', 'avatar.png', 'settings.json', 'notes.txt', 'index.html', 'a', 'b', 'data.csv',
    'export.zip', 'photo.jpg', 'thumb.jpg', 'meta.json', 'README.md', 'config.yaml', '.keep', 'manifest.json'];
  return {
    text: 'small-folder names',
    make(r, k) {
      const out = shuffle(r, names.slice()).slice(0, Math.min(k, names.length));
      for (let i = out.length; i < k; i++) out.push(`file-${i}.bin`);
      return out;
    },
  };
}

// Spark's part files: one job id per folder, parts numbered from 0, and _SUCCESS.
function sparkParts(compression) {
  return {
    text: `part-NNNNN-<uuid>.${compression}.parquet`,
    make(r, k) {
      const job = N.uuid(r);
      const out = Array.from({ length: k }, (_, i) => `part-${pad(i, 5)}-${job}.c000.${compression}.parquet`);
      if (k > 1 && chance(r, 0.7)) out[k - 1] = '_SUCCESS';
      return out;
    },
  };
}

// Time-of-day file names: HHMMSS-<hex>.
function timeFileNames(e) {
  return {
    text: `HHMMSS-<hex>${e}`,
    make: (r, k) => N.distinct(k, () => `${pad(r.int(24), 2)}${pad(r.int(60), 2)}${pad(r.int(60), 2)}-${hex(r, 6 + (k > 5000 ? 4 : 0))}${e}`),
  };
}

// --- the tree: plan = { levels: [{names, fanout, loose: [lo, hi] fraction, stop}], leaf }

const levelText = (l) => `${l.names.text} ${l.fanout.text}${l.loose ? ` +loose <${+(l.loose[1] * 100).toPrecision(2)}%` : ''}${l.stop ? ` stop ${Math.round(l.stop * 100)}%` : ''}`;
const planText = (p) => `${p.levels.map(levelText).join(' / ')}${p.levels.length ? ' / ' : ''}${p.leaf.text}`;

const slashes = (s) => { let d = 0; for (let i = s.indexOf('/'); i >= 0; i = s.indexOf('/', i + 1)) d++; return d; };

// Grows count keys under prefix into out, and widens out.depths ([min, max] of the keys'
// folder levels) as it goes: counted per folder, not per key.
function grow(r, plan, count, prefix, out) {
  const levels = plan.levels;
  const leaf = (at, bytes, n, folders) => {
    const names = plan.leaf.make(r, n, 1024 - bytes);
    if (names.length !== n) throw new Error(`${plan.leaf.text} made ${names.length} names, not ${n}`);
    for (let i = 0; i < n; i++) {
      const name = names[i];
      // Names are ASCII but for a few makers: only those are measured.
      if (bytes + name.length * 3 > 1024 && bytes + utf8len(name) > 1024) throw new Error(`a key longer than 1024 bytes: ${at}${name.slice(0, 40)}...`);
      out.push(at + name);
    }
    const d = folders + slashes(names[0]);
    if (!out.depths) out.depths = [d, d];
    else { if (d < out.depths[0]) out.depths[0] = d; if (d > out.depths[1]) out.depths[1] = d; }
  };
  const node = (at, bytes, n, depth, folders) => {
    const lvl = levels[depth];
    if (!lvl || (lvl.stop && chance(r, lvl.stop))) { leaf(at, bytes, n, folders); return; }
    const loose = lvl.loose ? Math.min(n - 1, Math.floor(n * between(r, lvl.loose[0], lvl.loose[1]))) : 0;
    let w = lvl.fanout.weights(r, n - loose);
    if (lvl.names.max && w.length > lvl.names.max) w = w.slice(0, lvl.names.max);
    const counts = allocate(r, n - loose, w);
    // Room for a name here: what the levels below and the file name need stays free.
    const room = 1024 - bytes - 48 * (levels.length - depth - 1) - (plan.leaf.text.includes('byte') ? 240 : 80);
    const names = lvl.names.make(r, w.length, room);
    for (let i = 0; i < counts.length; i++) {
      if (!counts[i]) continue;
      const seg = `${names[i]}/`;
      node(at + seg, bytes + utf8len(seg), counts[i], depth + 1, folders + slashes(seg));
    }
    if (loose) leaf(at, bytes, loose, folders); // files beside the folders
  };
  node(prefix, utf8len(prefix), count, 0, slashes(prefix));
}

// --- families: (r, count, prefix, out) -> description; each adds count keys under prefix

const FAMILIES = {
  // A random tree: 1 to 8 levels, each with its own names and fan-out, branches that stop
  // early, files beside folders; folders of a few keys to most of the bucket.
  tree(r, count, prefix, out) {
    const depth = weighted(r, [[2, 1], [3, 2], [3, 3], [3, 4], [2, 5], [1, 6], [1, 7], [1, 8]]);
    const perLeaf = logInt(r, 1, Math.max(1, Math.min(20000, count)));
    const k = Math.max(2, Math.round((count / perLeaf) ** (1 / depth)));
    let longs = 0;
    const levels = Array.from({ length: depth }, (_, i) => {
      const names = randomFolderNames(r, { long: longs < 2 && depth <= 5 });
      if (names.text.includes('byte')) longs++;
      return {
        names,
        fanout: randomFanout(r, Math.max(2, Math.round(k * between(r, 0.4, 2.5)))),
        loose: chance(r, 0.3) ? [0, between(r, 0.01, 0.3)] : null,
        stop: i > 0 && chance(r, 0.35) ? between(r, 0.05, 0.4) : 0,
      };
    });
    const plan = { levels, leaf: randomFileNames(r, { long: longs === 0 }) };
    grow(r, plan, count, prefix, out);
    return `tree ${depth}: ${planText(plan)}`;
  },

  // One flat folder (or the bucket's root) of one kind of name, a few files beside it.
  flat(r, count, prefix, out) {
    const leaf = weighted(r, [
      [3, () => N.hexNames(r.pick([16, 32]), ext(r))], [2, () => N.uuidNames(ext(r))],
      [2, () => N.numberNames({ padded: chance(r, 0.5), stem: r.pick(STEMS), ext: ext(r) })],
      [1, () => N.letterNames(6, 20, ext(r))], [1, () => N.unicodeNames(ext(r))],
      [1, () => N.longNames(200, { shared: true, ext: ext(r) })], [1, () => N.wordNames(ext(r))],
    ])();
    const folder = chance(r, 0.6);
    const plan = folder
      ? { levels: [{ names: N.fixedNames([r.pick(['uploads', 'files', 'objects', 'blobs', 'data'])]), fanout: FANOUTS.one(), loose: [0, Math.min(0.1, 30 / count)] }], leaf }
      : { levels: [], leaf };
    grow(r, plan, count, prefix, out);
    return `flat: ${planText(plan)}`;
  },

  // Hashed shard folders (ab/cd/<hash>): every shard name, 1 to 3 levels.
  hashed(r, count, prefix, out) {
    const levels = Array.from({ length: 1 + r.int(3) }, () => {
      const w = r.pick([1, 2, 2, 2, 3]);
      return { names: N.hexNames(w), fanout: FANOUTS.all(16 ** w) };
    });
    if (chance(r, 0.5)) levels.unshift({ names: N.fixedNames([r.pick(['images', 'objects', 'cas', 'blobs'])]), fanout: FANOUTS.one() });
    const plan = { levels, leaf: N.hexNames(r.pick([32, 40, 64]), r.pick(['', '.jpg', '.bin', '.gz'])) };
    grow(r, plan, count, prefix, out);
    return `hashed: ${planText(plan)}`;
  },

  // Hive partitions: table=x/dt=2024-01-02/hour=05/part-00001-<uuid>.c000.snappy.parquet.
  hive(r, count, prefix, out) {
    const levels = [{ names: chance(r, 0.6) ? N.kvNames('table', N.wordNames()) : N.wordNames(), fanout: FANOUTS.zipf(2, 40, between(r, 0.8, 1.5), true) }];
    if (chance(r, 0.3)) levels.push({ names: N.kvNames('region', N.fixedNames(['ap-south-1', 'eu-central-1', 'eu-west-1', 'us-east-1', 'us-west-2'])), fanout: FANOUTS.hot(5, 5, between(r, 0.6, 0.9)) });
    levels.push({ names: N.dateNames('dashed', { kv: 'dt' }), fanout: FANOUTS.trend(20, 1200, between(r, 1, 6)), stop: 0 });
    if (chance(r, 0.5)) levels.push({ names: N.kvNames('hour', N.numberNames({ padded: true, width: 2 })), fanout: FANOUTS.all(24) });
    const plan = { levels, leaf: sparkParts(r.pick(['snappy', 'zstd', 'gz'])) };
    const base = r.pick(['', 'warehouse/', `warehouse/${r.pick(N.WORDS)}.db/`]);
    grow(r, plan, count, prefix + base, out);
    return `hive: ${base}${planText(plan)}`;
  },

  // Date folders (YYYY/MM/DD, YYYY-MM-DD, year=/month=/day=), growing volume, hours below.
  dates(r, count, prefix, out) {
    const levels = [];
    if (chance(r, 0.5)) levels.push({ names: N.wordNames(), fanout: randomFanout(r, 2 + r.int(8)) });
    const format = r.pick(['nested', 'nested', 'dashed', 'compact', 'hive']);
    const days = N.dateNames(format === 'hive' ? 'nested' : format);
    const names = format === 'hive'
      ? { text: 'year=/month=/day=', make: (rr, k) => days.make(rr, k).map((d) => `year=${d.slice(0, 4)}/month=${d.slice(5, 7)}/day=${d.slice(8)}`) }
      : days;
    levels.push({ names, fanout: FANOUTS.trend(7, 2000, between(r, 1, 8)) });
    if (chance(r, 0.4)) levels.push({ names: N.numberNames({ padded: chance(r, 0.8), width: 2 }), fanout: FANOUTS.all(24), stop: chance(r, 0.3) ? 0.2 : 0 });
    const e = r.pick(['.log.gz', '.json', '.gz', '.csv']);
    const plan = { levels, leaf: chance(r, 0.5) ? timeFileNames(e) : N.numberNames({ padded: chance(r, 0.7), stem: 'part-', ext: e }) };
    grow(r, plan, count, prefix, out);
    return `dates: ${planText(plan)}`;
  },

  // Tenants or users of Zipf-spread sizes, each a small tree of their own.
  tenants(r, count, prefix, out) {
    const ids = weighted(r, [
      [2, () => N.numberNames({ padded: false, start: 1, sparse: chance(r, 0.5) })],
      [1, () => N.numberNames({ padded: true, stem: r.pick(['user_', 'u', 'org-', '']) })],
      [2, () => N.uuidNames()], [1, () => N.letterNames(4, 12)], [1, () => N.hexNames(8)],
    ])();
    const tenants = logInt(r, 30, Math.max(30, Math.min(50000, Math.floor(count / 4))));
    const levels = [
      { names: N.fixedNames([r.pick(['tenants', 'customers', 'orgs', 'accounts', 'users'])]), fanout: FANOUTS.one() },
      { names: ids, fanout: FANOUTS.zipf(tenants, tenants, between(r, 0.8, 1.4), chance(r, 0.8)) },
    ];
    if (chance(r, 0.6)) {
      levels.push({ names: N.fixedNames(['avatars', 'exports', 'invoices', 'logs', 'settings', 'uploads'], 'avatars..uploads'), fanout: randomFanout(r, 4), stop: 0.2, loose: chance(r, 0.4) ? [0, 0.1] : null });
    }
    const plan = { levels, leaf: randomFileNames(r, { long: false }) };
    grow(r, plan, count, prefix, out);
    return `tenants: ${planText(plan)}`;
  },

  // Very many tiny folders: count / ~5 folders of a few keys (200,000 of 5 in a million).
  tiny(r, count, prefix, out) {
    const mean = r.pick([2, 3, 4, 5, 5, 5, 6, 8]);
    const folders = Math.max(1, Math.round(count / mean));
    const levels = [];
    if (chance(r, 0.5)) levels.push({ names: N.fixedNames([r.pick(['users', 'sessions', 'items', 'docs'])]), fanout: FANOUTS.one() });
    // Hashed shards above them only where each shard holds many folders.
    if (folders >= 256 * 32 && chance(r, 0.3)) levels.push({ names: N.hexNames(2), fanout: FANOUTS.all(256) });
    const per = Math.max(1, Math.round(folders / (levels.some((l) => l.names.text === 'hex2') ? 256 : 1)));
    levels.push({
      names: weighted(r, [[2, () => N.numberNames({ padded: chance(r, 0.5), stem: r.pick(['', 'user_', 'id']) })], [2, () => N.uuidNames()], [1, () => N.hexNames(12)], [1, () => N.letterNames(5, 14)]])(),
      fanout: FANOUTS.jitter(per, per),
    });
    const plan = { levels, leaf: smallFileNames() };
    grow(r, plan, count, prefix, out);
    return `tiny: ~${mean} keys per folder: ${planText(plan)}`;
  },

  // Numbered folders and files, padded or not ("10" before "9"), 0 to 3 levels.
  numbers(r, count, prefix, out) {
    const depth = r.int(4);
    const k = Math.max(2, Math.round((count / logInt(r, 10, 5000)) ** (1 / Math.max(1, depth))));
    const levels = Array.from({ length: depth }, () => ({
      names: N.numberNames({ padded: chance(r, 0.4), stem: r.pick(STEMS), sparse: chance(r, 0.2) }),
      fanout: chance(r, 0.5) ? FANOUTS.uniform(Math.max(1, k >> 1), k * 2) : FANOUTS.zipf(Math.max(1, k >> 1), k * 2, between(r, 0.7, 1.3), false),
    }));
    const plan = { levels, leaf: N.numberNames({ padded: chance(r, 0.4), stem: r.pick(STEMS), ext: ext(r), start: r.pick([0, 1, 1000]) }) };
    grow(r, plan, count, prefix, out);
    return `numbers: ${planText(plan)}`;
  },

  // Mixed scripts at every level: accents, CJK, Hangul, emoji, U+E000..U+FFFF (U+FF21).
  unicode(r, count, prefix, out) {
    const depth = r.int(4);
    const k = Math.max(2, Math.round((count / logInt(r, 10, 5000)) ** (1 / Math.max(1, depth))));
    const levels = Array.from({ length: depth }, () => ({
      names: chance(r, 0.75) ? N.unicodeNames() : N.wordNames(),
      fanout: randomFanout(r, k),
      loose: chance(r, 0.3) ? [0, 0.1] : null,
    }));
    const plan = { levels, leaf: N.unicodeNames(ext(r)) };
    grow(r, plan, count, prefix, out);
    return `unicode: ${planText(plan)}`;
  },

  // Long segments: 200-byte folder and file names, most sharing a stem.
  long(r, count, prefix, out) {
    const depth = 1 + r.int(3);
    const k = Math.max(2, Math.round((count / logInt(r, 10, 5000)) ** (1 / depth)));
    const levels = Array.from({ length: depth }, (_, i) => ({
      names: i === 0 || chance(r, 0.5) ? N.longNames(200, { shared: chance(r, 0.7) }) : N.hexNames(r.pick([2, 8])),
      fanout: randomFanout(r, k),
    }));
    const plan = { levels, leaf: chance(r, 0.6) ? N.longNames(200, { shared: chance(r, 0.7), ext: ext(r) }) : N.hexNames(16, ext(r)) };
    grow(r, plan, count, prefix, out);
    return `long: ${planText(plan)}`;
  },

  // A realistic bucket: several areas, each of another family, of Zipf-spread sizes, and
  // loose files at the top.
  blend(r, count, prefix, out) {
    const areas = Math.min(count, 3 + r.int(5));
    const names = shuffle(r, N.WORDS.slice()).slice(0, areas);
    const loose = Math.max(0, Math.min(count - areas, r.int(50)));
    const counts = allocate(r, count - loose, shuffle(r, Array.from({ length: areas }, (_, i) => 1 / (i + 1))));
    const parts = [];
    for (let i = 0; i < areas; i++) {
      if (!counts[i]) continue;
      const family = weighted(r, [[2, 'tree'], [1, 'flat'], [2, 'hashed'], [2, 'hive'], [3, 'dates'], [2, 'tenants'], [2, 'tiny'], [1, 'numbers'], [1, 'unicode'], [1, 'long']]);
      FAMILIES[family](r, counts[i], `${prefix}${names[i]}/`, out);
      parts.push(`${names[i]}/ ${family} ${counts[i]}`);
    }
    if (loose > 0) grow(r, { levels: [], leaf: N.wordNames('.txt') }, loose, prefix, out);
    return `blend: ${parts.join(', ')}${loose > 0 ? `, ${loose} loose` : ''}`;
  },
};

// How often each family is drawn.
const FAMILY_WEIGHTS = [['tree', 4], ['blend', 3], ['flat', 1], ['hashed', 1], ['hive', 1], ['dates', 1], ['tenants', 1], ['tiny', 1], ['numbers', 1], ['unicode', 1], ['long', 1]];

function layoutFamilies() {
  return FAMILY_WEIGHTS.map(([f]) => f);
}

// Folder levels above a key: its number of "/".
function keyDepth(k) {
  let d = 0;
  for (let i = k.indexOf('/'); i >= 0; i = k.indexOf('/', i + 1)) d++;
  return d;
}

function depthRange(keys) {
  let lo = Infinity, hi = 0;
  for (const k of keys) { const d = keyDepth(k); if (d < lo) lo = d; if (d > hi) hi = d; }
  return [keys.length ? lo : 0, hi];
}

// Why a key is not a valid S3 key, or null.
function invalidKey(k) {
  if (typeof k !== 'string' || k === '') return 'empty';
  if (k.includes('\0')) return 'U+0000';
  if (!k.isWellFormed()) return 'lone surrogate';
  if (utf8len(k) > 1024) return 'longer than 1024 bytes';
  return null;
}

// Spreads a seed so that nearby seeds (and seeds beyond 2^32) start far apart.
const spread = (seed) => (Math.imul((seed >>> 0) ^ Math.floor(seed / 4294967296), 0x9e3779b1) ^ 0x5bd1e995) >>> 0;

function generateLayout(seed, count, { family = null } = {}) {
  if (!Number.isSafeInteger(seed)) throw new Error(`seed must be an integer, not ${seed}`);
  if (!Number.isSafeInteger(count) || count < 1) throw new Error(`count must be a positive integer, not ${count}`);
  const r = prng(spread(seed));
  const chosen = weighted(r, FAMILY_WEIGHTS.map(([f, w]) => [w, f]));
  const fam = family || chosen; // the draw is made either way, so the rest of the sequence is the same
  if (!FAMILIES[fam]) throw new Error(`unknown layout family ${fam} (have ${layoutFamilies().join(', ')})`);
  const keys = [];
  const text = FAMILIES[fam](r, count, '', keys);
  // Keys are distinct by construction (distinct names per folder, a file's name never holds
  // "/"; the unit test checks it over many seeds, as it checks their validity): not checked
  // here again, which would take a second of a million keys' generation.
  if (keys.length !== count) throw new Error(`layout ${fam}/${seed} made ${keys.length} keys, not ${count}`);
  const [minDepth, maxDepth] = keys.depths;
  delete keys.depths;
  shuffle(r, keys);
  return { name: `${fam}-${seed}`, family: fam, seed, params: `${text} [depth ${minDepth}-${maxDepth}]`, minDepth, maxDepth, keys };
}

module.exports = { generateLayout, layoutFamilies, keyDepth, depthRange, invalidKey, allocate, FANOUTS };
