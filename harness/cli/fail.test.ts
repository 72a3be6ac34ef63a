import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RuntimeOptionError } from '../../runtimes/seam/options.js';
import { Host } from '../../test/host-requirements.js';
import { InputError } from '../scenario/error.js';
import { UserError } from '../user-error.js';
import { describeFailure } from './fail.js';

let dir = '';
afterEach(async () => {
  spawnSync('chattr', ['-i', join(dir, 'locked')]);
  await rm(dir, { recursive: true, force: true });
});

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('expected a failure'),
    (error: unknown) => error,
  );

const chattr = await Host.with('chattr');

describe('a failure ends in one line with the path and the fix', () => {
  it('for file-system errors the machine really raises', async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-fail-'));
    const isDir = describeFailure(await caught(writeFile(dir, 'x')));
    expect(isDir).toEqual({
      exit: 2,
      message: `${dir} is a folder where a file is expected (EISDIR on open)\n  hint: move the folder away or name a file`,
    });
    // Node names no path for some calls: the line still says what and how to fix it.
    expect(describeFailure(await caught(readFile(dir)))).toEqual({
      exit: 2,
      message: 'EISDIR: illegal operation on a directory, read\n  hint: move the folder away or name a file',
    });
  });

  chattr.it('for a folder nobody may write to, not even root', {}, async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-fail-'));
    await mkdir(join(dir, 'locked'));
    expect(spawnSync('chattr', ['+i', join(dir, 'locked')]).status).toBe(0);
    const denied = describeFailure(await caught(writeFile(join(dir, 'locked', 'x.yaml'), 'x')));
    expect(denied.exit).toBe(1);
    expect(denied.message).toBe(
      `${join(dir, 'locked', 'x.yaml')} cannot be changed: operation not permitted (EPERM on open)\n  hint: check its permissions and attributes (chattr, chmod), or run from a copy you own`,
    );
  });

  it('for a full disk and a read-only file system', () => {
    const errno = (code: string) =>
      Object.assign(new Error(`${code}: boom`), { code, path: '/p/snapshots/x.yaml', syscall: 'write' });
    expect(describeFailure(errno('ENOSPC'))).toEqual({
      exit: 1,
      message:
        '/p/snapshots/x.yaml cannot be written: no space left on the device (ENOSPC on write)\n  hint: free some disk space and run again',
    });
    expect(describeFailure(errno('EROFS')).message).toBe(
      '/p/snapshots/x.yaml is on a read-only file system (EROFS on write)\n  hint: run from a writable checkout, or set CI so nothing under snapshots/ is written',
    );
    expect(describeFailure(errno('EACCES')).exit).toBe(1);
  });

  it('for anything else, pointing at --debug for the stack', () => {
    expect(describeFailure(new TypeError('x is not a function'))).toEqual({
      exit: 1,
      message: 'x is not a function (run with --debug for the stack)',
    });
  });

  it('for what the user can fix: the place, the problem and the hint, exit 2 unless it says 1', () => {
    expect(
      describeFailure(new InputError('/p/scenarios/a.yml', 3, 7, 'unknown key "runtimez"', 'did you mean runtimes?')),
    ).toEqual({
      exit: 2,
      message: '/p/scenarios/a.yml:3:7: unknown key "runtimez"\n  hint: did you mean runtimes?',
    });
    expect(describeFailure(new UserError('--live-fail goes with --live'))).toEqual({
      exit: 2,
      message: '--live-fail goes with --live',
    });
    expect(
      describeFailure(
        new UserError('the model stopped answering; nothing was written', {
          exitCode: 1,
          place: { file: 'x.yml', line: 2 },
        }),
      ),
    ).toEqual({
      exit: 1,
      message: 'x.yml:2: the model stopped answering; nothing was written',
    });
  });

  it('for a runtime option out of bounds: bad usage, exit 2', () => {
    expect(describeFailure(new RuntimeOptionError('timeoutMs must be an integer from 1 to 3600000, got 0'))).toEqual({
      exit: 2,
      message: 'timeoutMs must be an integer from 1 to 3600000, got 0',
    });
  });

  it('for several failures at once (stopping what a run started), each of them, nested ones too', () => {
    const runtimes = new AggregateError(
      [new Error('the container concord-cpython:3.9 did not stop: timed out')],
      'disposing shared code runtimes failed',
    );
    const both = new AggregateError(
      [runtimes, new Error('the Pyodide 3.13 checker did not exit')],
      'stopping the session failed',
    );
    expect(describeFailure(both)).toEqual({
      exit: 1,
      message:
        'stopping the session failed: disposing shared code runtimes failed: the container concord-cpython:3.9 did not stop: timed out; the Pyodide 3.13 checker did not exit (run with --debug for the stack)',
    });
  });

  it('by its type, never by its text: a bug whose message starts with -- is still a bug', () => {
    expect(describeFailure(new Error('--runtime x: this text proves nothing'))).toEqual({
      exit: 1,
      message: '--runtime x: this text proves nothing (run with --debug for the stack)',
    });
  });
});
