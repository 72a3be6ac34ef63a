import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { Normalizer } from './normalize.js';

describe('portable snapshot paths', () => {
  it('names files inside installed packages by package and subpath, and the project as <root>', () => {
    const root = '/home/ci/backend';
    const text = new Normalizer(root).text(
      [
        `name: ${root}/node_modules/concord/dist/codemode/tools/plugin.js`,
        `name: ${root}/node_modules/@team/tools/dist/plugin.js`,
        `name: ${root}/node_modules/a/node_modules/b/index.js`,
        `name: ${root}/src/plugins/inventory.ts`,
      ].join('\n'),
    );
    expect(text.split('\n')).toEqual([
      'name: concord/dist/codemode/tools/plugin.js',
      'name: @team/tools/dist/plugin.js',
      'name: b/index.js',
      'name: <root>/src/plugins/inventory.ts',
    ]);
  });

  it("names concord's own files `concord/…` when concord lives outside the project", () => {
    const text = new Normalizer('/home/ci/backend').text(`at ${join(packageRoot(), 'dist/harness/model/plugin.js')}`);
    expect(text).toBe('at concord/dist/harness/model/plugin.js');
  });

  it("keeps a project whose folder name starts with concord's install folder name as <root>", () => {
    // concord installed at /…/concord, the project beside it at /…/concord-api.
    const root = packageRoot() + '-api';
    const text = new Normalizer(root).text(`${root}/scenarios/a.yml; ${join(packageRoot(), 'dist/x.js')}; ${root}`);
    expect(text).toBe('<root>/scenarios/a.yml; concord/dist/x.js; <root>');
  });

  it('replaces a folder only at path boundaries, whichever of the two prefixes the other', () => {
    expect(
      new Normalizer('/w/concord-api', '/w/concord').text('/w/concord-api/a /w/concord/b /w/concord /x/w/concord/c'),
    ).toBe('<root>/a concord/b concord /x/w/concord/c');
    expect(
      new Normalizer('/w/concord', '/w/concord-api').text('/w/concord/a /w/concord-api/b /w/concordé/c /w/concord.old'),
    ).toBe('<root>/a concord/b /w/concordé/c /w/concord.old');
  });

  it('keeps <root> for a project inside the temporary folder, and tokens for other temporary paths', () => {
    const root = join(tmpdir(), 'concord-project-x');
    const text = new Normalizer(root).text(
      `${root}/scenarios/a.yml and ${join(tmpdir(), 'concord-assembly-1/cordis.yml')}`,
    );
    expect(text).toBe('<root>/scenarios/a.yml and <tmp-1>');
  });
});
