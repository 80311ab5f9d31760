// The steps that make a slug from words, shared by the agency slug (./agency-slug.ts) and a
// card's short link (./card-slug.ts): accents dropped, lower case, every run of other characters
// one hyphen, no hyphen at either end, at most `maxLength` characters.
export function slugWords(words: string, maxLength: number) {
  return words
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '')
}
