// The fields of a contact someone types in for another person (a scanned card, a lead captured
// offline): one set of inputs beside the one set of rules (validation/contact-fields.ts), so the
// two forms cannot drift apart.
import { type FieldMetadata, getTextareaProps } from '@conform-to/react'
import { ErrorList, FormField } from '#app/components/forms'

// biome-ignore lint/suspicious/noExplicitAny: a field of either form's schema, as getInputProps takes it
type Field = FieldMetadata<any, any, any>

/**
 * Name, company, email and phone in a grid, then the note. `cardDetails` adds what a business
 * card also shows: the title after the name, the website after the phone.
 */
export function ContactFields({
  fields,
  cardDetails,
}: {
  fields: Record<'fullName' | 'company' | 'email' | 'phoneNumber' | 'note', Field>
  cardDetails?: Record<'jobTitle' | 'website', Field>
}) {
  return (
    <>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField label="Name" field={fields.fullName} autoComplete="off" />
        {cardDetails ? (
          <FormField label="Title" field={cardDetails.jobTitle} autoComplete="off" />
        ) : null}
        <FormField label="Company" field={fields.company} autoComplete="off" />
        <FormField label="Email" field={fields.email} type="email" autoComplete="off" />
        <FormField label="Phone" field={fields.phoneNumber} type="tel" autoComplete="off" />
        {cardDetails ? (
          <FormField label="Website" field={cardDetails.website} autoComplete="off" />
        ) : null}
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fields.note.id} className="text-sm font-medium">
          Note
        </label>
        <textarea
          {...getTextareaProps(fields.note)}
          rows={3}
          className="rounded-md border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus-visible:border-brand aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
        />
        <ErrorList id={fields.note.errorId} errors={fields.note.errors} />
      </div>
    </>
  )
}
