import type { TestSpecification, Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { projectOrderSequencer } from './test-sequencer';

/** A test file of `project` in sequence group `group`. */
const spec = (project: string, group: number, file: string) =>
  ({
    project: { name: project, config: { sequence: { groupOrder: group }, isolate: false } },
    moduleId: `/repo/${project}/${file}`,
  }) as unknown as TestSpecification;

describe('projectOrderSequencer', () => {
  it('keeps groups first, then the projects in the order given, each in Vitest order (longest first)', async () => {
    const durations: Record<string, number> = {
      'cloud:cloud/long.test.ts': 20_000,
      'cloud:cloud/short.test.ts': 100,
      'scripts:scripts/deploy.test.ts': 6_000,
      'edge-bridge:edge-bridge/daemon.test.ts': 8_000,
      'web:web/page.test.tsx': 3_000,
    };
    const ctx = {
      config: { root: '/repo' },
      cache: {
        getFileTestResults: (key: string) =>
          key in durations ? { duration: durations[key], failed: false } : undefined,
        getFileStats: () => ({ size: 1 }),
      },
    } as unknown as Vitest;
    const Sequencer = projectOrderSequencer(['web', 'edge-bridge', 'scripts', 'cloud']);
    const sorted = await new Sequencer(ctx).sort([
      spec('cloud', 1, 'short.test.ts'),
      spec('scripts', 1, 'deploy.test.ts'),
      spec('cloud', 1, 'long.test.ts'),
      spec('edge-bridge', 1, 'daemon.test.ts'),
      spec('web', 0, 'page.test.tsx'),
    ]);
    expect(sorted.map((s) => s.moduleId)).toEqual([
      '/repo/web/page.test.tsx',
      '/repo/edge-bridge/daemon.test.ts',
      '/repo/scripts/deploy.test.ts',
      '/repo/cloud/long.test.ts',
      '/repo/cloud/short.test.ts',
    ]);
  });
});
