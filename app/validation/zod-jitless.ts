// zod compiles fast object parsers with `new Function` once it has probed that eval works; the
// probe runs when the first object schema is built, and a strict CSP reports the refused eval
// as a violation even though zod catches it. In the browser zod runs without JIT, so no probe.
// Imported first by app/entry.client.tsx and app/root.tsx, so it runs before any route module
// builds a schema.
//
// zod keeps its configuration in globalThis.__zod_globalConfig, creating it only when absent
// (zod/v4/core/core.js), so it is set here without importing zod: pages without a form, the
// public card page among them, do not download zod for this (issue 16, ADR 022).
// tests/unit/zod-jitless.test.ts checks that zod reads it.
type ZodGlobal = { __zod_globalConfig?: { jitless?: boolean } }

export function turnOffZodJit() {
  const global = globalThis as ZodGlobal
  global.__zod_globalConfig ??= {}
  global.__zod_globalConfig.jitless = true
}

if (typeof document !== 'undefined') turnOffZodJit()
