import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { builtModule } from '../../runtimes/seam/package-root.js';
import { killProcessGroup } from '../test/process-group.js';

// A command's watchdog must handle Ctrl-C before the command runs anything that may never yield: a SIGINT that
// meets a watchdog still starting ends the watchdog alone, and the spinning command lives on.

// What a command does: handle Ctrl-C itself, start its watchdog, then run a plugin that loops without end (its own
// handler never gets to run).
const COMMAND = `const { startWatchdog } = await import(process.argv[2]);
process.on('SIGINT', () => process.exit(130));
await startWatchdog('spin');
process.stdout.write('spinning\\n');
for (;;) {}
`;

let root = '';
let child: ChildProcess | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-watchdog-'));
});
afterEach(async () => {
  killProcessGroup(child);
  await rm(root, { recursive: true, force: true });
});

it('a command runs on only once its watchdog handles Ctrl-C: a SIGINT the moment it spins still ends it', {
  timeout: 60_000,
}, async () => {
  const script = join(root, 'command.mjs');
  await writeFile(script, COMMAND);
  const watchdog = pathToFileURL(builtModule('harness/cli/watchdog.ts')).href;
  child = spawn(process.execPath, [script, watchdog], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const spinning = new Promise<void>((resolve) =>
    child!.stdout!.on('data', (d: Buffer) => {
      output += d;
      if (output.includes('spinning')) resolve();
    }),
  );
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child!.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  await spinning;
  // At once, as a user who presses Ctrl-C as the command starts.
  process.kill(-child.pid!, 'SIGINT');
  const ended = await Promise.race([
    exited,
    new Promise((resolve) => setTimeout(() => resolve('still spinning'), 30_000)),
  ]);
  expect(ended, output).toBe('SIGKILL');
  expect(output).toContain('concord spin: SIGINT got no answer within 3 s');
});

it('a beat the watchdog reads after Ctrl-C but the command wrote before it does not count as an answer', {
  timeout: 60_000,
}, async () => {
  // The command spins with a handler of its own that never runs: only the watchdog can end it.
  child = spawn(process.execPath, ['-e', "process.on('SIGINT', () => {}); for (;;) {}"], {
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child!.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const watchdog = spawn(
    process.execPath,
    [builtModule('harness/cli/watchdog-process.ts'), String(child.pid), 'spin'],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let said = '';
  watchdog.stderr!.on('data', (d: Buffer) => (said += d));
  await new Promise<void>((resolve) => watchdog.stdout!.once('data', () => resolve()));
  const watchdogExited = new Promise<number | null>((resolve) => watchdog.once('exit', (code) => resolve(code)));
  const before = Date.now();
  process.kill(watchdog.pid!, 'SIGINT');
  // A beat the command wrote before the signal, which a watchdog on a busy machine reads only after it.
  await new Promise((resolve) => setTimeout(resolve, 300));
  watchdog.stdin!.write(`${before - 1}\n`);
  const ended = await Promise.race([
    exited,
    new Promise((resolve) => setTimeout(() => resolve('still spinning'), 30_000)),
  ]);
  // A watchdog that let the command spin on is ended here, not left to the end of the test run.
  if (ended !== 'SIGKILL') watchdog.kill('SIGKILL');
  expect(ended, said).toBe('SIGKILL');
  expect(await watchdogExited).toBe(130);
  expect(said).toContain('concord spin: SIGINT got no answer within 3 s');
});
