'use strict';
// Wildcards, as s5cmd reads them in s3:// paths and aws-cli reads --include / --exclude.
// In a path, '*' matches any run of characters ('/' included) and '?' one character; the
// listing starts from the longest literal prefix before the first wildcard. In
// --include / --exclude, '[seq]' and '[!seq]' match one character of (not of) seq too.

const { UsageError } = require('../errors');

const WILDCARD = /[*?]/;

function hasWildcard(path) {
  return WILDCARD.test(path);
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// The regular expression source of a glob (not anchored).
function globSource(glob, { classes = false } = {}) {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') out += '[\\s\\S]*';
    else if (c === '?') out += '[\\s\\S]';
    else if (c === '[' && classes) {
      // A "]" first in the set (after "[" or "[!") is a member, as in fnmatch.
      const end = glob.indexOf(']', i + (glob[i + 1] === '!' ? 3 : 2));
      if (end < 0) { out += '\\['; continue; }
      let body = glob.slice(i + 1, end);
      const negate = body[0] === '!';
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else out += escapeRe(c);
  }
  return out;
}

function globRegExp(glob, opts) {
  return new RegExp(`^${globSource(glob, opts)}$`, 'u');
}

/**
 * A path of an s3:// URL with wildcards: the listing prefix (the literal text before the
 * first wildcard), the folder it lies in (the mapping base: keys keep what follows it),
 * and a test of a whole key.
 */
function pathGlob(path) {
  const first = path.search(WILDCARD);
  if (first < 0) return null;
  const prefix = path.slice(0, first);
  const base = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  const re = globRegExp(path);
  return { prefix, base, pattern: path, test: (key) => re.test(key) };
}

/**
 * --include / --exclude, aws-cli's way: every key is included to begin with; the rules are
 * read in the order given and the last one that matches decides. A rule matches the key's
 * path relative to the source folder.
 * @param rules [{include: glob} | {exclude: glob}, ...]
 * @returns null when there are none, else (relativeKey) => boolean
 */
function pathFilter(rules) {
  if (!rules || !rules.length) return null;
  const compiled = rules.map((r) => {
    const include = r.include !== undefined;
    const glob = include ? r.include : r.exclude;
    if (typeof glob !== 'string' || glob === '') throw new UsageError('--include / --exclude: each rule is {include: "glob"} or {exclude: "glob"} with a non-empty glob');
    return { include, re: globRegExp(glob, { classes: true }) };
  });
  return (rel) => {
    let keep = true;
    for (const r of compiled) if (r.re.test(rel)) keep = r.include;
    return keep;
  };
}

module.exports = { hasWildcard, globRegExp, pathGlob, pathFilter };
