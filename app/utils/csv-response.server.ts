// CSV downloads (contacts, people, a team member's end users, analytics): one shape for all.

/** A CSV cell: quoted, and never starting a formula when opened in a spreadsheet. */
export function csvCell(value: string) {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return `"${safe.replaceAll('"', '""')}"`
}

/** A CSV download: every cell quoted and formula-safe, with a BOM for spreadsheet apps. */
export function csvResponse(lines: string[][], filename: string) {
  const body = `${lines.map((line) => line.map(csvCell).join(',')).join('\r\n')}\r\n`
  return new Response(`\uFEFF${body}`, {
    headers: {
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
    },
  })
}
