import type { AppLoadContext } from '@remix-run/node'
import { requireUser } from '#app/auth/guards.server'
import { listContacts } from '#app/models/contacts.server'
import { buildVCard } from '#app/services/vcard.server'
import { csvResponse } from '#app/utils/csv-response.server'
import { refusedExport } from '#app/utils/refused-export.server'
import { readContactFilters } from '#app/validation/contact-filters'
import { readSearch } from '#app/validation/search'
import { withTenant } from '#drizzle/db.server'

export async function exportContacts(
  request: Request,
  context: AppLoadContext,
  format: 'csv' | 'vcf',
) {
  const { tenant, user } = await requireUser(request, context)
  const params = new URL(request.url).searchParams
  const { q, searchError } = readSearch(params)
  if (searchError) return refusedExport(searchError)
  // The list's filters too: the export links of a filtered list carry them.
  const filters = readContactFilters(params)
  const contacts = await withTenant(tenant.id, (tx) =>
    listContacts(tx, tenant.id, user.id, { search: q, ...filters }, 10_000),
  )
  const headers = { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' }
  if (format === 'csv') {
    const rows = [
      [
        'Full name',
        'Email',
        'Phone',
        'Company',
        'Job title',
        'Note',
        'Source',
        'Added',
        // A lead's consent (ADR 050): the version of the agency's text, when, and on which page.
        'Consent version',
        'Consent given at',
        'Consent page',
      ],
      ...contacts.map((c) => [
        c.fullName,
        c.email,
        c.phoneNumber,
        c.company,
        c.jobTitle,
        c.note,
        c.source,
        c.createdAt.toISOString(),
        c.consentVersion === null ? '' : String(c.consentVersion),
        c.consentGivenAt?.toISOString() ?? '',
        c.consentPage ?? '',
      ]),
    ]
    return csvResponse(rows, 'contacts.csv')
  }
  const body = contacts
    .map((c) => {
      const [firstName = '', ...rest] = c.fullName.split(' ')
      return buildVCard({
        firstName,
        lastName: rest.join(' '),
        email: c.email,
        phoneNumber: c.phoneNumber,
        company: c.company,
        jobTitle: c.jobTitle,
        note: c.note,
      })
    })
    .join('')
  return new Response(body, {
    headers: {
      ...headers,
      'Content-Type': 'text/vcard; charset=utf-8',
      'Content-Disposition': 'attachment; filename="contacts.vcf"',
    },
  })
}
