// The lead data page's words, read by its server module and its page (ADR 050).
export const LEAD_DATA_DELETED = 'Your data has been deleted'
