'use strict';
// Unit tests mock the SDK; the lean request paths bypass it and would try the network.
process.env.S3BLITZ_FAST_PATHS = '0';
