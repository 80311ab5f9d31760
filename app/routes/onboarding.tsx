// The onboarding wizard (/onboarding, `?mode=card` for a new card): the loader and action are the
// wizard module's, the screen is components/cards/wizard-page.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { wizardAction, wizardLoader } from '#app/cards/wizard-route.server'
import { WizardPage } from '#app/components/cards/wizard-page'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'

export const meta: MetaFunction = () => [{ title: 'Create Your Profile' }]

export const loader = ({ request, context }: LoaderFunctionArgs) => wizardLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => wizardAction(request, context)

export default function Onboarding() {
  return (
    <SignedInLayout>
      <WizardPage {...useLoaderData<typeof loader>()} />
    </SignedInLayout>
  )
}
