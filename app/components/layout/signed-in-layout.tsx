// The sidebar on every signed-in page outside /dashboard (issue 30 point 4): contacts, the QR
// screen, profile, settings, CRM settings and the wizard mount the same SidebarLayout the
// dashboard layout (routes/dashboard.tsx) mounts, with the role and the remembered state the root
// loader reads for a signed-in person. Signed out (a visitor's /qrcode/{cardId}), the page alone.
import type { ReactNode } from 'react'
import { useRootData } from '#app/components/layout/root-data'
import { SidebarLayout } from './app-sidebar'

export function SignedInLayout({ children }: { children: ReactNode }) {
  const root = useRootData()
  if (!root?.user) return <>{children}</>
  return (
    <SidebarLayout
      role={root.user.role}
      productName={root.branding.name}
      initialOpen={root.sidebarOpen}
    >
      {children}
    </SidebarLayout>
  )
}
