// The same loader as qr.png's; it reads the format from the extension.
export { loader } from './card_.$ref.qr[.]png'
