import { redirect } from '@remix-run/node'

// Spec: a card link without an id goes home.
export const loader = () => redirect('/')
