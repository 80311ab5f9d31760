// zod compiles fast object parsers with `new Function` once it has probed that eval works; the
// probe runs when the first object schema is built, and a strict CSP reports the refused eval
// as a violation even though zod catches it. In the browser zod runs without JIT, so no probe.
// Imported first by app/root.tsx, so it runs before any route module builds a schema.
import { z } from 'zod'

if (typeof document !== 'undefined') z.config({ jitless: true })
