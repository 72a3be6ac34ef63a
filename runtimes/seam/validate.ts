import { PYTHON_HARD_KEYWORDS, PYTHON_SOFT_KEYWORDS } from './python-keywords.js';
import type { BindingNamespace } from './types.js';

/**
 * Rules for the names a RunRequest binds, checked once before any backend sees a request.
 *
 * A global the program sees (a namespace such as `tools`, an error class such as `ToolCallError`) must be
 * portable: the same spelling must work as a bare name in TypeScript and in Python, so it matches
 * `[A-Za-z_][A-Za-z0-9_]*`, is no reserved word of either language, and does not replace a global that a
 * backend or a language already owns (a program must still be able to call `print`, `console.log`, `len`).
 * Member names are free: any string works through subscript (`tools["exotic-name"]`).
 */

const PORTABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Reserved and contextual words of JavaScript/TypeScript (strict mode), plus literal-like globals. */
const JAVASCRIPT_RESERVED = [
  'abstract',
  'any',
  'arguments',
  'as',
  'async',
  'await',
  'boolean',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'constructor',
  'continue',
  'debugger',
  'declare',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'eval',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'from',
  'function',
  'get',
  'if',
  'implements',
  'import',
  'in',
  'infer',
  'instanceof',
  'interface',
  'is',
  'keyof',
  'let',
  'module',
  'namespace',
  'never',
  'new',
  'null',
  'number',
  'object',
  'of',
  'package',
  'private',
  'protected',
  'public',
  'readonly',
  'require',
  'return',
  'satisfies',
  'set',
  'static',
  'string',
  'super',
  'switch',
  'symbol',
  'this',
  'throw',
  'true',
  'try',
  'type',
  'typeof',
  'undefined',
  'unique',
  'unknown',
  'using',
  'var',
  'void',
  'while',
  'with',
  'yield',
];

/** Keywords of every supported CPython (3.8 and later), soft keywords included. */
const PYTHON_RESERVED = [...PYTHON_HARD_KEYWORDS, ...PYTHON_SOFT_KEYWORDS];

/** Globals of the JavaScript language, of Node and of worker threads: a binding must not shadow them. */
const JAVASCRIPT_GLOBALS = [
  'AbortController',
  'AbortSignal',
  'AggregateError',
  'Array',
  'ArrayBuffer',
  'Atomics',
  'BigInt',
  'BigInt64Array',
  'BigUint64Array',
  'Blob',
  'Boolean',
  'Buffer',
  'BroadcastChannel',
  'DataView',
  'Date',
  'Error',
  'EvalError',
  'Event',
  'EventTarget',
  'FinalizationRegistry',
  'Float32Array',
  'Float64Array',
  'Function',
  'Headers',
  'Infinity',
  'Int16Array',
  'Int32Array',
  'Int8Array',
  'Intl',
  'Iterator',
  'JSON',
  'Map',
  'Math',
  'MessageChannel',
  'MessagePort',
  'NaN',
  'Number',
  'Object',
  'Promise',
  'Proxy',
  'RangeError',
  'ReferenceError',
  'Reflect',
  'RegExp',
  'Request',
  'Response',
  'Set',
  'SharedArrayBuffer',
  'String',
  'Symbol',
  'SyntaxError',
  'TextDecoder',
  'TextEncoder',
  'TypeError',
  'URIError',
  'URL',
  'URLSearchParams',
  'Uint16Array',
  'Uint32Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'WeakMap',
  'WeakRef',
  'WeakSet',
  'WebAssembly',
  '__dirname',
  '__filename',
  'atob',
  'btoa',
  'clearImmediate',
  'clearInterval',
  'clearTimeout',
  'console',
  'crypto',
  'decodeURI',
  'decodeURIComponent',
  'encodeURI',
  'encodeURIComponent',
  'escape',
  'exports',
  'fetch',
  'global',
  'globalThis',
  'isFinite',
  'isNaN',
  'parseFloat',
  'parseInt',
  'performance',
  'postMessage',
  'process',
  'queueMicrotask',
  'self',
  'setImmediate',
  'setInterval',
  'setTimeout',
  'structuredClone',
  'unescape',
];

/** Builtins of every supported CPython (the union of `dir(builtins)` from 3.8 on) and module dunders. */
const PYTHON_GLOBALS = [
  'ArithmeticError',
  'AssertionError',
  'AttributeError',
  'BaseException',
  'BaseExceptionGroup',
  'BlockingIOError',
  'BrokenPipeError',
  'BufferError',
  'BytesWarning',
  'ChildProcessError',
  'ConnectionAbortedError',
  'ConnectionError',
  'ConnectionRefusedError',
  'ConnectionResetError',
  'DeprecationWarning',
  'EOFError',
  'Ellipsis',
  'EncodingWarning',
  'EnvironmentError',
  'Exception',
  'ExceptionGroup',
  'FileExistsError',
  'FileNotFoundError',
  'FloatingPointError',
  'FutureWarning',
  'GeneratorExit',
  'IOError',
  'ImportError',
  'ImportWarning',
  'IndentationError',
  'IndexError',
  'InterruptedError',
  'IsADirectoryError',
  'KeyError',
  'KeyboardInterrupt',
  'LookupError',
  'MemoryError',
  'ModuleNotFoundError',
  'NameError',
  'NotADirectoryError',
  'NotImplemented',
  'NotImplementedError',
  'OSError',
  'OverflowError',
  'PendingDeprecationWarning',
  'PermissionError',
  'ProcessLookupError',
  'PythonFinalizationError',
  'RecursionError',
  'ReferenceError',
  'ResourceWarning',
  'RuntimeError',
  'RuntimeWarning',
  'StopAsyncIteration',
  'StopIteration',
  'SyntaxError',
  'SyntaxWarning',
  'SystemError',
  'SystemExit',
  'TabError',
  'TimeoutError',
  'TypeError',
  'UnboundLocalError',
  'UnicodeDecodeError',
  'UnicodeEncodeError',
  'UnicodeError',
  'UnicodeTranslateError',
  'UnicodeWarning',
  'UserWarning',
  'ValueError',
  'Warning',
  'ZeroDivisionError',
  '_IncompleteInputError',
  '__build_class__',
  '__builtins__',
  '__debug__',
  '__doc__',
  '__file__',
  '__import__',
  '__loader__',
  '__name__',
  '__package__',
  '__spec__',
  'abs',
  'aiter',
  'all',
  'anext',
  'any',
  'ascii',
  'bin',
  'bool',
  'breakpoint',
  'bytearray',
  'bytes',
  'callable',
  'chr',
  'classmethod',
  'compile',
  'complex',
  'copyright',
  'credits',
  'delattr',
  'dict',
  'dir',
  'divmod',
  'enumerate',
  'eval',
  'exec',
  'exit',
  'filter',
  'float',
  'format',
  'frozenset',
  'getattr',
  'globals',
  'hasattr',
  'hash',
  'help',
  'hex',
  'id',
  'input',
  'int',
  'isinstance',
  'issubclass',
  'iter',
  'len',
  'license',
  'list',
  'locals',
  'map',
  'max',
  'memoryview',
  'min',
  'next',
  'object',
  'oct',
  'open',
  'ord',
  'pow',
  'print',
  'property',
  'quit',
  'range',
  'repr',
  'reversed',
  'round',
  'set',
  'setattr',
  'slice',
  'sorted',
  'staticmethod',
  'str',
  'sum',
  'super',
  'tuple',
  'type',
  'vars',
  'zip',
];

const RESERVED = new Set([...JAVASCRIPT_RESERVED, ...PYTHON_RESERVED]);
const OWNED_GLOBALS = new Set([...JAVASCRIPT_GLOBALS, ...PYTHON_GLOBALS]);

/**
 * Properties an error instance already has in one of the languages (`message`, `stack`, Python's `args`):
 * the member property must not overwrite them.
 */
const ERROR_MEMBERS = new Set([
  'args',
  'cause',
  'code',
  'constructor',
  'errors',
  'message',
  'name',
  'prototype',
  'stack',
  'toString',
  'add_note',
  'with_traceback',
]);

/** Why `name` cannot be a global of a program, or undefined when it can. */
export function portableNameProblem(name: string): string | undefined {
  if (!PORTABLE_NAME.test(name)) return 'it must match [A-Za-z_][A-Za-z0-9_]* (ASCII letters, digits, underscores)';
  if (RESERVED.has(name)) return 'it is a reserved word in TypeScript or Python';
  if (OWNED_GLOBALS.has(name)) return 'it would hide a global that TypeScript or Python programs rely on';
  if (name.startsWith('__')) return 'names starting with "__" belong to the language runtimes';
  return undefined;
}

/** Why `property` cannot carry the failed member's name on an error instance, or undefined when it can. */
export function memberPropertyProblem(property: string): string | undefined {
  if (!PORTABLE_NAME.test(property)) return 'it must match [A-Za-z_][A-Za-z0-9_]* (ASCII letters, digits, underscores)';
  if (RESERVED.has(property)) return 'it is a reserved word in TypeScript or Python';
  if (ERROR_MEMBERS.has(property)) return 'an error instance already has this property in TypeScript or Python';
  if (property.startsWith('_')) return 'it must not start with "_" (private or special in Python)';
  return undefined;
}

/** A RunRequest whose bindings break the naming rules; the message names each offending binding. */
export class BindingError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid bindings:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'BindingError';
  }
}

/** Every problem with a set of bindings, one sentence each; empty when they are valid. */
export function bindingProblems(bindings: readonly BindingNamespace[]): string[] {
  const problems: string[] = [];
  const globals = new Map<string, string>();
  const claim = (name: string, owner: string): void => {
    const previous = globals.get(name);
    if (previous !== undefined) problems.push(`${owner}: the global name "${name}" is already used by ${previous}`);
    else globals.set(name, owner);
  };
  bindings.forEach((namespace, index) => {
    const owner = `bindings[${index}] (namespace "${namespace.name}")`;
    const nameProblem = portableNameProblem(namespace.name);
    if (nameProblem !== undefined) problems.push(`${owner}: the namespace name is not portable: ${nameProblem}`);
    claim(namespace.name, owner);
    for (const member of namespace.functions.keys()) {
      if (typeof member !== 'string') problems.push(`${owner}: a member name is not a string`);
    }
    const errorClass = namespace.errorClass;
    if (errorClass === undefined) return;
    const classProblem = portableNameProblem(errorClass.name);
    if (classProblem !== undefined) {
      problems.push(`${owner}: the error class name "${errorClass.name}" is not portable: ${classProblem}`);
    }
    claim(errorClass.name, `${owner}'s error class`);
    const propertyProblem = memberPropertyProblem(errorClass.memberProperty);
    if (propertyProblem !== undefined) {
      problems.push(
        `${owner}: the error class member property "${errorClass.memberProperty}" is not usable: ${propertyProblem}`,
      );
    }
  });
  return problems;
}

/** Throws BindingError listing every problem, so a backend never runs a request with unportable names. */
export function assertValidBindings(bindings: readonly BindingNamespace[]): void {
  const problems = bindingProblems(bindings);
  if (problems.length > 0) throw new BindingError(problems);
}
