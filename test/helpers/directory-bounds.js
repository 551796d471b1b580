'use strict';
// The fewest round trips any lister could list a directory bucket's keys in (issue 32): a
// lower bound, to tell what the API costs a layout from what a lister wastes. A directory is
// either swept (its whole subtree in one serial listing: ceil(keys / page) pages one after
// another) or walked (its keys and subdirectories: ceil(entries / page) pages, its
// subdirectories started no sooner than the answer to the first). With F(d, L) the fewest
// requests that list d's subtree within a chain of L round trips,
//   F(d, L) = min(sweep(d) if sweep(d) <= L, walk(d) + sum over children c of F(c, L - 1)
//                 if walk(d) <= L),
// a lister with `concurrency` requests at once takes at least
//   min over L of max(L, ceil(F(root, L) / concurrency)) rounds.
// (Optimistic: a walk's first page names every subdirectory, and requests pack perfectly.)
const { depthOf } = require('../../src/keys/depth');

function directoryBounds(keys, { page = 1000, concurrency = 100 } = {}) {
  const index = new Map(); // dir -> its number
  const dirs = []; // {direct, subtree, subs: Set of numbers, depth}
  const at = (d) => {
    let i = index.get(d);
    if (i === undefined) { i = dirs.length; index.set(d, i); dirs.push({ direct: 0, subtree: 0, subs: new Set(), depth: depthOf(d) }); }
    return i;
  };
  for (const k of keys) {
    let parent = at('');
    dirs[parent].subtree++;
    for (let s = k.indexOf('/'); s >= 0; s = k.indexOf('/', s + 1)) {
      const dir = at(k.slice(0, s + 1));
      dirs[parent].subs.add(dir);
      dirs[dir].subtree++;
      parent = dir;
    }
    dirs[parent].direct++;
  }
  const order = dirs.map((_, i) => i).sort((a, b) => dirs[b].depth - dirs[a].depth); // children first
  const sweep = dirs.map((x) => Math.max(1, Math.ceil(x.subtree / page)));
  const walk = dirs.map((x) => Math.max(1, Math.ceil((x.direct + x.subs.size) / page)));
  const subs = dirs.map((x) => [...x.subs]);
  let prev = new Float64Array(dirs.length).fill(Infinity); // F(., L - 1); nothing lists in 0
  let best = { rounds: Infinity, chain: null, requests: null };
  for (let L = 1; L < best.rounds && L <= sweep[0]; L++) {
    const f = new Float64Array(dirs.length);
    for (const d of order) {
      let w = Infinity;
      if (walk[d] <= L) { w = walk[d]; for (const c of subs[d]) w += prev[c]; }
      f[d] = Math.min(sweep[d] <= L ? sweep[d] : Infinity, w);
    }
    const rounds = Math.max(L, Math.ceil(f[0] / concurrency));
    if (rounds < best.rounds) best = { rounds, chain: L, requests: f[0] };
    prev = f;
  }
  return best;
}

module.exports = { directoryBounds };
