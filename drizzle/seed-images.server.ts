// Demo logos and favicons drawn from shapes (no fonts needed) and encoded as PNG by sharp.
import sharp from 'sharp'

type Palette = { primary: string; secondary: string }

function logoSvg({ primary, secondary }: Palette, shape: 'circle' | 'diamond' | 'bars') {
  const mark =
    shape === 'circle'
      ? `<circle cx="80" cy="80" r="56" fill="${primary}"/><circle cx="80" cy="80" r="26" fill="${secondary}"/>`
      : shape === 'diamond'
        ? `<polygon points="80,16 144,80 80,144 16,80" fill="${primary}"/><polygon points="80,52 108,80 80,108 52,80" fill="${secondary}"/>`
        : `<rect x="20" y="30" width="30" height="100" rx="6" fill="${primary}"/><rect x="65" y="50" width="30" height="80" rx="6" fill="${secondary}"/><rect x="110" y="70" width="30" height="60" rx="6" fill="${primary}"/>`
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="160" viewBox="0 0 400 160">
  ${mark}
  <rect x="170" y="50" width="200" height="22" rx="11" fill="${primary}"/>
  <rect x="170" y="88" width="140" height="18" rx="9" fill="${secondary}"/>
</svg>`
}

function faviconSvg({ primary, secondary }: Palette) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="14" fill="${primary}"/><circle cx="32" cy="32" r="14" fill="${secondary}"/>
</svg>`
}

export async function renderDemoBranding(palette: Palette, shape: 'circle' | 'diamond' | 'bars') {
  const logo = await sharp(Buffer.from(logoSvg(palette, shape)))
    .png()
    .toBuffer()
  const favicon = await sharp(Buffer.from(faviconSvg(palette)))
    .resize(32, 32)
    .png()
    .toBuffer()
  return {
    logo: { bytes: logo, width: 400, height: 160 },
    favicon: { bytes: favicon, width: 32, height: 32 },
  }
}
