import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/repo-root';

// `npm run lint` runs dependency-cruiser with .dependency-cruiser.cjs (issue 22). Here the same
// command runs on a temporary copy of the workspaces with one file breaking each rule added: it
// fails, names every rule broken, and names nothing but those files, so the code as it is passes.

const run = promisify(execFile);
// With its trailing slash: the paths copied are matched relative to it.
const ROOT = `${REPO_ROOT}/`;
const COPIED = [
  '.dependency-cruiser.cjs',
  'package.json',
  'tsconfig.base.json',
  'protocol',
  'cloud',
  'edge-bridge',
  'web',
  'scripts',
  'locales',
];
/** Built, installed or produced by runs: never imported, and large. */
const NOT_COPIED =
  /[/\\](node_modules|\.tsbuild|dist|data|screenshots|test-results|playwright-report)([/\\]|$)/;

/** The lint:deps command of package.json, run in `cwd`: its exit code and report. */
async function lintDeps(cwd: string): Promise<{ code: number; output: string }> {
  const bin = path.join(ROOT, 'node_modules', '.bin', 'depcruise');
  const args = [
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'err',
    ...'protocol/src cloud/src cloud/test edge-bridge/src edge-bridge/test web/src web/e2e scripts'.split(
      ' ',
    ),
  ];
  try {
    const { stdout, stderr } = await run(bin, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('the dependency rules of npm run lint', () => {
  let copy: string;

  beforeAll(async () => {
    copy = await mkdtemp(path.join(tmpdir(), 'deposito-deps-'));
    for (const entry of COPIED) {
      await cp(path.join(ROOT, entry), path.join(copy, entry), {
        recursive: true,
        filter: (source) => !NOT_COPIED.test(source.slice(ROOT.length)),
      });
    }
    // The workspaces resolve by name through the repository's own installed packages, and each
    // workspace's own node_modules where npm installed one apart (a peer range it would not hoist).
    await symlink(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    for (const workspace of ['protocol', 'cloud', 'edge-bridge', 'web', 'scripts']) {
      const installed = path.join(ROOT, workspace, 'node_modules');
      if (existsSync(installed)) await symlink(installed, path.join(copy, workspace, 'node_modules'), 'dir');
    }
  }, 60_000);

  afterAll(async () => {
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  // One run, as depcruise takes ~10 s here: every violation it reports must be one of the files
  // added, so the code as it is passes, and each added file must be reported under its rule.
  it('fails on a cycle and on each forbidden import, naming the rule, and on nothing else', async () => {
    const files: Record<string, string> = {
      'cloud/src/cycle-a.ts': "import type { B } from './cycle-b';\nexport type A = { b?: B };\n",
      'cloud/src/cycle-b.ts': "import type { A } from './cycle-a';\nexport type B = { a?: A };\n",
      'protocol/src/uses-cloud.ts': "export { systemClock } from '../../cloud/src/clock';\n",
      'web/src/uses-cloud.ts': "export { systemClock } from '../../cloud/src/clock';\n",
      'cloud/src/routes/uses-store.ts': "export type { Store } from '../store/store';\n",
      'cloud/src/store/uses-services.ts': "export { SettingsService } from '../services/settings.service';\n",
      'scripts/relative-into-cloud.ts': "export { systemClock } from '../cloud/src/clock';\n",
      'cloud/src/typo.ts': "export { nothing } from './no-such-module';\n",
    };
    for (const [file, text] of Object.entries(files)) await writeFile(path.join(copy, file), text);
    const { code, output } = await lintDeps(copy);
    expect(code).not.toBe(0);
    const reported = output.split('\n').filter((line) => /^\s*error /.test(line));
    expect(reported.length).toBeGreaterThan(0);
    const added = Object.keys(files);
    expect(reported.filter((line) => !added.some((file) => line.includes(`: ${file}`)))).toEqual([]);
    for (const line of [
      'no-circular: cloud/src/cycle-a.ts',
      'protocol-only-its-libraries: protocol/src/uses-cloud.ts → cloud/src/clock.ts',
      'web-only-protocol: web/src/uses-cloud.ts → cloud/src/clock.ts',
      'routes-not-store: cloud/src/routes/uses-store.ts → cloud/src/store/store.ts',
      'store-not-services: cloud/src/store/uses-services.ts → cloud/src/services/settings.service.ts',
      'workspaces-through-exports: scripts/relative-into-cloud.ts → cloud/src/clock.ts',
      'no-unresolvable: cloud/src/typo.ts → ./no-such-module',
    ]) {
      expect(output).toContain(line);
    }
  }, 60_000);
});
