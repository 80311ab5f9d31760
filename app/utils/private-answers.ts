// What answers a signed-in request is theirs alone (issue 39 point 3): no shared cache may keep
// it, and the browser may not store it for the back button after sign-out. entry.server.tsx
// makes every page and data answer of a signed-in request `private, no-store`; resource routes
// (downloads, JSON such as /account/data-export, redirects) are not handed to it, so server.ts
// applies this rule to every answer of a signed-in request as its headers are written.

export const PRIVATE_NO_STORE = 'private, no-store'

/**
 * The Cache-Control an answer to a signed-in request goes out with: the route's own when it says
 * `no-store` or names the answer `public` (the same bytes for everyone: media, icons), else
 * `private, no-store`, whatever the route left unsaid or allowed (`private, no-cache`).
 */
export function signedInCacheControl(current: string | undefined) {
  const directives = (current ?? '')
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim())
  if (directives.includes('no-store') || directives.includes('public')) return current as string
  return PRIVATE_NO_STORE
}
