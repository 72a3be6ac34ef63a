import type { Context } from 'cordis';
import { loadCorpus } from '../../codemode/schema/corpus/load.js';
import type { JsonValue } from '../../runtimes/seam/types.js';
import { objectArgs } from './define.js';
import '../../codemode/tools/context.js';

/**
 * The tool list an MCP knowledge-graph server (`@modelcontextprotocol/server-memory`) answered to
 * `tools/list`, recorded as it came (zod-made schemas: `$schema`, nested arrays of objects, outputs), served
 * by a small in-memory graph so programs get real answers.
 */

const RECORDED = 'mcp-modelcontextprotocol-server-memory.json';

interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}

interface Relation {
  from: string;
  to: string;
  relationType: string;
}

function list<T>(tool: string, args: JsonValue, key: string): T[] {
  const value = objectArgs(tool, args)[key];
  if (!Array.isArray(value)) throw new Error(`${tool}: ${key} must be an array`);
  return value as unknown as T[];
}

function graphTools() {
  const entities = new Map<string, Entity>();
  const relations: Relation[] = [];
  const subgraph = (names: Set<string>) => ({
    entities: [...entities.values()].filter((e) => names.has(e.name)),
    relations: relations.filter((r) => names.has(r.from) && names.has(r.to)),
  });
  const answers: Record<string, (args: JsonValue) => unknown> = {
    create_entities: (args) => ({
      entities: list<Entity>('create_entities', args, 'entities').filter((e) => {
        if (entities.has(e.name)) return false;
        entities.set(e.name, { name: e.name, entityType: e.entityType, observations: [...e.observations] });
        return true;
      }),
    }),
    create_relations: (args) => ({
      relations: list<Relation>('create_relations', args, 'relations').filter((r) => {
        if (!entities.has(r.from) || !entities.has(r.to))
          throw new Error(`create_relations: unknown entity in ${r.from} -> ${r.to}`);
        relations.push({ ...r });
        return true;
      }),
    }),
    add_observations: (args) => ({
      results: list<{ entityName: string; contents: string[] }>('add_observations', args, 'observations').map((o) => {
        const entity = entities.get(o.entityName);
        if (entity === undefined) throw new Error(`add_observations: no entity named ${o.entityName}`);
        const added = o.contents.filter((c) => !entity.observations.includes(c));
        entity.observations.push(...added);
        return { entityName: o.entityName, addedObservations: added };
      }),
    }),
    read_graph: () => subgraph(new Set(entities.keys())),
    search_nodes: (args) => {
      const query = String(objectArgs('search_nodes', args).query ?? '').toLowerCase();
      const hits = [...entities.values()].filter((e) =>
        [e.name, e.entityType, ...e.observations].some((t) => t.toLowerCase().includes(query)),
      );
      return subgraph(new Set(hits.map((e) => e.name)));
    },
    open_nodes: (args) => subgraph(new Set(list<string>('open_nodes', args, 'names'))),
  };
  const unsupported = (name: string) => () => {
    throw new Error(`${name}: this recorded server answers reads and additions only`);
  };
  const source = loadCorpus().find((s) => s.file === RECORDED);
  if (source === undefined) throw new Error(`knowledge-graph fixture: the recorded tool list ${RECORDED} is missing`);
  return source.tools.map((tool) => ({
    ...tool,
    execute: async (args: JsonValue) => (answers[tool.name] ?? unsupported(tool.name))(args) as JsonValue,
  }));
}

export default {
  name: 'fixture-knowledge-graph',
  inject: ['tools'],
  apply(ctx: Context) {
    for (const tool of graphTools()) ctx.tools.register(tool);
  },
};
