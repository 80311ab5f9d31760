// Reads a photo of a paper business card on this server (issue 45 point 3, ADR 101): sharp
// (which decodes only JPEG, PNG, WebP and GIF from untrusted bytes) turns the photo upright
// (EXIF), grey and at most 2000 px wide, and tesseract.js reads it in its own worker thread with
// the English traineddata of the npm package @tesseract.js-data/eng. No outside service, no CDN:
// the language data, the wasm core and the worker script all load from node_modules. One reading
// at a time per process, a few waiting at most (beyond that the person is told to try again), each
// bounded by a deadline; the photo is never stored.
import { createRequire } from 'node:module'
import type { Worker } from 'tesseract.js'
import sharp from '#app/services/sharp.server'

/** How long one reading may take before the worker is ended and the person told. */
export const CARD_READ_TIMEOUT_MS = 20_000
/** Readings waiting behind the running one; one more is refused as busy. */
export const CARD_READ_QUEUE = 3
/** An idle worker (about 40 MB) is ended after this long; the next reading starts another. */
const IDLE_MS = 60_000

export class CardReadError extends Error {
  constructor(
    message: string,
    readonly reason: 'busy' | 'timeout' | 'unreadable',
  ) {
    super(message)
    this.name = 'CardReadError'
  }
}

let worker: Promise<Worker> | undefined
let idleTimer: ReturnType<typeof setTimeout> | undefined
let queue: Promise<unknown> = Promise.resolve()
let waiting = 0

async function startWorker(): Promise<Worker> {
  const require = createRequire(import.meta.url)
  // Loaded on first use: a process nobody scans a card in never loads the wasm.
  const { createWorker, OEM } = await import('tesseract.js')
  const eng = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean }
  return createWorker('eng', OEM.LSTM_ONLY, {
    langPath: eng.langPath,
    gzip: eng.gzip,
    // Nothing written beside the app (the default caches eng.traineddata in the working folder).
    cacheMethod: 'none',
    // On Node the worker script and the wasm core are required from node_modules (never a CDN):
    // only the language data needs langPath, which without it would be downloaded.
  })
}

async function endWorker() {
  const ending = worker
  worker = undefined
  if (idleTimer) clearTimeout(idleTimer)
  idleTimer = undefined
  if (ending) await ending.then((w) => w.terminate()).catch(() => {})
}

/** The photo as tesseract reads it best: upright, grey, not larger than it needs. */
export async function normaliseCardPhoto(photo: Uint8Array) {
  try {
    return await sharp(photo, { limitInputPixels: 40_000_000 })
      .rotate()
      .greyscale()
      .resize({ width: 2000, height: 2000, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer()
  } catch {
    throw new CardReadError('This file is not an image we can read.', 'unreadable')
  }
}

async function readNow(photo: Uint8Array, timeoutMs: number) {
  const image = await normaliseCardPhoto(photo)
  if (idleTimer) clearTimeout(idleTimer)
  worker ??= startWorker()
  const current = worker
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // The only way to stop tesseract mid-page: end its worker; the next reading starts anew.
      void endWorker()
      reject(
        new CardReadError('Reading the card took too long. Please try a clearer photo.', 'timeout'),
      )
    }, timeoutMs)
  })
  try {
    const result = await Promise.race([current.then((w) => w.recognize(image)), deadline])
    return result.data.text
  } finally {
    clearTimeout(timer)
    if (worker === current) {
      idleTimer = setTimeout(() => void endWorker(), IDLE_MS)
      idleTimer.unref()
    }
  }
}

/**
 * The text on the card in the photo. Refused with a CardReadError when CARD_READ_QUEUE readings
 * already wait ("busy"), when it takes longer than CARD_READ_TIMEOUT_MS, or when the file is not
 * an image. A reading in flight at SIGTERM is a request like any other: the server waits for it
 * (at most the deadline, below the shutdown's own) before closing. `timeoutMs` is for tests that
 * drive the deadline without waiting for it.
 */
export function readCardPhoto(
  photo: Uint8Array,
  { timeoutMs = CARD_READ_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<string> {
  if (waiting >= CARD_READ_QUEUE + 1) {
    return Promise.reject(
      new CardReadError('Card reading is busy right now. Please try again in a moment.', 'busy'),
    )
  }
  waiting++
  const run = queue.then(() => readNow(photo, timeoutMs))
  queue = run
    .catch(() => {})
    .finally(() => {
      waiting--
    })
  return run
}

/**
 * Shutdown (every request answered by then): the worker thread ends so it holds nothing open. A
 * reading after this (a test's next step) starts a new one.
 */
export async function stopCardReader() {
  await endWorker()
}
