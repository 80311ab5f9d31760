import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  DumpFormatError,
  DumpStatementSplitter,
  splitDump,
} from '#app/backups/dump-statements.server'

const statements = (text: string) =>
  splitDump(text).map((p) => (p.kind === 'meta' ? `META ${p.text}` : p.text))

describe('reading a SQL dump statement by statement', () => {
  test("splits at semicolons, leaves comments out and keeps each statement's first line", () => {
    const pieces = splitDump(
      '--\n-- PostgreSQL database dump\n--\n\nSET a = 1;\nSET b = 2; SET c = 3;\n\n-- Name: t\nCREATE TABLE t (\n  x int -- the x\n);\n',
    )
    expect(pieces).toEqual([
      { kind: 'statement', text: 'SET a = 1;', line: 5 },
      { kind: 'statement', text: 'SET b = 2;', line: 6 },
      { kind: 'statement', text: 'SET c = 3;', line: 6 },
      { kind: 'statement', text: 'CREATE TABLE t (\n  x int \n);', line: 9 },
    ])
  })

  test('a semicolon, a comment marker or a backslash line inside quotes is data', () => {
    const insert =
      "INSERT INTO t VALUES\n\t('a;b -- c', 'it''s', E'\\';x', \"we;ird\"\"q\"),\n\t('\n\\restrict k\nALTER TABLE ONLY public.t FORCE ROW LEVEL SECURITY;\n');"
    expect(statements(`${insert}\nSELECT 1;`)).toEqual([insert, 'SELECT 1;'])
  })

  test('dollar-quoted bodies end only at their own tag', () => {
    const fn =
      "CREATE FUNCTION f() RETURNS text AS $_$\nbegin\n  return $$;$$ || 'x;';\nend;\n$_$ LANGUAGE plpgsql;"
    const block = 'DO $$\nBEGIN\n  PERFORM 1; -- ;\nEND\n$$;'
    expect(statements(`${fn}\n${block}\nSELECT a$b FROM t;`)).toEqual([
      fn,
      block,
      'SELECT a$b FROM t;',
    ])
  })

  test('block comments nest; an empty statement is skipped', () => {
    expect(statements('/* a /* b; */ c; */ SELECT 1;\n;\n  ;\nSELECT 2;')).toEqual([
      '/* a /* b; */ c; */ SELECT 1;',
      'SELECT 2;',
    ])
  })

  test('psql meta-commands between statements come back as such', () => {
    expect(statements('--\n\\restrict abc\n\nSET a = 1;\n\n\\unrestrict abc\n')).toEqual([
      'META \\restrict abc',
      'SET a = 1;',
      'META \\unrestrict abc',
    ])
  })

  test('a carriage return inside a string is kept', () => {
    expect(statements("INSERT INTO t VALUES ('a\r\nb');\r\n")).toEqual([
      "INSERT INTO t VALUES ('a\r\nb');",
    ])
  })

  test('a dump that ends inside a statement or a string is refused', () => {
    expect(() => splitDump('SET a = 1;\nINSERT INTO t VALUES (1')).toThrow(
      new DumpFormatError('the dump ends inside a statement (the statement on line 2)'),
    )
    expect(() => splitDump("INSERT INTO t VALUES ('abc);\n")).toThrow(DumpFormatError)
  })

  test('chunks split anywhere give the same statements as the whole text', () => {
    const text = SAMPLE
    const whole = splitDump(text)
    fc.assert(
      fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 12 }), (cuts) => {
        const bounds = [0, ...cuts.sort((a, b) => a - b), text.length]
        const splitter = new DumpStatementSplitter()
        const pieces = bounds
          .slice(1)
          .flatMap((end, i) => splitter.push(text.slice(bounds[i], end)))
        expect([...pieces, ...splitter.end()]).toEqual(whole)
      }),
    )
  })
})

const SAMPLE = `--
-- PostgreSQL database dump
--

\\restrict k1

SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
CREATE FUNCTION public.f() RETURNS trigger AS $$
begin return new; end;
$$ LANGUAGE plpgsql;
INSERT INTO public.t VALUES
\t(1, 'semi;colon', '{"a": "b;c"}'),
\t(2, 'multi
line -- not a comment', NULL);
ALTER TABLE ONLY public.t FORCE ROW LEVEL SECURITY;

--
-- PostgreSQL database dump complete
--

\\unrestrict k1
`
