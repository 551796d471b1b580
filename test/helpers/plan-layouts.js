'use strict';
// More key layouts, for shard plans only (bench/layouts.js holds the ones the lister and the
// benchmark run on too). Each is generate(count, seed) -> keys (unsorted, unique),
// deterministic for a seed. They are here so that plan balance is checked on shapes the
// planner was not written against: skewed volumes under date folders, numbers without
// padding, folders of very different sizes, a tree whose first levels are narrow.
const { prng } = require('./keysets');

const rng = (seed) => prng(seed * 40503 + 17);
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz';
const pad = (n, w) => String(n).padStart(w, '0');
const word = (r, n, alphabet = ALNUM) => { let s = ''; for (let i = 0; i < n; i++) s += alphabet[r.int(alphabet.length)]; return s; };

function fill(count, make) {
  const out = new Set();
  for (let guard = 0; out.size < count && guard < count * 4; guard++) out.add(make(out.size));
  return [...out];
}

// Picks an index of weights (cumulative, ascending) for a uniform u in [0, total).
function pickWeighted(cum, u) {
  let lo = 0, hi = cum.length - 1;
  while (lo < hi) { const m = (lo + hi) >> 1; if (cum[m] <= u) lo = m + 1; else hi = m; }
  return lo;
}

const PLAN_LAYOUTS = {
  // Base64url hashes under YYYY/MM/DD folders over two years, the daily volume growing
  // fivefold and weekends at a third.
  datehash: (count, seed) => {
    const r = rng(seed);
    const days = 730, start = Date.UTC(2023, 0, 1);
    const cum = [];
    let t = 0;
    for (let d = 0; d < days; d++) {
      const dow = new Date(start + d * 86400000).getUTCDay();
      t += (1 + 4 * d / days) * (dow === 0 || dow === 6 ? 0.33 : 1);
      cum.push(t);
    }
    return fill(count, () => {
      const d = pickWeighted(cum, r.next() * t);
      return `${new Date(start + d * 86400000).toISOString().slice(0, 10).replace(/-/g, '/')}/${word(r, 22, B64)}.bin`;
    });
  },

  // Numeric ids without padding from 1 up (so "10" sorts before "9"), a few with a suffix.
  numeric: (count, seed) => {
    const r = rng(seed);
    const ext = ['.json', '.json', '.json', '.xml'];
    return Array.from({ length: count }, (_, i) => `orders/${i + 1}${r.pick(ext)}`);
  },

  // Tenants' folders of log-normally spread sizes (a few hundred tenants, the largest
  // holding a few percent), each a flat folder of uuids.
  tenants: (count, seed) => {
    const r = rng(seed);
    const n = 300;
    const names = fill(n, () => word(r, 3 + r.int(10)));
    const cum = [];
    let t = 0;
    for (let i = 0; i < n; i++) {
      const g = Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
      t += Math.exp(1.0 * g);
      cum.push(t);
    }
    return fill(count, () => {
      const i = pickWeighted(cum, r.next() * t);
      const u = word(r, 32, '0123456789abcdef');
      return `tenants/${names[i]}/${u.slice(0, 8)}-${u.slice(8, 12)}-${u.slice(12, 16)}-${u.slice(16, 20)}-${u.slice(20)}.json`;
    });
  },

  // A tree narrow at the top: environments (production holding most), regions and services,
  // then days and numbered parts.
  envtree: (count, seed) => {
    const r = rng(seed);
    const envs = [['prod', 0.8], ['staging', 0.15], ['dev', 0.05]];
    const regions = ['eu-west-1', 'us-east-1', 'ap-south-1'];
    const services = ['api', 'auth', 'billing', 'search', 'web'];
    return fill(count, () => {
      const x = r.next();
      const env = x < envs[0][1] ? envs[0][0] : x < envs[0][1] + envs[1][1] ? envs[1][0] : envs[2][0];
      const day = r.int(120);
      const date = new Date(Date.UTC(2024, 0, 1) + day * 86400000).toISOString().slice(0, 10);
      return `${env}/${r.pick(regions)}/${r.pick(services)}/${date}/part-${pad(r.int(100000), 6)}.log`;
    });
  },
};

module.exports = { PLAN_LAYOUTS };
