#!/usr/bin/env node
import '../dist/harness/cli/main.js';
