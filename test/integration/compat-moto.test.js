'use strict';
// The compatibility suite (test/helpers/compat-suite.js) against moto.
require('../helpers/compat-suite').compatSuite('moto');
