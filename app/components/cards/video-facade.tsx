import { Play } from 'lucide-react'
import { type CSSProperties, useState } from 'react'
import type { CardView } from '#app/cards/card-view'
import {
  type CardVideo,
  parseVideoUrl,
  videoEmbedUrl,
  videoPageUrl,
} from '#app/validation/card-video'
import { isHexColor } from '#app/validation/hex-color'

const PROVIDER_NAMES = { youtube: 'YouTube', vimeo: 'Vimeo' } as const

/**
 * The poster's colours: the card's own colour where it has one, else the agency's two. Nothing
 * is fetched for it (no thumbnail from the provider): the page loads nothing from YouTube or
 * Vimeo before the tap (ADR 083).
 */
function posterStyle(card: Pick<CardView, 'background'>): CSSProperties {
  const from =
    card.background.kind === 'color' && isHexColor(card.background.value)
      ? card.background.value
      : 'var(--color-brand)'
  return {
    backgroundImage: `linear-gradient(135deg, ${from} 0%, var(--color-brand-secondary) 100%)`,
  }
}

/** The player itself, as card-visitor.js builds it for the page without React. */
function VideoPlayer({ video, title }: { video: CardVideo; title: string }) {
  return (
    <iframe
      src={videoEmbedUrl(video)}
      title={title}
      data-video-player
      className="absolute inset-0 h-full w-full"
      allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
      allowFullScreen
      referrerPolicy="strict-origin-when-cross-origin"
    />
  )
}

/**
 * A card's video as a facade (issue 41 point 6, ADR 083): a poster in the card's colours with a
 * play button; the provider's player (its hundreds of KB of script) loads only when tapped.
 * Without JavaScript it is a link to the video on the provider's site. The frame keeps the
 * poster's 16:9 box, so nothing moves when it replaces it. `playable` false (the editor's
 * preview) keeps it a link: the editor's pages may not frame the players.
 */
export function VideoFacade({
  videoUrl,
  firstName,
  card,
  playable = true,
}: {
  videoUrl: string
  firstName: string
  card: Pick<CardView, 'background'>
  playable?: boolean
}) {
  const [playing, setPlaying] = useState(false)
  const video = parseVideoUrl(videoUrl)
  if (!video) return null
  const provider = PROVIDER_NAMES[video.provider]
  const title = firstName ? `${firstName}'s video on ${provider}` : `Video on ${provider}`
  return (
    <div
      className="relative aspect-video w-full max-w-sm overflow-hidden rounded-2xl bg-gray-900 shadow-lg ring-1 ring-black/5"
      data-video-facade-box
    >
      {playing ? (
        <VideoPlayer video={video} title={title} />
      ) : (
        <a
          href={videoPageUrl(video)}
          target="_blank"
          rel="noopener noreferrer"
          data-video-facade
          data-embed-url={playable ? videoEmbedUrl(video) : undefined}
          data-video-title={title}
          onClick={(event) => {
            if (!playable) return
            event.preventDefault()
            setPlaying(true)
          }}
          className="group absolute inset-0 flex flex-col items-center justify-center gap-3 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-inset focus-visible:ring-white"
          style={posterStyle(card)}
        >
          <span aria-hidden className="absolute inset-0 bg-black/25" />
          <span
            aria-hidden
            className="relative flex h-16 w-16 items-center justify-center rounded-full bg-white/95 text-gray-900 shadow-lg transition-transform group-hover:scale-105"
          >
            <Play className="ml-1 h-7 w-7 fill-current" />
          </span>
          <span className="relative rounded-full bg-black/75 px-3 py-1 text-sm font-medium text-white">
            Watch video<span className="sr-only">: {title}</span>
          </span>
        </a>
      )}
    </div>
  )
}
