// Whether this browser can write a card to an NFC tag (spec §5): it needs Web NFC (NDEFReader),
// and iOS is treated as unsupported even where a browser there exposes it. The QR screen's NFC
// button and the home's NFC Sharing tile both ask here, so they never disagree.

const IOS = /iPhone|iPad|iPod/i

export function canWriteNfc(userAgent: string, hasNdefReader: boolean) {
  return hasNdefReader && !IOS.test(userAgent)
}

/** The browser's answer; call only in the browser (an effect), the server has no device. */
export function browserCanWriteNfc() {
  return canWriteNfc(navigator.userAgent, 'NDEFReader' in window)
}
