import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { cardSummary } from '#app/cards/card-view'
import { publicCardAction, publicCardLoader } from '#app/cards/public-card-route.server'
import cardVisitorScript from '#app/components/cards/card-visitor.js?url'
import { CardForwarded, CardNotFound, PublicCardPage } from '#app/components/cards/public-card-page'
import { keepDataAfterClientFailure, serverActionOrFailure } from '#app/components/client-failure'
import { RouteLoadError } from '#app/components/layout/route-error'
import { useTranslate } from '#app/components/layout/use-translate'
import type { PageHandle } from '#app/root'
import { translator } from '#app/utils/i18n/translate'
import { type Language, SOURCE_LANGUAGE } from '#app/validation/languages'

// A signed-out visitor gets the server's HTML and this one small script instead of React
// (ADR 022: the page's JavaScript budget); a signed-in one gets the React page.
export const handle: PageHandle = { visitorScript: cardVisitorScript }

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  // The page's language, which the root loader chose (ADR 105).
  const t = translator(
    (matches?.[0]?.data as { language?: Language } | undefined)?.language ?? SOURCE_LANGUAGE,
  )
  if (data && !data.found && data.forwarding) {
    return [{ title: t('card.forwardedTitle') }, { name: 'robots', content: 'noindex' }]
  }
  if (!data?.found) {
    return [{ title: t('card.notFoundTitle') }, { name: 'robots', content: 'noindex' }]
  }
  const { card, previewImage: preview } = data
  const name = `${card.firstName} ${card.lastName}`.trim()
  // Only what the gate let through (data.extras): a hidden field never reaches a preview.
  const description = cardSummary({ ...card, bio: data.extras.bio })
  return [
    { title: t('card.pageTitle', { name }) },
    { name: 'description', content: description },
    { property: 'og:type', content: 'profile' },
    { property: 'og:title', content: name },
    { property: 'og:description', content: description },
    { property: 'og:url', content: data.cardUrl },
    // The card drawn as a link preview (ADR 024); the photo alone for a card without one.
    ...(preview
      ? [
          { property: 'og:image', content: preview.url },
          { property: 'og:image:type', content: 'image/png' },
          { property: 'og:image:width', content: String(preview.width) },
          { property: 'og:image:height', content: String(preview.height) },
          { property: 'og:image:alt', content: name },
        ]
      : data.imageUrl
        ? [{ property: 'og:image', content: data.imageUrl }]
        : []),
    { name: 'twitter:card', content: preview ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: name },
    { name: 'twitter:description', content: description },
    ...(preview || data.imageUrl
      ? [{ name: 'twitter:image', content: preview?.url ?? data.imageUrl }]
      : []),
    ...(data.noindex ? [{ name: 'robots', content: 'noindex' }] : []),
    { tagName: 'link', rel: 'canonical', href: data.cardUrl },
  ]
}

// The loader's caching headers (no-cache, and its offer to the page cache) reach the document.
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  // Spec: a missing id goes home.
  if (!params.ref) throw redirect('/')
  return publicCardLoader(request, context, { reference: params.ref })
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  publicCardAction(request, context, { reference: params.ref ?? '' })

export default function PublicCard() {
  const data = useLoaderData<typeof loader>()
  if (!data.found) {
    return data.forwarding ? <CardForwarded message={data.forwarding.message} /> : <CardNotFound />
  }
  return (
    <PublicCardPage
      card={data.card}
      extras={data.extras}
      vcardUrl={`/card/${data.card.id}/vcard`}
      signedIn={data.signedIn}
      isOwner={data.isOwner}
      connected={data.connected}
      consent={data.consent}
      qrUrl={data.qrUrl}
      wallet={data.wallet}
    />
  )
}

export const clientAction = serverActionOrFailure
export const shouldRevalidate = keepDataAfterClientFailure

export function ErrorBoundary() {
  const t = useTranslate()
  return <RouteLoadError message={t('card.loadError')} />
}
