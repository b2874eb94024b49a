/**
 * Import boundaries of src/ (checked by test/unit/import-boundaries.test.ts, so by the CI run):
 * dependencies point inward — http, operator, providers and scim reach the store through the port in core,
 * never through an adapter; the two adapters (src/store/memory, src/store/redis) never import each other; core
 * depends on nothing of ours outside core; a route file of src/http/routes imports no other route file; no cycles.
 */
module.exports = {
  forbidden: [
    {
      name: 'core-is-inward',
      severity: 'error',
      comment: 'src/core imports only src/core (node builtins and npm packages are fine)',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'no-store-adapters-outside-composition',
      severity: 'error',
      comment:
        'scim, http, operator, providers and delivery use the store port (src/core/store-port.ts), never an adapter',
      from: { path: '^src/(scim|http|operator|providers|delivery)/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'http-routes-stand-alone',
      severity: 'error',
      comment:
        'no route file (src/http/routes, the setup page) imports a file of routes/: what two route groups share lives outside routes/',
      from: { path: '^src/http/(routes|setup)/' },
      to: { path: '^src/http/routes/' },
    },
    {
      name: 'memory-store-not-redis',
      severity: 'error',
      comment:
        'the memory adapter shares nothing with the Redis one but what sits at src/store/ (open-store composes both)',
      from: { path: '^src/store/memory/' },
      to: { path: '^src/store/redis/' },
    },
    {
      name: 'redis-store-not-memory',
      severity: 'error',
      comment:
        'the Redis adapter shares nothing with the memory one but what sits at src/store/ (open-store composes both)',
      from: { path: '^src/store/redis/' },
      to: { path: '^src/store/memory/' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'a cycle between modules (type-only imports included) means a missing seam',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
