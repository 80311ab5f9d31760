// The root route's data for any component (out of root.tsx, issue 40 point 1: components never
// import the root route).
import { useRouteLoaderData } from '@remix-run/react'
import type { rootLoader } from '#app/navigation/root-loader.server'

export type RootLoaderData = ReturnType<typeof useRootData>
export function useRootData() {
  return useRouteLoaderData<typeof rootLoader>('root')
}
