// Who may see a card (roles-teams-admin.md §2.6), as its one home states it
// (app/cards/card-visibility.ts). tests/integration/card-visibility.test.ts and
// card-surfaces.test.ts prove every surface applies it through the card gate; this is the
// table itself, every visibility against every kind of viewer.
import { describe, expect, test } from 'vitest'
import {
  type CardViewerRelation,
  isPublicCard,
  type VisibilityVerdict,
  visibilityVerdict,
} from '#app/cards/card-visibility'
import { VISIBILITIES, type Visibility } from '#app/validation/settings'

const VIEWERS = {
  'signed out': null,
  owner: { isOwner: true, emailConfirmed: true },
  'owner, email unconfirmed': { isOwner: true, emailConfirmed: false },
  'signed in': { isOwner: false, emailConfirmed: true },
  'signed in, email unconfirmed': { isOwner: false, emailConfirmed: false },
} satisfies Record<string, CardViewerRelation>

const EXPECTED: Record<Visibility, Record<keyof typeof VIEWERS, VisibilityVerdict>> = {
  public: {
    'signed out': true,
    owner: true,
    'owner, email unconfirmed': true,
    'signed in': true,
    'signed in, email unconfirmed': true,
  },
  team: {
    'signed out': false,
    owner: true,
    'owner, email unconfirmed': true,
    'signed in': 'if-teammate',
    'signed in, email unconfirmed': 'if-teammate',
  },
  // Anyone can sign up with an address they do not own: only a confirmed one counts.
  contacts: {
    'signed out': false,
    owner: true,
    'owner, email unconfirmed': true,
    'signed in': 'if-contact',
    'signed in, email unconfirmed': false,
  },
  private: {
    'signed out': false,
    owner: true,
    'owner, email unconfirmed': true,
    'signed in': false,
    'signed in, email unconfirmed': false,
  },
}

describe.each(VISIBILITIES)('a %s card', (visibility) => {
  test.each(Object.entries(VIEWERS))('for a viewer %s', (who, viewer) => {
    expect(visibilityVerdict(visibility, viewer)).toBe(
      EXPECTED[visibility][who as keyof typeof VIEWERS],
    )
  })

  test('is public, and may be cached for everyone, only when anyone may see it', () => {
    expect(isPublicCard(visibility)).toBe(visibility === 'public')
  })
})
