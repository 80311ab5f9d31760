import { createContext, useContext } from 'react'

// The per-response CSP nonce, set by the server and read by <Scripts> and inline styles.
const NonceContext = createContext('')
export const NonceProvider = NonceContext.Provider
export const useNonce = () => useContext(NonceContext)
