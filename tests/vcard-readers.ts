// Two independent vCard parsers, read into one shape, so a test can say "this file parses back
// with every field" without trusting our own writer: `vcf` (node-vcf) and ical.js, whose vCard
// support reads 3.0 (RFC 2426) with its own unescaping and unfolding.
import ICAL from 'ical.js'
import VCard from 'vcf'

export type ReadVCard = {
  version: string
  fn: string
  n: string[]
  org: string
  title: string
  note: string
  pronouns: string
  emails: { types: string[]; value: string }[]
  tels: { types: string[]; value: string }[]
  adr: string[]
  urls: { types: string[]; value: string }[]
  socialProfiles: { types: string[]; value: string }[]
  photo: string
}

const lower = (types: unknown) =>
  (Array.isArray(types) ? types : types ? [types] : []).map((t) => String(t).toLowerCase())

/** vcf gives raw text values: it unfolds but does not unescape (RFC 2426 §4). */
const unescapeText = (value: string) =>
  value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c))

export function readWithVcf(text: string): ReadVCard {
  const card = new VCard().parse(text)
  const all = (key: string) => {
    const found = card.get(key)
    if (!found) return []
    return (Array.isArray(found) && typeof found[0] === 'object' ? found : [found]).map((p) => {
      const [, params, , value] = (
        p as { toJSON(): [string, Record<string, unknown>, string, unknown] }
      ).toJSON()
      return { types: lower(params.type), value }
    })
  }
  const one = (key: string) => {
    const value = all(key)[0]?.value
    return typeof value === 'string' ? unescapeText(value) : ''
  }
  const parts = (key: string) => {
    const value = all(key)[0]?.value
    return Array.isArray(value) ? value.map((v) => unescapeText(String(v))) : []
  }
  const typed = (key: string) =>
    all(key).map(({ types, value }) => ({ types, value: String(value) }))
  return {
    version: card.version,
    fn: one('fn'),
    n: parts('n'),
    org: one('org'),
    title: one('title'),
    note: one('note'),
    pronouns: one('xPronouns'),
    emails: typed('email'),
    tels: typed('tel'),
    adr: parts('adr'),
    urls: typed('url'),
    socialProfiles: typed('xSocialprofile'),
    photo: one('photo'),
  }
}

export function readWithIcal(text: string): ReadVCard {
  const component = new ICAL.Component(ICAL.parse(text) as unknown as unknown[])
  const props = (name: string) => component.getAllProperties(name)
  const first = (name: string) => {
    const value = props(name)[0]?.getFirstValue()
    if (value && typeof value === 'object' && 'value' in value) return String(value.value)
    return value == null ? '' : String(value)
  }
  const typed = (name: string) =>
    props(name).map((p) => ({
      types: lower(p.getParameter('type')),
      value: String(p.getFirstValue()),
    }))
  const structured = (name: string) => {
    const value = props(name)[0]?.getFirstValue()
    return Array.isArray(value) ? value.map(String) : []
  }
  return {
    version: first('version'),
    fn: first('fn'),
    n: structured('n'),
    org: first('org'),
    title: first('title'),
    note: first('note'),
    pronouns: first('x-pronouns'),
    emails: typed('email'),
    tels: typed('tel'),
    adr: structured('adr'),
    urls: typed('url'),
    socialProfiles: typed('x-socialprofile'),
    photo: first('photo'),
  }
}
