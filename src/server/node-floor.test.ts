import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { NODE_FLOOR, unsupportedNodeNote } from './bootstrap';

const root = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');

describe('the Node.js floor', () => {
  test('start-up names an older Node as unsupported and stays quiet from the floor up', () => {
    expect(unsupportedNodeNote('20.20.2')).toContain('older than Baton supports (22.12 or newer');
    expect(unsupportedNodeNote('22.11.0')).toContain('Node.js 22.11.0');
    expect(unsupportedNodeNote('22.12.0')).toBeNull();
    expect(unsupportedNodeNote('22.23.3')).toBeNull();
    expect(unsupportedNodeNote('24.9.0')).toBeNull();
  });

  test('package.json engines, @types/node, the README and CI say the same floor', () => {
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.engines.node).toBe(`>=${NODE_FLOOR}`);
    // the type check sees the oldest supported Node's API, so it catches newer calls
    expect(pkg.devDependencies['@types/node']).toBe(`^${NODE_FLOOR}.0`);
    expect(read('README.md')).toContain(`Node.js ${NODE_FLOOR} or newer`);
    const [major, minor] = NODE_FLOOR.split('.');
    expect(read('.ci/run')).toContain(`(a===${major}&&b>=${minor})`);
    expect(read('.ci/run')).toContain(`node_bin ${major}`);
  });

  test('CI runs on each Node the README names: 22 for the suite, 24 for the PostgreSQL run, 20 for the domain', () => {
    expect(read('README.md')).toContain('(22 or 24 LTS; Node 20 reached its end of life');
    expect(read('.ci/run')).toContain('node24="$(node_bin 24)"');
    expect(read('.ci/run')).toContain('PATH="$node24:$PATH" TEST_DATABASE_URL=');
    expect(read('.ci/run')).toContain('PATH="$(node_bin 20):$PATH" npx vitest run src/shared');
  });
});
