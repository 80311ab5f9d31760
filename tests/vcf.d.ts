// The `vcf` package ships no types: what tests/vcard-readers.ts uses of it.
declare module 'vcf' {
  type Property = unknown[] & { toJSON(): [string, Record<string, unknown>, string, unknown] }
  export default class VCard {
    version: string
    data: Record<
      string,
      { toJSON(): [string, Record<string, unknown>, string, unknown] } | { toJSON(): unknown }[]
    >
    parse(text: string): VCard
    get(key: string): Property | Property[] | undefined
  }
}
