'use strict';
// Target keys. By default the target path followed by what follows the source path in
// the source key (s3://a/x/ to s3://b/y/ maps x/k to y/k). --to-prefix replaces the
// source prefix, --add-prefix prepends to the whole source key, and --to-key maps the
// whole source key with the user's function.
const { keyProblem } = require('../keys/order');
const { userFunction } = require('../js-function');
const { UsageError } = require('../errors');
const { ObjectError } = require('./outcome');

/**
 * @param o {sourcePrefix, targetPrefix (from the target URL), toPrefix, addPrefix, toKey}
 * @returns {map(key) -> targetKey (throws ObjectError per key), injective, identity}
 */
function createKeyMapper({ sourcePrefix = '', targetPrefix = '', toPrefix, addPrefix, toKey, single }) {
  const fn = userFunction(toKey, '--to-key');
  if (single && single.targetKey !== undefined && !fn && !toPrefix && !addPrefix) return singleMapper(single);
  const given = [['a target path', targetPrefix], ['--to-prefix', toPrefix], ['--add-prefix', addPrefix]].filter(([, v]) => v !== undefined && v !== '');
  if (fn && given.length) throw new UsageError(`--to-key cannot be combined with ${given.map(([n]) => n).join(' or ')}`);
  if (given.length > 1) throw new UsageError(`${given.map(([n]) => n).join(' and ')} cannot be combined: give one`);
  if (fn) {
    return {
      injective: false,
      identity: false,
      orderPreserving: false,
      map(key) {
        let out;
        try { out = fn(key); } catch (err) { throw new ObjectError('failed', `--to-key threw: ${err && err.message}`); }
        const problem = keyProblem(out) || badJoin(key, out);
        if (problem) throw new ObjectError('failed', `--to-key returned an invalid key (${problem})`);
        return out;
      },
    };
  }
  const check = (out, key) => {
    const problem = keyProblem(out) || badJoin(key, out);
    if (problem) throw new ObjectError('failed', `target key ${JSON.stringify(out.slice(0, 80))} is invalid (${problem})`);
    return out;
  };
  if (addPrefix) {
    return { injective: true, identity: false, orderPreserving: true, mapPrefix: (p) => addPrefix + p, unmapPrefix: (t) => t.slice(addPrefix.length), map: (key) => check(addPrefix + key, key) };
  }
  const dstPrefix = toPrefix !== undefined && toPrefix !== '' ? toPrefix : targetPrefix;
  const n = sourcePrefix.length;
  return {
    injective: true,
    identity: dstPrefix === sourcePrefix,
    orderPreserving: true,
    mapPrefix: (p) => dstPrefix + p.slice(n),
    unmapPrefix: (t) => sourcePrefix + t.slice(dstPrefix.length),
    map: (key) => (dstPrefix === sourcePrefix ? key : check(dstPrefix + key.slice(n), key)),
  };
}

// A key that starts with "/" or holds "//" where its source key has none is never written:
// it is almost always a path joined twice, and local file systems cannot hold it.
function badJoin(from, to) {
  if (to.startsWith('/') && !from.startsWith('/')) return 'it would start with "/"';
  if (to.includes('//') && !from.includes('//')) return 'it would hold "//"';
  return null;
}

// One object to one target key.
function singleMapper({ key, targetKey }) {
  const problem = keyProblem(targetKey);
  if (problem) throw new UsageError(`target key ${JSON.stringify(targetKey)} is invalid (${problem})`);
  return {
    injective: true, identity: key === targetKey, orderPreserving: true, single: true,
    map(k) {
      if (k !== key) throw new ObjectError('failed', `not the object asked for (${JSON.stringify(key)})`);
      return targetKey;
    },
  };
}

module.exports = { createKeyMapper, badJoin };
