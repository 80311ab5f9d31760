// The floors of app/ (docs/architecture.md), top to bottom: the one list of which folder sits on
// which floor. .dependency-cruiser.cjs builds its layer rules from it, scripts/check-dependencies.ts
// fails when a file or folder of app/ or drizzle/ sits on no floor, and docs/architecture.md's floor
// table is generated from it (`node scripts/check-dependencies.ts --write-docs`; a unit test
// fails when the two differ).

/** An import goes down, never up; .dependency-cruiser.cjs says what each floor may not import. */
const floors = [
  {
    name: 'routes',
    holds: 'one module per URL, and the files that serve them all',
    paths: [
      'app/routes/',
      'app/root.tsx',
      'app/entry.client.tsx',
      'app/entry.server.tsx',
      'app/routes.ts',
      'app/load-context.ts',
      // What plugs the domain together beside the entry points (ADR 064): the job registry,
      // the start-up's database preparation, and the demo seed.
      'app/job-handlers.server.ts',
      'app/prepare-database.server.ts',
      'app/demo/',
    ],
  },
  { name: 'components', holds: 'React: screens and `ui/` primitives', paths: ['app/components/'] },
  {
    name: 'domain',
    holds: "the product's rules and side effects",
    paths: [
      'app/accessibility/',
      'app/actions/',
      'app/agencies/',
      'app/announcements/',
      'app/api/',
      'app/audit/',
      'app/auth/',
      'app/backups/',
      'app/billing/',
      'app/branding/',
      'app/cache/',
      'app/cards/',
      'app/crm/',
      'app/dashboard/',
      'app/data-export/',
      'app/domains/',
      'app/email/',
      'app/jobs/',
      'app/leads/',
      'app/media/',
      'app/navigation/',
      'app/notifications/',
      'app/people/',
      'app/profile/',
      'app/rate-limits/',
      'app/scim/',
      'app/settings/',
      'app/sso/',
      'app/storage/',
      'app/team-admin/',
      'app/teams/',
      'app/templates/',
      'app/tenancy/',
      'app/user-accounts/',
      'app/wallet/',
      'app/webhooks/',
    ],
  },
  { name: 'models', holds: 'queries only', paths: ['app/models/'] },
  { name: 'services', holds: 'stateless helpers with no tenant data', paths: ['app/services/'] },
  { name: 'database', holds: 'the schema and the connection', paths: ['drizzle/'] },
  {
    name: 'utils',
    holds: 'small helpers every floor uses, and the configuration',
    // observability/: metrics, traces and health paths that every floor records to (ADR 097).
    paths: ['app/utils/', 'app/observability/', 'app/env.server.ts'],
  },
  {
    name: 'validation',
    holds: 'zod schemas shared by forms and actions',
    paths: ['app/validation/'],
  },
]

module.exports = { floors }
