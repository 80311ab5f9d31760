// A card's video (issue 41 point 6, ADR 083): a YouTube or Vimeo address, kept as the player's
// provider and id, never as the address typed. The card page shows it as a facade that loads the
// player only when tapped; the forms and the action share this module.
import { z } from 'zod'

export const VIDEO_PROVIDERS = ['youtube', 'vimeo'] as const
export type VideoProvider = (typeof VIDEO_PROVIDERS)[number]
export type CardVideo = { provider: VideoProvider; id: string }

export const VIDEO_URL_MESSAGE =
  'Enter a YouTube or Vimeo link: youtube.com/watch?v=…, youtu.be/…, youtube.com/shorts/… or vimeo.com/…'

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/
const VIMEO_ID = /^[0-9]{1,12}$/
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com'])
const VIMEO_HOSTS = new Set(['vimeo.com', 'www.vimeo.com'])

/**
 * The provider and id of one of the forms the card accepts, or null: youtube.com/watch?v=ID,
 * youtu.be/ID, youtube.com/shorts/ID and vimeo.com/ID, over https (or http, as people paste it),
 * with or without www. Anything else (a playlist, a channel, another host) is refused.
 */
export function parseVideoUrl(value: string): CardVideo | null {
  const text = value.trim()
  if (text === '' || text.length > 300 || /\s/.test(text)) return null
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  if (url.username || url.password || url.port) return null
  const host = url.hostname.toLowerCase()
  const segments = url.pathname.split('/').filter(Boolean)
  if (YOUTUBE_HOSTS.has(host)) {
    const id =
      segments.length === 1 && segments[0] === 'watch'
        ? url.searchParams.get('v')
        : segments.length === 2 && segments[0] === 'shorts'
          ? segments[1]
          : null
    return id && YOUTUBE_ID.test(id) ? { provider: 'youtube', id } : null
  }
  if (host === 'youtu.be') {
    const id = segments.length === 1 ? segments[0] : null
    return id && YOUTUBE_ID.test(id) ? { provider: 'youtube', id } : null
  }
  if (VIMEO_HOSTS.has(host)) {
    const id = segments.length === 1 ? segments[0] : null
    return id && VIMEO_ID.test(id) ? { provider: 'vimeo', id } : null
  }
  return null
}

/** The video's page on its provider's site: the facade's link without JavaScript. */
export function videoPageUrl(video: CardVideo) {
  return video.provider === 'youtube'
    ? `https://www.youtube.com/watch?v=${video.id}`
    : `https://vimeo.com/${video.id}`
}

/** The player the facade loads on a tap (YouTube's privacy-enhanced host: no cookies before play). */
export function videoEmbedUrl(video: CardVideo) {
  return video.provider === 'youtube'
    ? `https://www.youtube-nocookie.com/embed/${video.id}?autoplay=1`
    : `https://player.vimeo.com/video/${video.id}?autoplay=1`
}

/** The only hosts a card page may frame (the Content-Security-Policy's frame-src there). */
export const VIDEO_FRAME_ORIGINS = [
  'https://www.youtube-nocookie.com',
  'https://player.vimeo.com',
] as const

/** A stored video, read back: anything that is not a known provider and a valid id is none. */
export function storedVideo(provider: string | null, id: string | null): CardVideo | null {
  if (provider === 'youtube' && id && YOUTUBE_ID.test(id)) return { provider, id }
  if (provider === 'vimeo' && id && VIMEO_ID.test(id)) return { provider, id }
  return null
}

/**
 * The form's video field: empty for none, else one of the accepted addresses. conform sends an
 * emptied field as absent, which is none too. The output is the address in its page form.
 */
export const videoUrlField = z
  .string({ error: VIDEO_URL_MESSAGE })
  .max(300, VIDEO_URL_MESSAGE)
  .optional()
  .transform((value) => (value ?? '').trim())
  .refine((value) => value === '' || parseVideoUrl(value) !== null, VIDEO_URL_MESSAGE)
  .transform((value) => {
    const video = parseVideoUrl(value)
    return video ? videoPageUrl(video) : ''
  })
