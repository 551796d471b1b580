'use strict';
// Reading a bench script's command line: opt(name, default) is the word after name;
// num(name, default) that word as a number, exiting 2 with one line where it is not one.
function options(argv) {
  const opt = (name, d) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : d; };
  const num = (name, d) => {
    const v = opt(name, undefined);
    if (v === undefined) return d;
    if (!/^\d+(e\d+)?$/.test(v)) { console.error(`${name} takes a number, not ${v}`); process.exit(2); }
    return +v;
  };
  return { opt, num };
}

module.exports = { options };
