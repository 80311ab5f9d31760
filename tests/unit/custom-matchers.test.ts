// The response matchers the integration tests lean on fail where the header checks they replaced
// failed: a wrong path, a wrong status, a missing or different toast.
import { redirect } from '@remix-run/node'
import { describe, expect, test } from 'vitest'
import { redirectWithToast, toastCookie } from '#app/utils/toast.server'
import '../setup/custom-matchers'

describe('toHaveRedirect', () => {
  test('passes on the exact path and status, and on a pattern', () => {
    expect(redirect('/profile?tab=security')).toHaveRedirect('/profile?tab=security')
    expect(redirect('/auth/login?redirectTo=%2F')).toHaveRedirect(/^\/auth\/login\?redirectTo=/)
    expect(redirect('/x', 301)).toHaveRedirect('/x', 301)
    expect(redirect('/x')).toHaveRedirect()
  })

  test('fails on another path, a longer one, or another status', () => {
    expect(() => expect(redirect('/profile')).toHaveRedirect('/profile?tab=1')).toThrow(
      /redirect to/,
    )
    expect(() => expect(redirect('/profile/x')).toHaveRedirect('/profile')).toThrow()
    expect(() => expect(redirect('/x', 303)).toHaveRedirect('/x')).toThrow(/status 303/)
    expect(() => expect(redirect('/x', 301)).toHaveRedirect()).toThrow()
    expect(() => expect(new Response('ok')).toHaveRedirect()).toThrow(/status 200/)
  })

  test('negated without a path, fails on any Location and on any 3xx', () => {
    expect(new Response(null, { status: 401 })).not.toHaveRedirect()
    expect(() =>
      expect(new Response(null, { status: 401, headers: { Location: '/' } })).not.toHaveRedirect(),
    ).toThrow(/expected no redirect/)
    expect(() => expect(new Response(null, { status: 304 })).not.toHaveRedirect()).toThrow()
  })

  test('refuses what is not a Response', () => {
    expect(() => expect({ status: 302 }).toHaveRedirect()).toThrow(/needs a Response/)
  })
})

describe('toSendToast', () => {
  test('reads the signed flash cookie: exact title, or a subset of the fields', async () => {
    const response = await redirectWithToast('/', { type: 'error', title: 'Not yet verified' })
    await expect(response).toSendToast()
    await expect(response).toSendToast('Not yet verified')
    await expect(response).toSendToast({ type: 'error' })
    await expect(response).toSendToast({ title: expect.stringMatching(/^Not yet/) })
  })

  test('fails on another title, a title prefix or another type', async () => {
    const response = await redirectWithToast('/', { title: 'Saved' })
    await expect(expect(response).toSendToast('Saved!')).rejects.toThrow(/toast/)
    await expect(expect(response).toSendToast('Save')).rejects.toThrow()
    await expect(expect(response).toSendToast({ type: 'error' })).rejects.toThrow()
  })

  test('a forged or missing cookie is no toast; negated, any toast cookie fails', async () => {
    const forged = new Response(null, { headers: { 'Set-Cookie': 'toast=eyJ0b2FzdCI6e319.x' } })
    await expect(expect(forged).toSendToast()).rejects.toThrow(/expected a toast/)
    await expect(forged).not.toSendToast('anything')
    await expect(expect(forged).not.toSendToast()).rejects.toThrow(/no toast cookie/)
    await expect(redirect('/')).not.toSendToast()
    const headers = new Headers()
    headers.append('Set-Cookie', 'other=1; Path=/')
    headers.append('Set-Cookie', await toastCookie({ title: 'Second cookie' }))
    await expect(new Response(null, { headers })).toSendToast('Second cookie')
  })
})
