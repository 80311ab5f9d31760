// The screens of what other systems did with the account (API keys, SCIM calls, webhook
// deliveries, a lead's record) give times in UTC and say so: the other system's logs do too.

/** A date and time in UTC, "Mar 5, 2025, 2:07 PM UTC"; '—' for none. */
export function utcTime(iso: string | Date | null, timeStyle: 'short' | 'medium' = 'short') {
  return iso
    ? `${new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle, timeZone: 'UTC' })} UTC`
    : '—'
}
