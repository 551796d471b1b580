'use strict';
// Ten named key layouts of real buckets, for the benchmark's fake S3 and the lister's unit
// tests. Each is generate(count, seed) -> keys (unsorted, unique), deterministic for a seed.
// The lister was tuned on these; layout-families.js draws shapes it was not tuned on.

// The seeded generator (mulberry32), with the seed spread so that nearby seeds start far apart.
const { prng } = require('./prng');
const rng = (seed) => prng(seed * 2654435761);

const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

function word(r, n, alphabet = ALNUM) {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[r.int(alphabet.length)];
  return s;
}

const pad = (n, w) => String(n).padStart(w, '0');

// Adds keys made by make() until count distinct ones exist (random names may collide).
function fill(count, make) {
  const out = new Set();
  for (let guard = 0; out.size < count && guard < count * 4; guard++) out.add(make(out.size));
  return [...out];
}

// Scripts people name files in: accents, CJK, Hangul, emoji, symbols, fullwidth and
// private-use characters (which sort differently in UTF-16 and UTF-8 against emoji).
const UNICODE_POOL = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789', ...'éèêëàâäçîïôöùûüñßøåæœ', ...'ÉÀÇÑÖÜ',
  ...'日本語中文字東京北京漢字学校会社', ...'한국어서울데이터', ...'テストカタカナひらがな',
  '😀', '🚀', '🎉', '🐍', '📁', '👍🏽', '🇯🇵', '𝔘', '𝄞', '🀄',
  ...' -_.,;+=&@!$()~', '\uE000', '\uE123', '\uF8FF', '\uFF21', '\uFF41', '\uFFFD',
];

const LAYOUTS = {
  // Flat random names: no folders, every first character equally likely.
  random: (count, seed) => { const r = rng(seed); return fill(count, () => word(r, 16)); },

  // Zero-padded numbers from a random start: all keys share a long prefix of zeros.
  sequential: (count, seed) => {
    const r = rng(seed);
    const start = r.int(1e6), ext = r.pick(['', '.dat', '.json']);
    return Array.from({ length: count }, (_, i) => `${pad(start + i, 12)}${ext}`);
  },

  // 90% of the keys under one hot prefix with 100 shard folders, the rest in 1,000 small folders.
  hot: (count, seed) => {
    const r = rng(seed);
    const hot = Math.floor(count * 0.9);
    return fill(count, (i) => (i < hot
      ? `events/hot/shard-${pad(r.int(100), 3)}/${word(r, 12)}.json`
      : `tenants/${word(rng(seed * 7919 + r.int(1000)), 6)}/${word(r, 10)}.bin`));
  },

  // Flat names of mixed scripts, no folders.
  unicode: (count, seed) => {
    const r = rng(seed);
    return fill(count, () => {
      let s = '';
      const n = 4 + r.int(14);
      for (let i = 0; i < n; i++) s += r.pick(UNICODE_POOL);
      return s;
    });
  },

  // A deep tree: every key 20 to 30 folders down, few branches per level.
  deep: (count, seed) => {
    const r = rng(seed);
    return fill(count, () => {
      const depth = 20 + r.int(11);
      const parts = [];
      for (let d = 0; d < depth; d++) parts.push(`${String.fromCharCode(97 + d % 26)}${r.int(d < 3 ? 2 : 3)}`);
      return `${parts.join('/')}/${word(r, 8)}.dat`;
    });
  },

  // A bucket of several areas: a logs tree, hashed image shards, many tiny user folders,
  // loose files at the top.
  mixed: (count, seed) => {
    const r = rng(seed);
    return fill(count, () => {
      const x = r.next();
      if (x < 0.4) {
        const day = 1 + r.int(365);
        return `logs/2024/${pad(1 + Math.floor((day - 1) / 31), 2)}/${pad(1 + (day - 1) % 31, 2)}/host-${r.int(6)}/part-${pad(r.int(300), 5)}.gz`;
      }
      if (x < 0.7) { const h = word(r, 32, HEX); return `images/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.jpg`; }
      if (x < 0.97) return `data/user_${pad(r.int(60000), 6)}/${r.pick(['profile', 'avatar', 'settings', 'export', 'notes'])}-${r.int(4)}.json`;
      return `${r.pick(['README', 'report', 'dump', 'index', 'backup'])}-${word(r, 6)}.${r.pick(['md', 'csv', 'tar', 'html'])}`;
    });
  },

  // The benchmark's tree: logs/YYYY/MM/DD/host-N/part-N.gz, 1,000 files per folder.
  logs: (count, seed) => {
    const hosts = 8, per = 1000;
    const out = [];
    const day = new Date(Date.UTC(2023 + (seed % 3), 0, 1));
    while (out.length < count) {
      const d = day.toISOString().slice(0, 10).replace(/-/g, '/');
      for (let h = 0; h < hosts && out.length < count; h++) {
        for (let p = 0; p < per && out.length < count; p++) out.push(`logs/${d}/host-${pad(h, 2)}/part-${pad(p, 5)}.gz`);
      }
      day.setUTCDate(day.getUTCDate() + 1);
    }
    return out;
  },

  // Nearly everything in one flat folder.
  folder: (count, seed) => {
    const r = rng(seed);
    return fill(count, (i) => (i < 20 ? `${word(r, 8)}.txt` : `uploads/${word(r, 20)}`));
  },

  // Keys that share a 200-byte prefix.
  longprefix: (count, seed) => {
    const r = rng(seed);
    const prefix = `${word(r, 40)}/`.repeat(5).slice(0, 200);
    return fill(count, () => `${prefix}${word(r, 12)}`);
  },

  // A few top-level areas, each of numbered batch folders of 1,000 sequentially numbered
  // objects, the numbers running on across folders (exports, ML shards, queue spills).
  batches: (count, seed) => {
    const r = rng(seed);
    const areas = 3 + r.int(12), per = Math.ceil(count / areas), ext = r.pick(['', '.json', '.parquet']);
    return Array.from({ length: count }, (_, i) => {
      const a = Math.floor(i / per), n = i % per;
      return `p${pad(a, 2)}/d${pad(n >> 10, 4)}/obj-${pad(n, 7)}${ext}`;
    });
  },

  // A first page that says nothing about the rest: 1,000 keys in a corner, then the bulk.
  late: (count, seed) => {
    const r = rng(seed);
    const early = Math.min(1000, Math.floor(count / 100));
    return fill(count, (i) => (i < early ? `.meta/${pad(i, 6)}` : `z/${word(r, 2)}/${word(r, 14)}`));
  },
};

module.exports = { LAYOUTS };
