// An export (CSV, vCards) asked for with a search the list refuses: one answer for all of them.
// A file of something else than was searched would look like an answer; an empty one would look
// like "nothing matched". The download says why instead.

/** 400 with the search's message as plain text, never cached, never sniffed as a file type. */
export function refusedExport(message: string) {
  return new Response(message, {
    status: 400,
    headers: {
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'text/plain; charset=utf-8',
    },
  })
}
