// How an action reads its form (app/media/uploads.server.ts): Node's own parser for both encodings,
// a multipart part over the upload limit refused with its field named, and a body that is no form
// a 400 that says so.
import { expect, test } from 'vitest'
import { readForm, readPlainForm, UNREADABLE_FORM_MESSAGE } from '#app/media/uploads.server'
import { MAX_UPLOAD_BYTES } from '#app/services/images.server'
import { isRefusal } from '#app/utils/action-error'

const post = (body: BodyInit, contentType?: string) =>
  new Request('http://acme.localhost/profile', {
    method: 'POST',
    body,
    headers: contentType ? { 'Content-Type': contentType } : {},
  })

function multipart(entries: [string, string | Blob][]) {
  const form = new FormData()
  for (const [name, value] of entries) {
    if (typeof value === 'string') form.append(name, value)
    else form.append(name, value, 'me.png')
  }
  return post(form)
}

async function refusalOf(work: Promise<unknown>) {
  try {
    await work
  } catch (error) {
    return error
  }
  throw new Error('not refused')
}

test('a multipart form: its fields in order, its file with name and type, an empty file input kept', async () => {
  const photo = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' })
  const form = await readForm(
    multipart([
      ['intent', 'profile'],
      ['links[0].url', 'https://example.com/é'],
      ['links[0].url', 'second'],
      ['logoFile', photo],
      ['profilePictureFile', new Blob([], { type: 'application/octet-stream' })],
    ]),
  )
  expect([...form.keys()]).toEqual([
    'intent',
    'links[0].url',
    'links[0].url',
    'logoFile',
    'profilePictureFile',
  ])
  expect(form.getAll('links[0].url')).toEqual(['https://example.com/é', 'second'])
  const logo = form.get('logoFile') as File
  expect([logo.name, logo.type, logo.size]).toEqual(['me.png', 'image/png', 3])
  expect(new Uint8Array(await logo.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]))
  expect((form.get('profilePictureFile') as File).size).toBe(0)
})

test('a URL-encoded form is read as it is, whatever its size', async () => {
  const long = 'x'.repeat(MAX_UPLOAD_BYTES + 1)
  const form = await readForm(
    post(`intent=profile&bio=${long}`, 'application/x-www-form-urlencoded'),
  )
  expect(form.get('intent')).toBe('profile')
  expect((form.get('bio') as string).length).toBe(MAX_UPLOAD_BYTES + 1)
})

test.each([
  ['a file', new Blob([new Uint8Array(MAX_UPLOAD_BYTES + 1)], { type: 'image/png' })],
  ['a text field', 'é'.repeat(MAX_UPLOAD_BYTES / 2 + 1)],
])(
  'a multipart part over the upload limit, %s, is refused naming its field',
  async (_kind, big) => {
    const at = new Blob([new Uint8Array(MAX_UPLOAD_BYTES)], { type: 'image/png' })
    const refusal = await refusalOf(
      readForm(
        multipart([
          ['intent', 'profile'],
          ['logoFile', at],
          ['backgroundFile', big],
        ]),
      ),
    )
    expect(isRefusal(refusal, 'image_refused')).toBe(true)
    expect(refusal).toMatchObject({ field: 'backgroundFile' })

    const plain = await refusalOf(readPlainForm(multipart([['note', big]])))
    expect(plain).toBeInstanceOf(Response)
    expect((plain as Response).status).toBe(413)
    expect(await (plain as Response).text()).toBe('The form field "note" is too large.')
  },
)

test.each([
  ['multipart without a boundary', 'x=1', 'multipart/form-data'],
  [
    'truncated multipart',
    '--b\r\nContent-Disposition: form-data; name="intent"\r\n\r\nprof',
    'multipart/form-data; boundary=b',
  ],
  ['JSON', '{"intent":"profile"}', 'application/json'],
  ['no content type', 'intent=profile', undefined],
])('%s is a 400 that says the form could not be read', async (_kind, body, type) => {
  const refusal = await refusalOf(readForm(post(body, type)))
  expect(refusal).toBeInstanceOf(Response)
  expect((refusal as Response).status).toBe(400)
  expect(await (refusal as Response).text()).toBe(UNREADABLE_FORM_MESSAGE)
})
