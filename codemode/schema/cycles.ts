/**
 * The nodes of a directed graph that lie on a cycle (a strongly connected component of two or more nodes,
 * or one with an edge to itself). Tarjan's algorithm with its own stack: linear, and any depth.
 */
export function cyclicNodes(edges: ReadonlyMap<string, readonly string[]>): Set<string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const component: string[] = [];
  const cyclic = new Set<string>();
  let counter = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    component.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const targets = edges.get(top.node) ?? [];
      if (top.next < targets.length) {
        const target = targets[top.next++]!;
        if (!edges.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          component.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = component.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== top.node);
      if (members.length > 1 || targets.includes(top.node)) for (const m of members) cyclic.add(m);
    }
  }
  return cyclic;
}
