import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderDiff } from '../text/diff.js';
import { Normalizer } from './normalize.js';
import { compareFolder, snapshotFolders } from './store.js';

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('snapshot store', () => {
  it('reads only what concord writes: a .DS_Store or a note in a pair folder, or a folder that is no runtime, is not a snapshot', async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-store-'));
    const folder = join(dir, 'demo', 'python');
    await mkdir(folder, { recursive: true });
    await mkdir(join(dir, 'demo', 'notes'));
    await mkdir(join(dir, '.vscode', 'settings'), { recursive: true });
    await writeFile(join(folder, 'cordis.yml'), 'a: 1\n');
    for (const stray of ['.DS_Store', 'NOTES.md', 'tools-sdk.py.orig']) await writeFile(join(folder, stray), 'x');
    const verdicts = await compareFolder(dir, 'demo/python', new Map([['cordis.yml', 'a: 1\n']]));
    expect(verdicts.map((v) => `${v.path} ${v.status}`)).toEqual(['demo/python/cordis.yml same']);
    expect(await snapshotFolders(dir)).toEqual(['demo/python']);
    // A file concord writes that the run no longer produces is still obsolete.
    await writeFile(join(folder, 'tools-sdk.ts'), 'stale\n');
    const again = await compareFolder(dir, 'demo/python', new Map([['cordis.yml', 'a: 1\n']]));
    expect(again.map((v) => `${v.path} ${v.status}`)).toEqual([
      'demo/python/cordis.yml same',
      'demo/python/tools-sdk.ts obsolete',
    ]);
  });

  it('tells same, changed, new, garbage and obsolete files apart, naming garbage', async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-store-'));
    const folder = join(dir, 'demo', 'python');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'cordis.yml'), 'a: 1\n');
    await writeFile(join(folder, 'transcript.yaml'), 'turns:\n  - request: 1\n');
    await writeFile(join(folder, 'run_code.json'), '{"name": "run_code",');
    await writeFile(join(folder, 'tools-sdk.ts'), 'stale\n');
    const files = new Map([
      ['cordis.yml', 'a: 1\n'],
      ['transcript.yaml', 'turns:\n  - request: 2\n'],
      ['run_code.json', '{}\n'],
      ['tools-sdk.py', 'class Tools: pass\n'],
    ]);
    const verdicts = await compareFolder(dir, 'demo/python', files);
    const by = Object.fromEntries(verdicts.map((v) => [v.path, v]));
    expect(by['demo/python/cordis.yml']!.status).toBe('same');
    expect(by['demo/python/transcript.yaml']!.status).toBe('changed');
    expect(renderDiff(by['demo/python/transcript.yaml']!.diff!, false)).toContain(
      '-  - request: 1\n+  - request: 2\n~   - request: [-1-]{+2+}',
    );
    expect(by['demo/python/run_code.json']!.status).toBe('garbage');
    expect(by['demo/python/run_code.json']!.reason).toMatch(
      /^snapshots\/demo\/python\/run_code\.json is not valid JSON/,
    );
    expect(by['demo/python/tools-sdk.py']!.status).toBe('new');
    expect(by['demo/python/tools-sdk.ts']!.status).toBe('obsolete');
  });

  it('reads a checkout with CRLF line endings (git core.autocrlf) as the file concord wrote; a real change diffs as that change alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-store-'));
    const folder = join(dir, 'demo', 'typescript');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'tools-sdk.ts'), 'declare const tools: {\r\n  a(): Promise<void>;\r\n};\r\n');
    await writeFile(join(folder, 'transcript.yaml'), 'turns:\r\n  - request: 1\r\n  - answer: yes\r\n');
    const files = new Map([
      ['tools-sdk.ts', 'declare const tools: {\n  a(): Promise<void>;\n};\n'],
      ['transcript.yaml', 'turns:\n  - request: 2\n  - answer: yes\n'],
    ]);
    const by = Object.fromEntries((await compareFolder(dir, 'demo/typescript', files)).map((v) => [v.path, v]));
    expect(by['demo/typescript/tools-sdk.ts']!.status).toBe('same');
    expect(by['demo/typescript/transcript.yaml']!.status).toBe('changed');
    const shown = renderDiff(by['demo/typescript/transcript.yaml']!.diff!, false);
    expect(shown).toContain('-  - request: 1\n+  - request: 2\n');
    expect(shown).not.toMatch(/^[-+].*answer/m);
    expect(shown).not.toContain('\\u000d');
  });

  it('names a YAML snapshot edited into garbage with its line', async () => {
    dir = await mkdtemp(join(tmpdir(), 'concord-store-'));
    await mkdir(join(dir, 'demo', 'typescript'), { recursive: true });
    await writeFile(join(dir, 'demo', 'typescript', 'transcript.yaml'), 'turns:\n  - request: 1\n   bad: [\n');
    const [verdict] = await compareFolder(dir, 'demo/typescript', new Map([['transcript.yaml', 'turns: []\n']]));
    expect(verdict!.status).toBe('garbage');
    expect(verdict!.reason).toMatch(
      /^snapshots\/demo\/typescript\/transcript\.yaml is not valid YAML \(line 3, column 1\)/,
    );
    // An unclosed list is named where its `]` is missing, not on the empty line after the file's last newline.
    await writeFile(join(dir, 'demo', 'typescript', 'transcript.yaml'), 'turns:\n  - request: [1\n');
    const [unclosed] = await compareFolder(dir, 'demo/typescript', new Map([['transcript.yaml', 'turns: []\n']]));
    expect(unclosed!.reason).toMatch(/is not valid YAML \(line 2, column 16\)/);
  });
});

describe('normalizer', () => {
  it('turns volatile values into numbered tokens that keep correlation', () => {
    const n = new Normalizer('/work/pkg');
    const tmp = `${tmpdir()}/concord-assembly-abc123`;
    const first = n.text(`plugin /work/pkg/dist/x.js in ${tmp}/cordis.yml took 12 ms on container 0123456789ab`);
    const second = n.text(`again ${tmp}/cordis.yml, other ${tmpdir()}/zzz, took 7.5 ms, 0123456789ab`);
    expect(first).toBe('plugin <root>/dist/x.js in <tmp-1> took <duration-1> on container <container-1>');
    expect(second).toBe('again <tmp-1>, other <tmp-2>, took <duration-2>, <container-1>');
  });
});
