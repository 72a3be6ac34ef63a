import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, expect } from 'vitest';

// What concord owns in the temp dir is named `concord-<kind>-<pid>-…` and removed when it is released, or at the
// latest when its process exits. Test files share a worker process (isolate: false), and vitest ends its
// workers without their exit hooks: a folder a file leaves is never removed by this worker. Every file must
// release what it made: this fails the file that did not, naming the folders.

afterAll(() => {
  const mine = new RegExp(`^concord-[a-z-]+-${process.pid}-`);
  const left = readdirSync(tmpdir()).filter((name) => mine.test(name));
  expect(left, `${expect.getState().testPath} left temp folders of this worker`).toEqual([]);
});
