// The layer table of docs/architecture.md, held by dependency-cruiser (ADR 060): no folder cycle,
// no file cycle, and no import the table forbids. `npm test` runs it through
// scripts/check-dependencies.ts, which fails on a violation missing from
// .dependency-cruiser-known-violations.json and on an entry there that no longer occurs. The
// rules are built from the floors in scripts/dependency-floors.cjs.

const { floors } = require('./scripts/dependency-floors.cjs')

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** A regular expression matching every module on the named floors. */
function on(...names) {
  const paths = names.flatMap((name) => {
    const floor = floors.find((f) => f.name === name)
    if (!floor) throw new Error(`no floor ${name}`)
    return floor.paths
  })
  return `^(${paths.map((p) => escapeRegExp(p) + (p.endsWith('/') ? '' : '$')).join('|')})`
}

const forbidden = [
  {
    name: 'no-folder-cycle',
    comment:
      'No two folders import each other, directly or round a loop: the folder graph runs one way. A file directly in app/ belongs to the folder app, which holds all of app/.',
    severity: 'error',
    scope: 'folder',
    from: { path: '^(app|drizzle)(/|$)' },
    to: { circular: true },
  },
  {
    name: 'no-file-cycle',
    comment: 'No file imports itself round a loop.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'validation-imports-nothing-of-the-app',
    comment: 'Validation is the ground floor: zod schemas that import nothing of the app.',
    severity: 'error',
    from: { path: on('validation') },
    to: { path: '^(app|drizzle)/', pathNot: on('validation') },
  },
  {
    name: 'utils-import-no-domain-component-or-route',
    comment:
      'Utils serve every floor: they import no domain folder, no route and no component but the ui/ primitives.',
    severity: 'error',
    from: { path: on('utils') },
    to: { path: on('domain', 'routes', 'components'), pathNot: '^app/components/ui/' },
  },
  {
    name: 'services-import-no-domain-model-component-or-route',
    comment:
      'A service is stateless: it imports other services, utils and validation, never a domain folder, a model, a component or a route.',
    severity: 'error',
    from: { path: on('services') },
    to: { path: on('domain', 'models', 'routes', 'components') },
  },
  {
    name: 'models-only-query',
    comment:
      'A model imports the database, other models, validation and utils: never a domain module, a service, a component or a route.',
    severity: 'error',
    from: { path: on('models') },
    to: { path: on('domain', 'services', 'routes', 'components') },
  },
  {
    name: 'components-import-no-model-database-or-route',
    comment:
      'Components render: they import no model, no database and no route, app/root.tsx included.',
    severity: 'error',
    from: { path: on('components') },
    to: { path: on('models', 'database', 'routes') },
  },
  {
    name: 'components-import-only-types-of-server-modules',
    comment: 'Components run in the browser: of a .server module they import types only.',
    severity: 'error',
    from: { path: on('components') },
    to: { path: '\\.server\\.tsx?$', dependencyTypesNot: ['type-only'] },
  },
  {
    name: 'domain-imports-no-component-or-route',
    comment:
      'Domain modules hold no React: they import no component, no route and not app/root.tsx.',
    severity: 'error',
    from: { path: on('domain') },
    to: { path: on('routes', 'components') },
  },
  {
    name: 'database-imports-only-utils-and-validation',
    comment:
      "drizzle/ is the bottom of routes → domain → models → database: of app/ it imports only its own helpers in utils/, the metrics and traces it records to in observability/ (ADR 097) and validation's schemas.",
    severity: 'error',
    from: { path: on('database') },
    to: { path: '^app/', pathNot: '^app/(utils|observability|validation)/' },
  },
]

module.exports = {
  forbidden,
  options: {
    includeOnly: '^(app|drizzle)/',
    exclude: { path: '\\.test\\.tsx?$' },
    tsConfig: { fileName: 'tsconfig.json' },
    // import type counts: a type is a dependency of the code that names it.
    tsPreCompilationDeps: true,
    metrics: true,
    skipAnalysisNotInRules: true,
  },
}
