'use strict';
// The lower bound of round trips for a directory bucket (test/helpers/directory-bounds.js,
// which bench/sim-directory.js reports beside each listing) against every plan of small
// drawn trees, enumerated here: each directory reached is swept or walked; a plan's requests
// are its pages, its chain the longest run of round trips one after another; the bound must
// be the best max(chain, ceil(requests / concurrency)) over all plans.
const { directoryBounds } = require('../helpers/directory-bounds');
const { prng } = require('../generators/prng');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`directory-bounds seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

// A small tree: up to about 7 directories, keys directly in each (some in the root).
function drawKeys(r) {
  const dirs = [''];
  for (let i = 0, n = 1 + r.int(6); i < n; i++) dirs.push(`${r.pick(dirs)}d${i}/`);
  const keys = [];
  for (const d of dirs) for (let j = 0, n = r.int(4) === 0 ? 0 : r.int(9); j < n; j++) keys.push(`${d}k${j}`);
  return keys.length ? keys : ['only'];
}

// Every plan's (requests, chain): a directory swept is one chain of its subtree's pages; a
// directory walked costs its entries' pages, and its subdirectories start after the first.
function plans(keys, page) {
  const tree = new Map();
  const node = (d) => { if (!tree.has(d)) tree.set(d, { direct: 0, subtree: 0, subs: new Set() }); return tree.get(d); };
  for (const k of keys) {
    const parts = k.split('/');
    let d = '';
    node('').subtree++;
    for (let i = 0; i < parts.length - 1; i++) { const c = `${d}${parts[i]}/`; node(d).subs.add(c); node(c).subtree++; d = c; }
    node(d).direct++;
  }
  const of = (d) => {
    const x = tree.get(d);
    const sweep = Math.max(1, Math.ceil(x.subtree / page));
    const walk = Math.max(1, Math.ceil((x.direct + x.subs.size) / page));
    let combos = [{ requests: walk, chain: 0 }];
    for (const c of x.subs) combos = combos.flatMap((a) => of(c).map((b) => ({ requests: a.requests + b.requests, chain: Math.max(a.chain, b.chain) })));
    return [{ requests: sweep, chain: sweep }, ...combos.map((a) => ({ requests: a.requests, chain: x.subs.size ? Math.max(walk, 1 + a.chain) : walk }))];
  };
  return of('');
}

test.each(Array.from({ length: 30 }, (_, i) => SEED + i))('drawn tree, seed %i: the bound is the best plan', (seed) => {
  const r = prng(seed);
  const keys = drawKeys(r);
  const page = 1 + r.int(4);
  const concurrency = 1 + r.int(3);
  const best = Math.min(...plans(keys, page).map((p) => Math.max(p.chain, Math.ceil(p.requests / concurrency))));
  expect({ keys, page, concurrency, rounds: directoryBounds(keys, { page, concurrency }).rounds }).toEqual({ keys, page, concurrency, rounds: best });
});

test('a folder of many small folders: a request per folder or one serial sweep', () => {
  const keys = Array.from({ length: 200000 }, (_, i) => `d${i % 12473}/${i}`);
  // 12,473 folders walked (125 rounds at 100 at once) beat one sweep of 200 pages.
  expect(directoryBounds(keys, { concurrency: 100 })).toEqual({ rounds: 125, chain: 13, requests: 12486 });
  expect(directoryBounds(keys, { concurrency: 10 })).toEqual({ rounds: 200, chain: 200, requests: 200 });
});
