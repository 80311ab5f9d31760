// Test files that cannot share a process with other files (ADR 034), each with its reason; none
// today. Every other file runs with `isolate: false`: one process per worker runs file after file
// and keeps the app's modules loaded, instead of a new process importing the app again for each
// file (about 3 s a file). tests/setup/process-state.ts gives each of those files the
// environment and empty caches of a new process, and restores the functions a file spied on.
//
// A hoisted vi.mock of an app module or a builtin needs a process of its own: the modules that
// import the real one are already loaded, and the mock would outlive the file. A file that spies
// instead (vi.spyOn on the module's namespace, which the app's transformed imports read at each
// call; a builtin's CommonJS object with node:module's syncBuiltinESMExports) shares a process.
// tests/unit/isolated-files.test.ts fails on a vi.mock outside this list.
export const ISOLATED_FILES: Record<string, string> = {}
