'use strict';
// "js:" options: JavaScript the user wrote on their own command line, compiled once.
// Only ever called on option values the user typed; never on keys, metadata or journals.
const vm = require('vm');
const { UsageError } = require('./errors');

// Cross-realm safe (the vm context may differ from the caller's, e.g. under jest).
const isRegExp = (v) => Object.prototype.toString.call(v) === '[object RegExp]';

function compileJs(text, optionName, { expectRegExp = false } = {}) {
  if (typeof text === 'function' || isRegExp(text)) return text;
  if (typeof text !== 'string' || !text.startsWith('js:')) return null;
  const src = text.slice(3).trim();
  let value;
  try {
    value = vm.runInThisContext(`(${src}\n)`, { filename: `${optionName} js: function` });
  } catch (err) {
    throw new UsageError(`${optionName}: cannot parse the js: ${expectRegExp ? 'expression' : 'function'}: ${err.message.split('\n')[0]}`);
  }
  if (expectRegExp && isRegExp(value)) return value;
  if (typeof value !== 'function') {
    throw new UsageError(`${optionName}: the js: expression is ${value === null ? 'null' : typeof value}, not a ${expectRegExp ? 'regular expression' : 'function'}`);
  }
  return value;
}

// A user function as an option: "js:..." text or a function from the library API.
function userFunction(value, optionName) {
  if (value === undefined || value === null) return null;
  if (typeof value === 'function') return value;
  const fn = compileJs(value, optionName);
  if (!fn) throw new UsageError(`${optionName} must be a js: function, e.g. "js:(item) => ..."`);
  return fn;
}

// --pattern: a substring, or "js:/regexp/flags", or a RegExp from the library API.
function keyMatcher(pattern) {
  if (pattern === undefined || pattern === null || pattern === '') return null;
  if (isRegExp(pattern)) return (key) => { pattern.lastIndex = 0; return pattern.test(key); };
  if (typeof pattern === 'string' && pattern.startsWith('js:')) {
    const re = compileJs(pattern, '--pattern', { expectRegExp: true });
    if (!isRegExp(re)) throw new UsageError('--pattern: a js: pattern must be a regular expression such as js:/\\.gz$/i');
    return (key) => { re.lastIndex = 0; return re.test(key); };
  }
  if (typeof pattern !== 'string') throw new UsageError('--pattern must be a string or a regular expression');
  return (key) => key.includes(pattern);
}

module.exports = { compileJs, userFunction, keyMatcher };
