import { afterAll, describe, expect, it } from 'vitest';
import type { PythonVersion } from '../../codemode/index.js';
import { GLOSSARY_TOOLS } from '../../examples/sdk-styles/src/plugins/glossary.js';
import {
  PYTHON_FAULTS,
  PYTHON_STYLES,
  type PythonStyle,
  renderPython,
} from '../../examples/sdk-styles/src/python-styles.js';
import { sdkSection } from '../../examples/sdk-styles/src/registry.js';
import {
  renderTypeScript,
  TYPESCRIPT_FAULTS,
  TYPESCRIPT_STYLES,
  type TypeScriptStyle,
} from '../../examples/sdk-styles/src/typescript-styles.js';
import { type Finding, runChecks } from '../checks/index.js';
import type { ModelView } from '../readers/model-view.js';
import { sdkFileView } from '../readers/sdk-file.js';
import { Session } from '../session.js';

// The SDK shapes real renderers write, from examples/sdk-styles (a backend that is not concord's): every check of
// an SDK gives no finding on each correct shape, and names the planted mistake of each faulty one.

const session = new Session({ pyodides: [] });
afterAll(() => session.dispose());

const RUN_CODE = {
  python: {
    name: 'run_code',
    description: 'Runs a Python program that calls the tools of the tools:sdk section and returns what it returns.',
    parameters: {
      type: 'object',
      properties: { code: { type: 'string', description: 'Python: the body of an async function.' } },
    },
  },
  typescript: {
    name: 'run_code',
    description: 'Runs a TypeScript program that calls the tools of the tools:sdk section and returns what it returns.',
    parameters: {
      type: 'object',
      properties: { code: { type: 'string', description: 'TypeScript: the body of an async function.' } },
    },
  },
};

/** A tool named with a letter Unicode 14.0 added (U+0870): CPython 3.9 and 3.10 cannot read it bare. */
const PAST_FLOOR = { ...GLOSSARY_TOOLS[0]!, name: 'glossary_\u0870_lookup' };

const names = GLOSSARY_TOOLS.map((tool) => tool.name);

function subject(language: 'python' | 'typescript', style: string, tools = GLOSSARY_TOOLS): ModelView {
  const config = language === 'python' ? { python: style as PythonStyle } : { typescript: style as TypeScriptStyle };
  const source = `${language} ${style}`;
  const read = sdkFileView(sdkSection(tools, language, config), source, {
    language,
    wire: [{ place: source, tool: RUN_CODE[language] }],
  });
  if (!('views' in read)) throw new Error(`${source} shows no SDK: ${read.none}`);
  return { ...read.views[0]!, registered: { names: tools.map((t) => t.name), complete: true } };
}

/** Every check concord runs on what a model is shown, on one subject. */
const checkSubject = async (view: ModelView, { floor }: { floor: PythonVersion }) =>
  runChecks({ view, floor, session });

const errors = (findings: readonly Finding[]) =>
  findings.filter((f) => f.severity === 'error').map((f) => `${f.check}: ${f.message}`);

describe('SDK shapes real renderers write', () => {
  it.each(TYPESCRIPT_STYLES)('TypeScript %s: no finding', async (style) => {
    expect(renderTypeScript(GLOSSARY_TOOLS, style)).toContain('tools');
    const { findings } = await checkSubject(subject('typescript', style), { floor: '3.9' });
    expect(errors(findings)).toEqual([]);
  });

  it.each(PYTHON_STYLES)('Python %s: no finding from the floor 3.9 up', { timeout: 60_000 }, async (style) => {
    // No finding also says an interpreter at or above the floor compiled and executed the stubs.
    const { findings } = await checkSubject(subject('python', style), { floor: '3.9' });
    expect(errors(findings)).toEqual([]);
  });

  it('reads the tools each shape offers as the languages do: every glossary tool, once', async () => {
    for (const style of TYPESCRIPT_STYLES)
      expect(renderTypeScript(GLOSSARY_TOOLS, style), style).toMatch(/glossary-export/);
    for (const style of PYTHON_STYLES) expect(renderPython(GLOSSARY_TOOLS, style), style).toMatch(/glossary-export/);
    expect(names).toContain('glossary-export');
  });
});

describe('planted mistakes, each found', () => {
  const expected: Record<(typeof TYPESCRIPT_FAULTS)[number] | (typeof PYTHON_FAULTS)[number], RegExp> = {
    'mapped-drops-a-tool': /^sdk-names: .*tool "glossary_search" is not reachable from the SDK/,
    'namespace-drops-quoted': /^sdk-names: .*tool "glossary-export" is not reachable from the SDK/,
    'interface-doubled': /^sdk-names: .*declared names collide: ToolCallError \(line 3, column \d+\), ToolCallError/,
    'methods-drops-a-tool': /^sdk-names: .*tool "glossary_search" is not reachable from the SDK/,
    'methods-doubled': /^sdk-names: .*declared names collide: ToolCallError \(line \d+, column 7\), ToolCallError/,
    'methods-past-floor':
      /^renderer-floor: .*writes a name that CPython 3\.9 \(Unicode 13\.0\.0\) cannot read: glossary_\u0870_lookup \(line \d+, column \d+\)/,
    'not-required':
      /^stub-import: .*fails when executed as a module on [^\n]*3\.9[^\n]*ImportError at line \d+, column \d+: cannot import name 'NotRequired'/,
    'pipe-none': /^stub-import: .*fails when executed as a module on [^\n]*3\.9[^\n]*TypeError at line \d+, column \d+/,
  };

  it.each(TYPESCRIPT_FAULTS)('TypeScript %s', async (fault) => {
    const { findings } = await checkSubject(subject('typescript', fault), { floor: '3.9' });
    expect(errors(findings)).toContainEqual(expect.stringMatching(expected[fault]));
  });

  it.each(PYTHON_FAULTS)('Python %s', { timeout: 60_000 }, async (fault) => {
    const tools = fault === 'methods-past-floor' ? [...GLOSSARY_TOOLS, PAST_FLOOR] : GLOSSARY_TOOLS;
    const { findings } = await checkSubject(subject('python', fault, tools), { floor: '3.9' });
    expect(errors(findings)).toContainEqual(expect.stringMatching(expected[fault]));
  });

  it('the same shapes at floor 3.11: NotRequired and X | None are fine there', { timeout: 60_000 }, async () => {
    for (const fault of ['not-required', 'pipe-none'] as const) {
      const { findings } = await checkSubject(subject('python', fault), { floor: '3.11' });
      expect(errors(findings), fault).toEqual([]);
    }
  });
});
