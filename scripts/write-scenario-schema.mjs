#!/usr/bin/env node
// Writes scenario.schema.json at the package root from the shape the scenario loader checks (run by
// `npm run build`, after tsc). A test fails when the committed file differs from what this writes.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SCENARIO_SCHEMA_FILE, scenarioSchemaText } from '../dist/harness/scenario/schema.js';

await writeFile(fileURLToPath(new URL(`../${SCENARIO_SCHEMA_FILE}`, import.meta.url)), scenarioSchemaText());
