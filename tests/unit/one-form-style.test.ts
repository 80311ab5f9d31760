// One form style (issue 27 point 2, ADR 036): every form that posts is a conform form with the
// schema its action parses (useSchemaForm, or useForm with formConstraint), so a new form
// written by hand, with the browser's own tooltips and a maxLength that cuts values, fails here.
// The few forms without fields to check are listed below with the reason; they may not carry
// hand-written constraints either.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { FORM_VALIDATION } from '#app/components/forms'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return /\.tsx$/.test(name) ? [file] : []
  })
}

type PostForm = { file: string; line: number; tag: string; body: string; conform: boolean }

/** The opening tag from `start` (`<Form …>`), braces and strings inside attributes skipped. */
function openingTag(text: string, start: number) {
  let depth = 0
  let quote: string | null = null
  for (let i = start; i < text.length; i++) {
    const char = text[i]
    if (quote) {
      if (char === quote) quote = null
    } else if (char === '"' || char === "'" || char === '`') quote = char
    else if (char === '{') depth++
    else if (char === '}') depth--
    else if (char === '>' && depth === 0) return text.slice(start, i + 1)
  }
  throw new Error(`No end of the tag at ${start}`)
}

/** Every <form>, <Form> and <fetcher.Form> (any `x.Form`) that posts, with its body. */
function postForms(file: string): PostForm[] {
  const text = readFileSync(file, 'utf8')
  // useSchemaForm, or conform's useForm given formConstraint (the schema's hints, no maxLength).
  const conformFile = /\buseSchemaForm\(|\bformConstraint\(/.test(text)
  const forms: PostForm[] = []
  for (const match of text.matchAll(/<((?:\w+\.)?Form|form)[\s>]/g)) {
    const start = match.index
    const name = match[1] as string
    const tag = openingTag(text, start)
    if (!/\bmethod=["']post["']/i.test(tag)) continue
    const close = tag.endsWith('/>') ? start + tag.length : text.indexOf(`</${name}>`, start)
    forms.push({
      file: file.split(path.sep).join('/'),
      line: text.slice(0, start).split('\n').length,
      tag,
      body: text.slice(start, close),
      conform: conformFile && tag.includes('{...getFormProps('),
    })
  }
  return forms
}

/**
 * Forms without a field to validate: a button with hidden inputs, or fields that only take a
 * choice from a list the page offers. `marker` is text in the form that tells which it is.
 */
const WITHOUT_FIELDS: Array<{ file: string; marker: string; why: string }> = [
  {
    file: 'app/components/account/data-export-panel.tsx',
    marker: 'value="request"',
    why: 'Download my data, Try again, Prepare a new copy (ADR 052): one button',
  },
  {
    file: 'app/components/account/data-export-panel.tsx',
    marker: 'name="exportId"',
    why: "the ready export's Download zip (ADR 052): one button, the id hidden",
  },
  {
    file: 'app/components/teams/billing-section.tsx',
    marker: 'value="billing-portal"',
    why: "Update Billing Info and View Invoices: buttons that open Stripe's portal",
  },
  {
    file: 'app/components/settings/pages.tsx',
    marker: 'value="upgrade"',
    why: "a settings Billing tab's Upgrade: one button that opens Stripe Checkout (ADR 051)",
  },
  {
    file: 'app/components/people/admin-team-page.tsx',
    marker: 'value="set-member-plan"',
    why: "a team member's Change Plan: one select of the plans (ADR 051)",
  },
  {
    file: 'app/components/auth/two-factor.tsx',
    marker: 'action="/auth/logout"',
    why: 'sign out from a sign-in step: one button',
  },
  {
    file: 'app/routes/account.two-factor.tsx',
    marker: 'value="regenerate"',
    why: 'new recovery codes: one button',
  },
  {
    file: 'app/components/people/personal-card-manage-page.tsx',
    marker: 'value="remove"',
    why: "a personal card's removal by its owner (ADR 106): one button",
  },
  {
    file: 'app/components/leads/lead-data-page.tsx',
    marker: 'value="delete"',
    why: "a lead's deletion of its data: one button",
  },
  {
    file: 'app/components/agencies/agencies-page.tsx',
    marker: 'value="delete"',
    why: 'the delete confirmation: one button',
  },
  {
    file: 'app/components/people/person-dialogs.tsx',
    marker: 'name="intent" value={intent}',
    why: "a person's row dialogs (Change Role, Change Plan, Assign to Team Member, Hand Over): one select each, the current role or plan disabled",
  },
  {
    file: 'app/components/contacts/contact-parts.tsx',
    marker: 'value="set-personal"',
    why: 'a contact’s Personal switch (ADR 049): one button',
  },
  {
    file: 'app/components/templates/templates-page.tsx',
    marker: 'name="intent" value={intent}',
    why: 'a card template’s Apply, Reset to template and Delete: one button each (ids in hidden fields)',
  },
  {
    file: 'app/components/people/people-ui.tsx',
    marker: 'name="intent" value={intent}',
    why: 'the people screens’ delete confirmation: one button',
  },
  {
    file: 'app/components/teams/invitation-page.tsx',
    marker: 'action="/auth/logout"',
    why: 'sign out to answer as someone else: one button',
  },
  {
    file: 'app/components/teams/invitation-page.tsx',
    marker: 'name="intent"',
    why: 'accept or decline an invitation: two buttons',
  },
  {
    file: 'app/components/teams/plans-view.tsx',
    marker: 'name="plan"',
    why: 'confirm an upgrade: the chosen plan, hidden',
  },
  {
    file: 'app/components/teams/team-page.tsx',
    marker: 'value="delete-team"',
    why: 'the team’s delete confirmation: one button',
  },
  {
    file: 'app/components/teams/team-page.tsx',
    marker: 'value="change-role"',
    why: 'a member’s role: one select of the team roles',
  },
  {
    file: 'app/components/teams/team-page.tsx',
    marker: 'value="remove-member"',
    why: 'remove a member: one button',
  },
  {
    file: 'app/components/teams/team-page.tsx',
    marker: 'value="cancel-invitation"',
    why: 'cancel an invitation: one button',
  },
  {
    file: 'app/components/crm/crm-form-parts.tsx',
    marker: 'name={keepField} value="0"',
    why: "remove a CRM's saved key, token or credentials (GoHighLevel, HubSpot, Salesforce): one button",
  },
  {
    file: 'app/components/crm/api-settings-page.tsx',
    marker: 'value="retry"',
    why: 'retry a failed sync: one button',
  },
  {
    file: 'app/components/cards/card-editor-page.tsx',
    marker: 'multipart/form-data',
    why: 'the images: file inputs, checked by the image field (validation/images.ts)',
  },
  {
    file: 'app/components/layout/account-deletion-banner.tsx',
    marker: 'action="/account/keep"',
    why: 'Keep my account: one button',
  },
  {
    file: 'app/components/people/plan-requests-panel.tsx',
    marker: 'value="decide-plan-request"',
    why: 'a plan request’s Grant and Decline: two buttons',
  },
  {
    file: 'app/components/settings/pages.tsx',
    marker: 'value="request-plan"',
    why: 'Request Team Member Basic: one button',
  },
  {
    file: 'app/components/teams/plans-view.tsx',
    marker: 'value="withdraw-plan-request"',
    why: 'withdraw a plan request: one button',
  },
  {
    file: 'app/components/cards/cards-list-page.tsx',
    marker: 'name="intent" value={intent}',
    why: 'the card’s Delete and Archive confirmations (ADR 095): one button each',
  },
  {
    file: 'app/components/cards/cards-list-page.tsx',
    marker: 'value="restore"',
    why: 'an archived card’s Restore (ADR 095): one button',
  },
  {
    file: 'app/components/cards/card-editor-page.tsx',
    marker: 'value="restore"',
    why: 'the archived card’s banner Restore (ADR 095): one button',
  },
  {
    file: 'app/components/cards/cards-list-page.tsx',
    marker: 'value="set-default"',
    why: 'set as default: one button',
  },
  {
    file: 'app/components/cards/public-card-page.tsx',
    marker: 'data-connect-form',
    why: 'Connect: one button',
  },
  {
    file: 'app/components/sso/sso-settings-page.tsx',
    marker: 'name={idName} value={id}',
    why: 'a provider’s Test connection and Remove, a domain’s Verify, Require SSO and Remove (ADR 088): one button each, the id hidden',
  },
  {
    file: 'app/components/layout/email-confirmation-banner.tsx',
    marker: 'fetcher.Form',
    why: 'resend the confirmation email: one button',
  },
  {
    file: 'app/components/layout/auth-guard.tsx',
    marker: 'action="/auth/logout"',
    why: 'sign out: one button',
  },
  {
    file: 'app/components/branding/sending-domain.tsx',
    marker: 'CHECK_FORM_ID',
    why: 'check the DNS records: a button elsewhere on the page submits it',
  },
  {
    file: 'app/components/branding/sending-domain.tsx',
    marker: 'value="remove-sending-domain"',
    why: 'remove the sending domain: one button',
  },
  {
    file: 'app/components/branding/domain-verification.tsx',
    marker: 'VERIFY_FORM_ID',
    why: 'verify the custom domain: a button elsewhere on the page submits it',
  },
  {
    file: 'app/components/layout/link-page.tsx',
    marker: 'method="POST"',
    why: 'an emailed link’s page (unsubscribe, stop a card’s updates, confirm "Keep me updated", ADR 102): one button, hidden fields only (whom it concerns is in the signed link)',
  },
  {
    file: 'app/components/cards/wizard-page.tsx',
    marker: 'multipart/form-data',
    why: 'the wizard’s images: file inputs, checked by the image field (validation/images.ts)',
  },
  {
    file: 'app/components/cards/wizard-page.tsx',
    marker: 'Creating card...',
    why: 'the wizard’s last step: one button',
  },
  {
    file: 'app/routes/auth.confirm-email.tsx',
    marker: 'name="token"',
    why: 'confirm the email: one button, the token from the link hidden',
  },
  {
    file: 'app/components/layout/email-confirmation-banner.tsx',
    marker: 'value="dismiss"',
    why: 'dismiss the banner: one button',
  },
]

const forms = ['app/components', 'app/routes'].flatMap(sourceFiles).flatMap(postForms)

function allowance(form: PostForm) {
  return WITHOUT_FIELDS.find(
    (entry) => entry.file === form.file && form.body.includes(entry.marker),
  )
}

test('the scan finds the forms (a change of markup would otherwise pass everything)', () => {
  expect(forms.length).toBeGreaterThan(40)
  expect(forms.filter((form) => form.conform).length).toBeGreaterThan(15)
})

test('every form that posts is a conform form with its action’s schema, or listed without fields', () => {
  const handWritten = forms
    .filter((form) => !form.conform && !allowance(form))
    .map((form) => `${form.file}:${form.line} ${form.tag.replace(/\s+/g, ' ')}`)
  expect(handWritten).toEqual([])
})

test('each listed form is still there, and has no text field of its own', () => {
  for (const entry of WITHOUT_FIELDS) {
    const matching = forms.filter(
      (form) => !form.conform && form.file === entry.file && form.body.includes(entry.marker),
    )
    expect(matching, `${entry.file}: ${entry.why}`).not.toEqual([])
    for (const form of matching) {
      const textInputs = form.body.match(
        /<(?:input|textarea)\b(?![^>]*type=["'](?:hidden|file|radio|checkbox)["'])[^>]*>/g,
      )
      expect(textInputs, `${form.file}:${form.line} ${entry.why}`).toBeNull()
    }
  }
})

test('no hand-written length limits in the screens: the schema says them', () => {
  const limits = ['app/components', 'app/routes']
    .flatMap(sourceFiles)
    .filter((file) => !file.endsWith(path.join('components', 'forms.tsx')))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => /\b(?:minLength|maxLength)\b\s*[:=]/.test(line))
        .map(({ line, index }) => `${file}:${index + 1} ${line.trim()}`),
    )
  expect(limits).toEqual([])
})

// Issue 41 point 1: a message shown as a field lost focus moved what was below it between the
// press and the release of a click, and the click (on "Forgot password", say) landed on nothing.
// Every conform form checks on submit and then on input, from one constant.
test('every conform form checks on submit, then on input, and shows every message of a submit: FORM_VALIDATION and withEveryError, no timing of its own', () => {
  expect(FORM_VALIDATION).toEqual({ shouldValidate: 'onSubmit', shouldRevalidate: 'onInput' })
  const files = ['app/components', 'app/routes'].flatMap(sourceFiles)
  const calls = files.flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return [...text.matchAll(/\buseForm(?:<[^(]*>)?\(\{/g)].map((match) => {
      // The options object: from its brace to the one that closes it.
      let depth = 0
      let end = match.index + match[0].length - 1
      for (; end < text.length; end++) {
        if (text[end] === '{') depth++
        else if (text[end] === '}' && --depth === 0) break
      }
      return {
        at: `${file}:${text.slice(0, match.index).split('\n').length}`,
        options: text.slice(match.index, end + 1),
        // withEveryError(useForm(…)): the holder re-renders for every field's errors (ADR 068).
        wrapped: /withEveryError\(\s*$/.test(
          text.slice(Math.max(0, match.index - 40), match.index),
        ),
      }
    })
  })
  // useSchemaForm's own call, and the profile and confirm-email forms that call conform directly
  // (the profile's own parse, the confirm-email form's lack of a schema).
  expect(calls.length).toBeGreaterThanOrEqual(3)
  expect(
    calls.filter((call) => !call.options.includes('...FORM_VALIDATION')).map((call) => call.at),
  ).toEqual([])
  expect(calls.filter((call) => !call.wrapped).map((call) => call.at)).toEqual([])
  const ownTiming = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, index) => ({ line, index }))
      .filter(({ line }) => /\bshould(?:Re)?[vV]alidate\s*:\s*['"]/.test(line))
      .filter(({ line }) => !line.includes('export const FORM_VALIDATION'))
      .map(({ line, index }) => `${file}:${index + 1} ${line.trim()}`),
  )
  expect(ownTiming).toEqual([])
})
