/**
 * The pages a signed-out visitor opens from a shared link: a card, its short link in either case
 * (ADR 041: QR codes carry it in capitals) and the contact page standing in for one (`/card/:ref`,
 * `/c/:slug`, `/contact/:ref`). Their routes name a `visitorScript` (ADR 022); the
 * root loader inlines the stylesheet for them, and the auth guard speaks for navigations to them.
 */
export const VISITOR_PAGE_PATH = /^\/(card|contact|c|C)\/[^/]+$/
