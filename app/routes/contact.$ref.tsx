// /contact/{id} is the same public card page as /card/{id} (spec §2).
export { action, default, loader, meta } from './card.$ref'
