import type { SyntaxNode } from '@lezer/common';
import { literalPattern } from '../../text/literal-pattern.js';
import { type Collision, DEFAULT_TOOLS_OBJECT, type Declared, type Reach, type SdkNames } from '../sdk-names.js';
import { parsePython } from './parse.js';

/**
 * Methods a class has for Python's own machinery, never a tool's way in: a program does not call
 * `tools.__init__(…)`. `__getitem__` and `__getattr__` offer the names their `Literal[…]` parameter lists.
 */
const MACHINERY = new Set([
  '__init__',
  '__new__',
  '__call__',
  '__class_getitem__',
  '__init_subclass__',
  '__post_init__',
]);
const BY_NAME = new Set(['__getitem__', '__getattr__']);

/**
 * A listed tool: `# tools["name"]` (or `# await tools["name"](…)`) in the class body, at its indentation, `tools` being
 * the name the tools are bound under.
 */
function listedPattern(object: string): RegExp {
  return new RegExp(
    `^# (?:await )?${literalPattern(object)}\\[("(?:\\\\[\\s\\S]|[^"\\\\])*"|'(?:\\\\[\\s\\S]|[^'\\\\])*')\\]`,
    'u',
  );
}

/** Where each offset of a text stands, 1-based (the column counts UTF-16 code units, as editors do). */
function positions(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  };
}

/** A statement with what decorates it: the definition under a `DecoratedStatement`, and its decorators' names. */
function undecorated(node: SyntaxNode, text: (n: SyntaxNode) => string): { node: SyntaxNode; decorators: string[] } {
  if (node.name !== 'DecoratedStatement') return { node, decorators: [] };
  const decorators = node
    .getChildren('Decorator')
    .map((d) => text(d).replace(/^@\s*/, '').replace(/\(.*$/s, '').trim());
  const inner = node.getChild('FunctionDefinition') ?? node.getChild('ClassDefinition') ?? node;
  return { node: inner, decorators };
}

/** `overload`, `typing.overload`, `t.overload`: a signature of a name defined again below it. */
const isOverload = (decorators: readonly string[]) =>
  decorators.some((d) => d === 'overload' || d.endsWith('.overload'));

/**
 * The names a Python SDK block declares at module level, and the ways it offers to reach a tool, as Python reads
 * them (parsed by a Python grammar, never by lines): the methods and annotated attributes of the class `tools` is
 * (`tools: Tools`, `tools = Tools()` or `class tools`; `toolsObject` when the backend's runtime binds the tools under
 * another name), with those it inherits from the module's other classes (a `Protocol` base included); overloads of
 * one method are one way; a private `__x` is mangled and reaches nothing; `__getitem__`/`__getattr__` offer the names
 * of their `Literal[…]` parameter; a `# tools["…"]` comment in the class body lists a tool whose name is no
 * identifier. A block that binds no value at all describes the module `tools`: its module-level functions are the
 * ways.
 * Method names reach their NFKC form, as the compiler stores identifiers.
 */
export function pythonSdkNames(sdk: string, toolsObject: string = DEFAULT_TOOLS_OBJECT): SdkNames {
  const object = toolsObject.normalize('NFKC');
  const tree = parsePython(sdk);
  const text = (node: SyntaxNode) => sdk.slice(node.from, node.to);
  const where = positions(sdk);
  const at = (node: SyntaxNode) => where(node.from);

  const declared: Array<Declared & Kept> = [];
  const classes = new Map<string, SyntaxNode>();
  const functions: Definition[] = [];
  let toolsClass: string | undefined;
  let toolsBound = false;
  const bindings: string[] = [];

  for (let statement = tree.topNode.firstChild; statement !== null; statement = statement.nextSibling) {
    const { node, decorators } = undecorated(statement, text);
    const overload = isOverload(decorators);
    const declare = (name: SyntaxNode) => declared.push({ name: text(name), ...at(name), overload });
    if (node.name === 'ClassDefinition' || node.name === 'FunctionDefinition') {
      const name = node.getChild('VariableName');
      if (name === null) continue;
      declare(name);
      if (node.name === 'ClassDefinition') {
        classes.set(text(name).normalize('NFKC'), node);
        if (text(name).normalize('NFKC') === object) {
          toolsBound = true;
          toolsClass = object;
        }
      } else {
        functions.push({ name, overload });
        if (text(name).normalize('NFKC') === object) toolsBound = true;
      }
    } else if (node.name === 'AssignStatement') {
      // An instance of a class (`x: X`, `x = X()`) is what a program could call tools on; an alias (`X = Literal[…]`)
      // is not.
      const bound = classOfBinding(node, text);
      for (const target of assignedNames(node)) {
        declare(target);
        if (bound !== undefined) bindings.push(text(target).normalize('NFKC'));
        if (text(target).normalize('NFKC') !== object) continue;
        toolsBound = true;
        toolsClass = bound ?? toolsClass;
      }
    } else if (node.name === 'ImportStatement') {
      const fromTools = importsFromPackage(text(node), object);
      for (const name of importedNames(node)) declared.push({ name: text(name), ...at(name), overload, fromTools });
    }
  }

  const reaches: Reach[] = [];
  if (toolsClass !== undefined) {
    const comments: SyntaxNode[] = [];
    const listed = listedPattern(object);
    tree.iterate({ enter: (n) => void (n.name === 'Comment' && comments.push(n.node)) });
    const inherited = new Set<string>();
    for (const node of classChain(toolsClass, classes, text)) {
      const body = node.getChild('Body');
      if (body !== null) collectMembers(body, classComments(node, comments, sdk), listed, inherited, reaches, text, at);
    }
  } else if (!toolsBound && bindings.length === 0) {
    // The block is the module `tools` itself: each of its functions is a way in. One that binds another object is
    // told so, rather than read as functions.
    const grouped = new Map<string, Definition[]>();
    for (const f of functions) {
      const normal = text(f.name).normalize('NFKC');
      grouped.set(normal, [...(grouped.get(normal) ?? []), f]);
    }
    for (const definitions of grouped.values())
      for (const { name } of waysIn(definitions)) reaches.push(methodReach(name, text, at));
  }
  reaches.sort((a, b) => a.line - b.line || a.column - b.column);
  return {
    declared: declared.map(({ overload: _, fromTools: __, ...d }) => d),
    reaches,
    collisions: collisionsOf(declared),
    bindings,
    normalize: (name) => name.normalize('NFKC'),
  };
}

/** The names an assignment binds at its top level: `A = B = …`, `tools: Tools`. */
function assignedNames(node: SyntaxNode): SyntaxNode[] {
  const names: SyntaxNode[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.name === 'VariableName') names.push(child);
    else if (child.name !== 'AssignOp' && child.name !== ',') break;
  }
  // `A = B = value`: every name followed by `=` is a target; the last expression is the value.
  const targets = names.filter((name) => name.nextSibling?.name === 'AssignOp' || name.nextSibling?.name === 'TypeDef');
  return targets;
}

/** The class a `tools` binding names: `tools: Tools`, `tools: "Tools"`, `tools = Tools()`. */
function classOfBinding(node: SyntaxNode, text: (n: SyntaxNode) => string): string | undefined {
  const annotation = node.getChild('TypeDef');
  const annotated = annotation?.lastChild;
  if (annotated?.name === 'VariableName') return text(annotated).normalize('NFKC');
  if (annotated?.name === 'String') return text(annotated).slice(1, -1).trim().normalize('NFKC');
  const value = node.lastChild;
  if (value?.name === 'CallExpression' && value.firstChild?.name === 'VariableName')
    return text(value.firstChild).normalize('NFKC');
  return undefined;
}

/** `from m import a, b as c` → a, c; `import a.b as c` → c; `import a.b` → a. */
function importedNames(node: SyntaxNode): SyntaxNode[] {
  const names: SyntaxNode[] = [];
  let afterImport = node.firstChild?.name === 'import';
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.name === 'import') {
      afterImport = true;
      continue;
    }
    if (!afterImport || child.name !== 'VariableName') continue;
    const next = child.nextSibling;
    if (next?.name === 'as') continue;
    if (next?.name === '.') continue;
    const previous = child.prevSibling;
    // The first segment of a dotted `import a.b` binds `a`; later segments bind nothing.
    if (previous?.name === '.') continue;
    names.push(child);
  }
  return names;
}

/** The classes `name` is and inherits from among the module's, most derived first (each once). */
function classChain(
  name: string,
  classes: ReadonlyMap<string, SyntaxNode>,
  text: (n: SyntaxNode) => string,
): SyntaxNode[] {
  const chain: SyntaxNode[] = [];
  const visited = new Set<string>();
  const visit = (className: string) => {
    if (visited.has(className)) return;
    visited.add(className);
    const node = classes.get(className);
    if (node === undefined) return;
    chain.push(node);
    for (let base = node.getChild('ArgList')?.firstChild ?? null; base !== null; base = base.nextSibling) {
      if (base.name === 'VariableName') visit(text(base).normalize('NFKC'));
    }
  };
  visit(name);
  return chain;
}

/**
 * The comments of a class body: those after the class statement and before the next statement of the module,
 * indented (the parser gives a comment after a body's last statement to the module, not to the body).
 */
function classComments(node: SyntaxNode, comments: readonly SyntaxNode[], sdk: string): SyntaxNode[] {
  let end = sdk.length;
  for (let next = node.nextSibling; next !== null; next = next.nextSibling) {
    if (next.name !== 'Comment') {
      end = next.from;
      break;
    }
  }
  return comments.filter((c) => c.from > node.from && c.from < end && sdk[c.from - 1] !== '\n' && c.from > 0);
}

/**
 * The ways one class body offers: its methods, annotated attributes, `Literal` lookups and listed names. A name a
 * more derived class already offers is overridden here; one defined twice in this body (not as `@overload`
 * signatures) is offered twice, which the naming check reports.
 */
function collectMembers(
  body: SyntaxNode,
  comments: readonly SyntaxNode[],
  listedPattern: RegExp,
  inherited: Set<string>,
  reaches: Reach[],
  text: (n: SyntaxNode) => string,
  at: (n: SyntaxNode) => { line: number; column: number },
): void {
  const own = new Map<string, Definition[]>();
  const listed: Reach[] = [];
  for (let member = body.firstChild; member !== null; member = member.nextSibling) {
    const { node, decorators } = undecorated(member, text);
    if (node.name === 'FunctionDefinition') {
      const name = node.getChild('VariableName');
      if (name === null) continue;
      const normal = text(name).normalize('NFKC');
      if (BY_NAME.has(normal)) {
        for (const literal of literalParameter(node, text))
          listed.push({ spelled: text(literal.node), how: 'subscript', reaches: literal.value, ...at(literal.node) });
        continue;
      }
      if (MACHINERY.has(normal)) continue;
      own.set(normal, [...(own.get(normal) ?? []), { name, overload: isOverload(decorators) }]);
    } else if (node.name === 'AssignStatement' && node.getChild('TypeDef') !== null) {
      for (const name of assignedNames(node)) {
        const normal = text(name).normalize('NFKC');
        own.set(normal, [...(own.get(normal) ?? []), { name, overload: false }]);
      }
    }
  }
  for (const comment of comments) {
    const match = listedPattern.exec(text(comment));
    const value = match === null ? undefined : decodePythonString(match[1]!);
    if (match !== null && value !== undefined)
      listed.push({ spelled: match[1]!, how: 'subscript', reaches: value, ...at(comment) });
  }
  for (const [normal, definitions] of own) {
    if (inherited.has(normal)) continue;
    for (const { name } of waysIn(definitions)) reaches.push(methodReach(name, text, at));
  }
  for (const reach of listed) {
    if (!inherited.has(`\0${reach.reaches}`)) reaches.push(reach);
  }
  for (const normal of own.keys()) inherited.add(normal);
  for (const reach of listed) inherited.add(`\0${reach.reaches}`);
}

/** One definition of a name: a `def` (perhaps an `@overload` signature) or an annotated attribute. */
interface Definition {
  name: SyntaxNode;
  overload: boolean;
}

/**
 * The ways in that the definitions of one name offer: overload signatures and the definition after them are one
 * method; two definitions (the second shadows the first) are two, which the naming check reports.
 */
function waysIn(definitions: readonly Definition[]): readonly Definition[] {
  const definite = definitions.filter((d) => !d.overload);
  return definite.length > 0 ? definite : definitions.slice(0, 1);
}

/** A method or attribute: reaches the NFKC form of its name, or nothing when the class body mangles it (`__x`). */
function methodReach(
  name: SyntaxNode,
  text: (n: SyntaxNode) => string,
  at: (n: SyntaxNode) => { line: number; column: number },
): Reach {
  const spelled = text(name);
  const normal = spelled.normalize('NFKC');
  // A private `__x` is mangled inside a class body: `tools.__x` would not find it.
  const mangled = normal.startsWith('__') && !normal.endsWith('__');
  return { spelled, how: 'method', ...at(name), ...(mangled ? {} : { reaches: normal }) };
}

/** The string literals of the `Literal[…]` annotation of a lookup method's name parameter (after `self`). */
function literalParameter(
  node: SyntaxNode,
  text: (n: SyntaxNode) => string,
): Array<{ node: SyntaxNode; value: string }> {
  const annotations = node.getChild('ParamList')?.getChildren('TypeDef') ?? [];
  const found: Array<{ node: SyntaxNode; value: string }> = [];
  for (const annotation of annotations) {
    const type = annotation.lastChild;
    if (type?.name !== 'MemberExpression' || !/^(?:typing\.|t\.)?Literal$/.test(text(type.firstChild!))) continue;
    for (let arg = type.firstChild; arg !== null; arg = arg.nextSibling) {
      if (arg.name !== 'String') continue;
      const value = decodePythonString(text(arg));
      if (value !== undefined) found.push({ node: arg, value });
    }
  }
  return found;
}

/** What a declaration is besides its name and place: what makes two of one name no collision. */
interface Kept {
  overload: boolean;
  /** Imported from the sandbox's tools package (`from tools.notes import add_note`). */
  fromTools?: boolean;
}

/**
 * Whether an import statement imports from the package the tools are bound under (`from tools.notes import …`):
 * a catalog of modules says so of each function it then declares.
 */
function importsFromPackage(statement: string, object: string): boolean {
  const module = /^from\s+([\w.]+)\s+import\b/u.exec(statement)?.[1]?.normalize('NFKC');
  return module !== undefined && (module === object || module.startsWith(`${object}.`));
}

/**
 * Module-level names that are one name after NFKC, declared more than once: the later silently shadows the
 * earlier. A run of `@overload` signatures and the definition after them is one name, as Python means it; so is a
 * name imported from the tools package and the stub the block then writes of it (a catalog of modules says where each
 * function is imported from, then declares it).
 */
function collisionsOf(declared: ReadonlyArray<Declared & Kept>): Collision[] {
  const byName = new Map<string, Array<Declared & Kept>>();
  for (const d of declared) {
    const key = d.name.normalize('NFKC');
    byName.set(key, [...(byName.get(key) ?? []), d]);
  }
  const collisions: Collision[] = [];
  for (const [key, group] of byName) {
    const definitions = group.filter((d) => !d.overload);
    const stubbed = definitions.some((d) => !d.fromTools);
    const colliding = stubbed ? definitions.filter((d) => !d.fromTools) : definitions;
    if (colliding.length < 2) continue;
    collisions.push({ key, declarations: colliding.map(({ overload: _, fromTools: __, ...d }) => d) });
  }
  return collisions;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  r: '\r',
  t: '\t',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

/** The value of a plain (unprefixed) one-line Python string literal; undefined for a form it does not know. */
export function decodePythonString(literal: string): string | undefined {
  if (!/^(["'])[\s\S]*\1$/.test(literal) || literal.length < 2) return undefined;
  const body = literal.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = body[++i];
    if (next === undefined) return undefined;
    const hex = { x: 2, u: 4, U: 8 }[next];
    if (hex !== undefined) {
      const digits = body.slice(i + 1, i + 1 + hex);
      if (!/^[0-9a-fA-F]+$/u.test(digits) || digits.length !== hex) return undefined;
      out += String.fromCodePoint(parseInt(digits, 16));
      i += hex;
    } else if (next in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[next];
    } else {
      out += `\\${next}`;
    }
  }
  return out;
}
