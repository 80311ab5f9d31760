import { isbot } from 'isbot'
import { describe, expect, it } from 'vitest'
import { isBotUserAgent } from '#app/utils/bot'

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

describe('isBotUserAgent', () => {
  it('answers as isbot, the first time and from its memory', () => {
    for (const agent of [PHONE, CRAWLER, '', 'curl/8.5.0', 'Slackbot-LinkExpanding 1.0']) {
      expect(isBotUserAgent(agent), agent).toBe(isbot(agent))
      expect(isBotUserAgent(agent), agent).toBe(isbot(agent))
    }
    expect(isBotUserAgent(PHONE)).toBe(false)
    expect(isBotUserAgent(CRAWLER)).toBe(true)
  })

  it('stays right past its cap of remembered user agents', () => {
    for (let i = 0; i < 3_000; i++) isBotUserAgent(`agent-${i}/1.0 (bot)`)
    expect(isBotUserAgent(PHONE)).toBe(false)
    expect(isBotUserAgent(CRAWLER)).toBe(true)
  })
})
