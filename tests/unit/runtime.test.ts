import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// Node 20 reached end of life in April 2026: the project brings Node 24 LTS through the `node`
// devDependency, whose binary npm scripts put first on the PATH.
describe('runtime', () => {
  it('runs on Node 24', () => {
    expect(process.versions.node.split('.')[0]).toBe('24')
  })

  it('declares Node 24 in engines, the node devDependency and the Docker image', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
    expect(pkg.engines.node).toBe('>=24')
    expect(pkg.devDependencies.node).toMatch(/^24\./)
    const dockerfile = readFileSync('Dockerfile', 'utf8')
    const images = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])
    expect(images.length).toBeGreaterThan(0)
    for (const image of images) expect(image).toMatch(/^node:24-/)
  })

  it('loads the native modules (Node-API) on this runtime', async () => {
    const { hash, verify } = await import('@node-rs/argon2')
    const hashed = await hash('native module check')
    expect(await verify(hashed, 'native module check')).toBe(true)
    const sharp = (await import('sharp')).default
    const png = await sharp({
      create: { width: 2, height: 2, channels: 3, background: '#ff0000' },
    })
      .png()
      .toBuffer()
    expect((await sharp(png).metadata()).width).toBe(2)
  })
})
