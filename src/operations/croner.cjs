'use strict';
// croner, required as CommonJS: bundled so, its code stays inside one function that runs only when a
// scan schedule is checked or shown. Imported as an ES module, esbuild hoists its ~20 functions to the
// top level of dist/svc.cjs, and every call (`svc issues search` too) paid for them at start-up
// (~0.25 M instructions: each function there is an object of the code cache to read, and a closure).
module.exports = require('croner');
