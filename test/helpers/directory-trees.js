'use strict';
// Directory trees drawn from a seeded generator, for directory-bucket tests (unit and
// integration).

// Names of one alphabet per tree: digits, lower-case words, mixed scripts.
const ALPHABETS = [[...'0123456789'], [...'abcdefghijklmnopqrstuvwxyz'], [...'aZ09-_.~ éü中文😀\uE000\uFFFD!']];
function name(r, abc) {
  let s = '';
  for (let n = 1 + r.int(6); n > 0; n--) s += r.pick(abc);
  return s;
}

// A tree: depth 1-5, a fan-out drawn per directory (often one hot child), files beside
// folders, and neighbours of folder names ("s", "s.x", "s0" beside "s/"); one key at least.
function drawTree(r) {
  const abc = r.pick(ALPHABETS);
  const depth = 1 + r.int(5);
  const keys = new Set();
  const walk = (dir, level) => {
    const files = r.next() < 0.3 ? r.int(3) : r.int(r.next() < 0.2 ? 2500 : 60);
    for (let i = 0; i < files; i++) keys.add(dir + name(r, abc) + (r.next() < 0.5 ? `.${r.int(100)}` : ''));
    if (level >= depth) return;
    const subs = r.next() < 0.3 ? 1 : r.int(level === 0 ? 12 : 5);
    for (let i = 0; i < subs; i++) {
      const s = name(r, abc);
      if (r.next() < 0.3) for (const near of [s, `${s}.x`, `${s}0`, `${s}-`]) keys.add(dir + near);
      walk(`${dir}${s}/`, level + 1);
    }
  };
  walk('', 0);
  // A tree holds something: callers name its first key (the draw can leave every level empty).
  if (!keys.size) keys.add(name(r, abc));
  return [...keys];
}

module.exports = { drawTree, name, ALPHABETS };
