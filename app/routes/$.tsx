// Any unknown path: a 404 inside the tenant's branded layout (root ErrorBoundary).
export async function loader() {
  throw new Response('Not Found', { status: 404 })
}

export async function action() {
  throw new Response('Not Found', { status: 404 })
}

export default function NotFound() {
  return null
}
