// The workspaces' dependency rules, checked by `npm run lint` (issue 22). Every import counts,
// type-only ones too: a cycle of types still ties modules together for whoever changes them.
// scripts/dependency-rules.test.ts shows that each rule fails on a temporary copy that breaks it.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No module may depend on itself through others (type-only imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'protocol-only-its-libraries',
      comment: 'protocol is shared by every workspace: it imports only itself and its own npm libraries.',
      severity: 'error',
      from: { path: '^protocol/' },
      to: { pathNot: ['^protocol/', '(^|/)node_modules/'] },
    },
    {
      name: 'web-only-protocol',
      comment: 'The browser app knows the server only through protocol.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(cloud|edge-bridge|scripts)/' },
    },
    {
      name: 'servers-not-web',
      comment: 'The cloud and the bridge never import the browser app.',
      severity: 'error',
      from: { path: '^(cloud|edge-bridge|protocol)/' },
      to: { path: '^web/' },
    },
    {
      name: 'routes-not-store',
      comment: 'Route areas reach the database through services, never the store directly (tests may).',
      severity: 'error',
      from: { path: '^cloud/src/routes/', pathNot: '\\.test\\.ts$' },
      to: { path: '^cloud/src/store/' },
    },
    {
      name: 'store-not-services',
      comment: 'The store is below the services: it never imports them.',
      severity: 'error',
      from: { path: '^cloud/src/store/' },
      to: { path: '^cloud/src/services/' },
    },
    {
      name: 'workspaces-through-exports',
      comment: 'Scripts use a workspace by its package name and exports, never a relative path into it.',
      severity: 'error',
      from: { path: '^scripts/' },
      to: { path: '^(cloud|web|edge-bridge|protocol)/', dependencyTypesNot: ['aliased-workspace'] },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: ['(^|/)\\.tsbuild/', '(^|/)dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
