// The favicon as an ICO file for /favicon.ico (browsers and crawlers ask for it whatever the
// page links). An ICO may hold a PNG image as is, so the stored 32x32 PNG is wrapped, not
// re-encoded.
export function pngToIco(png: Uint8Array, width = 32, height = 32): Buffer {
  const header = Buffer.alloc(6 + 16)
  header.writeUInt16LE(0, 0) // reserved
  header.writeUInt16LE(1, 2) // type: icon
  header.writeUInt16LE(1, 4) // one image
  header.writeUInt8(width >= 256 ? 0 : width, 6)
  header.writeUInt8(height >= 256 ? 0 : height, 7)
  header.writeUInt8(0, 8) // no palette
  header.writeUInt8(0, 9) // reserved
  header.writeUInt16LE(1, 10) // colour planes
  header.writeUInt16LE(32, 12) // bits per pixel
  header.writeUInt32LE(png.byteLength, 14)
  header.writeUInt32LE(header.length, 18) // the image follows the directory
  return Buffer.concat([header, png])
}
