// Reads a plain SQL dump (pg_dump's text format) statement by statement, the way psql does:
// a semicolon ends a statement only outside string literals, quoted identifiers, dollar-quoted
// bodies and comments. A line that starts with a backslash between statements is a psql
// meta-command (pg_dump writes `\restrict KEY` and `\unrestrict KEY` around a dump since
// 15.14, 16.10 and 17.6); it is handed back as such, never sent to the server.
// Restore runs statements rather than one big string so it can leave out the meta-commands
// without touching data (a text value may hold a line that starts with a backslash), skip a
// setting the server does not know, name the line that failed, and stream a large dump (ADR 018).

export type DumpPiece = {
  kind: 'statement' | 'meta'
  /** The statement, without comments outside it, ending with its semicolon; or the meta-command line. */
  text: string
  /** The 1-based line the statement or meta-command starts on. */
  line: number
}

export class DumpFormatError extends Error {
  override name = 'DumpFormatError'
}

type State =
  | { in: 'code' }
  | { in: 'string'; backslashEscapes: boolean }
  | { in: 'identifier' }
  | { in: 'dollar'; tag: string }
  | { in: 'comment'; depth: number }

const DOLLAR_TAG = /^\$(?:[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/
const IDENTIFIER_CHAR = /[\w$\u0080-\uffff]/

export class DumpStatementSplitter {
  #pending = ''
  #lineNumber = 0
  #statement = ''
  /** The line the current statement's first token is on; 0 while it has none yet. */
  #statementLine = 0
  #state: State = { in: 'code' }

  /** Feeds the next chunk of the dump; returns the pieces it completed. */
  push(chunk: string): DumpPiece[] {
    const pieces: DumpPiece[] = []
    this.#pending += chunk
    let start = 0
    for (
      let end = this.#pending.indexOf('\n');
      end !== -1;
      end = this.#pending.indexOf('\n', start)
    ) {
      this.#readLine(this.#pending.slice(start, end), pieces)
      start = end + 1
    }
    this.#pending = this.#pending.slice(start)
    return pieces
  }

  /** Ends the dump: returns the last pieces, or throws when it stops inside a statement. */
  end(): DumpPiece[] {
    const pieces: DumpPiece[] = []
    if (this.#pending) this.#readLine(this.#pending, pieces)
    this.#pending = ''
    if (this.#statementLine > 0 || this.#state.in !== 'code') {
      const where = this.#statementLine > 0 ? ` (the statement on line ${this.#statementLine})` : ''
      throw new DumpFormatError(`the dump ends inside a statement${where}`)
    }
    return pieces
  }

  // A carriage return stays where it is: inside a string literal it is data.
  #readLine(line: string, pieces: DumpPiece[]) {
    this.#lineNumber++
    if (
      this.#state.in === 'code' &&
      this.#statementLine === 0 &&
      line.trimStart().startsWith('\\')
    ) {
      pieces.push({ kind: 'meta', text: line.trim(), line: this.#lineNumber })
      this.#statement = ''
      return
    }
    let kept = 0
    for (let i = 0; i < line.length; i++) {
      const char = line[i]
      const next = line[i + 1]
      const state = this.#state
      switch (state.in) {
        case 'code':
          if (char === '-' && next === '-') {
            // A comment to the end of the line: left out of the statement.
            this.#statement += line.slice(kept, i)
            kept = line.length
            i = line.length
          } else if (char === '/' && next === '*') {
            this.#state = { in: 'comment', depth: 1 }
            i++
          } else if (char === "'") {
            const before = line[i - 1]
            const escapeString =
              (before === 'E' || before === 'e') && !IDENTIFIER_CHAR.test(line[i - 2] ?? ' ')
            this.#state = { in: 'string', backslashEscapes: escapeString }
            this.#startsStatement()
          } else if (char === '"') {
            this.#state = { in: 'identifier' }
            this.#startsStatement()
          } else if (char === '$' && !IDENTIFIER_CHAR.test(line[i - 1] ?? ' ')) {
            const tag = DOLLAR_TAG.exec(line.slice(i))?.[0]
            if (tag) {
              this.#state = { in: 'dollar', tag }
              i += tag.length - 1
            }
            this.#startsStatement()
          } else if (char === ';') {
            this.#statement += line.slice(kept, i + 1)
            kept = i + 1
            this.#finishStatement(pieces)
          } else if (char !== undefined && char.trim() !== '') {
            this.#startsStatement()
          }
          break
        case 'string':
          if (state.backslashEscapes && char === '\\') i++
          else if (char === "'") {
            if (next === "'") i++
            else this.#state = { in: 'code' }
          }
          break
        case 'identifier':
          if (char === '"') {
            if (next === '"') i++
            else this.#state = { in: 'code' }
          }
          break
        case 'dollar':
          if (char === '$' && line.startsWith(state.tag, i)) {
            this.#state = { in: 'code' }
            i += state.tag.length - 1
          }
          break
        case 'comment':
          if (char === '/' && next === '*') {
            state.depth++
            i++
          } else if (char === '*' && next === '/') {
            state.depth--
            i++
            if (state.depth === 0) this.#state = { in: 'code' }
          }
          break
      }
    }
    this.#statement += `${line.slice(kept)}\n`
  }

  #startsStatement() {
    if (this.#statementLine === 0) this.#statementLine = this.#lineNumber
  }

  #finishStatement(pieces: DumpPiece[]) {
    const text = this.#statement.trim()
    // A lone semicolon (or one after comments only) is an empty statement: nothing to run.
    if (this.#statementLine > 0) pieces.push({ kind: 'statement', text, line: this.#statementLine })
    this.#statement = ''
    this.#statementLine = 0
  }
}

/** Every piece of a whole dump held in memory (tests, small dumps). */
export function splitDump(text: string): DumpPiece[] {
  const splitter = new DumpStatementSplitter()
  return [...splitter.push(text), ...splitter.end()]
}
