#!/usr/bin/env node
// The `route-sheets` command: runs the compiled CLI (built by `npm install` through the prepare script).
require("../dist/cli/main.js");
