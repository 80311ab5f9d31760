import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import {
  buildVCard,
  escapeVCardText,
  foldLine,
  vcardFileName,
  vcardPhoto,
} from '#app/services/vcard.server'
import { distinctEmails } from '#app/validation/card-details'
import { readWithIcal, readWithVcf } from '#tests/vcard-readers'

describe('vCard', () => {
  test('escapes commas, semicolons, backslashes and newlines', () => {
    expect(escapeVCardText('Smith, Jones; Co\\\nLine 2')).toBe('Smith\\, Jones\\; Co\\\\\\nLine 2')
  })

  test('omits empty optional fields and uses CRLF', () => {
    const card = buildVCard({
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: '',
      phoneNumber: ' ',
    })
    expect(card).toBe(
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n',
    )
  })

  test('folds lines longer than 75 octets, keeping UTF-8 characters whole', () => {
    const long = `NOTE:${'é'.repeat(100)}`
    const folded = foldLine(long)
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)
    expect(
      folded
        .split('\r\n')
        .slice(1)
        .every((l) => l.startsWith(' ')),
    ).toBe(true)
    expect(folded.replaceAll('\r\n ', '')).toBe(long)
  })

  test('embeds the photo and the card URL', () => {
    const card = buildVCard({
      firstName: 'A',
      lastName: 'B',
      cardUrl: 'http://acme.localhost:3000/card/x',
      photoJpeg: Buffer.from([0xff, 0xd8, 0xff]),
    })
    // Marked as the vCard's (ADR 039), or as another channel's when asked.
    expect(card).toContain('URL;TYPE=CARD:http://acme.localhost:3000/card/x?s=v')
    expect(
      buildVCard({
        firstName: 'A',
        lastName: 'B',
        cardUrl: 'http://a/card/x',
        cardUrlSource: 'nfc',
      }),
    ).toContain('URL;TYPE=CARD:http://a/card/x?s=n')
    expect(card).toContain('PHOTO;ENCODING=b;TYPE=JPEG:/9j/')
  })

  test("a card's every field parses back with two independent parsers (vcf and ical.js)", async () => {
    const photo = await vcardPhoto(
      await sharp({
        create: { width: 600, height: 400, channels: 3, background: '#3366cc' },
      })
        .png()
        .toBuffer(),
    )
    const text = buildVCard({
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: 'Analytical Engines, Ltd',
      jobTitle: 'Mathematician',
      email: 'ada@example.test',
      workEmail: 'ada@work.example.test',
      phones: [
        { number: '+44 20 7946 0000', type: 'mobile' },
        { number: '+44 20 7946 0001', type: 'work' },
      ],
      website: 'https://ada.example.test',
      cardUrl: 'https://acme.example.test/card/ada-lovelace',
      note: `Poetical science, engines and notes.\nSecond line: ${'long '.repeat(20)}`.trim(),
      pronouns: 'she/her',
      address: {
        street: '12 St James Square',
        city: 'London',
        region: 'Greater London',
        postalCode: 'SW1Y 4JH',
        country: 'United Kingdom',
      },
      links: [
        { kind: 'linkedin', label: '', url: 'https://www.linkedin.com/in/ada?from=card,qr' },
        { kind: 'custom', label: 'Blog', url: 'https://ada.example.test/blog' },
      ],
      photoJpeg: photo,
    })
    // CRLF only, every physical line at most 75 octets.
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)
    for (const read of [readWithVcf, readWithIcal]) {
      const card = read(text)
      expect(card, read.name).toMatchObject({
        version: '3.0',
        fn: 'Ada Lovelace',
        n: ['Lovelace', 'Ada', '', '', ''],
        org: 'Analytical Engines, Ltd',
        title: 'Mathematician',
        pronouns: 'she/her',
        note: `Poetical science, engines and notes.\nSecond line: ${'long '.repeat(20)}`.trim(),
        adr: [
          '',
          '',
          '12 St James Square',
          'London',
          'Greater London',
          'SW1Y 4JH',
          'United Kingdom',
        ],
      })
      expect(card.emails, read.name).toEqual([
        { types: ['internet', 'home'], value: 'ada@example.test' },
        { types: ['internet', 'work'], value: 'ada@work.example.test' },
      ])
      expect(card.tels, read.name).toEqual([
        { types: ['cell'], value: '+44 20 7946 0000' },
        { types: ['work'], value: '+44 20 7946 0001' },
      ])
      expect(card.urls, read.name).toEqual([
        { types: [], value: 'https://ada.example.test' },
        // Marked as the vCard's own link (ADR 039).
        { types: ['card'], value: 'https://acme.example.test/card/ada-lovelace?s=v' },
        { types: ['linkedin'], value: 'https://www.linkedin.com/in/ada?from=card,qr' },
        { types: ['custom'], value: 'https://ada.example.test/blog' },
      ])
      expect(card.socialProfiles, read.name).toEqual([
        { types: ['linkedin'], value: 'https://www.linkedin.com/in/ada?from=card,qr' },
        { types: ['custom'], value: 'https://ada.example.test/blog' },
      ])
      // The photo: a JPEG of 256 px, small enough for Android's importer.
      const bytes = Buffer.from(card.photo, 'base64')
      const meta = await sharp(bytes).metadata()
      expect(meta, read.name).toMatchObject({ format: 'jpeg', width: 256, height: 256 })
      expect(bytes.length).toBeLessThan(20_000)
    }
  })

  test('ORG carries the department as its second component, each part escaped', () => {
    const org = (input: { company?: string; department?: string }) =>
      buildVCard({ firstName: 'Ada', lastName: 'Lovelace', ...input })
        .split('\r\n')
        .filter((line) => line.startsWith('ORG'))
    expect(org({ company: 'Acme, Inc', department: 'Sales; EMEA' })).toEqual([
      'ORG:Acme\\, Inc;Sales\\; EMEA',
    ])
    expect(org({ company: 'Acme' })).toEqual(['ORG:Acme'])
    expect(org({ department: 'Sales' })).toEqual(['ORG:;Sales'])
    expect(org({})).toEqual([])
  })

  test('file name', () => {
    expect(vcardFileName('Ada', 'Lovelace')).toBe('Ada_Lovelace.vcf')
    expect(vcardFileName('Jean Luc', 'Picard/../x')).toBe('Jean_Luc_Picard_x.vcf')
  })
})

describe('one address typed as both emails (issue 41 point 14)', () => {
  const base = { firstName: 'Ada', lastName: 'Lovelace', cardUrl: 'https://a.example.test/c/ada' }

  test('is one EMAIL line, the work one; two addresses stay two', () => {
    const same = buildVCard({ ...base, email: 'ada@example.test', workEmail: ' ADA@example.test ' })
    expect(same.match(/^EMAIL/gm)).toEqual(['EMAIL'])
    expect(same).toContain('EMAIL;TYPE=INTERNET,WORK:ADA@example.test')
    const two = buildVCard({
      ...base,
      email: 'ada@example.test',
      workEmail: 'ada@work.example.test',
    })
    expect(two.match(/^EMAIL;TYPE=INTERNET,(HOME|WORK)/gm)).toHaveLength(2)
    const accountOnly = buildVCard({ ...base, email: 'ada@example.test', workEmail: '' })
    expect(accountOnly).toContain('EMAIL;TYPE=INTERNET,HOME:ada@example.test')
  })

  test('distinctEmails keeps each address once, in order, without blanks', () => {
    expect(
      distinctEmails(['Ada@Example.test', 'ada@example.test ', '', null, 'b@example.test']),
    ).toEqual(['Ada@Example.test', 'b@example.test'])
  })
})
