#!/usr/bin/env node
// Collects the real-world schema corpus the SDK renderers are tested on. Run by hand, never in CI:
//   node scripts/collect-schema-corpus.mjs
// It writes codemode/schema/corpus/*.json (tool sets: [{name, description, parameters, output?}]) and
// sources.json (where each came from, with versions). Three kinds of source:
// - MCP servers from npm, installed into a fresh temporary folder, started over stdio without network,
//   and asked `initialize` + `tools/list`;
// - models of a Python tool framework (pydantic, from Debian's python3-pydantic) turned into schemas by
//   the framework itself;
// - OpenAPI 3.0 component schemas (`nullable`, `discriminator`, `allOf` inheritance).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OUT = new URL('../codemode/schema/corpus/', import.meta.url).pathname;

/** Packages, the bin they start and arguments; keys they insist on get a placeholder (they are never used). */
const MCP_SERVERS = [
  { pkg: '@modelcontextprotocol/server-everything', args: ['stdio'] },
  { pkg: '@modelcontextprotocol/server-filesystem', args: ['{dir}'] },
  { pkg: '@modelcontextprotocol/server-memory', args: [] },
  { pkg: '@modelcontextprotocol/server-sequential-thinking', args: [] },
  { pkg: '@upstash/context7-mcp', args: [] },
  { pkg: '@notionhq/notion-mcp-server', args: [], env: { NOTION_TOKEN: 'placeholder' } },
  { pkg: 'firecrawl-mcp', args: [], env: { FIRECRAWL_API_KEY: 'placeholder' } },
  { pkg: 'tavily-mcp', args: [], env: { TAVILY_API_KEY: 'placeholder' } },
];

const LIST_TIMEOUT_MS = 30_000;

function log(line) {
  process.stderr.write(`${line}\n`);
}

/** The command that runs a package's bin inside a network namespace of its own when one can be made. */
function isolated(command) {
  const probe = spawnSync('unshare', ['--net', 'true']);
  return probe.status === 0 ? ['unshare', ['--net', ...command]] : [command[0], command.slice(1)];
}

function binOf(root, pkg) {
  const manifest = JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${pkg} has no bin`);
  return { path: join(root, 'node_modules', pkg, bin), version: manifest.version };
}

/** Starts a server over stdio, lists its tools with JSON-RPC, and stops it. */
function listTools(command, env) {
  return new Promise((resolve, reject) => {
    const [file, args] = isolated(command);
    const child = spawn(file, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(
      () => finish(new Error(`no tools/list answer in ${LIST_TIMEOUT_MS} ms; stderr: ${stderr.slice(-500)}`)),
      LIST_TIMEOUT_MS,
    );
    const finish = (error, tools) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(tools);
    };
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => finish(error));
    child.on('exit', (code) => finish(new Error(`exited with ${code}; stderr: ${stderr.slice(-500)}`)));
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (!line.startsWith('{')) continue;
        const message = JSON.parse(line);
        if (message.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list', params: {} });
        } else if (message.id === 2) {
          if (message.error) finish(new Error(JSON.stringify(message.error)));
          else finish(undefined, message.result.tools);
        }
      }
    });
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'concord-corpus', version: '1' } },
    });
  });
}

function toDefinition(tool) {
  const definition = { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema ?? {} };
  if (tool.outputSchema !== undefined) definition.output = tool.outputSchema;
  return definition;
}

function fileName(pkg) {
  return `mcp-${pkg.replace(/^@/, '').replace(/[/]/g, '-')}.json`;
}

async function collectMcp(sources) {
  const root = mkdtempSync(join(tmpdir(), 'concord-corpus-npm-'));
  try {
    const install = spawnSync(
      'npm',
      ['install', '--prefix', root, '--no-audit', '--no-fund', '--ignore-scripts', ...MCP_SERVERS.map((s) => s.pkg)],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    if (install.status !== 0) throw new Error(`npm install failed (${install.status})`);
    const dir = mkdtempSync(join(tmpdir(), 'concord-corpus-fs-'));
    for (const server of MCP_SERVERS) {
      try {
        const bin = binOf(root, server.pkg);
        const args = server.args.map((arg) => (arg === '{dir}' ? dir : arg));
        const tools = await listTools([process.execPath, bin.path, ...args], server.env ?? {});
        const file = fileName(server.pkg);
        writeFileSync(join(OUT, file), `${JSON.stringify(tools.map(toDefinition), null, 2)}\n`);
        sources.push({
          file,
          kind: 'mcp',
          package: server.pkg,
          version: bin.version,
          tools: tools.length,
          how: 'tools/list over stdio',
        });
        log(`${server.pkg}@${bin.version}: ${tools.length} tools`);
      } catch (error) {
        log(`${server.pkg}: skipped: ${error.message.split('\n')[0]}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Python models as a tool author writes them; the framework writes the schemas. */
const PYDANTIC_MODELS = String.raw`
import json, sys
from datetime import date, datetime
from enum import Enum
from typing import Dict, List, Literal, Optional, Tuple, Union
import pydantic
from pydantic import BaseModel, Field, conint, constr

class Color(str, Enum):
    red = "red"
    green = "green"
    blue = "blue"

class Priority(int, Enum):
    low = 1
    high = 2

class Address(BaseModel):
    """A postal address."""
    street: str
    city: str = Field(..., min_length=1, max_length=80)
    postcode: Optional[constr(regex=r"^[0-9]{5}$")] = None

class Person(BaseModel):
    name: str = Field(..., description="Full name.")
    email: Optional[str] = Field(None, description="Contact address.")
    birthday: Optional[date] = None
    home: Optional[Address] = None
    favourite: Color = Color.blue

class TreeNode(BaseModel):
    """A node of a category tree."""
    label: str
    children: List["TreeNode"] = []
    parent: Optional["TreeNode"] = None

TreeNode.update_forward_refs()

class Cat(BaseModel):
    pet_type: Literal["cat"]
    meows: int = Field(..., ge=0)

class Dog(BaseModel):
    pet_type: Literal["dog"]
    barks: float = Field(..., gt=0, le=10.5)

class AdoptArgs(BaseModel):
    """Adopt a pet."""
    pet: Union[Cat, Dog] = Field(..., discriminator="pet_type")
    owner: Person
    when: datetime
    priority: Priority = Priority.low

class SearchArgs(BaseModel):
    query: str = Field(..., min_length=1, description="What to look for.")
    limit: conint(ge=1, le=100) = 20
    tags: List[str] = Field(default_factory=list, max_items=10)
    weights: Dict[str, float] = {}
    point: Tuple[float, float] = (0.0, 0.0)
    span: Optional[Tuple[int, int]] = None
    colors: Optional[List[Color]] = None

class SearchHit(BaseModel):
    id: str
    score: float = Field(..., ge=0, le=1)
    path: List[TreeNode] = []

class SearchResult(BaseModel):
    hits: List[SearchHit]
    total: int
    next_cursor: Optional[str] = None

class UpdateArgs(BaseModel):
    id: str
    patch: Dict[str, Union[str, int, bool, None]]
    tree: TreeNode

TOOLS = [
    ("search", "Search the catalogue.", SearchArgs, SearchResult),
    ("adopt", "Adopt a pet for a person.", AdoptArgs, Person),
    ("update_tree", "Replace a category tree.", UpdateArgs, TreeNode),
    ("add_person", "Add a person.", Person, None),
]
tools = []
for name, description, args, output in TOOLS:
    tool = {"name": name, "description": description, "parameters": args.schema()}
    if output is not None:
        tool["output"] = output.schema()
    tools.append(tool)
print(json.dumps({"version": pydantic.VERSION, "python": sys.version.split()[0], "tools": tools}))
`;

function collectPydantic(sources) {
  const result = spawnSync('/usr/bin/python3', ['-I', '-c', PYDANTIC_MODELS], { encoding: 'utf8' });
  if (result.status !== 0) {
    log(`pydantic: skipped (install Debian's python3-pydantic): ${result.stderr.trim().split('\n').at(-1)}`);
    return;
  }
  const { version, python, tools } = JSON.parse(result.stdout);
  writeFileSync(join(OUT, 'pydantic.json'), `${JSON.stringify(tools, null, 2)}\n`);
  sources.push({
    file: 'pydantic.json',
    kind: 'pydantic',
    package: 'python3-pydantic (Debian)',
    version,
    python,
    tools: tools.length,
    how: 'BaseModel.schema()',
  });
  log(`pydantic ${version} on CPython ${python}: ${tools.length} tools`);
}

/** OpenAPI 3.0 operations as an OpenAPI-to-tools bridge lists them: components inlined under definitions. */
function collectOpenApi(sources) {
  const components = {
    Pet: {
      type: 'object',
      required: ['id', 'petType'],
      properties: {
        id: { type: 'integer', format: 'int64', readOnly: true },
        name: { type: 'string', nullable: true, maxLength: 64 },
        petType: { type: 'string' },
        tags: { type: 'array', items: { $ref: '#/definitions/Tag' }, nullable: true },
      },
      discriminator: { propertyName: 'petType' },
    },
    Cat: {
      allOf: [
        { $ref: '#/definitions/Pet' },
        {
          type: 'object',
          properties: { huntingSkill: { type: 'string', enum: ['lazy', 'aggressive'], default: 'lazy' } },
        },
      ],
    },
    Dog: {
      allOf: [
        { $ref: '#/definitions/Pet' },
        {
          type: 'object',
          properties: { packSize: { type: 'integer', minimum: 0, nullable: true } },
          required: ['packSize'],
        },
      ],
    },
    Tag: {
      type: 'object',
      properties: { id: { type: 'integer' }, label: { type: 'string' } },
      additionalProperties: false,
    },
    Error: {
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'integer', format: 'int32' }, message: { type: 'string', nullable: true } },
    },
  };
  const tools = [
    {
      name: 'listPets',
      description: 'List all pets.',
      parameters: {
        type: 'object',
        properties: {
          limit: { type: 'integer', maximum: 100, format: 'int32', nullable: true },
          tag: { type: 'string' },
        },
      },
      output: {
        type: 'array',
        items: { oneOf: [{ $ref: '#/definitions/Cat' }, { $ref: '#/definitions/Dog' }] },
        definitions: components,
      },
    },
    {
      name: 'createPet',
      description: 'Create a pet.',
      parameters: {
        type: 'object',
        properties: {
          body: {
            oneOf: [{ $ref: '#/definitions/Cat' }, { $ref: '#/definitions/Dog' }],
            discriminator: { propertyName: 'petType', mapping: { cat: '#/definitions/Cat' } },
          },
        },
        required: ['body'],
        definitions: components,
      },
      output: { $ref: '#/definitions/Pet', definitions: components },
    },
    {
      name: 'updatePetTags',
      description: 'Replace the tags of a pet.',
      parameters: {
        type: 'object',
        properties: {
          petId: { type: 'integer', format: 'int64' },
          tags: { type: 'array', items: { $ref: '#/definitions/Tag' }, uniqueItems: true },
          metadata: { type: 'object', additionalProperties: { type: 'string', nullable: true } },
        },
        required: ['petId', 'tags'],
        definitions: components,
      },
      output: { oneOf: [{ $ref: '#/definitions/Pet' }, { $ref: '#/definitions/Error' }], definitions: components },
    },
  ];
  writeFileSync(join(OUT, 'openapi.json'), `${JSON.stringify(tools, null, 2)}\n`);
  sources.push({
    file: 'openapi.json',
    kind: 'openapi',
    package: 'OpenAPI 3.0 components (petstore style, written for the corpus)',
    version: '3.0',
    tools: tools.length,
    how: 'operations as tools',
  });
}

mkdirSync(OUT, { recursive: true });
const sources = [];
await collectMcp(sources);
collectPydantic(sources);
collectOpenApi(sources);
sources.sort((a, b) => (a.file < b.file ? -1 : 1));
writeFileSync(join(OUT, 'sources.json'), `${JSON.stringify(sources, null, 2)}\n`);
log(`wrote ${sources.length} tool sets to ${OUT}`);
