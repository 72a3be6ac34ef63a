/** A class statement written, with the token it defines and the tokens of the classes it names outright. */
export interface WrittenClass {
  token: string;
  lines: string[];
  names: ReadonlySet<string>;
}

/**
 * The statements of `classes` in the order given, except that each comes after every class among them it names
 * outright: CPython evaluates a class body's annotations when the module runs, so a name used before its class
 * is a NameError. One structure met again further on (a point in a list, then in another field's class) is
 * named by a class queued before its own. An order that already puts every class after the ones it names is
 * kept as it is. Iterative, linear in the classes and the names.
 */
export function namedClassesFirst(classes: readonly WrittenClass[]): string[][] {
  const byToken = new Map(classes.map((written) => [written.token, written]));
  const placed = new Set<WrittenClass>();
  const open = new Set<WrittenClass>();
  const ordered: string[][] = [];
  const stack: { written: WrittenClass; names: Iterator<string> }[] = [];
  const visit = (written: WrittenClass) => {
    // A class that is open names one of the classes that led to it: only a forward reference can, and it is
    // not named outright, so this is never met; if it were, the order given stands.
    if (placed.has(written) || open.has(written)) return;
    open.add(written);
    stack.push({ written, names: written.names[Symbol.iterator]() });
  };
  for (const written of classes) {
    visit(written);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const next = top.names.next();
      if (next.done) {
        stack.pop();
        open.delete(top.written);
        placed.add(top.written);
        ordered.push(top.written.lines);
      } else {
        const named = byToken.get(next.value);
        if (named !== undefined) visit(named);
      }
    }
  }
  return ordered;
}
