import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { InvalidImageError, processImage, sniffImageType } from '#app/services/images.server'
import { blankPng } from '#tests/images'

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: '#ff0000' } })
    .png()
    .toBuffer()

describe('processImage', () => {
  test('re-encodes to JPEG within the purpose maxima, keeping proportions', async () => {
    const out = await processImage(await png(2000, 1000), 'logo')
    expect(out.contentType).toBe('image/jpeg')
    expect([out.width, out.height]).toEqual([400, 200])
    const meta = await sharp(out.bytes).metadata()
    expect(meta.format).toBe('jpeg')
    expect(meta.exif).toBeUndefined()
  })

  test('does not enlarge small images', async () => {
    const out = await processImage(await png(100, 80), 'background')
    expect([out.width, out.height]).toEqual([100, 80])
  })

  test('strips metadata', async () => {
    const withExif = await sharp({
      create: { width: 50, height: 50, channels: 3, background: '#00f' },
    })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret location' } } })
      .toBuffer()
    expect((await sharp(withExif).metadata()).exif).toBeDefined()
    const out = await processImage(withExif, 'profilePicture')
    expect((await sharp(out.bytes).metadata()).exif).toBeUndefined()
  })

  test.each([
    ['a text file named .png', Buffer.from('hello, I am not an image at all')],
    [
      'an SVG',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    ],
    ['an empty file', Buffer.alloc(0)],
    ['a truncated PNG', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0])],
  ])('refuses %s', async (_name, bytes) => {
    await expect(processImage(bytes, 'logo')).rejects.toBeInstanceOf(InvalidImageError)
  })

  test('refuses more than 5 MB', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024)
    big.set([0xff, 0xd8, 0xff], 0)
    await expect(processImage(big, 'logo')).rejects.toBeInstanceOf(InvalidImageError)
  })

  test('refuses a decompression bomb (20000×20000 PNG)', async () => {
    const bomb = blankPng(20000, 20000)
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024)
    await expect(processImage(bomb, 'background')).rejects.toBeInstanceOf(InvalidImageError)
  }, 30_000)
})

test('sniffs by magic bytes', () => {
  expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg')
  expect(sniffImageType(Buffer.from('GIF89a...'))).toBe('gif')
  expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp')
  expect(sniffImageType(Buffer.from('<svg'))).toBeNull()
})

test('decoders other than JPEG, PNG, WebP and GIF are blocked in sharp itself', async () => {
  const { default: configured } = await import('#app/services/sharp.server')
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
  )
  await expect(configured(svg).png().toBuffer()).rejects.toThrow()
  const gif = await configured({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
    .gif()
    .toBuffer()
  expect((await configured(gif).metadata()).format).toBe('gif')
  const webp = await configured({
    create: { width: 4, height: 4, channels: 3, background: '#f00' },
  })
    .webp()
    .toBuffer()
  expect((await processImage(webp, 'logo')).contentType).toBe('image/jpeg')
})
