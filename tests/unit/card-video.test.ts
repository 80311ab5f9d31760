// The video a card accepts (issue 41 point 6, ADR 083): four forms, kept as provider and id.
import { describe, expect, test } from 'vitest'
import {
  parseVideoUrl,
  storedVideo,
  VIDEO_URL_MESSAGE,
  videoEmbedUrl,
  videoPageUrl,
  videoUrlField,
} from '#app/validation/card-video'

describe('parseVideoUrl', () => {
  test.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ'],
    ['http://youtube.com/watch?v=dQw4w9WgXcQ&list=x&t=3', 'youtube', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ'],
    ['youtube.com/watch?v=dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'youtube', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=share', 'youtube', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/aBc-_FgHiJk', 'youtube', 'aBc-_FgHiJk'],
    ['https://vimeo.com/76979871', 'vimeo', '76979871'],
    ['  https://www.vimeo.com/76979871  ', 'vimeo', '76979871'],
  ])('%s', (url, provider, id) => {
    expect(parseVideoUrl(url)).toEqual({ provider, id })
  })

  test.each([
    '',
    'not a url',
    'https://www.youtube.com/',
    'https://www.youtube.com/watch',
    'https://www.youtube.com/watch?v=tooShort',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ!',
    'https://www.youtube.com/embed/dQw4w9WgXcQ',
    'https://www.youtube.com/playlist?list=PLx',
    'https://www.youtube.com/@channel',
    'https://www.youtube.com/shorts/dQw4w9WgXcQ/extra',
    'https://youtu.be/',
    'https://youtu.be/dQw4w9WgXcQ/x',
    'https://youtube.com.evil.test/watch?v=dQw4w9WgXcQ',
    'https://evil.test/youtu.be/dQw4w9WgXcQ',
    'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    'https://vimeo.com/',
    'https://vimeo.com/channels/staffpicks',
    'https://vimeo.com/76979871/abcdef',
    'https://player.vimeo.com/video/76979871',
    'javascript:alert(1)',
    'ftp://vimeo.com/76979871',
    'https://user:pw@vimeo.com/76979871',
    'https://vimeo.com:8443/76979871',
    'https://vimeo.com/7697 9871',
  ])('refuses %s', (url) => {
    expect(parseVideoUrl(url)).toBeNull()
  })
})

test('the page, the player and the stored form agree', () => {
  const youtube = { provider: 'youtube', id: 'dQw4w9WgXcQ' } as const
  const vimeo = { provider: 'vimeo', id: '76979871' } as const
  expect(videoPageUrl(youtube)).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ')
  expect(videoEmbedUrl(youtube)).toBe(
    'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
  )
  expect(videoPageUrl(vimeo)).toBe('https://vimeo.com/76979871')
  expect(videoEmbedUrl(vimeo)).toBe('https://player.vimeo.com/video/76979871?autoplay=1')
  for (const video of [youtube, vimeo]) {
    expect(parseVideoUrl(videoPageUrl(video))).toEqual(video)
    expect(storedVideo(video.provider, video.id)).toEqual(video)
  }
  expect(storedVideo('youtube', '../../x')).toBeNull()
  expect(storedVideo('dailymotion', '76979871')).toBeNull()
  expect(storedVideo(null, null)).toBeNull()
})

test('the form field: empty is none, an accepted form becomes its page, anything else its message', () => {
  expect(videoUrlField.parse(undefined)).toBe('')
  expect(videoUrlField.parse('  ')).toBe('')
  expect(videoUrlField.parse('youtu.be/dQw4w9WgXcQ')).toBe(
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  )
  const refused = videoUrlField.safeParse('https://example.test/v')
  expect(refused.success).toBe(false)
  expect(refused.error?.issues.map((issue) => issue.message)).toEqual([VIDEO_URL_MESSAGE])
})
