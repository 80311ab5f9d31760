// What a Remix data request (single fetch, `{path}.data`) answers, read back: turbo-stream, a
// JSON array of values in which objects and arrays refer to other entries by index (negative
// ones stand for null, undefined and the like). The answers the specs read hold plain objects,
// strings, numbers and booleans; a typed value (a Date, written ["D", ms]) reads as its tag's
// payload. The card page's own script reads its answers the same way
// (app/components/cards/card-visitor.js).
export function decodeDataAnswer(text: string): unknown {
  const values = JSON.parse(text.split('\n')[0] ?? '[]') as unknown[]
  const seen = new Map<number, unknown>()
  const read = (index: number): unknown => {
    if (index < 0) return index === -5 ? null : undefined
    if (seen.has(index)) return seen.get(index)
    const raw = values[index]
    if (raw === null || typeof raw !== 'object') return raw
    if (Array.isArray(raw)) {
      if (typeof raw[0] === 'string') return raw[1]
      const list: unknown[] = []
      seen.set(index, list)
      for (const item of raw as number[]) list.push(read(item))
      return list
    }
    const object: Record<string, unknown> = {}
    seen.set(index, object)
    for (const [key, item] of Object.entries(raw as Record<string, number>)) {
      object[String(read(Number(key.slice(1))))] = read(item)
    }
    return object
  }
  return read(0)
}
