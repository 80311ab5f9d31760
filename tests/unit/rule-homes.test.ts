// One home per rule (issue 27 point 4, ADR 036): each rule's number and message are written in
// one module that the browser and the server import. This test fails when a copy reappears
// anywhere else in app/, and when a conform form takes its constraints from anywhere but
// formConstraint (which leaves out the maxLength that would cut a value silently). The card
// visibility rule's table is tested in card-visibility-rule.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { canWriteNfc } from '#app/utils/nfc'
import {
  IMAGE_PURPOSES,
  INVALID_IMAGE_MESSAGE,
  isAcceptedImageFile,
  MAX_UPLOAD_BYTES,
} from '#app/validation/images'
import { INVITATION_TTL_MS, INVITATIONS_VALID_FOR } from '#app/validation/invitation-lifetime'
import { TEAM_NAME_TOO_LONG, TEAM_NAME_TOO_SHORT } from '#app/validation/names'
import { fitsOneMore, PLANS } from '#app/validation/plans'
import { readSearch, SEARCH_MAX_LENGTH, SEARCH_TOO_LONG_MESSAGE } from '#app/validation/search'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(name) ? [file] : []
  })
}

const files = sourceFiles('app').map((file) => ({ file, text: readFileSync(file, 'utf8') }))

/** Files outside `home` whose lines match `copy`. */
function copiesOutside(home: string, copy: RegExp) {
  return files
    .filter(({ file }) => file !== path.normalize(home))
    .flatMap(({ file, text }) =>
      text
        .split('\n')
        .filter((line) => copy.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    )
}

test.each([
  // The image types, size and message.
  ['app/validation/images.ts', /5 \* 1024 \* 1024|\b5 ?MB\b|image\/jpeg,image\/png/],
  // The invitation lifetime: a number of days written beside an invitation.
  ['app/validation/invitation-lifetime.ts', /invitation.*\b7 days|\b7 days.*invitation/i],
  // The seat check: members and pending invitations against the plan's limit.
  ['app/validation/plans.ts', /pendingInvitations \+ 1|pendingInvitations \+ 1 >/],
  // Name lengths and their messages.
  ['app/validation/names.ts', /must be at least 2 characters|\.min\(2,/],
  // A list's search: `?q=` read, limited and refused only by readSearch, never cut to a length
  // (a cut query answers something else than was asked) nor limited by a number of its own.
  [
    'app/validation/search.ts',
    /\.slice\(0,\s*(?:100|200)\)|\bget\(\s*['"]q['"]\s*\)|(?:search|\bq\b).*\b(?:100|200)\b/i,
  ],
  // Conform's constraints only through formConstraint.
  ['app/components/forms.tsx', /getZodConstraint\(/],
  // Each image purpose's maxima, which the browser scales to before the server does again.
  [
    'app/validation/images.ts',
    /(profilePicture|logo|background|brandLogo|favicon): \{ width|width: \d+, height: \d+, quality/,
  ],
  // Who may see a card, and whether it is public (cacheable for everyone): a visibility
  // compared or switched on anywhere but the rule's home.
  [
    'app/cards/card-visibility.ts',
    /\bvisibility\s*[!=]==?\s*['"](public|contacts|private)['"]|case ['"](public|team|contacts|private)['"]:/,
  ],
  // Whether a device can write NFC (Web NFC, never on iOS): the QR screen and the home's tile.
  ['app/utils/nfc.ts', /['"]NDEFReader['"] in/],
])('%s is the only home of its rule', (home, copy) => {
  expect(copiesOutside(home, copy)).toEqual([])
})

test('the homes hold the spec’s numbers and texts', () => {
  expect(MAX_UPLOAD_BYTES).toBe(5 * 1024 * 1024)
  expect(INVALID_IMAGE_MESSAGE).toBe(
    'Invalid file. Please upload a JPG, PNG, or WebP image under 5MB.',
  )
  expect(isAcceptedImageFile({ size: MAX_UPLOAD_BYTES, type: 'image/gif' })).toBe(true)
  expect(isAcceptedImageFile({ size: MAX_UPLOAD_BYTES + 1, type: 'image/png' })).toBe(false)
  expect(isAcceptedImageFile({ size: 10, type: 'image/svg+xml' })).toBe(false)
  expect(IMAGE_PURPOSES.profilePicture).toMatchObject({ width: 500, height: 500 })
  expect(IMAGE_PURPOSES.favicon).toMatchObject({ width: 32, height: 32, exact: true })
  expect(INVITATION_TTL_MS).toBe(7 * 24 * 60 * 60 * 1000)
  expect(INVITATIONS_VALID_FOR).toBe('Invitations are valid for 7 days.')
  expect(TEAM_NAME_TOO_SHORT).toBe('Team name must be at least 2 characters')
  expect(TEAM_NAME_TOO_LONG).toBe('Team name must be at most 50 characters')
  expect(SEARCH_TOO_LONG_MESSAGE).toBe('Search must be at most 100 characters')
  const long = 'a'.repeat(SEARCH_MAX_LENGTH + 1)
  expect(readSearch(new URLSearchParams({ q: ` ${'a'.repeat(SEARCH_MAX_LENGTH)} ` }))).toEqual({
    q: 'a'.repeat(SEARCH_MAX_LENGTH),
    searchError: null,
  })
  expect(readSearch(new URLSearchParams({ q: long }))).toEqual({
    q: long,
    searchError: SEARCH_TOO_LONG_MESSAGE,
  })
  // What the box shows again of a refused query is cut for display only.
  expect(readSearch(new URLSearchParams({ q: 'a'.repeat(1000) })).q).toHaveLength(200)
  expect(readSearch(new URLSearchParams())).toEqual({ q: '', searchError: null })
  // Team Basic holds 3: two members and a pending invitation leave no seat.
  expect(fitsOneMore(PLANS.team_basic, { members: 2, pendingInvitations: 0 })).toBe(true)
  expect(fitsOneMore(PLANS.team_basic, { members: 2, pendingInvitations: 1 })).toBe(false)
  expect(fitsOneMore(PLANS.free, { members: 0, pendingInvitations: 0 })).toBe(false)
})

test('NFC writing: Web NFC, and iOS treated as unsupported (spec §5)', () => {
  const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/140.0 Mobile'
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15'
  const ipad = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15'
  expect(canWriteNfc(android, true)).toBe(true)
  expect(canWriteNfc(android, false)).toBe(false)
  expect(canWriteNfc(iphone, true)).toBe(false)
  expect(canWriteNfc(ipad, true)).toBe(false)
})
