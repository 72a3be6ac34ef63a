/** What the workflow is written for: its shard count and the CPythons it sets up. */
export interface WorkflowOptions {
  /** 1: one job; N > 1: an images job, N shard jobs and a merge job. */
  shards: number;
  /** The floor CPython (`floor` of concord.config.yml) and the newest one the gate checks the stubs on. */
  pythons: readonly string[];
}

/**
 * Where the runtime images are saved between workflow runs (restored by actions/cache, keyed by their content hash).
 */
const IMAGES = '${{ runner.temp }}/concord-images';

const CHECKOUT_AND_NODE = `      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm`;

function setupPython(pythons: readonly string[]): string {
  return `      # The floor CPython the stubs must serve and the newest one the gate checks them on.
      - uses: actions/setup-python@v5
        with:
          python-version: |
${pythons.map((v) => `            ${v}`).join('\n')}`;
}

/**
 * The runtime images. `build`: the images job, which builds and saves them only when the cache has none of
 * their content hash; `load`: a one-job workflow, which loads them from the cache or builds them; `restore`:
 * a shard, which loads what the images job saved.
 */
function images(mode: 'build' | 'load' | 'restore'): string {
  const action = mode === 'restore' ? 'actions/cache/restore@v4' : 'actions/cache@v4';
  return `      # The runtime images python-container runs in, keyed by the hash of what they are built from.
      - id: images
        run: echo "key=$(npx concord provision --cache-key)" >> "$GITHUB_OUTPUT"
      - id: image-cache
        uses: ${action}
        with:
          path: ${IMAGES}
          key: \${{ steps.images.outputs.key }}${mode === 'restore' ? '\n          fail-on-cache-miss: true' : ''}
      # ${mode === 'build' ? 'On a cache miss: a Docker engine, debootstrap and docker import build the images, saved for the shards.' : mode === 'load' ? 'Loads the cached images, or builds them (debootstrap and docker import) and saves them for the next run.' : 'Loads the images the images job saved.'}
      - ${mode === 'build' ? "if: steps.image-cache.outputs.cache-hit != 'true'\n        " : ''}run: sudo env "PATH=$PATH" npx concord provision --image-cache "$RUNNER_TEMP/concord-images"`;
}

/** concord's verdict cache: checks of an unchanged SDK are not run again. */
const VERDICT_CACHE = `      - uses: actions/cache@v4
        with:
          path: .concord/cache
          key: concord-cache-\${{ github.sha }}
          restore-keys: concord-cache-`;

const REPORTS = `      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: concord-report
          path: |
            .concord/report.html
            .concord/report.md
            .concord/junit.xml
          if-no-files-found: ignore
      # The proposed snapshot changes: download this artifact and run \`concord review --from concord-pending\`.
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: concord-pending
          path: .concord/pending/
          if-no-files-found: ignore`;

const HEADER = (
  what: string,
) => `# The concord gate${what}. Written by \`concord init --ci github\`; edit freely (docs/ci.md).
name: concord

on:
  pull_request:
  push:
    branches: [main]

permissions:
  contents: read

concurrency:
  group: concord-\${{ github.ref }}
  cancel-in-progress: true

jobs:`;

/**
 * The GitHub Actions workflow `concord init --ci github` writes. One job by default: set-up, the runtime
 * images (cached by content hash), the gate (annotations at each failing pair's scenario, the step summary),
 * the reports and the pending proposals as artifacts. With shards: the images are built once in their own
 * job, each shard restores them, and a merge job gives the one verdict.
 */
export function githubWorkflow({ shards, pythons }: WorkflowOptions): string {
  if (shards <= 1) {
    return `${HEADER('')}
  gate:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
${CHECKOUT_AND_NODE}
${setupPython(pythons)}
      - run: npm ci
${images('load')}
${VERDICT_CACHE}
      # Exit 1 on any mismatch; failing pairs are annotated at their scenario file, the summary goes to the run page.
      - run: npx concord gate --reporter junit
${REPORTS}
`;
  }
  const list = Array.from({ length: shards }, (_, i) => i + 1).join(', ');
  return `${HEADER(', sharded')}
  images:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
${CHECKOUT_AND_NODE}
      - run: npm ci
${images('build')}

  gate:
    needs: images
    name: gate (shard \${{ matrix.shard }}/${shards})
    runs-on: ubuntu-latest
    timeout-minutes: 30
    strategy:
      fail-fast: false
      matrix:
        shard: [${list}]
    steps:
${CHECKOUT_AND_NODE}
${setupPython(pythons)}
      - run: npm ci
${images('restore')}
${VERDICT_CACHE}
      # Each shard writes its result; the merge job gives the verdict, so a failing shard does not stop it.
      - run: npx concord gate --shard \${{ matrix.shard }}/${shards} --results concord-results-\${{ matrix.shard }}.json || true
      - uses: actions/upload-artifact@v4
        with:
          name: concord-results-\${{ matrix.shard }}
          path: concord-results-\${{ matrix.shard }}.json

  merge:
    needs: gate
    if: always()
    runs-on: ubuntu-latest
    timeout-minutes: 10
    steps:
${CHECKOUT_AND_NODE}
      - run: npm ci
      - uses: actions/download-artifact@v4
        with:
          pattern: concord-results-*
          path: concord-results
          merge-multiple: true
      # One verdict, exactly as an unsharded gate would give it; also writes the step summary.
      - run: npx concord merge concord-results/*.json
${REPORTS}
`;
}
