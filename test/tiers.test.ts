import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../runtimes/seam/package-root.js';

/** What only the end-to-end tier may do: start concord's command line, install the packed tarball, drive a browser. */
const END_TO_END = [
  { what: "starts concord's command line", pattern: /bin\/concord\.mjs|test\/concord-cli\.js/ },
  { what: 'installs the packed tarball', pattern: /test\/packed\.js|inject\('packed'\)/ },
  { what: 'drives a browser', pattern: /Host\.with\('chromium'\)/ },
];

describe('the two test tiers', () => {
  const root = packageRoot();
  const files = ['contract', 'harness', 'codemode', 'runtimes', 'scenarios', 'scripts', 'test'].flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.test.ts') && !path.split('/').includes('node_modules'))
      .map((path) => relative(root, join(root, folder, path))),
  );

  it('keep the unit tier to unit and in-process tests: whatever starts the CLI, installs the tarball or drives a browser is *.e2e.test.ts', () => {
    const misplaced = files
      .filter((file) => !file.endsWith('.e2e.test.ts'))
      .flatMap((file) => {
        const source = readFileSync(join(root, file), 'utf8');
        return END_TO_END.filter(({ pattern }) => pattern.test(source)).map(({ what }) => `${file} ${what}`);
      });
    expect(files.length).toBeGreaterThan(150);
    expect(misplaced).toEqual([]);
  });
});
