// The paper card's reader (issue 45 point 3, ADR 101): what OCR read, proposed as a contact.
import { describe, expect, test } from 'vitest'
import { parseCardText } from '#app/cards/card-text'

describe('parseCardText', () => {
  test('reads a plain card: name, title, company, email, phone and website', () => {
    const text =
      'Maria Lopez\n\nHead of Sales\n\nAcme Widgets Ltd\nmaria.lopez@acme-widgets.com\n+44 20 7946 0958\nwww.acme-widgets.com\n'
    expect(parseCardText(text)).toEqual({
      fullName: 'Maria Lopez',
      jobTitle: 'Head of Sales',
      company: 'Acme Widgets Ltd',
      emails: ['maria.lopez@acme-widgets.com'],
      phones: ['+44 20 7946 0958'],
      website: 'www.acme-widgets.com',
    })
  })

  test('labels before phones and emails are dropped, every phone and email is kept once', () => {
    const text = [
      'NORTHWIND GMBH',
      'Jan de Vries',
      'Senior Software Engineer',
      'Tel: (030) 123-4567',
      'Mobile: +31 6 1234 5678',
      'E-mail: Jan@Northwind.de | jan@northwind.de',
      'https://northwind.de/team',
    ].join('\n')
    const proposal = parseCardText(text)
    expect(proposal.fullName).toBe('Jan de Vries')
    expect(proposal.jobTitle).toBe('Senior Software Engineer')
    expect(proposal.company).toBe('NORTHWIND GMBH')
    expect(proposal.phones).toEqual(['(030) 123-4567', '+31 6 1234 5678'])
    expect(proposal.emails).toEqual(['jan@northwind.de'])
    expect(proposal.website).toBe('https://northwind.de/team')
  })

  test('an email OCR split around its @ is joined again, not read as a website', () => {
    // What tesseract read of the e2e spec's drawn card on one run (ADR 101).
    const proposal = parseCardText(
      'Sofia Novak\nHead of Sales\nAcme Widgets Ltd\nsofia.novak.70177 @acme-widgets.com\nwww.acme-widgets.com',
    )
    expect(proposal.emails).toEqual(['sofia.novak.70177@acme-widgets.com'])
    expect(proposal.website).toBe('www.acme-widgets.com')
    expect(parseCardText('E-mail: jan@ northwind.de').emails).toEqual(['jan@northwind.de'])
    // A line that only has an @ in it is left alone.
    expect(parseCardText('Sales @ Acme Ltd').company).toBe('Sales @ Acme Ltd')
  })

  test('a name of capitalised words is found wherever it is printed', () => {
    const proposal = parseCardText(
      'Blue Harbor Studio\nChief Executive Officer\nSam O’Neil\n555 123 4567',
    )
    expect(proposal).toMatchObject({
      fullName: 'Sam O’Neil',
      jobTitle: 'Chief Executive Officer',
      company: 'Blue Harbor Studio',
      phones: ['555 123 4567'],
    })
  })

  test('without a company line the email domain proposes one, but not a mailbox provider', () => {
    expect(parseCardText('Ada Byron\nada@analytical-engines.io').company).toBe('Analytical Engines')
    expect(parseCardText('Ada Byron\nada@gmail.com').company).toBe('')
  })

  test('short digit runs (a street number, a postcode) are not phones; long ones are not either', () => {
    const proposal = parseCardText('12 High Street\nLondon SW1A 1AA\n1234567890123456789')
    expect(proposal.phones).toEqual([])
  })

  test('nothing readable proposes nothing, never an error', () => {
    expect(parseCardText('')).toEqual({
      fullName: '',
      jobTitle: '',
      company: '',
      emails: [],
      phones: [],
      website: '',
    })
    expect(parseCardText('%% ~~ ||\n\n')).toMatchObject({ fullName: '', emails: [] })
  })
})
