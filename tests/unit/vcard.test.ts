import { describe, expect, test } from 'vitest'
import { buildVCard, escapeVCardText, foldLine, vcardFileName } from '#app/services/vcard.server'

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

  test('file name', () => {
    expect(vcardFileName('Ada', 'Lovelace')).toBe('Ada_Lovelace.vcf')
    expect(vcardFileName('Jean Luc', 'Picard/../x')).toBe('Jean_Luc_Picard_x.vcf')
  })
})
