/**
 * The GitHub Actions workflow `concord init --ci github` writes: provision, N shard jobs, and a merge job
 * that publishes one verdict, the pull-request summary, the JUnit file and the HTML report, and uploads the
 * pending proposals for `concord review --from`.
 */
export function githubWorkflow(shards: number): string {
  const list = Array.from({ length: shards }, (_, i) => i + 1).join(', ');
  return `# The concord gate, sharded. Written by \`concord init --ci github\`; edit freely.
name: concord

on:
  pull_request:
  push:
    branches: [main]

jobs:
  gate:
    name: gate (shard \${{ matrix.shard }}/${shards})
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        shard: [${list}]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      # A Docker engine and the CPython runtime images (idempotent; images are rebuilt only when they change).
      - run: sudo node node_modules/concord/scripts/provision.mjs
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
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - uses: actions/download-artifact@v4
        with:
          pattern: concord-results-*
          path: concord-results
          merge-multiple: true
      # One verdict, exactly as an unsharded gate would give it; also appends the pull-request summary.
      - run: npx concord merge concord-results/*.json
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: concord-report
          path: |
            .concord/report.html
            .concord/report.md
            .concord/junit.xml
      # The proposed snapshot changes: download this artifact and run \`concord review --from concord-pending\`.
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: concord-pending
          path: .concord/pending/
          if-no-files-found: ignore
`;
}
