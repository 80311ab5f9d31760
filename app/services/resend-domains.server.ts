// Resend's domains API (https://resend.com/docs/api-reference/domains), through its SDK: the
// agencies' sending domains are registered in the platform's Resend account (RESEND_API_KEY;
// RESEND_BASE_URL points the SDK at a local fake in tests). Answers are reduced to what the
// Branding screen shows and the sender needs: status and the DNS records to publish.
import { Resend } from 'resend'
import { getEnv } from '#app/env.server'
import { callOutside } from '#app/utils/outside-call.server'
import type { SendingDomainRecord } from '#drizzle/schema'

/** The provider refused, failed or could not be reached; `message` is safe to show. */
export class EmailProviderError extends Error {
  constructor(
    message: string,
    /** The provider no longer knows the domain (removed in its dashboard, say). */
    readonly notFound = false,
    /** Down, failing or out of reach (not a refusal of this request): worth trying later. */
    readonly unavailable = false,
  ) {
    super(message)
  }
}

export type ProviderDomain = { id: string; status: string; records: SendingDomainRecord[] }

export function emailProviderConfigured(): boolean {
  return Boolean(getEnv().RESEND_API_KEY)
}

function client(): Resend {
  const apiKey = getEnv().RESEND_API_KEY
  if (!apiKey) throw new EmailProviderError('No email provider is configured')
  return new Resend(apiKey)
}

type SdkAnswer<T> = {
  data: T | null
  error: { message: string; name?: string; statusCode?: number | null } | null
}

async function call<T>(work: Promise<SdkAnswer<T>>): Promise<T> {
  let answer: SdkAnswer<T>
  try {
    // The Branding screen waits on these: a slow provider gets a clear message at the
    // outside-call deadline, not a hung page.
    answer = await callOutside('The email provider', () => work)
  } catch (error) {
    throw new EmailProviderError(
      error instanceof Error ? error.message : String(error),
      false,
      true,
    )
  }
  if (answer.error || !answer.data) {
    const message = answer.error?.message ?? 'The email provider answered nothing'
    const status = answer.error?.statusCode ?? null
    throw new EmailProviderError(
      message,
      status === 404 || answer.error?.name === 'not_found',
      status === null || status >= 500 || status === 429,
    )
  }
  return answer.data
}

function toRecords(records: readonly Record<string, unknown>[] | undefined): SendingDomainRecord[] {
  return (records ?? []).map((record) => ({
    record: String(record.record ?? ''),
    type: String(record.type ?? ''),
    name: String(record.name ?? ''),
    value: String(record.value ?? ''),
    ttl: String(record.ttl ?? 'Auto'),
    ...(typeof record.priority === 'number' ? { priority: record.priority } : {}),
    status: String(record.status ?? 'not_started'),
  }))
}

/** Registers the domain for sending only (no receiving, no tracking). */
export async function createProviderDomain(name: string): Promise<ProviderDomain> {
  const data = await call(client().domains.create({ name }))
  return {
    id: data.id,
    status: data.status,
    records: toRecords(data.records as unknown as Record<string, unknown>[]),
  }
}

export async function getProviderDomain(id: string): Promise<ProviderDomain> {
  const data = await call(client().domains.get(id))
  return {
    id: data.id,
    status: data.status,
    records: toRecords(data.records as unknown as Record<string, unknown>[]),
  }
}

/** Asks the provider to look the records up again; the result shows in later reads. */
export async function verifyProviderDomain(id: string): Promise<void> {
  await call(client().domains.verify(id))
}

/** Removes the domain at the provider; one it no longer knows counts as removed. */
export async function removeProviderDomain(id: string): Promise<void> {
  try {
    await call(client().domains.remove(id))
  } catch (error) {
    if (error instanceof EmailProviderError && error.notFound) return
    throw error
  }
}
