// The image drop zone (issue 30 point 6): one real file input inside it (a form without
// JavaScript still sends the file), described by the size rule from its one home, and the
// browser's own words about a file it refuses before sending it.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { expect, test } from 'vitest'
import { ImageField } from '#app/components/image-field'
import {
  IMAGE_ACCEPT,
  IMAGE_HINT,
  imageFileProblem,
  MAX_UPLOAD_BYTES,
} from '#app/validation/images'

function render(props: Partial<Parameters<typeof ImageField>[0]> = {}) {
  return renderToStaticMarkup(
    createElement(ImageField, {
      name: 'logo',
      label: 'Logo',
      purpose: 'logo',
      currentUrl: null,
      ...props,
    }),
  )
}

test('the zone holds one real file input, named for a form without JavaScript', () => {
  const html = render({ hint: 'Recommended 200×80 px.' })
  expect(html.match(/type="file"/g)).toHaveLength(1)
  expect(html).toContain('name="logoFile"')
  expect(html).toContain(`accept="${IMAGE_ACCEPT}"`)
  expect(html).toContain('name="logoMediaId"')
  expect(html).toContain('data-testid="image-drop-zone"')
  // The input is labelled by the field's label and described by the size rule and the hint.
  const inputId =
    /<input[^>]*type="file"[^>]*id="([^"]+)"|<input[^>]*id="([^"]+)"[^>]*type="file"/.exec(html)
  const id = inputId?.[1] ?? inputId?.[2]
  expect(id).toBeTruthy()
  expect(html).toContain(`for="${id}"`)
  const describedBy = new RegExp(
    `id="${id}"[^>]*aria-describedby="([^"]+)"|aria-describedby="([^"]+)"[^>]*id="${id}"`,
  ).exec(html)
  const ruleId = describedBy?.[1] ?? describedBy?.[2]
  expect(ruleId).toBeTruthy()
  expect(html).toMatch(
    new RegExp(`id="${ruleId}"[^>]*>.*${IMAGE_HINT.replace('.', '\\.')}.*Recommended 200×80 px\\.`),
  )
})

test('a read-only field shows the image without an input or Remove', () => {
  const html = render({ currentUrl: '/media/abc.png', readOnly: true })
  expect(html).toContain('alt="Logo preview"')
  expect(html).not.toContain('type="file"')
  expect(html).not.toContain('Remove')
})

test('a refused file is named with what is wrong with it', () => {
  expect(imageFileProblem({ name: 'me.jpg', size: 1000, type: 'image/jpeg' })).toBeNull()
  expect(imageFileProblem({ name: 'me.gif', size: MAX_UPLOAD_BYTES, type: 'image/gif' })).toBeNull()
  expect(imageFileProblem({ name: 'big.png', size: MAX_UPLOAD_BYTES + 1, type: 'image/png' })).toBe(
    '"big.png" is 5.1 MB; the limit is 5 MB.',
  )
  expect(imageFileProblem({ name: 'photo.heic', size: 1000, type: 'image/heic' })).toBe(
    '"photo.heic" is not a JPG, PNG, WebP or GIF image.',
  )
  expect(imageFileProblem({ name: 'empty.png', size: 0, type: 'image/png' })).toBe(
    '"empty.png" is empty.',
  )
})
