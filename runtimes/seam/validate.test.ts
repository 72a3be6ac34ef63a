import { describe, expect, it } from 'vitest';
import type { BindingNamespace } from './types.js';
import {
  assertValidBindings,
  BindingError,
  bindingProblems,
  memberPropertyProblem,
  portableNameProblem,
} from './validate.js';

const noFunctions = new Map();

function namespace(name: string, errorClass?: BindingNamespace['errorClass']): BindingNamespace {
  return errorClass === undefined ? { name, functions: noFunctions } : { name, functions: noFunctions, errorClass };
}

describe('portable binding names', () => {
  it.each(['tools', 'ToolCallError', 'mcp_server', '_private', 'T2'])('accepts %s', (name) => {
    expect(portableNameProblem(name)).toBeUndefined();
  });

  it.each([
    ['', /must match/],
    ['2fast', /must match/],
    ['with-dash', /must match/],
    ['naïve', /must match/],
    ['class', /reserved word/],
    ['await', /reserved word/],
    ['lambda', /reserved word/],
    ['None', /reserved word/],
    ['match', /reserved word/],
    ['console', /would hide a global/],
    ['globalThis', /would hide a global/],
    ['print', /would hide a global/],
    ['len', /would hide a global/],
    ['__builtins__', /would hide a global/],
    ['__tools', /belong to the language runtimes/],
  ])('refuses %j', (name, problem) => {
    expect(portableNameProblem(name)).toMatch(problem);
  });
});

describe('error class member property', () => {
  it('accepts an identifier that no error instance already has', () => {
    expect(memberPropertyProblem('toolName')).toBeUndefined();
  });
  it.each(['message', 'name', 'stack', 'args', 'with_traceback', '_x', 'tool-name', 'class'])(
    'refuses %j',
    (property) => {
      expect(memberPropertyProblem(property)).toBeDefined();
    },
  );
});

describe('bindingProblems', () => {
  it('accepts the tool layer bindings', () => {
    expect(bindingProblems([namespace('tools', { name: 'ToolCallError', memberProperty: 'toolName' })])).toEqual([]);
  });

  it('lists every problem, naming the binding and the rule', () => {
    const problems = bindingProblems([
      namespace('print', { name: 'tools', memberProperty: 'message' }),
      namespace('tools'),
    ]);
    expect(problems).toEqual([
      expect.stringMatching(
        /^bindings\[0\] \(namespace "print"\): the namespace name is not portable: .*hide a global/,
      ),
      expect.stringMatching(/error class member property "message" is not usable/),
      expect.stringMatching(
        /^bindings\[1\] \(namespace "tools"\): the global name "tools" is already used by bindings\[0\]/,
      ),
    ]);
  });

  it('refuses an error class named like its namespace', () => {
    expect(bindingProblems([namespace('tools', { name: 'tools', memberProperty: 'toolName' })])).toEqual([
      expect.stringMatching(/the global name "tools" is already used/),
    ]);
  });

  it('throws a BindingError listing the problems', () => {
    expect(() => assertValidBindings([namespace('class')])).toThrow(BindingError);
    expect(() => assertValidBindings([namespace('class')])).toThrow(/invalid bindings:\n {2}- bindings\[0\]/);
  });
});
