// A paper business card's text, as OCR read it, turned into a proposed contact (issue 45 point 3,
// ADR 101): emails, phones and a website by their shape, then the name, title and company from
// the lines left over. Pure and unit-tested; the person corrects every proposal before saving, so
// a wrong guess costs a tap, never a wrong contact.

export type CardProposal = {
  fullName: string
  jobTitle: string
  company: string
  emails: string[]
  phones: string[]
  website: string
}

const EMAIL = /[a-z0-9][a-z0-9._%+-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/gi
// OCR reads the gap a font leaves beside "@" as a space now and then ("maria.lopez.70177
// @acme.com"): an address split only around its "@" is joined again before it is looked for.
const EMAIL_SPLIT_AT_AT =
  /([a-z0-9][a-z0-9._%+-]*)(?:\s+@\s*|@\s+)([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})\b/gi
// A phone: an optional +, then digits with the separators cards print (spaces, dots, dashes,
// slashes, brackets). The digits are counted afterwards (7 to 15, E.164's most).
const PHONE = /(?:\+|\(|\b)\d[\d\s()./-]{5,}\d/g
const WEBSITE =
  /\b(?:https?:\/\/)?(?:www\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}(?:\/[^\s]*)?/gi
// Words before a phone or an address that say which it is ("Tel:", "M", "Mobile").
const LABEL =
  /^(?:tel(?:ephone)?|phone|ph|mob(?:ile)?|cell|fax|office|direct|work|home|t|m|p|f|e|w|e-?mail|mail|web(?:site)?|url)\b\s*[.:]?\s*/i

const TITLE_WORDS =
  /\b(?:ceo|cto|cfo|coo|cmo|vp|svp|evp|founder|co-founder|owner|partner|president|chair(?:man|woman)?|chief|director|head|manager|lead|leader|officer|engineer|developer|designer|architect|consultant|advisor|adviser|analyst|specialist|coordinator|assistant|associate|executive|representative|agent|accountant|attorney|lawyer|counsel|doctor|nurse|professor|teacher|principal|editor|writer|producer|administrator|supervisor|technician|scientist|researcher|sales|marketing|operations|account|business development|intern)\b/i
const COMPANY_WORDS =
  /\b(?:ltd|limited|inc|incorporated|llc|llp|plc|gmbh|ag|kg|bv|b\.v|nv|sa|sas|sarl|srl|spa|oy|ab|as|co|corp|corporation|company|group|holdings?|partners|studio|studios|agency|labs?|solutions|systems|technologies|consulting|associates|industries|international|bank)\b\.?/i

/** Reads the text of a card into a proposal; empty strings and lists for what it did not find. */
export function parseCardText(text: string): CardProposal {
  const lines = text
    .split(/\r?\n/)
    .map((line) =>
      line
        .replace(/[|~_•·]+/g, ' ')
        .replace(/\s+/g, ' ')
        .replace(EMAIL_SPLIT_AT_AT, '$1@$2')
        .trim(),
    )
    .filter((line) => line.length > 0)

  const emails: string[] = []
  const phones: string[] = []
  let website = ''
  const rest: string[] = []

  for (const line of lines) {
    let left = line
    for (const match of line.match(EMAIL) ?? []) {
      const email = match.toLowerCase()
      if (!emails.includes(email)) emails.push(email)
      left = left.replace(match, ' ')
    }
    for (const match of left.match(WEBSITE) ?? []) {
      // A bare word with a dot inside a name ("J.Smith") is not a site: a site has www, a scheme
      // or a known shape (letters, a dot, two or more letters) and no capital-letter initials.
      if (
        !/^(?:https?:\/\/|www\.)/i.test(match) &&
        !/^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/.test(match)
      )
        continue
      if (!website) website = match.replace(/[.,;]+$/, '')
      left = left.replace(match, ' ')
    }
    for (const match of left.match(PHONE) ?? []) {
      const digits = match.replace(/\D/g, '')
      if (digits.length < 7 || digits.length > 15) continue
      const phone = match.trim().replace(/\s+/g, ' ')
      if (!phones.includes(phone)) phones.push(phone)
      left = left.replace(match, ' ')
    }
    left = left.replace(/\s+/g, ' ').trim()
    // What is left of a contact line is its label ("Tel:", "Email"): nothing to propose.
    if (left !== line) left = left.replace(LABEL, '').replace(/^[\s:.,;-]+|[\s:.,;-]+$/g, '')
    if (left.length >= 2 && /\p{L}{2}/u.test(left)) rest.push(left)
  }

  const taken = new Set<string>()
  const pick = (test: (line: string) => boolean) => {
    const found = rest.find((line) => !taken.has(line) && test(line))
    if (found) taken.add(found)
    return found ?? ''
  }

  const fullName = pick(looksLikeName)
  const jobTitle = pick((line) => TITLE_WORDS.test(line) && !COMPANY_WORDS.test(line))
  let company = pick((line) => COMPANY_WORDS.test(line))
  // No company word on the card: the first line left that is not an address (no digits).
  if (!company) company = pick((line) => !/\d/.test(line))
  if (!company) company = companyOfEmail(emails[0])

  return { fullName, jobTitle, company, emails, phones, website }
}

const PARTICLE = /^(?:de|der|den|van|von|da|di|du|del|della|dos|das|le|la|bin|al)$/

/**
 * Two to five words of letters, each starting with a capital (or all capitals) but the particles
 * of a surname ("Jan de Vries"), and no title or company words.
 */
function looksLikeName(line: string) {
  if (/\d|@/.test(line) || TITLE_WORDS.test(line) || COMPANY_WORDS.test(line)) return false
  const words = line.split(' ')
  if (words.length < 2 || words.length > 5) return false
  const capitalised = (word: string) => /^\p{Lu}[\p{L}'’.-]*$/u.test(word)
  return (
    capitalised(words[0] ?? '') &&
    capitalised(words.at(-1) ?? '') &&
    words.every((word) => capitalised(word) || PARTICLE.test(word))
  )
}

/** "maria@acme-widgets.com" → "Acme Widgets"; nothing for the mailbox providers. */
function companyOfEmail(email: string | undefined) {
  const domain = email?.split('@')[1]?.split('.')[0]
  if (
    !domain ||
    /^(?:gmail|googlemail|yahoo|hotmail|outlook|live|icloud|me|aol|proton|protonmail|gmx|web)$/i.test(
      domain,
    )
  ) {
    return ''
  }
  return domain
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ')
}
