// The plain-text signature: the HTML one's module, which reads the extension.
export { loader } from './card_.$ref.signature[.]html'
