// The public card page's only script for a signed-out visitor (ADR 022): the page is server HTML
// that works without JavaScript, and React is not hydrated for it (React and Remix alone are
// about 84 KB gzipped, over the page's 90 KB budget). This adds what the React page adds for a
// signed-out visitor: the vCard saved from a file with the export toast (spec §8), the lead form
// sent in place with its messages, the guard's 'Redirecting to login...' on a slow connect, the
// logo placeholder, and the toast the server left in its cookie. Signed-in visitors get the React page (public-card-page.tsx), whose texts these match.
// Plain JavaScript, imported with ?url: Vite copies it as it is, so it imports nothing.

const SPINNER =
  '<svg aria-hidden="true" class="h-4 w-4 animate-spin" xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M21 12a9 9 0 1 1-6.219-8.56"/></svg>'

/** @type {HTMLOListElement | undefined} */
let toaster

/**
 * The page's own words in its language (ADR 105), which the server wrote into the page; the
 * English text when a page from before had none.
 * @type {Record<string, string>}
 */
let messages = {}
try {
  const holder = /** @type {HTMLElement | null} */ (
    document.querySelector('[data-visitor-messages]')
  )
  messages = JSON.parse(holder?.dataset.visitorMessages ?? '{}')
} catch {}

/**
 * @param {string} key
 * @param {string} english
 */
const say = (key, english) => messages[key] ?? english

/**
 * Where Remix answers a form's action as data (single fetch): the path with `.data` appended.
 * @param {HTMLFormElement} form
 */
function dataUrl(form) {
  const url = new URL(form.action, location.href)
  url.pathname = url.pathname === '/' ? '/_root.data' : `${url.pathname.replace(/\/$/, '')}.data`
  return url
}

/**
 * The answer of a `.data` request: Remix writes it with turbo-stream, a JSON array of values in
 * which objects and arrays refer to other entries by index (negative ones stand for null,
 * undefined and the like). An action's answer here is plain objects, strings, numbers and
 * booleans, which is all this reads: `{ data }` for a reply, `{ redirect }` for a redirect.
 * @param {string} text
 * @returns {any}
 */
function decodeData(text) {
  const values = JSON.parse(text.split('\n')[0] ?? '[]')
  /** @type {Map<number, unknown>} */
  const seen = new Map()
  /** @param {number} index @returns {any} */
  const read = (index) => {
    if (index < 0) return index === -5 ? null : undefined
    if (seen.has(index)) return seen.get(index)
    const raw = values[index]
    if (raw === null || typeof raw !== 'object') return raw
    if (Array.isArray(raw)) {
      // A typed value (["D", …] a Date and so on): no action of this page answers one.
      if (typeof raw[0] === 'string') return undefined
      /** @type {unknown[]} */
      const list = []
      seen.set(index, list)
      for (const item of raw) list.push(read(item))
      return list
    }
    /** @type {Record<string, unknown>} */
    const object = {}
    seen.set(index, object)
    for (const [key, item] of Object.entries(raw)) object[read(Number(key.slice(1)))] = read(item)
    return object
  }
  return read(0)
}

/**
 * @param {'success' | 'error' | 'info'} type
 * @param {string} title
 * @param {string | undefined} [description]
 */
function toast(type, title, description) {
  if (!toaster) {
    const region = document.createElement('section')
    region.setAttribute('aria-label', say('notifications', 'Notifications'))
    region.setAttribute('aria-live', 'polite')
    region.className =
      'fixed inset-x-0 top-4 z-[100] flex justify-center px-4 pointer-events-none motion-safe:transition-opacity'
    toaster = document.createElement('ol')
    toaster.className = 'flex w-full max-w-sm flex-col gap-2'
    region.append(toaster)
    document.body.append(region)
  }
  const item = document.createElement('li')
  item.setAttribute('role', type === 'error' ? 'alert' : 'status')
  item.className = `pointer-events-auto flex items-start gap-3 rounded-lg border p-4 text-sm shadow-lg ${
    type === 'error'
      ? 'border-red-200 bg-red-50 text-red-700'
      : type === 'success'
        ? 'border-green-200 bg-green-50 text-green-700'
        : 'border-blue-200 bg-blue-50 text-blue-800'
  }`
  const text = document.createElement('div')
  text.className = 'flex-1'
  const heading = document.createElement('p')
  heading.className = 'font-medium'
  heading.textContent = title
  text.append(heading)
  if (description) {
    const more = document.createElement('p')
    more.textContent = description
    text.append(more)
  }
  const close = document.createElement('button')
  close.type = 'button'
  close.setAttribute('aria-label', say('closeToast', 'Close toast'))
  close.className = 'rounded px-1 leading-none'
  close.textContent = '×'
  close.addEventListener('click', () => item.remove())
  item.append(text, close)
  toaster.append(item)
  setTimeout(() => item.remove(), 4000)
}

/** Spec §8: the export toast names the platform the file was made for (as exportToast() does). */
function exportToast() {
  const ua = navigator.userAgent
  const prompt = say('exportPrompt', 'Your device should prompt you to add the contact')
  if (/iPhone|iPad|iPod/i.test(ua)) return [say('exportedIos', 'Contact exported for iOS'), prompt]
  if (/Android|Mobile/i.test(ua))
    return [say('exportedMobile', 'Contact exported for mobile device'), prompt]
  if (/Macintosh|Mac OS X/i.test(ua))
    return [say('exportedMac', 'Contact exported for macOS'), undefined]
  if (/Windows/i.test(ua))
    return [say('exportedWindows', 'Contact exported for Windows'), undefined]
  return [say('exportedFile', 'Contact file downloaded'), undefined]
}

/** @param {HTMLAnchorElement} link */
function enhanceSaveContact(link) {
  link.addEventListener('click', async (event) => {
    event.preventDefault()
    try {
      const response = await fetch(link.href)
      if (!response.ok) throw new Error('vCard failed')
      const file = document.createElement('a')
      file.href = URL.createObjectURL(await response.blob())
      file.download = link.dataset.filename ?? 'contact.vcf'
      document.body.append(file)
      file.click()
      file.remove()
      setTimeout(() => URL.revokeObjectURL(file.href), 10_000)
      const [title, description] = exportToast()
      toast('success', title, description)
    } catch {
      toast('error', say('exportFailed', "Couldn't save contact to your device"))
    }
  })
}

/**
 * @param {string} tag
 * @param {string} className
 * @param {string[]} errors
 */
function errorList(tag, className, errors) {
  const list = document.createElement(tag)
  list.className = className
  for (const error of errors) {
    const item = document.createElement('li')
    item.className = 'text-sm text-red-600 dark:text-red-400'
    item.textContent = error
    list.append(item)
  }
  return list
}

/** @param {HTMLFormElement} form */
function enhanceLeadForm(form) {
  const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]'))
  const label = button.innerHTML
  // The server's messages, next to their fields (the consent box's included), as on the React
  // page once conform runs: not the browser's bubbles, which only the page without any script
  // keeps.
  form.noValidate = true
  /** @type {Element[]} */
  let shown = []
  const clear = () => {
    for (const element of shown) element.remove()
    shown = []
    for (const input of form.querySelectorAll('input[aria-invalid]')) {
      input.removeAttribute('aria-invalid')
      input.removeAttribute('aria-describedby')
    }
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (button.disabled) return
    button.disabled = true
    button.setAttribute('aria-busy', 'true')
    button.innerHTML = SPINNER + label
    /** @type {{ ok: boolean, message: string | null, result?: { error?: Record<string, string[] | null> | null } | null } | null} */
    let reply = null
    try {
      const body = new URLSearchParams(/** @type {any} */ (new FormData(form)))
      const response = await fetch(dataUrl(form), { method: 'POST', body })
      if (response.status < 500) reply = decodeData(await response.text())?.data ?? null
    } catch {}
    button.disabled = false
    button.removeAttribute('aria-busy')
    button.innerHTML = label
    if (!reply) {
      toast('error', form.dataset.failure ?? '')
      return
    }
    clear()
    const errors = reply.result?.error ?? {}
    for (const [name, messages] of Object.entries(errors)) {
      if (!messages?.length || !name) continue
      const input = form.querySelector(`[name="${CSS.escape(name)}"]`)
      if (!input?.id) continue
      const list = errorList('ul', 'flex flex-col gap-1', messages)
      list.id = `${input.id}-error`
      input.setAttribute('aria-invalid', 'true')
      input.setAttribute('aria-describedby', list.id)
      input.parentElement?.append(list)
      shown.push(list)
    }
    if (errors['']?.length) {
      const list = errorList('ul', 'flex flex-col gap-1', errors[''])
      button.before(list)
      shown.push(list)
    }
    if (reply.ok && reply.message) {
      const box = document.createElement('div')
      box.className = 'sm:col-span-2'
      const message = document.createElement('div')
      message.setAttribute('role', 'status')
      message.className =
        'rounded-md border px-3 py-2 text-sm border-blue-200 bg-blue-50 text-blue-800 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-200'
      message.textContent = reply.message
      box.append(message)
      button.before(box)
      shown.push(box)
      form.reset()
      // The thank-you's next steps: the owner's contact, their booking link (issue 41 point 7).
      const thanks = /** @type {HTMLElement | null} */ (
        form.parentElement?.querySelector('[data-lead-thanks]') ?? null
      )
      if (thanks) thanks.hidden = false
    }
  })
}

const REDIRECTING =
  '<div role="status" aria-live="polite" class="flex flex-col gap-1" data-testid="guard-status"><p class="font-medium">Redirecting to login...</p></div><div aria-hidden="true" class="flex animate-pulse flex-col gap-4"><div class="h-8 w-1/3 rounded-md bg-gray-200 dark:bg-gray-800"></div><div class="h-4 w-2/3 rounded-md bg-gray-200 dark:bg-gray-800"></div><div class="h-40 rounded-xl bg-gray-200 dark:bg-gray-800"></div></div>'

/**
 * Connect as a signed-out visitor leads to sign-in (the server answers with the way there). As
 * the navigation guard does on a React page (auth-guard.tsx: GUARD_DELAY_MS, LoadingState), a
 * wait of more than 400 ms shows 'Redirecting to login...' in place of the page. Should the
 * post fail, or not send to sign-in, the form is posted as a document, as without JavaScript.
 * @param {HTMLFormElement} form
 */
function enhanceConnect(form) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const page = document.querySelector('main')
    const loading = document.createElement('main')
    loading.className = 'mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10'
    loading.setAttribute('aria-busy', 'true')
    loading.innerHTML = REDIRECTING
    const status = loading.querySelector('p')
    if (status) status.textContent = say('redirecting', 'Redirecting to login...')
    const shown = setTimeout(() => page?.replaceWith(loading), 400)
    /** @type {string | null} */
    let target = null
    try {
      const body = new URLSearchParams(/** @type {any} */ (new FormData(form)))
      const response = await fetch(dataUrl(form), { method: 'POST', body })
      target = decodeData(await response.text())?.redirect ?? null
    } catch {}
    if (target) {
      location.assign(target)
      return
    }
    clearTimeout(shown)
    if (page && loading.isConnected) loading.replaceWith(page)
    form.submit()
  })
}

/** @param {HTMLImageElement} image */
function enhanceFallback(image) {
  const fallback = () => {
    if (image.dataset.fallbackSrc && image.src !== image.dataset.fallbackSrc) {
      image.src = image.dataset.fallbackSrc
    }
  }
  image.addEventListener('error', fallback)
  if (image.complete && image.naturalWidth === 0) fallback()
}

/**
 * The card's video facade (ADR 083): a tap puts the provider's player in the poster's place and
 * starts it; nothing of YouTube or Vimeo loads before. The same frame as video-facade.tsx. The
 * address comes from the server (`data-embed-url`, built from the stored provider and id) and is
 * checked again here, so no other origin is ever framed.
 * @param {HTMLAnchorElement} link
 */
function enhanceVideo(link) {
  const src = link.dataset.embedUrl ?? ''
  if (
    !/^https:\/\/(www\.youtube-nocookie\.com\/embed|player\.vimeo\.com\/video)\/[A-Za-z0-9_-]+\?autoplay=1$/.test(
      src,
    )
  ) {
    return
  }
  link.addEventListener('click', (event) => {
    event.preventDefault()
    const frame = document.createElement('iframe')
    frame.src = src
    frame.title = link.dataset.videoTitle ?? say('video', 'Video')
    frame.className = 'absolute inset-0 h-full w-full'
    frame.allow = 'autoplay; encrypted-media; picture-in-picture; fullscreen'
    frame.allowFullscreen = true
    frame.referrerPolicy = 'strict-origin-when-cross-origin'
    frame.setAttribute('data-video-player', '')
    link.replaceWith(frame)
  })
}

/**
 * The marker of the link that opened the page (ADR 039; a QR code's short link says so by its
 * capitals), carried onto the page's vCard, tapped links and forms so that a save, a tap or an
 * exchange counts with the same source as the view (ADR 082). Without this script they count as
 * direct.
 */
function carrySource() {
  const code =
    new URLSearchParams(location.search).get('s') || (/^\/C\//.test(location.pathname) ? 'q' : '')
  if (!code) return
  const marked =
    'a[data-save-contact], a[data-action="link"], form[data-lead-form], form[data-follow-form], form[data-connect-form]'
  for (const element of document.querySelectorAll(marked)) {
    const name = element instanceof HTMLFormElement ? 'action' : 'href'
    const url = new URL(element.getAttribute(name) ?? '', location.href)
    if (url.origin !== location.origin) continue
    url.searchParams.set('s', code)
    element.setAttribute(name, url.pathname + url.search + url.hash)
  }
}

carrySource()
for (const link of document.querySelectorAll('a[data-save-contact]')) {
  enhanceSaveContact(/** @type {HTMLAnchorElement} */ (link))
}
// The lead form and "Keep me updated" (ADR 102) answer alike: a message in place, or errors.
for (const form of document.querySelectorAll('form[data-lead-form], form[data-follow-form]')) {
  enhanceLeadForm(/** @type {HTMLFormElement} */ (form))
}
for (const form of document.querySelectorAll('form[data-connect-form]')) {
  enhanceConnect(/** @type {HTMLFormElement} */ (form))
}
for (const link of document.querySelectorAll('a[data-video-facade]')) {
  enhanceVideo(/** @type {HTMLAnchorElement} */ (link))
}
for (const image of document.querySelectorAll('img[data-fallback-src]')) {
  enhanceFallback(/** @type {HTMLImageElement} */ (image))
}
// A phone is offered its own platform's wallet only (the page is the same for every device,
// as the page cache keeps it): the other badge goes, as the React page leaves it out.
const otherWallet = /iPhone|iPad|iPod/.test(navigator.userAgent)
  ? 'google'
  : /Android/.test(navigator.userAgent)
    ? 'apple'
    : null
if (otherWallet) {
  for (const badge of document.querySelectorAll(`[data-wallet="${otherWallet}"]`)) badge.remove()
}
const pageToast = /** @type {HTMLElement | null} */ (document.querySelector('[data-page-toast]'))
if (pageToast) {
  const { type, title, description } = pageToast.dataset
  toast(type === 'error' || type === 'info' ? type : 'success', title ?? '', description)
}
// Ready (e2e/page-helpers.ts waits for this as it waits for hydration on React pages).
document.documentElement.setAttribute('data-enhanced', '')
