'use strict';
// The compatibility suite (test/helpers/compat-suite.js) against s3proxy, which lists in
// UTF-16 order (s3blitz finds out and sorts on disk) and cannot list keys with control
// characters: its continuation token is the last key as raw XML, which then does not
// parse. Those keys are left out of the main set and tested on their own.
const { compatSuite } = require('../helpers/compat-suite');

const CONTROL = /[\u0001-\u001f\u007f]/;
compatSuite('s3proxy', { keep: (key) => !CONTROL.test(key), controlKeysListed: false });
