'use strict';
// Name alphabets for generated layouts: each maker returns k distinct names for the
// children of one folder (or the files of one leaf), drawn from a seeded generator r
// (prng.js). Makers carry a short `text` for the layout's description. Names never hold
// "/" (but a date maker's "YYYY/MM/DD" names, all of one depth), U+0000 or a lone surrogate.

const floor = Math.floor; // module-level: global lookups are slow under jest's vm context
const HEX = '0123456789abcdef';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const pad = (n, w) => String(n).padStart(w, '0');
const utf8len = (s) => Buffer.byteLength(s, 'utf8');

const WORDS = [
  'data', 'logs', 'images', 'img', 'raw', 'tmp', 'backup', 'backups', 'export', 'exports', 'import',
  'archive', 'media', 'video', 'audio', 'docs', 'reports', 'report', 'users', 'user', 'events',
  'metrics', 'models', 'checkpoints', 'shards', 'staging', 'prod', 'dev', 'test', 'public',
  'private', 'assets', 'static', 'build', 'release', 'releases', 'cache', 'thumbs', 'thumbnails',
  'uploads', 'incoming', 'outgoing', 'processed', 'failed', 'inbox', 'sales', 'orders',
  'invoices', 'customers', 'accounts', 'billing', 'search', 'index', 'web', 'api', 'auth',
  'alpha', 'beta', 'gamma', 'delta', 'north', 'south', 'east', 'west', 'red', 'green', 'blue',
  'old', 'new', 'final', 'v1', 'v2', 'a', 'b', 'x', 'z', 'snapshot', 'snapshots', 'dump',
  'tables', 'table', 'parquet', 'json', 'csv', 'avro', 'daily', 'hourly', 'weekly', 'monthly',
];
// Characters below "/" among them: a folder "data/" beside "data-old" or "data.bak" is
// where key order and folder-by-folder order part.
const SEPARATORS = ['-', '_', '.', ' ', '-', '_'];

// Scripts people name files in, either side of the UTF-16/UTF-8 order boundary:
// U+E000..U+FFFF (private use, fullwidth U+FF21, U+FFFD) sort after surrogate pairs in
// UTF-16 but before astral characters (emoji) in UTF-8.
const UNICODE_POOL = [
  ...'abcdefghijklmnopqrstuvwxyz0123456789', ...'éèêëàâäçîïôöùûüñßøåæœÉÀÇÑÖÜ',
  ...'日本語中文字東京北京漢字学校会社', ...'한국어서울데이터', ...'テストカタカナひらがな', ...'абвгдежз',
  '😀', '🚀', '🎉', '🐍', '📁', '𝔘', '𝄞', '🀄', '\u{1F1EF}\u{1F1F5}', '\u{10FFFD}',
  ...' -_.,;+=&@!$()~', '\uD7FF', '\uE000', '\uE123', '\uF8FF', '\uFF21', '\uFF41', '\uFF10', '\uFFFD',
];

// Hex digits from 32 random bits at a time, through one buffer: the generator's hot path
// (a million hashes and UUIDs), made without a string per four bytes.
const HEXBUF = Buffer.alloc(64);
function hex(r, n) {
  const bytes = (n + 1) >> 1;
  if (bytes > HEXBUF.length) return hex(r, 128) + hex(r, n - 128);
  for (let i = 0; i < bytes; i += 4) HEXBUF.writeUInt32LE(floor(r.next() * 4294967296), i);
  const s = HEXBUF.toString('hex', 0, bytes);
  return n & 1 ? s.slice(0, n) : s;
}

// A version-4 UUID, written into one buffer (one flat string, little garbage).
const UUIDBUF = Buffer.alloc(36);
const HEXCODE = Buffer.from(HEX, 'latin1');
function uuid(r) {
  let j = 0;
  for (let w = 0; w < 4; w++) {
    let v = floor(r.next() * 4294967296);
    for (let n = 0; n < 8; n++, v >>>= 4) {
      if (j === 8 || j === 13 || j === 18 || j === 23) UUIDBUF[j++] = 45; // '-'
      UUIDBUF[j++] = HEXCODE[v & 15];
    }
  }
  UUIDBUF[14] = 52; // version 4
  UUIDBUF[19] = HEXCODE[8 + (UUIDBUF[19] & 3)]; // variant 10xx
  return UUIDBUF.toString('latin1');
}

function word(r, alphabet, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[r.int(alphabet.length)];
  return s;
}

// k distinct values of make() (the maker's space is sized so that they exist). `bits`: the
// random bits in each value; from 96 up, two of a million collide with a chance below 1e-16,
// and a set of a million names (a second, most of it garbage collection) is not worth that.
function distinct(k, make, bits = 0) {
  if (bits >= 96) return Array.from({ length: k }, (_, i) => make(i));
  const out = new Set();
  for (let tries = 0; out.size < k && tries < k * 20 + 100; tries++) out.add(make(out.size));
  if (out.size < k) throw new Error(`name space too small for ${k} names`);
  return [...out];
}

// k of the n values 0..n-1 (n small enough to list), in random order.
function sampleIndexes(r, n, k) {
  const all = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) { const j = i + r.int(n - i); [all[i], all[j]] = [all[j], all[i]]; }
  return all.slice(0, k);
}

// --- makers: { text, make(r, k, room) -> k distinct names } (room: bytes the name may take)

// Random hex of a width; widened where k would not fit. A width of 1 to 4 lists every
// shard name (ab/, 0f/): the hashed-prefix layouts.
function hexNames(width, ext = '') {
  return {
    text: `hex${width}${ext}`,
    make(r, k) {
      let w = width;
      while (16 ** w < k) w++;
      if (w <= 4 && k > 16 ** w / 8) return sampleIndexes(r, 16 ** w, k).map((v) => v.toString(16).padStart(w, '0') + ext);
      return distinct(k, () => hex(r, w) + ext, 4 * w);
    },
  };
}

// Numbers from a start, zero-padded or not ("10" before "9" when not), with a stem and
// an extension; gaps between numbers when `sparse`.
function numberNames({ padded = true, width = 0, stem = '', ext = '', start = 0, sparse = false } = {}) {
  return {
    text: `${stem}{n${padded ? ' 0-padded' : ''}${sparse ? ', gaps' : ''}}${ext}`,
    make(r, k) {
      const out = new Array(k);
      let n = start;
      const last = start + (sparse ? k * 3 : k);
      const w = padded ? Math.max(width, String(last).length) : 0;
      for (let i = 0; i < k; i++) {
        out[i] = `${stem}${w ? pad(n, w) : n}${ext}`;
        n += sparse ? 1 + r.int(5) : 1;
      }
      return out;
    },
  };
}

function uuidNames(ext = '') {
  return { text: `uuid${ext}`, make: (r, k) => distinct(k, () => uuid(r) + ext, 122) };
}

// Lowercase words: one word while they last, then word<sep>word or word<sep>number.
function wordNames(ext = '') {
  return {
    text: `words${ext}`,
    make(r, k) {
      return distinct(k, (i) => {
        const w = WORDS[r.int(WORDS.length)];
        if (i < WORDS.length / 3 && r.next() < 0.7) return w + ext;
        const sep = SEPARATORS[r.int(SEPARATORS.length)];
        return (r.next() < 0.5 ? `${w}${sep}${WORDS[r.int(WORDS.length)]}` : `${w}${sep}${r.int(k * 4 + 10)}`) + ext;
      });
    },
  };
}

// Lowercase random words of a length (user names, short ids).
function letterNames(min, max, ext = '') {
  return {
    text: `letters${min}-${max}${ext}`,
    make(r, k) {
      let lo = min;
      while (26 ** Math.min(lo, 8) < k * 4) lo++;
      return distinct(k, () => word(r, LOWER, lo + r.int(Math.max(1, max - lo + 1))) + ext);
    },
  };
}

function unicodeNames(ext = '') {
  return {
    text: `mixed scripts${ext}`,
    make(r, k) {
      const min = k > 5000 ? 5 : 1;
      return distinct(k, () => {
        let s = '';
        const n = min + r.int(11);
        for (let i = 0; i < n; i++) s += UNICODE_POOL[r.int(UNICODE_POOL.length)];
        return s + ext;
      });
    },
  };
}

// Segments of about `bytes` UTF-8 bytes (capped by the room left in the key): a stem shared
// by all siblings (long generated file names) or none, then a distinct tail.
function longNames(bytes = 200, { shared = true, ext = '' } = {}) {
  return {
    text: `${bytes}-byte${shared ? ' shared-stem' : ''} names${ext}`,
    pools: new Map(),
    make(r, k, room = 1024) {
      const pools = this.pools;
      const size = Math.max(32, Math.min(bytes, room - 1));
      const tail = 24; // 96 random bits: distinct without a set
      const stemOf = () => {
        let s = '', n = 0;
        while (n < size - tail - ext.length - 4) {
          const c = r.next() < 0.1 ? UNICODE_POOL[r.int(UNICODE_POOL.length)] : LOWER[r.int(26)];
          s += c;
          n += c.length === 1 && c.charCodeAt(0) < 0x80 ? 1 : utf8len(c);
        }
        return s;
      };
      // Shared: one stem, names differ at its end. Not shared: names differ from their first
      // byte (the random part first), then one of a few stems.
      // The few stems are drawn once per maker and size, not per folder.
      let stems = shared ? [stemOf()] : pools.get(size);
      if (!stems) pools.set(size, stems = Array.from({ length: 64 }, stemOf));
      return distinct(k, () => {
        const s = shared ? stems[0] + hex(r, tail) + ext : hex(r, tail) + stems[r.int(64)] + ext;
        // Fill to the exact size with ASCII, so every segment is `size` bytes.
        const n = utf8len(s);
        return n < size ? s + 'x'.repeat(size - n) : s;
      }, 4 * tail);
    },
  };
}

// Consecutive days from a start, as YYYY-MM-DD, YYYYMMDD or YYYY/MM/DD (three levels in
// one name: every name has the same depth, so no name is a folder of another).
const DATE_FORMATS = {
  dashed: (d) => d.toISOString().slice(0, 10),
  compact: (d) => d.toISOString().slice(0, 10).replace(/-/g, ''),
  nested: (d) => d.toISOString().slice(0, 10).replace(/-/g, '/'),
};
function dateNames(format = 'dashed', { kv = null, startYear = 2019 } = {}) {
  return {
    text: `${kv ? `${kv}=` : ''}${format} dates`,
    levels: format === 'nested' ? 3 : 1,
    make(r, k) {
      const start = Date.UTC(startYear + r.int(6), r.int(12), 1 + r.int(28));
      return Array.from({ length: k }, (_, i) => {
        const s = DATE_FORMATS[format](new Date(start + i * 86400000));
        return kv ? `${kv}=${s}` : s;
      });
    },
  };
}

// Hive partition folders: name=value, the values from another maker.
function kvNames(name, inner) {
  return { text: `${name}=<${inner.text}>`, max: inner.max, make: (r, k, room) => inner.make(r, k, room - name.length - 1).map((v) => `${name}=${v}`) };
}

// A fixed list of names (environments, regions, hours), as many as asked for (at most all).
function fixedNames(list, text = list.slice(0, 3).join(',')) {
  return { text, make: (r, k) => list.slice(0, Math.min(k, list.length)), max: list.length };
}

const EXTENSIONS = ['', '.json', '.gz', '.parquet', '.jpg', '.csv', '.log', '.txt', '.bin', '.json.gz', '.png', '.avro'];

module.exports = {
  WORDS, UNICODE_POOL, EXTENSIONS, pad, hex, uuid, utf8len, distinct,
  hexNames, numberNames, uuidNames, wordNames, letterNames, unicodeNames, longNames, dateNames, kvNames, fixedNames,
};
