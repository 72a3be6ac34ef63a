import { describe, expect, it } from 'vitest';
import { renderTypeScriptSdk } from '../../codemode/sdk/typescript/render.js';
import { parseErrors, typescript } from '../../runtimes/seam/typescript.js';
import { adversarialTools } from './adversarial-tools.js';

/** The parse errors of a TypeScript SDK block. */
function errorsOf(sdk: string): number {
  const ts = typescript();
  return parseErrors(ts.createSourceFile('sdk.ts', sdk, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)).length;
}

describe("the probe's hostile text", () => {
  it('leaves no renderer that stops escaping `*/` compiling: the text after it is code, not a comment reopened', () => {
    const sdk = renderTypeScriptSdk(adversarialTools());
    expect(errorsOf(sdk)).toBe(0);
    // What a renderer writes once it no longer escapes the end of a comment.
    const unescaped = sdk.replaceAll('*\\/', '*/');
    expect(unescaped).not.toBe(sdk);
    expect(errorsOf(unescaped)).toBeGreaterThan(0);
  });
});
