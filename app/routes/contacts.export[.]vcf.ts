// The same loader as export.csv's; it reads the format from the extension.
export { loader } from './contacts.export[.]csv'
