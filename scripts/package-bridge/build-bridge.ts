// Builds the edge bridge into plain JavaScript for a site box: ES modules (an entry and the chunks
// it loads when needed) bundling edge-bridge, protocol and their pure-JavaScript dependencies
// (esbuild), plus better-sqlite3 copied from node_modules with its compiled module, the one
// dependency that cannot be bundled. No tsx and no TypeScript at run time.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../support/repo-root';
import { build } from 'esbuild';

export const BRIDGE_DIST = path.join(REPO_ROOT, 'edge-bridge', 'dist');
/** The bundle's file name inside the built folder. */
export const BUNDLE_FILE = 'edge-bridge.mjs';

/**
 * Node options the installed command runs with (the wrapper and the bench use these). Lite mode (no
 * optimising compilers, feedback allocated lazily) keeps a short command and an idle daemon several
 * MB smaller, and a bridge's work (a poll every few seconds, a door now and then) never needs the
 * optimisers; the bridge runs no WebAssembly, and saying so keeps Node from warning about it. Small
 * semi-spaces keep an idle daemon's heap small.
 */
export const NODE_OPTIONS_FOR_SITE = ['--lite-mode', '--no-expose-wasm', '--max-semi-space-size=1'];

/** The runtime packages copied as they are: better-sqlite3 and what its loader requires. */
const NATIVE_PACKAGES: Record<string, string[]> = {
  'better-sqlite3': ['package.json', 'LICENSE', 'lib', 'build/Release/better_sqlite3.node'],
  bindings: ['package.json', 'LICENSE.md', 'bindings.js'],
  'file-uri-to-path': ['package.json', 'LICENSE', 'index.js'],
};

export interface BuiltBridge {
  /** The folder to install as /usr/lib/deposito-edge-bridge. */
  dir: string;
  bridgeVersion: string;
  protocolVersion: string;
  /** The compiled SQLite module shipped in `dir`. */
  nativeModule: string;
}

function packageVersion(workspace: string): string {
  const file = path.join(REPO_ROOT, workspace, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Builds into `<outDir>` (default edge-bridge/dist/lib), replacing what was there. */
export async function buildBridge(outDir = path.join(BRIDGE_DIST, 'lib')): Promise<BuiltBridge> {
  const bridgeVersion = packageVersion('edge-bridge');
  const protocolVersion = packageVersion('protocol');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: {
      [BUNDLE_FILE.replace(/\.mjs$/, '')]: path.join(REPO_ROOT, 'edge-bridge', 'src', 'cli', 'main.ts'),
    },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    // What only some commands load (the daemon, the SQLite buffer, the simulator: cli/lazy-modules.ts)
    // goes into chunks of its own, so `state` or `--version` neither parse nor run it.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    define: {
      __DEPOSITO_BUILD_VERSIONS__: JSON.stringify({ bridge: bridgeVersion, protocol: protocolVersion }),
    },
    // Bundled CommonJS packages (commander, pino, ws…) call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __bridgeRequire } from 'node:module'; const require = __bridgeRequire(import.meta.url);",
    },
    // Less to parse at each start-up of a short command; names are kept for readable stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  for (const [name, entries] of Object.entries(NATIVE_PACKAGES)) {
    const from = path.join(REPO_ROOT, 'node_modules', name);
    for (const entry of entries) {
      const target = path.join(outDir, 'node_modules', name, entry);
      mkdirSync(path.dirname(target), { recursive: true });
      cpSync(path.join(from, entry), target, { recursive: true });
    }
  }
  writeFileSync(
    path.join(outDir, 'package.json'),
    JSON.stringify(
      { name: 'deposito-edge-bridge', version: bridgeVersion, private: true, type: 'module' },
      null,
      2,
    ) + '\n',
  );
  return {
    dir: outDir,
    bridgeVersion,
    protocolVersion,
    nativeModule: path.join(
      outDir,
      'node_modules',
      'better-sqlite3',
      'build',
      'Release',
      'better_sqlite3.node',
    ),
  };
}
