// /contact/ without an id goes home, as /card/ does (spec §2).
export { loader } from './card._index'
