// sharp, configured once: of all the decoders libvips has (SVG, PDF, TIFF, HEIF, JPEG XL,
// FITS, …), only the four formats the product accepts may read untrusted bytes.
import sharp from 'sharp'

sharp.block({ operation: ['VipsForeignLoad'] })
sharp.unblock({
  operation: [
    'VipsForeignLoadJpegBuffer',
    'VipsForeignLoadPngBuffer',
    'VipsForeignLoadWebpBuffer',
    'VipsForeignLoadNsgifBuffer',
  ],
})

export default sharp
